"""rulebooks/cutthroat-kingdoms.md and .toml agree with the source, each other and the scoring code."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from referee.games.cutthroat import gems, scoring
from referee.games.cutthroat.game import RULING_CHOICES
from referee.games.registry import find_game
from referee.rules.parse import parse_rulebook

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN = (ROOT / "rulebooks" / "cutthroat-kingdoms.md").read_text()
with (ROOT / "rulebooks" / "cutthroat-kingdoms.toml").open("rb") as handle:
    TOML: dict[str, Any] = tomllib.load(handle)
SOURCE = ROOT.parent / "shared" / "seeds" / TOML["source"]["file"]
RULEBOOK = parse_rulebook(MARKDOWN, "cutthroat-kingdoms", "cutthroat-kingdoms.md")
SECTION_IDS = [section.id for section in RULEBOOK.sections]


def test_the_referee_handles_the_score_the_rounds_and_every_ruling() -> None:
    handled = {section.id for section in RULEBOOK.sections if section.referee != "table"}
    assert {"game-end", "score-coins", "score-cards", "score-gems", "score-marriage", "setup-houses",
            "resource-phase", "action-phase", "event-phase", "attack-and-defend", "royal-feast"} <= handled
    assert {section for section in SECTION_IDS if section.startswith("ruling-")} <= handled


def test_every_source_heading_is_listed_and_covered() -> None:
    headings = TOML["source"]["headings"]
    assert len(headings) == len(set(headings)) == 68
    covered = {heading for section in RULEBOOK.sections for heading in section.covers}
    assert covered == set(headings)


def test_glossary_has_the_game_terms() -> None:
    terms = {entry.term for entry in RULEBOOK.glossary}
    assert {"Accessible", "Bastard", "Full set", "Marriage", "Mercenary", "Unmarried", "VP"} <= terms


def test_rulings_match_the_code() -> None:
    ruling_ids = {section.removeprefix("ruling-") for section in SECTION_IDS if section.startswith("ruling-")}
    assert ruling_ids == set(TOML["rulings"]) == set(RULING_CHOICES)
    assert set(scoring.RULING_CHOICES) <= set(RULING_CHOICES)
    for ruling, choices in RULING_CHOICES.items():
        assert TOML["rulings"][ruling]["default"] == choices[0]
        for choice in choices:
            assert choice in TOML["rulings"][ruling]["choices"]
            assert f"`{choice}`" in RULEBOOK.section(f"ruling-{ruling}").text or choice == choices[0]


def test_numbers_match_the_code_and_the_registry() -> None:
    game = find_game("ck")
    assert TOML["game"]["id"] == game.id == scoring.GAME_ID
    assert TOML["game"]["players"] == [game.min_players, game.max_players] == [
        scoring.MIN_PLAYERS, scoring.MAX_PLAYERS]
    assert TOML["game"]["aliases"] == list(game.aliases)
    numbers = TOML["scoring"]
    assert numbers["copper_vp"] == scoring.COPPER_POINTS
    assert numbers["silver_vp"] == scoring.SILVER_POINTS
    assert numbers["full_set_vp"] == gems.FULL_SET_POINTS
    assert numbers["full_set_size"] == len(gems.GEM_COLOURS)
    assert numbers["same_colour_vp"] == [gems.same_colour_points(count) for count in range(1, 7)]
    assert TOML["components"]["gems"]["colours"] == list(gems.GEM_COLOURS)
    assert TOML["components"]["gems"]["per_colour"] == gems.GEMS_PER_COLOUR
    assert TOML["components"]["gems"]["total"] == gems.GEMS_PER_COLOUR * len(gems.GEM_COLOURS)


def test_component_counts_add_up() -> None:
    cards = dict(TOML["components"]["cards"])
    assert cards.pop("total") == sum(cards.values()) == 205
    coins = TOML["components"]["coins"]
    assert coins["copper"] + coins["silver"] == 96
    tokens = dict(TOML["components"]["house_tokens"])
    assert tokens.pop("total") == sum(tokens.values()) == 50


def test_the_gem_examples_in_the_rulebook_match_the_code() -> None:
    text = RULEBOOK.section("score-gems").text
    assert "is 29 VP" in text and "scores 76" in text
    assert gems.best_split((1, 1, 3, 1, 1, 1)).total == 29
    assert gems.best_split((6, 6, 1, 1, 1, 1)).total == 76


def test_the_supply_of_gems_and_coins_is_a_ruling_and_tyber_says_what_is_automated() -> None:
    assert "publisher" not in MARKDOWN.lower()
    assert {"gem-supply", "coin-supply"} <= set(TOML["rulings"])
    components = RULEBOOK.section("components").text
    assert "#ruling-gem-supply" in components and "#ruling-coin-supply" in components
    tyber = RULEBOOK.section("lady-tyber")
    assert tyber.referee == "asks"
    assert "applies Pillage" in tyber.text and "#ruling-bedlam-own-land" in tyber.text
