"""Council of Blackthorn on random games: without corrections no token ever moves down and no
influence is taken away; the game ends only after a round in which a turn ended with at least 3
blocked factions, with every player having had the same number of turns; the winner is the best
survivor."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.engine.driver import Driver
from referee.games.blackthorn import rules
from referee.games.blackthorn.state import FACTIONS, HAND_SIZE
from simulation_checks import SimulationChecks


class BlackthornChecks(SimulationChecks):
    def begin(self, players: list[str], options: Mapping[str, Any], rng: random.Random) -> None:
        self.previous: list[tuple[Any, ...]] | None = None
        self.turns: Counter[str] = Counter()
        self.seen: set[tuple[int, str]] = set()

    def after_step(self, driver: Driver) -> None:
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

    def at_end(self, driver: Driver) -> None:
        table, report = driver.state, driver.report
        assert report is not None and table.finished
        assert len(rules.blocked_factions(table.competitors)) >= 3
        assert table.game_over_declared and table.game_over_turn is not None
        assert report.termination is not None and report.termination.code == "factions-blocked"
        assert set(self.turns.values()) == {table.round}, self.turns  # nobody had an extra turn
        survivors = [player for player in report.players if not player.eliminated]
        if survivors:
            assert len(report.winners) == 1
            winner = report.player(report.winners[0])
            assert not winner.eliminated and winner.rank == 1
            assert winner.total == max(player.total or 0 for player in survivors)
        else:
            assert report.winners == []


CHECKS = BlackthornChecks
