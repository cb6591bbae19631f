"""Random-answer simulation of Council of Serpents: what the generic simulation (test_simulation.py)
does not check. Play stops the moment a marker reaches a symbol; every game ends by a House's
Triumph or Collapse or by the Keeper of Balance on an empty deck, with the termination and the
winners that follow from it."""

from __future__ import annotations

import random
from collections import Counter

from referee.engine.driver import Driver
from referee.engine.simulate import play_random_game
from referee.games.serpents.game import GAME

GAMES = 1000


def stops_at_once(driver: Driver) -> None:
    table = driver.state
    settling = driver.pending is not None and not driver.pending.end_check  # e.g. a War's later steps
    if not table.finished and table.phase != "final" and not settling:
        assert table.ended_houses() == [], f"play went on with {table.ended_houses()} on a symbol"


def test_random_games_stop_at_once_and_end_as_their_termination_says() -> None:
    rng = random.Random(20261201)
    ends: Counter[tuple[int, str]] = Counter()
    for number in range(GAMES):
        players = [f"P{index}" for index in range(1 + number % 4)]
        driver = play_random_game(GAME, players, rng, after_each=stops_at_once, max_answers=3000)
        table, report = driver.state, driver.report
        assert report is not None and report.ended and table.finished and report.termination is not None
        code = report.termination.code
        ends[(len(players), code)] += 1
        if code == "keeper-of-balance":
            assert table.ended_by == "deck" and table.keeper is not None and table.deck == 0
            assert report.winners == [table.keeper] and table.ended_houses() == []
        else:
            assert table.ended_by == "house" and table.ended_houses()
            assert code in ("house-triumphs", "house-collapses", "house-triumphs-and-collapses")
        if len(players) == 1 and code != "keeper-of-balance":
            assert report.winners == [] and report.players[0].rank == 2  # the Serpentess wins
    assert {count for count, _ in ends} == {1, 2, 3, 4}
    assert ends[(1, "keeper-of-balance")] > 0 and ends[(1, "house-collapses")] > 0
    assert sum(count for (_, code), count in ends.items() if code == "house-triumphs-and-collapses") > 0
