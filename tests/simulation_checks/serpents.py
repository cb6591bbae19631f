"""Council of Serpents on random games: play stops the moment a marker reaches a symbol; every game
ends by a House's Triumph or Collapse or by the Keeper of Balance on an empty deck, with the
termination and the winners that follow from it; a run reaches each kind of ending."""

from __future__ import annotations

from collections import Counter

from referee.engine.driver import Driver
from simulation_checks import SimulationChecks


class SerpentsChecks(SimulationChecks):
    def __init__(self) -> None:
        self.ends: Counter[tuple[int, str]] = Counter()

    def after_step(self, driver: Driver) -> None:
        table = driver.state
        settling = driver.pending is not None and not driver.pending.end_check  # e.g. a War's later steps
        if not table.finished and table.phase != "final" and not settling:
            assert table.ended_houses() == [], f"play went on with {table.ended_houses()} on a symbol"

    def at_end(self, driver: Driver) -> None:
        table, report = driver.state, driver.report
        assert report is not None and report.ended and table.finished and report.termination is not None
        code = report.termination.code
        self.ends[(len(driver.players), code)] += 1
        if code == "keeper-of-balance":
            assert table.ended_by == "deck" and table.keeper is not None and table.deck == 0
            assert report.winners == [table.keeper] and table.ended_houses() == []
        else:
            assert table.ended_by == "house" and table.ended_houses()
            assert code in ("house-triumphs", "house-collapses", "house-triumphs-and-collapses")
        if len(driver.players) == 1 and code != "keeper-of-balance":
            assert report.winners == [] and report.players[0].rank == 2  # the Serpentess wins

    def after_all(self) -> None:
        ends = self.ends
        assert {count for count, _ in ends} == {1, 2, 3, 4}
        assert ends[(1, "keeper-of-balance")] > 0 and ends[(1, "house-collapses")] > 0
        assert sum(count for (_, code), count in ends.items() if code == "house-triumphs-and-collapses") > 0


CHECKS = SerpentsChecks
