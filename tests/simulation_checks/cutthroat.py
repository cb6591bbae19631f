"""Cutthroat Kingdoms on random games: every game runs one turn per event card to the Royal Feast,
time only moves forward, each action is finished before another, and the winners are the best side
(a married couple counting as one)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine.driver import Driver
from referee.games.cutthroat.state import BLOCKS, FEAST, Kingdom
from simulation_checks import SimulationChecks


class CutthroatChecks(SimulationChecks):
    def begin(self, players: list[str], options: Mapping[str, Any], rng: random.Random) -> None:
        self.rulings: Mapping[str, str] = options.get("rulings", {})
        self.events = 0
        self.turn = 0

    def after_step(self, driver: Driver) -> None:
        """Time only moves forward, and no action is taken again once closed."""
        kingdom: Kingdom = driver.state
        assert kingdom.events_drawn >= self.events and kingdom.turn_number >= self.turn
        finished = kingdom.turn.finished_actions
        assert len(finished) == len(set(finished)) and set(finished) <= set(BLOCKS)
        assert kingdom.turn.action not in finished
        self.events, self.turn = kingdom.events_drawn, kingdom.turn_number

    def at_end(self, driver: Driver) -> None:
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
            assert self.rulings.get("tied-top") == "nobody"


CHECKS = CutthroatChecks
