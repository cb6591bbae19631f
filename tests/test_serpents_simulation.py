"""Random-answer simulation: whole Council of Serpents games through the real driver.

After every answer the table must be sound (every Influence card accounted for, markers on the
track, a Time track to resolve); every game must end, by a House's Triumph or Collapse or by the
Keeper of Balance on an empty deck, with winners that follow from the Ambitions; and the log of
each game must replay to the identical state.
"""

from __future__ import annotations

import random
from collections import Counter

from referee.engine.driver import Driver, replay
from referee.engine.simulate import play_random_game
from referee.games.serpents.game import GAME
from referee.games.serpents.state import COURT_SPACES

GAMES = 1000


class Watcher:
    """Checks the invariants after every step of one game."""

    def __init__(self) -> None:
        self.turn = 0

    def __call__(self, driver: Driver) -> None:
        table = driver.state
        assert GAME.invariant_errors(table) == []
        assert table.turn >= self.turn
        assert 0 <= table.court <= COURT_SPACES
        if not table.finished:
            # the game stops the moment a marker reaches a symbol
            assert table.ended_houses() == [] or table.phase == "final"
        self.turn = table.turn


def test_random_games_keep_every_invariant_and_end_correctly() -> None:
    rng = random.Random(20261201)
    ends: Counter[tuple[int, str | None]] = Counter()
    for number in range(GAMES):
        players = [f"P{index}" for index in range(1 + number % 4)]
        driver = play_random_game(GAME, players, rng, after_each=Watcher(), max_answers=3000)
        table, report = driver.state, driver.report
        assert report is not None and report.ended and table.finished
        ends[(len(players), table.ended_by)] += 1
        if table.ended_by == "house":
            assert table.ended_houses()
        else:
            assert table.ended_by == "deck" and table.keeper is not None and table.deck == 0
            assert report.winners == [table.keeper]
        if len(players) == 1 and table.ended_by == "house":
            assert report.winners == []
        for player in report.players:
            assert player.total == sum(player.breakdown.values())
            assert (player.rank == 1) == (player.name in report.winners or not report.winners)
        if number % 10 == 0:  # replaying the log rebuilds the identical table and report
            again = replay(GAME, players, {}, driver.entries)
            assert again.applied == len(driver.entries)
            assert GAME.to_json(again.driver.state) == GAME.to_json(table)
            assert again.driver.report is not None and again.driver.report.to_json() == report.to_json()
    assert sum(ends.values()) == GAMES
    assert {count for count, _ in ends} == {1, 2, 3, 4}
    assert ends[(1, "deck")] > 0 and ends[(1, "house")] > 0


def test_random_games_with_every_ruling_overridden_end_and_replay() -> None:
    rng = random.Random(11)
    options = {
        "rulings": {
            "time-track-order": "first-placed-first",
            "starting-cards": "discard-pile",
            "peace-choice": "always-ask",
            "intrigue-effects": "before-losses",
            "struggle-attribute": "wealth",
            "triumph-and-collapse": "collapse",
        }
    }
    for number in range(100):
        players = [f"P{index}" for index in range(1 + number % 4)]
        driver = play_random_game(GAME, players, rng, options, after_each=Watcher(), max_answers=3000)
        assert driver.report is not None and driver.state.finished
        again = replay(GAME, players, options, driver.entries)
        assert GAME.to_json(again.driver.state) == GAME.to_json(driver.state)


def test_undo_then_the_same_answer_gives_the_same_table() -> None:
    rng = random.Random(5)
    players = ["Ann", "Bo", "Cy"]
    driver = play_random_game(GAME, players, rng)
    entries = driver.entries
    for cut in rng.sample(range(1, len(entries)), min(20, len(entries) - 1)):
        original = replay(GAME, players, {}, entries[:cut]).driver
        undone = replay(GAME, players, {}, entries[: cut - 1]).driver
        assert undone.pending is not None
        undone.answer(entries[cut - 1].answer or "")
        assert GAME.to_json(undone.state) == GAME.to_json(original.state)
        assert undone.pending == original.pending
