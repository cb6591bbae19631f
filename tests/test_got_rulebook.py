"""The got-lcg-1e rulebook files: format, coverage of the source, and agreement with the scoring code."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from referee.asks import Ask
from referee.engine.facts import ruling_choices
from referee.games.got import rulings, scoring
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
    for name, entry in NUMBERS["rulings"].items():
        assert entry["summary"], name
        if isinstance(entry["choices"], list):  # overridable: the default is one of the choices
            assert entry["default"] in entry["choices"], name
        else:  # one reading only: the text says so
            assert entry["choices"].startswith(f"{entry['default']} only"), name


def test_every_ruling_the_code_reads_is_an_overridable_ruling_of_the_toml() -> None:
    overridable = ruling_choices("got-lcg-1e")
    code = "\n".join(path.read_text() for path in (ROOT / "referee" / "games" / "got").rglob("*.py"))
    read = {getattr(rulings, name).name for name in re.findall(r"\b([A-Z_]+)\.of\(", code)}
    read |= {rulings.SIMULTANEOUS_FIFTEEN.name, rulings.RANKS_BELOW_WINNER.name}
    assert read <= set(overridable)
    assert {"opposition-side", "crown-regent-offer", "undefended-order"} <= read
    assert set(scoring.RULING_CHOICES) == {rulings.SIMULTANEOUS_FIFTEEN.name, rulings.RANKS_BELOW_WINNER.name}
    for ruling, choices in scoring.RULING_CHOICES.items():
        assert choices == overridable[ruling]
        assert choices[0] == NUMBERS["rulings"][ruling]["default"]


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


def test_sections_say_what_the_referee_does_today() -> None:
    """The title powers, Limited, shadows and the card icons are the referee's work now, not the table's."""
    tags = {section_id: section.referee for section_id, section in SECTIONS.items()}
    assert tags["title-powers"] == "automates"
    assert tags["keyword-limited"] == "automates"
    assert tags["shadows"] == "asks"
    assert tags["text-box-icons"] == "asks"
    assert tags["deck-building"] == "asks"
    melee_setup = " ".join(SECTIONS["melee-setup"].text.split())
    assert "tells the table these three steps at the start of a melee's setup" in melee_setup
    opposition = " ".join(SECTIONS["title-opposition"].text.split())
    assert "Only the winning attacker earns it" in opposition and "#ruling-opposition-side" in opposition
