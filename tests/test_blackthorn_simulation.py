"""Random-answer simulation: whole Council of Blackthorn games through the real driver.

After every answer the table must be sound; at the end the score must add up and the rules of the
ending must hold. The log of each game must replay to the identical state.
"""

from __future__ import annotations

import random
from typing import Any

from referee.engine.driver import Driver, replay
from referee.engine.simulate import play_random_game
from referee.games.blackthorn import rules
from referee.games.blackthorn.game import GAME
from referee.games.blackthorn.state import FACTIONS, HAND_SIZE

GAMES = 1000


class Watcher:
    """Checks the invariants after every step of one game."""

    def __init__(self) -> None:
        self.previous: list[tuple[Any, ...]] | None = None
        self.round = 0

    def __call__(self, driver: Driver) -> None:
        table = driver.state
        assert GAME.invariant_errors(table) == []
        now = [
            (tuple(player.levels[f] for f in FACTIONS), player.influence, player.hand)
            for player in table.competitors
        ]
        if self.previous is not None:
            for (levels_before, influence_before, _), (levels, influence, hand) in zip(self.previous, now, strict=True):
                # without corrections nothing ever moves a token down or takes influence away
                assert all(after >= before for before, after in zip(levels_before, levels, strict=True))
                assert influence >= influence_before
                assert 0 <= hand <= HAND_SIZE
        assert table.round >= self.round
        self.previous, self.round = now, table.round


def test_random_games_keep_every_invariant_and_end_correctly() -> None:
    rng = random.Random(20261130)
    counts = {players: 0 for players in range(2, 7)}
    for number in range(GAMES):
        players = [f"P{index}" for index in range(2 + number % 5)]
        watcher = Watcher()
        driver = play_random_game(GAME, players, rng, after_each=watcher, max_answers=5000)
        counts[len(players)] += 1
        table, report = driver.state, driver.report
        assert report is not None and table.finished
        assert len(rules.blocked_factions(table.competitors)) >= 3
        assert table.game_over_declared
        for player in report.players:
            assert player.total == sum(player.breakdown.values())
        survivors = [player for player in report.players if not player.eliminated]
        if survivors:
            assert len(report.winners) == 1
            winner = report.player(report.winners[0])
            assert not winner.eliminated and winner.rank == 1
            assert winner.total == max(player.total or 0 for player in survivors)
        else:
            assert report.winners == []
        if number % 50 == 0:  # replaying the log rebuilds the identical table
            again = replay(GAME, players, {}, driver.entries)
            assert again.applied == len(driver.entries)
            assert GAME.to_json(again.driver.state) == GAME.to_json(table)
            assert again.driver.report is not None and again.driver.report.to_json() == report.to_json()
    assert sum(counts.values()) == GAMES and min(counts.values()) > 0


def test_undo_then_the_same_answer_gives_the_same_table() -> None:
    rng = random.Random(7)
    driver = play_random_game(GAME, ["Ann", "Bo", "Cy", "Di"], rng)
    entries = driver.entries
    for cut in rng.sample(range(1, len(entries)), 25):
        original = replay(GAME, ["Ann", "Bo", "Cy", "Di"], {}, entries[:cut]).driver
        undone = replay(GAME, ["Ann", "Bo", "Cy", "Di"], {}, entries[: cut - 1]).driver
        assert undone.pending is not None
        undone.answer(entries[cut - 1].answer or "")
        assert GAME.to_json(undone.state) == GAME.to_json(original.state)
        assert undone.pending == original.pending
