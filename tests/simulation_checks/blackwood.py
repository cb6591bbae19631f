"""Blackwood on random games: each ends where the rulebook ends it, its score follows from the table
as it stands (reputation, 1 point per 3 coins, -5 per Fagus Beech token), and the random tables
really use what the session offers (spells, sales, Fagus Beech tokens, brewing)."""

from __future__ import annotations

from collections import Counter

from referee.engine.driver import Driver
from referee.games.blackwood import rules
from referee.games.blackwood.state import EXPEDITIONS, ROUNDS_PER_EXPEDITION, Table
from simulation_checks import SimulationChecks


class BlackwoodChecks(SimulationChecks):
    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def at_end(self, driver: Driver) -> None:
        table: Table = driver.state
        assert driver.report is not None and table.finished
        ending = rules.game_end(table)
        assert ending is not None and driver.report.termination == ending
        if ending.code == rules.EXPEDITIONS_OVER:
            assert (table.expedition, table.round) == (EXPEDITIONS, ROUNDS_PER_EXPEDITION)
        else:
            assert rules.potions_exhausted(table) or table.end_declared, ending
        for player in driver.report.players:
            witch = table.witch(player.name)
            assert player.total == witch.reputation + witch.coins // 3 - 5 * witch.fagus_tokens, player
        for witch in table.witches:
            self.seen["spells"] += len(witch.spells)
            self.seen["sold"] += witch.potions_sold
            self.seen["fagus"] += witch.fagus_tokens
            self.seen["brewed"] += witch.potions_brewed

    def after_all(self) -> None:
        assert all(self.seen[key] > 0 for key in ("spells", "sold", "fagus", "brewed")), self.seen


CHECKS = BlackwoodChecks
