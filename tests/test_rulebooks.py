"""Every game's rulebook (rulebooks/<game>.md and .toml) keeps the format the referee relies on.

Checked for all five games alike: stable kebab-case ids, each section saying what the referee
does, cross references that lead somewhere, a glossary and rulings, every ruling in both files,
the game entry agreeing with the registry, and every question a guided session asks naming a
section that exists (so '?' at any prompt finds its rule). Coverage of the source headings is in
test_rules_coverage.py; each game's own numbers are in test_<game>_rulebook.py.
"""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.engine.simulate import play_random_game
from referee.games.registry import GAMES, GameInfo
from referee.rules import load_rulebook

ROOT = Path(__file__).resolve().parent.parent / "rulebooks"
HEADING = re.compile(r"^(#{2,3}) (.+?) \{#([^}]*)\}\s*$")
KEBAB = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
REFEREE_LINES = ("Referee: automates", "Referee: asks", "Referee: table")
IDS = [game.id for game in GAMES]


def markdown(game: GameInfo) -> str:
    return (ROOT / f"{game.id}.md").read_text(encoding="utf-8")


def toml(game: GameInfo) -> dict[str, Any]:
    return tomllib.loads((ROOT / f"{game.id}.toml").read_text(encoding="utf-8"))


def headings(game: GameInfo) -> list[tuple[str, str]]:
    """(id, first line of the body) for every section heading."""
    lines = markdown(game).splitlines()
    found = []
    for number, line in enumerate(lines):
        match = HEADING.match(line)
        if match:
            body = next((later for later in lines[number + 1 :] if later.strip()), "")
            found.append((match[3], body.strip()))
    return found


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_ids_are_unique_kebab_case_and_say_what_the_referee_does(game: GameInfo) -> None:
    found = headings(game)
    ids = [section_id for section_id, _ in found]
    assert len(ids) == len(set(ids)), "duplicate section ids"
    assert all(KEBAB.match(section_id) for section_id in ids)
    for section_id, first_line in found:
        assert first_line in REFEREE_LINES, f"{section_id}: {first_line!r}"
    assert {"glossary", "rulings"} <= set(ids)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_cross_references_lead_to_sections(game: GameInfo) -> None:
    ids = {section_id for section_id, _ in headings(game)}
    text = HEADING.sub("", markdown(game))
    references = set(re.findall(r"(?<![\w&])#([a-z][a-z0-9]*(?:-[a-z0-9]+)*)", text))
    assert references - ids == set()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_ruling_is_in_both_files(game: GameInfo) -> None:
    ids = [section_id for section_id, _ in headings(game)]
    written = {section_id.removeprefix("ruling-") for section_id in ids if section_id.startswith("ruling-")}
    listed = toml(game).get("rulings", {})
    assert written == set(listed)
    for ruling, entry in listed.items():
        assert {"summary", "default", "choices"} <= set(entry), ruling


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_game_entry_agrees_with_the_registry(game: GameInfo) -> None:
    entry = toml(game)["game"]
    assert entry["id"] == game.id
    assert tuple(entry["aliases"]) == game.aliases
    assert entry["players"] == [game.min_players, game.max_players]


@pytest.mark.parametrize("game", [game for game in GAMES if game.guided], ids=lambda game: game.id)
def test_every_question_of_a_guided_session_names_a_section(game: GameInfo) -> None:
    assert game.guided is not None
    guided = game.guided()
    ids = {section.id for section in load_rulebook(game.id).sections}
    named: set[str] = set()
    rng = random.Random(3)

    def collect(driver: Any) -> None:
        if driver.pending is not None:
            named.add(driver.pending.section)

    for number in range(30):
        players = [f"P{seat}" for seat in range(game.min_players + number % (game.max_players - game.min_players + 1))]
        play_random_game(guided, players, rng, after_each=collect, max_answers=20_000)
    assert named - ids == set()
    assert len(named) >= 5
