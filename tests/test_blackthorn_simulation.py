"""Random-answer games of Council of Blackthorn: what only this game promises. (Invariants after
every step, replay, undo and the report adding up are checked for every game in test_simulation.py.)

Without corrections no token ever moves down and no influence is taken away; the game ends only
after a round in which a turn ended with at least 3 blocked factions, with every player having had
the same number of turns; the winner is the best survivor.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from referee.engine.driver import Driver, replay
from referee.engine.facts import ruling_choices
from referee.engine.simulate import play_random_game
from referee.games.blackthorn import rules
from referee.games.blackthorn.game import GAME
from referee.games.blackthorn.state import FACTIONS, HAND_SIZE

GAMES = 300


class Watcher:
    """Checks one game after every step and counts the turns each player takes."""

    def __init__(self) -> None:
        self.previous: list[tuple[Any, ...]] | None = None
        self.turns: Counter[str] = Counter()
        self.seen: set[tuple[int, str]] = set()

    def __call__(self, driver: Driver) -> None:
        table = driver.state
        now = [
            (tuple(player.levels[f] for f in FACTIONS), player.influence, player.hand)
            for player in table.competitors
        ]
        if self.previous is not None:
            for (levels_before, influence_before, _), (levels, influence, hand) in zip(self.previous, now, strict=True):
                assert all(after >= before for before, after in zip(levels_before, levels, strict=True))
                assert influence >= influence_before
                assert 0 <= hand <= HAND_SIZE
        self.previous = now
        if table.phase == "play" and table.active and (table.round, table.active) not in self.seen:
            self.seen.add((table.round, table.active))
            self.turns[table.active] += 1


def test_random_games_end_after_the_round_of_the_third_block() -> None:
    rng = random.Random(20261130)
    for number in range(GAMES):
        players = [f"P{index}" for index in range(2 + number % 5)]
        watcher = Watcher()
        driver = play_random_game(GAME, players, rng, after_each=watcher, max_answers=5000)
        table, report = driver.state, driver.report
        assert report is not None and table.finished
        assert len(rules.blocked_factions(table.competitors)) >= 3
        assert table.game_over_declared and table.game_over_turn is not None
        assert report.termination is not None and report.termination.code == "factions-blocked"
        assert set(watcher.turns.values()) == {table.round}, watcher.turns  # nobody had an extra turn
        survivors = [player for player in report.players if not player.eliminated]
        if survivors:
            assert len(report.winners) == 1
            winner = report.player(report.winners[0])
            assert not winner.eliminated and winner.rank == 1
            assert winner.total == max(player.total or 0 for player in survivors)
        else:
            assert report.winners == []


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
