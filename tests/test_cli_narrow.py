"""One ordinary turn of every game at a 60-column terminal: the screen stays readable and no line is
cut inside a word.

The turn is typed in a real pseudo-terminal and the screen is drawn by a terminal emulator, so the
terminal's own wrapping counts too. A word cut in two leaves pieces that are not words: every word
on the narrow screen must be one the same turn prints on a wide screen (or a short column header).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from at_the_table import ONE_TURN, first_turn, play_lines
from e2e.terminal import Terminal, plain

from referee.games.registry import load_game

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX only)")

NARROW = 60
WORD = re.compile(r"[A-Za-z]+")


def words(text: str) -> set[str]:
    """The words of `text`; tokens with digits (ids, dice, values) are left out."""
    return {word for token in text.split() if not any(ch.isdigit() for ch in token) for word in WORD.findall(token)}


def wide_words(game: str, players: list[str], answers: list[str], home: Path) -> set[str]:
    """The words the same turn prints on a 200-column screen (from a file of answers)."""
    path = home.parent / f"{game}-wide.txt"
    path.write_text("\n".join([*answers, "quit"]) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "referee", "play", game, "--players", ",".join(players), "--answers", str(path)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "REFEREE_HOME": str(home), "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stderr
    return words(done.stdout)


@pytest.mark.parametrize("game", list(ONE_TURN))
def test_one_turn_at_60_columns_cuts_no_word(referee_home: Path, tmp_path: Path, game: str) -> None:
    scenario, count = first_turn(game)
    answers = scenario.answers[:count]
    allowed = wide_words(game, scenario.players, [text for _, text in answers], tmp_path / "wide-home")
    allowed |= {word for short in load_game(game).short_headers.values() for word in words(short)}
    allowed.add("Columns")  # the legend of the short headers, printed only where they are shown

    terminal = Terminal(["play", game, "--players", ",".join(scenario.players)], referee_home, columns=NARROW)
    try:
        play_lines(terminal, answers)
        terminal.type("quit")
        assert terminal.finish() == 0
        lines = terminal.lines()
    finally:
        terminal.close()

    screen = "\n".join(lines)
    assert "…" not in screen  # nothing shortened with an ellipsis
    assert "Traceback" not in plain(terminal.raw())
    cut = sorted(words(screen) - allowed)
    assert not cut, f"pieces of words on the {NARROW}-column screen: {cut}\n{screen}"
    assert len(lines) > 20 and all(len(line) <= NARROW for line in lines)
    if game != "blackwood":  # its first turn is one question long
        assert "Δ" in screen or "Table" in screen  # what changed was shown
