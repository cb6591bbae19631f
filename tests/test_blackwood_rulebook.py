"""rulebooks/blackwood.md and .toml agree with the source, with each other and with the scoring code."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from referee.engine.facts import ruling_choices
from referee.games.blackwood import rulings, scoring
from referee.games.registry import find_game

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = (ROOT / "rulebooks" / "blackwood.md").read_text()
with (ROOT / "rulebooks" / "blackwood.toml").open("rb") as handle:
    TOML: dict[str, Any] = tomllib.load(handle)
SOURCE = ROOT.parent / "shared" / "seeds" / TOML["source"]["file"]

HEADING = re.compile(r"^#{2,3} (.+) \{#([a-z0-9]+(?:-[a-z0-9]+)*)\}$", re.MULTILINE)
SECTION_IDS = [match.group(2) for match in HEADING.finditer(MARKDOWN)]
RULING_CHOICES = ruling_choices("blackwood")


def referee_line(section: str) -> str:
    """The 'Referee: ...' tag of a section."""
    match = re.search(rf"\{{#{section}\}}\n(Referee: [a-z]+)", MARKDOWN)
    assert match, section
    return match.group(1)


def covered_headings() -> set[str]:
    covered: set[str] = set()
    for line in MARKDOWN.splitlines():
        if line.startswith("Covers:"):
            covered.update(part.strip() for part in line.removeprefix("Covers:").split(";"))
    return covered


def test_the_referee_automates_the_score_and_every_ruling() -> None:
    automated = {match.group(2) for match in HEADING.finditer(MARKDOWN)
                 if MARKDOWN[match.end():].lstrip("\n").startswith("Referee: automates")}
    assert {"final-score", "tie-breaks", "end-of-game"} <= automated
    assert {section for section in SECTION_IDS if section.startswith("ruling-")} <= automated


def test_every_source_heading_is_listed_and_covered() -> None:
    headings = TOML["source"]["headings"]
    assert len(headings) == len(set(headings)) == 25
    assert covered_headings() == set(headings)


def test_glossary_and_rulings_sections_exist() -> None:
    assert "glossary" in SECTION_IDS and "rulings" in SECTION_IDS
    ruling_ids = {section.removeprefix("ruling-") for section in SECTION_IDS if section.startswith("ruling-")}
    assert ruling_ids == set(TOML["rulings"]) == set(RULING_CHOICES)
    assert set(scoring.RULING_CHOICES) <= set(RULING_CHOICES)


def test_every_ruling_the_code_reads_is_in_the_toml_with_the_choice_it_tests_for() -> None:
    read_by_the_code = {
        rulings.FINAL_TIE.name: "none",
        rulings.COIN_SUPPLY.name: "unlimited",
        rulings.FAGUS_TOKENS.name: "unlimited",
        rulings.CAULDRON_TIMING.name: "round-start",
        rulings.FOREST_DECK.name: "reshuffle",
        rulings.POTIONS_RUN_OUT.name: "sell-leftovers",
        rulings.RIVAL_SPOT.name: "extra",
        rulings.SECOND_PUPPET_TWICE.name: "once-a-turn",
    }
    assert set(read_by_the_code) == set(RULING_CHOICES)
    for ruling, choice in read_by_the_code.items():
        assert choice in RULING_CHOICES[ruling], ruling
        assert TOML["rulings"][ruling]["default"] == RULING_CHOICES[ruling][0]
    assert set(scoring.RULING_CHOICES) == {rulings.FINAL_TIE.name, rulings.COIN_SUPPLY.name, rulings.FAGUS_TOKENS.name}


def test_the_sections_left_to_the_table_are_those_the_referee_has_no_part_in() -> None:
    left = {section for section in SECTION_IDS if referee_line(section) == "Referee: table"}
    assert left == {"glossary"}


def test_numbers_match_the_code_and_the_registry() -> None:
    game = find_game("bw")
    assert TOML["game"]["id"] == game.id == scoring.GAME_ID
    assert TOML["game"]["players"] == [game.min_players, game.max_players]
    assert TOML["game"]["players"] == list(scoring.PLAYERS)
    components = TOML["components"]
    assert components["coins_worth_1"] + 5 * components["coins_worth_5"] == scoring.COIN_VALUE_IN_BOX == 130
    limits = TOML["limits"]
    assert components["fagus_beech_tokens"] == scoring.FAGUS_TOKENS_IN_BOX == limits["fagus_tokens_in_all"]
    assert components["potion_cards"] == scoring.POTION_CARDS_IN_BOX == limits["potion_cards_in_all"]
    assert TOML["scoring"]["coins_per_point"] == scoring.COINS_PER_POINT
    assert TOML["scoring"]["fagus_token_points"] == scoring.POINTS_PER_FAGUS_TOKEN
    assert limits["reputation_entry"] == [-scoring.REPUTATION_ENTRY_LIMIT, scoring.REPUTATION_ENTRY_LIMIT]
