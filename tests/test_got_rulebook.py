"""The got-lcg-1e rulebook files: format, coverage of the source, and agreement with the scoring code."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from referee.asks import Ask
from referee.games.got import scoring
from referee.games.registry import find_game
from referee.rules import load_rulebook

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = (ROOT / "rulebooks" / "got-lcg-1e.md").read_text()
NUMBERS: dict[str, Any] = tomllib.loads((ROOT / "rulebooks" / "got-lcg-1e.toml").read_text())


RULEBOOK = load_rulebook("got-lcg-1e")
SECTIONS = {section.id: section for section in RULEBOOK.sections}
COVERED = {heading for section in RULEBOOK.sections for heading in section.covers}


def test_no_line_starts_like_a_reference_heading() -> None:
    # a wrapped "#id" at the start of a line reads as a heading to some Markdown tools
    assert not [line for line in MARKDOWN.splitlines() if re.match(r"#[a-z]", line)]


def test_every_source_heading_is_covered_and_every_cover_is_a_heading() -> None:
    headings = NUMBERS["source"]["headings"]
    assert len(headings) == len(set(headings))
    assert set(headings) == COVERED


def test_each_ruling_has_a_toml_entry_and_back() -> None:
    in_markdown = {
        section_id.removeprefix("ruling-") for section_id in SECTIONS if section_id.startswith("ruling-")
    }
    assert in_markdown == set(NUMBERS["rulings"])
    for entry in NUMBERS["rulings"].values():
        assert entry["summary"] and entry["default"] in [
            choice.strip() for choice in entry["choices"].split(",")
        ]


def test_scoring_rulings_match_the_toml() -> None:
    for ruling, choices in scoring.RULING_CHOICES.items():
        entry = NUMBERS["rulings"][ruling]
        assert choices[0] == entry["default"]
        assert list(choices) == [choice.strip() for choice in entry["choices"].split(",")]


def test_scoring_numbers_match_the_toml() -> None:
    assert scoring.POWER_TO_WIN == NUMBERS["numbers"]["power_to_win"] == 15
    assert [scoring.MIN_PLAYERS, scoring.MAX_PLAYERS] == NUMBERS["game"]["players"]
    assert NUMBERS["score"]["house_power"] == [0, scoring.MAX_POWER_PER_FIELD]
    info = find_game("got")
    assert (info.id, info.min_players, info.max_players) == (NUMBERS["game"]["id"], 2, 4)


def test_asks_name_sections_of_the_rulebook() -> None:
    flow = scoring.ask_holdings(["Ann", "Bo"])
    ask: Ask = next(flow)
    answers = iter(["15", "0", "15", "0"])
    seen = [ask]
    try:
        while True:
            ask = flow.send(ask.parse(next(answers, "1")))
            seen.append(ask)
    except StopIteration:
        pass
    assert len(seen) == 5  # four power counts and the 'who got there first' choice
    for asked in seen:
        assert asked.section in SECTIONS
