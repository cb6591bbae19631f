"""What each game promises beyond the checks tests/test_simulation.py makes of every game.

A game's own checks live in the module named after its package (`blackthorn.py` for
referee.games.blackthorn), as a subclass of SimulationChecks called CHECKS; a game without one gets
the generic checks only. They run on the generic simulation's games, so no game is played twice.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Mapping
from typing import Any

from referee.engine.driver import Driver
from referee.games.registry import GameInfo


class SimulationChecks:
    """A game's promises on random games. One instance watches a whole run: `begin` before each
    game, `after_step` after every entry, `at_end` on the finished game, `after_all` once at the
    end (what the run as a whole must have shown, such as a rare ending reached at least once).
    Each does nothing unless the game says otherwise."""

    def begin(self, players: list[str], options: Mapping[str, Any], rng: random.Random) -> None:
        """A new game with these players and options; `rng` is the checks' own (corrections)."""

    def after_step(self, driver: Driver) -> None:
        """After every entry of the game."""

    def at_end(self, driver: Driver) -> None:
        """On the finished game."""

    def after_all(self) -> None:
        """Once every game of the run is played."""


def checks_for(info: GameInfo) -> SimulationChecks:
    """A fresh instance of the game's own checks (the generic, empty ones if it has none)."""
    assert info.guided is not None
    package = type(info.guided()).__module__.split(".")[2]  # referee.games.<package>.game
    name = f"{__name__}.{package}"
    if importlib.util.find_spec(name) is None:
        return SimulationChecks()
    checks: type[SimulationChecks] = importlib.import_module(name).CHECKS
    return checks()
