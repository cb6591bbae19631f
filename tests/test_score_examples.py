"""Every example input under scenarios/score/ scores without error through its game's scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games.registry import GAMES, find_game

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "scenarios" / "score").glob("*.json"))


def game_of(path: Path) -> str:
    return next(game.id for game in GAMES if path.stem == game.id or path.stem.startswith(game.id + "-"))


def test_every_game_has_an_example() -> None:
    assert {game_of(path) for path in EXAMPLES} == {game.id for game in GAMES}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_example_scores(path: Path) -> None:
    report = find_game(game_of(path)).scoring().score_input(json.loads(path.read_text()))
    assert report.game == game_of(path)
    assert all(player.total is None or isinstance(player.total, int) for player in report.players)


def test_blackthorn_example_by_hand() -> None:
    data = json.loads((EXAMPLES[0].parent / "council-of-blackthorn.json").read_text())
    report = find_game("blackthorn").scoring().score_input(data)
    # Ann 23 + 38 + 2; Bo 21 + 41 + 10 with 1 + 2 + 6 = 9 treason (most: beheaded); Cy 26 + 27 + 3 + 4
    assert [player.total for player in report.players] == [63, 72, 60]
    assert report.player("Bo").eliminated
    assert report.winners == ["Ann"]
