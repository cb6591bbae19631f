"""The council-of-serpents rulebook files: format, coverage of the source, agreement with the code."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.engine.facts import ruling_choices
from referee.games.serpents.rulings import SCORE_RULINGS
from referee.rules import load_rulebook

RULING_CHOICES = ruling_choices("council-of-serpents")

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = (ROOT / "rulebooks" / "council-of-serpents.md").read_text()
NUMBERS: dict[str, Any] = tomllib.loads((ROOT / "rulebooks" / "council-of-serpents.toml").read_text())
SOURCE = ROOT.parent / "shared" / "seeds" / NUMBERS["source"]["file"]


RULEBOOK = load_rulebook("council-of-serpents")
SECTIONS = {section.id: section for section in RULEBOOK.sections}
COVERED = {heading for section in RULEBOOK.sections for heading in section.covers}


def test_every_source_heading_is_covered_and_every_cover_is_a_heading() -> None:
    headings = NUMBERS["source"]["headings"]
    assert len(headings) == len(set(headings)) == 26
    assert set(headings) == COVERED


def test_glossary_and_rulings_exist_and_every_ruling_has_a_toml_entry() -> None:
    assert "glossary" in SECTIONS and "rulings" in SECTIONS
    in_markdown = {section.removeprefix("ruling-") for section in SECTIONS if section.startswith("ruling-")}
    assert in_markdown == set(NUMBERS["rulings"]) == set(RULING_CHOICES)
    for ruling, entry in NUMBERS["rulings"].items():
        assert entry["summary"]
        assert entry["default"] == RULING_CHOICES[ruling][0] == entry["choices"][0]
        assert f"{{#ruling-{ruling}}}" in MARKDOWN
    assert set(SCORE_RULINGS) <= set(RULING_CHOICES)


def test_solo_difficulty_numbers_are_those_of_the_source() -> None:
    if not SOURCE.exists():
        pytest.skip("the rulebook sources are not beside this checkout")
    text = SOURCE.read_text()
    for level, numbers in NUMBERS["solo"]["difficulty"].items():
        row = f"{level}\t{numbers['removed']}\t{numbers['windfall']}\t{numbers['struggle']}"
        assert row in text, row
