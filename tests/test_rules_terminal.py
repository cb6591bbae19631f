"""The terminal renderer of rulebook Markdown: wrapped, styled, and nothing of the text lost."""

from __future__ import annotations

import re

from referee.games.registry import GAMES
from referee.rules import load_rulebook
from referee.rules.terminal import BOLD, RESET, render

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_headings_lists_and_emphasis() -> None:
    text = render("## Title {#an-id}\nReferee: asks\n\nSome **bold** and `code`.\n\n- one\n  more\n- two\n", 40)
    plain = ANSI.sub("", text)
    assert plain.splitlines() == ["Title #an-id", "Referee: asks", "", "Some bold and code.", "", "• one more", "• two"]
    assert f"{BOLD}bold{RESET}" in text


def test_emphasis_broken_across_lines_stays_styled() -> None:
    text = render("A line with **a long bold phrase that will wrap** at the end.", 30)
    lines = text.splitlines()
    assert all(line.count("\x1b[1m") == 1 for line in lines[:2])


def test_no_colour_and_width_kept() -> None:
    for game in GAMES:
        for section in load_rulebook(game.id).sections:
            text = render(section.markdown(), 60, color=False)
            assert "\x1b" not in text
            for line in text.splitlines()[1:]:  # the heading line is not wrapped
                if not line.startswith("|"):
                    assert len(line) <= 60 or " " not in line.strip(), line
            words = set(re.findall(r"[A-Za-z]{4,}", section.text))
            assert words <= set(re.findall(r"[A-Za-z]{4,}", text)), section.id
