"""A Game of Thrones (1st ed.) on random games: corrections the table might type along the way,
Prized cards that bring several players to 15 at once, and the end at 15 power."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine.driver import Driver
from referee.errors import InvalidAdjustment
from referee.games.got.game import GAME
from referee.games.got.scoring import POWER_TO_WIN
from referee.games.got.state import Table
from simulation_checks import SimulationChecks

CORRECTION_RATE = 0.03
CORRECTIONS = (
    "house +2", "house -1", "cards +3", "gold +1", "hand -2", "income +1", "initiative +1", "claim =2",
    "infamy 1", "shadows +1",
)


def random_correction(players: list[str], rng: random.Random) -> str:
    """A correction the table might enter: most fit, some are refused (too few tokens, no plot yet)."""
    if rng.random() < 0.15:
        return f"prized {rng.choice(players)} {rng.randint(1, 4)}"
    return f"{rng.choice(players)} {rng.choice(CORRECTIONS)}"


class GotChecks(SimulationChecks):
    def __init__(self) -> None:
        self.shared = 0

    def begin(self, players: list[str], options: Mapping[str, Any], rng: random.Random) -> None:
        self.rng = rng

    def after_step(self, driver: Driver) -> None:
        """Now and then the table types a correction; a refused one leaves the state as it was."""
        if driver.pending is not None and self.rng.random() < CORRECTION_RATE:
            try:
                driver.adjust(random_correction(driver.players, self.rng), "card text")
            except InvalidAdjustment:
                pass
        assert GAME.invariant_errors(driver.state) == []

    def at_end(self, driver: Driver) -> None:
        report = driver.report
        assert report is not None and report.ended
        assert report.termination is not None and report.termination.code == "power-reached"
        table: Table = driver.state
        assert table.finished and table.won
        at_fifteen = [player.name for player in table.players if player.power >= POWER_TO_WIN]
        assert report.winners and set(report.winners) <= set(at_fifteen)
        if table.first_to_fifteen is not None:
            assert report.winners == [table.first_to_fifteen]
        self.shared += len(report.winners) > 1
        for player in table.players:
            assert report.player(player.name).total == player.power
        for score in report.players:
            assert (score.rank == 1) == (score.name in report.winners)

    def after_all(self) -> None:
        assert self.shared > 0  # Prized corrections brought several players to 15 at once in some games


CHECKS = GotChecks
