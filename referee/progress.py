"""Running scores by round, for the games that keep one in the open (Game.progression).

Derived by replaying the log: each round's value is the one the last entry of that round left.
What a game charts, and how it reads it from its state, is the game's declaration; only what the
whole table can see is charted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.driver import Driver, Entry
from referee.engine.game import Game, Values
from referee.timeline import Step, walk


@dataclass
class Chart:
    """One running score by round: a value per series (a player, a House) at the end of each round."""

    title: str
    round_label: str
    """What the x axis counts ('round', or 'turn' where the game has no rounds)."""
    rounds: list[int] = field(default_factory=list)
    """0 stands for the end of setup."""
    series: dict[str, list[int]] = field(default_factory=dict)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "round_label": self.round_label, "rounds": list(self.rounds),
                "series": {name: list(values) for name, values in self.series.items()}, "note": self.note}


def progression(
    game: Game[Any], players: Sequence[str], options: Mapping[str, Any], entries: Sequence[Entry],
    questions: int | None = None,
) -> list[Chart]:
    """Each chart of the game's running score, by round (empty for a game without one); `questions`
    is the version of the questions the log answers."""
    spec = game.progression
    if spec is None:
        return []
    by_round: dict[int, Values] = {}

    def after(step: Step, driver: Driver) -> bool:
        by_round[step.round] = spec.read(driver.state)
        return False

    start = Driver(game, players, options, questions=questions)
    by_round[0] = spec.read(start.state)
    walk(game, players, options, entries, after, questions=questions)
    rounds = sorted(by_round)
    charts = []
    for title in by_round[rounds[-1]]:
        chart = Chart(title, spec.round_label, rounds, note=spec.note)
        names = list(by_round[rounds[-1]][title])
        for name in names:
            chart.series[name] = [by_round[number][title].get(name, 0) for number in rounds]
        charts.append(chart)
    return charts
