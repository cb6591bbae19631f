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
from referee.timeline import Step, Walk, walk


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


class RoundValues:
    """A game's running score read as a walk of its log goes (`after` is the walk's hook): once after
    setup and once at the end of each round, never after every entry (reading the state is the
    costly part of a long session's walk)."""

    def __init__(self, game: Game[Any], players: Sequence[str], options: Mapping[str, Any],
                 questions: int | None = None) -> None:
        self.game = game
        self.spec = game.progression
        self.by_round: dict[int, Values] = {}
        self.last_round: int | None = None
        if self.spec is not None:
            self.by_round[0] = self.spec.read(Driver(game, players, options, questions=questions).state)

    def after(self, step: Step, driver: Driver) -> bool:
        """Read the values when this entry was the last of its round (the next one is in another)."""
        self.last_round = step.round
        if self.spec is not None and (self.game.header(driver.state).round or 0) != step.round:
            self.by_round[step.round] = self.spec.read(driver.state)
        return False

    def charts(self, walked: Walk) -> list[Chart]:
        """Each chart, once the walk is over (`walked`: its driver holds the state after the last entry)."""
        spec = self.spec
        if spec is None:
            return []
        if self.last_round is not None:
            self.by_round[self.last_round] = spec.read(walked.driver.state)
        rounds = sorted(self.by_round)
        charts = []
        for title in self.by_round[rounds[-1]]:
            chart = Chart(title, spec.round_label, rounds, note=spec.note)
            names = list(self.by_round[rounds[-1]][title])
            for name in names:
                chart.series[name] = [self.by_round[number][title].get(name, 0) for number in rounds]
            charts.append(chart)
        return charts


def progression(
    game: Game[Any], players: Sequence[str], options: Mapping[str, Any], entries: Sequence[Entry],
    questions: int | None = None,
) -> list[Chart]:
    """Each chart of the game's running score, by round (empty for a game without one); `questions`
    is the version of the questions the log answers."""
    if game.progression is None:
        return []
    values = RoundValues(game, players, options, questions)
    return values.charts(walk(game, players, options, entries, values.after, questions=questions))
