"""Council of Blackthorn: each ruling's other reading combined with an undo. A session's undo replays
its log without the entries taken back, so whatever a reading does must live in the table the log
rebuilds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.engine.driver import Driver, replay
from referee.engine.facts import ruling_choices
from referee.engine.simulate import play_random_game
from referee.games.blackthorn.game import GAME


def play_recorded(players: list[str], rng: random.Random, options: dict[str, Any]) -> tuple[Driver, list[Any]]:
    """A random game and the table as it stood after each answer."""
    tables: list[Any] = []
    driver = play_random_game(GAME, players, rng, options, after_each=lambda played: tables.append(
        GAME.to_json(played.state)))
    return driver, tables


NON_DEFAULT = [
    (ruling, choice) for ruling, choices in ruling_choices(GAME.rulebook).items() for choice in choices[1:]
]


@pytest.mark.parametrize(("ruling", "choice"), NON_DEFAULT, ids=[f"{name}={value}" for name, value in NON_DEFAULT])
def test_undo_under_each_non_default_ruling_gives_back_the_table_as_it_was(ruling: str, choice: str) -> None:
    """Each ruling in its other reading, set alone, in random games (two players, with the ghost, and
    three): undoing back to any answer (the session replays the log without the entries taken back)
    gives the table exactly as it stood after that answer."""
    for players in (["Ann", "Bo"], ["Ann", "Bo", "Cy"]):
        rng = random.Random(f"{ruling}={choice}/{len(players)}")
        driver, tables = play_recorded(players, rng, {"rulings": {ruling: choice}})
        for kept in sorted({*rng.sample(range(1, len(driver.entries)), 8), len(driver.entries) - 1}):
            undone = replay(GAME, driver.players, driver.options, driver.entries[:kept])
            assert undone.applied == kept
            assert GAME.to_json(undone.driver.state) == tables[kept - 1], f"{players}: undo back to entry {kept}"
