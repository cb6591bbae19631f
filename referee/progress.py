"""Running scores by round, for the games that keep one in the open.

Derived by replaying the log: each round's value is the one the last entry of that round left.
Only what the whole table can see is charted. Council of Blackthorn's influence tokens are hidden
until the final count, so its chart is the visible part of influence (faction tracks and
buildings); A Game of Thrones charts power; Council of Serpents charts each House's attributes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.driver import Driver, Entry
from referee.engine.game import Game
from referee.timeline import Step, Walk, walk

Values = dict[str, dict[str, int]]
"""Chart title -> series name -> value, at one moment of the game."""


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


@dataclass(frozen=True)
class Progression:
    """What a game charts as its running score, and how to read it from the game's state."""

    round_label: str
    read: Callable[[Mapping[str, Any]], Values]
    """The charted values, from the game's state as plain JSON (game.to_json)."""
    note: str = ""


def blackthorn_visible(state: Mapping[str, Any]) -> Values:
    from referee.games.blackthorn.state import TRACK, UNDER_CONSTRUCTION_POINTS

    values = {}
    for player in state["players"]:  # the ghost is not charted: it cannot win
        tracks = sum(TRACK[level] for level in player["levels"].values())
        built = sum(building["value"] for building in player["buildings"] if building["complete"])
        started = sum(1 for building in player["buildings"] if not building["complete"])
        values[player["name"]] = tracks + built + UNDER_CONSTRUCTION_POINTS * started
    return {"Visible influence": values}


def got_power(state: Mapping[str, Any]) -> Values:
    return {"Power": {player["name"]: player["house_power"] + player["card_power"] for player in state["players"]}}


def serpents_attributes(state: Mapping[str, Any]) -> Values:
    from referee.games.serpents.houses import ATTRIBUTES

    return {
        f"House {attribute}": {house.capitalize(): values[attribute] for house, values in state["houses"].items()}
        for attribute in ATTRIBUTES
    }


PROGRESSIONS: dict[str, Progression] = {
    "council-of-blackthorn": Progression(
        "round", blackthorn_visible,
        "faction tracks + completed buildings + 2 a building under construction; influence tokens stay "
        "hidden until the final count",
    ),
    "got-lcg-1e": Progression("round", got_power, "power on House cards and other cards"),
    "council-of-serpents": Progression("turn", serpents_attributes, "13 is the Triumph symbol, 0 the Collapse"),
}


def has_progression(game_id: str) -> bool:
    return game_id in PROGRESSIONS


class RoundValues:
    """A game's running score read as a walk of its log goes (`after` is the walk's hook): once after
    setup and once at the end of each round, never after every entry (reading the state is the
    costly part of a long session's walk)."""

    def __init__(self, game: Game[Any], players: Sequence[str], options: Mapping[str, Any]) -> None:
        self.game = game
        self.spec = PROGRESSIONS.get(game.id)
        self.by_round: dict[int, Values] = {}
        self.last_round: int | None = None
        if self.spec is not None:
            self.by_round[0] = self.spec.read(game.to_json(Driver(game, players, options).state))

    def after(self, step: Step, driver: Driver) -> bool:
        """Read the values when this entry was the last of its round (the next one is in another)."""
        self.last_round = step.round
        if self.spec is not None and (self.game.header(driver.state).round or 0) != step.round:
            self.by_round[step.round] = self.spec.read(self.game.to_json(driver.state))
        return False

    def charts(self, walked: Walk) -> list[Chart]:
        """Each chart, once the walk is over (`walked`: its driver holds the state after the last entry)."""
        if self.spec is None:
            return []
        if self.last_round is not None:
            self.by_round[self.last_round] = self.spec.read(self.game.to_json(walked.driver.state))
        rounds = sorted(self.by_round)
        charts = []
        for title in self.by_round[rounds[-1]]:
            chart = Chart(title, self.spec.round_label, rounds, note=self.spec.note)
            names = list(self.by_round[rounds[-1]][title])
            for name in names:
                chart.series[name] = [self.by_round[number][title].get(name, 0) for number in rounds]
            charts.append(chart)
        return charts


def progression(
    game: Game[Any], players: Sequence[str], options: Mapping[str, Any], entries: Sequence[Entry]
) -> list[Chart]:
    """Each chart of the game's running score, by round (empty for a game without one)."""
    if game.id not in PROGRESSIONS:
        return []
    values = RoundValues(game, players, options)
    return values.charts(walk(game, players, options, entries, values.after))
