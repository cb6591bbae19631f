"""rulebooks/blackwood.md and .toml agree with the source, with each other and with the scoring code."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from referee.games.blackwood import scoring
from referee.games.blackwood.game import RULING_CHOICES
from referee.games.registry import find_game

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = (ROOT / "rulebooks" / "blackwood.md").read_text()
with (ROOT / "rulebooks" / "blackwood.toml").open("rb") as handle:
    TOML: dict[str, Any] = tomllib.load(handle)
SOURCE = ROOT.parent / "shared" / "seeds" / TOML["source"]["file"]

HEADING = re.compile(r"^#{2,3} (.+) \{#([a-z0-9]+(?:-[a-z0-9]+)*)\}$", re.MULTILINE)
SECTION_IDS = [match.group(2) for match in HEADING.finditer(MARKDOWN)]


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


def test_ruling_defaults_match_the_code() -> None:
    for ruling, choices in RULING_CHOICES.items():
        assert TOML["rulings"][ruling]["default"] == choices[0]
        for choice in choices:
            assert choice in TOML["rulings"][ruling]["choices"]


def test_numbers_match_the_code_and_the_registry() -> None:
    game = find_game("bw")
    assert TOML["game"]["id"] == game.id == scoring.GAME_ID
    assert TOML["game"]["players"] == [game.min_players, game.max_players]
    assert TOML["game"]["players"] == [scoring.MIN_PLAYERS, scoring.MAX_PLAYERS]
    components = TOML["components"]
    assert components["coins_worth_1"] + 5 * components["coins_worth_5"] == scoring.COIN_VALUE_IN_BOX == 130
    limits = TOML["limits"]
    assert components["fagus_beech_tokens"] == scoring.FAGUS_TOKENS_IN_BOX == limits["fagus_tokens_in_all"]
    assert components["potion_cards"] == scoring.POTION_CARDS_IN_BOX == limits["potion_cards_in_all"]
    assert TOML["scoring"]["coins_per_point"] == scoring.COINS_PER_POINT
    assert TOML["scoring"]["fagus_token_points"] == scoring.POINTS_PER_FAGUS_TOKEN
    assert limits["reputation_entry"] == [-scoring.REPUTATION_ENTRY_LIMIT, scoring.REPUTATION_ENTRY_LIMIT]
