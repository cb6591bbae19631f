"""Random-answer games of Cutthroat Kingdoms: what is specific to this game.

The generic simulation (tests/test_simulation.py) checks the invariants after every step, replay,
undo and that every report adds up. Here: every game runs one turn per event card to the Royal
Feast, time only moves forward, each action is finished before another, and the winners are the
best side (a married couple counting as one).
"""

from __future__ import annotations

import random

from referee.engine.driver import Driver
from referee.engine.simulate import play_random_game
from referee.games.cutthroat.game import GAME, RULING_CHOICES
from referee.games.cutthroat.state import BLOCKS, FEAST, Kingdom

GAMES = 300


class Watcher:
    """After every step: time only moves forward, and no action is taken again once closed."""

    def __init__(self) -> None:
        self.events = 0
        self.turn = 0

    def __call__(self, driver: Driver) -> None:
        kingdom: Kingdom = driver.state
        assert kingdom.events_drawn >= self.events and kingdom.turn_number >= self.turn
        finished = kingdom.turn.finished_actions
        assert len(finished) == len(set(finished)) and set(finished) <= set(BLOCKS)
        assert kingdom.turn.action not in finished
        self.events, self.turn = kingdom.events_drawn, kingdom.turn_number


def random_rulings(rng: random.Random) -> dict[str, str]:
    return {ruling: rng.choice(choices) for ruling, choices in RULING_CHOICES.items() if rng.random() < 0.3}


def test_random_games_run_one_turn_per_event_to_the_feast_and_the_best_side_wins() -> None:
    rng = random.Random(20261130)
    for number in range(GAMES):
        players = [f"P{index}" for index in range(3 + number % 4)]
        options = {"rulings": random_rulings(rng)}
        driver = play_random_game(GAME, players, rng, options, after_each=Watcher(), max_answers=5000)
        kingdom, report = driver.state, driver.report
        assert report is not None and kingdom.finished and kingdom.phase == "final"
        assert kingdom.events_drawn == kingdom.events_total and kingdom.last_event == FEAST
        assert kingdom.turn_number == kingdom.events_total  # one event at the end of every turn
        assert report.termination is not None and report.termination.code == "last-event-resolved"
        totals = {player.name: player.total or 0 for player in report.players}
        sides = {tuple(sorted((name, spouse))) if (spouse := kingdom.player(name).married_to) else (name,)
                 for name in totals}
        best = max(sum(totals[name] for name in side) for side in sides)
        if report.winners:
            assert all(sum(totals[name] for name in side) == best for side in sides if side[0] in report.winners)
        else:
            assert options["rulings"].get("tied-top") == "nobody"
