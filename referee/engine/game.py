"""What a guided game provides to the engine.

A game is a flow (a generator that yields Asks and receives validated answers) over a plain state
object, plus the pieces the engine and the screen need around it: corrections, invariants and a
public view. The flow has no randomness, clock or I/O: everything random comes from the table.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from referee.asks import Ask
from referee.errors import SessionError
from referee.outcome import ScoreReport
from referee.user_text import name_problem

Say = Callable[[str], None]
"""How a flow tells the table something (what the referee worked out, a ruling applied)."""

Flow = Generator[Ask, Any, ScoreReport]

S = TypeVar("S")


@dataclass
class Header:
    """Where the game stands, for the top of the screen."""

    round: int | None = None
    turn: str | None = None
    phase: str | None = None
    active: str | None = None


@dataclass
class PublicView:
    """What everyone at the table may see: one row per player, plus lines about the board."""

    columns: list[str]
    rows: list[list[str]]
    lines: list[str] = field(default_factory=list)


class GameOver(Exception):
    """Thrown by the driver into a flow whose game a correction has just ended (a game that says so
    through `ended_by_correction`); the flow catches it and goes straight to its final count."""


class Game(ABC, Generic[S]):
    """A game the referee can guide. Subclasses are stateless; all state lives in S."""

    id: str
    rulebook: str
    """The game's rulebook id (rulebooks/<id>.md)."""

    @abstractmethod
    def check_players(self, players: Sequence[str]) -> None:
        """Raise SessionError if this list of names cannot play (count, duplicates)."""

    @abstractmethod
    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> S:
        """The state before the first question."""

    @abstractmethod
    def flow(self, state: S, say: Say) -> Flow:
        """The game from setup to the final report."""

    @abstractmethod
    def adjust(self, state: S, text: str) -> str:
        """Apply a manual correction; returns what changed. Raises InvalidAdjustment and then
        leaves the state untouched."""

    def ended_by_correction(self, state: S) -> bool:
        """True when the correction just applied has ended the game (e.g. a winning total reached).
        A game that can say True must catch GameOver in its flow wherever play goes on."""
        return False

    @abstractmethod
    def adjust_help(self) -> str:
        """The forms a correction may take, one line."""

    @abstractmethod
    def invariant_errors(self, state: S) -> list[str]:
        """Broken invariants (empty when the state is sound)."""

    @abstractmethod
    def header(self, state: S) -> Header:
        ...

    @abstractmethod
    def public_view(self, state: S) -> PublicView:
        ...

    @abstractmethod
    def hidden_view(self, state: S, player: str) -> list[str]:
        """One player's hidden holdings, shown only when the table asks."""

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]:
        """The whole state as plain JSON data (for comparisons and export)."""


def check_names(
    game_name: str,
    players: Sequence[str],
    minimum: int,
    maximum: int,
    reserved: Sequence[str] = (),
    noun: str = "player",
) -> None:
    """The checks every game makes on its list of names: how many, none empty or holding control
    characters, all different (ignoring case), none a word the game's corrections or questions use."""
    if not minimum <= len(players) <= maximum:
        raise SessionError(f"{game_name} takes {minimum} to {maximum} {noun}s, not {len(players)}")
    lowered = [name.strip().lower() for name in players]
    problems = [name_problem(name, noun) for name in players]
    if any(problems):
        raise SessionError(next(problem for problem in problems if problem))
    if len(set(lowered)) != len(lowered):
        raise SessionError(f"each {noun} needs a different name")
    taken = [name for name in players if name.strip().lower() in reserved]
    if taken:
        raise SessionError(f"{taken[0]!r} is a reserved word here ({', '.join(reserved)}); choose another name")


def chosen_rulings(choices: Mapping[str, Sequence[str]], options: Mapping[str, Any]) -> dict[str, str]:
    """Each ruling's default (its first choice), with the table's overrides from options["rulings"]."""
    rulings = {ruling: values[0] for ruling, values in choices.items()}
    overrides = options.get("rulings", {})
    if not isinstance(overrides, Mapping):
        raise SessionError("rulings are given as NAME=VALUE pairs")
    for ruling, value in overrides.items():
        if ruling not in choices or value not in choices[ruling]:
            allowed = "; ".join(f"{key}={'|'.join(values)}" for key, values in choices.items())
            raise SessionError(f"unknown ruling override {ruling}={value}; allowed: {allowed}")
        rulings[ruling] = value
    return rulings
