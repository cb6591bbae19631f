"""What a guided game provides to the engine.

A game is a flow (a generator that yields questions and receives validated answers) over a plain
state object, plus the pieces the engine and the screen need around it: the fields corrections may
change, the end check, invariants and a public view. The flow has no randomness, clock or I/O:
everything random comes from the table.

A game writes its flow as `play` (setup and every round, until play stops) and `final_count` (the
reveal and the report). The engine joins them: after every entry the driver asks `end_check`
whether the game has ended; if so it throws GameOver into `play`, which unwinds to the final count.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from referee.asks import Question
from referee.engine.cards import CardKind
from referee.engine.corrections import Field, Target, apply_correction, usage
from referee.errors import SessionError
from referee.outcome import ScoreReport, Termination
from referee.user_text import name_problem

Say = Callable[[str], None]
"""How a flow tells the table something (what the referee worked out, a ruling applied)."""

Flow = Generator[Question, Any, ScoreReport]
Steps = Generator[Question, Any, None]

S = TypeVar("S")


@dataclass
class Header:
    """Where the game stands, for the top of the screen."""

    round: int | None = None
    turn: str | None = None
    phase: str | None = None
    active: str | None = None
    progress: str | None = None
    """How far the game has come, always on show: rounds, blocked tracks, cards left, a race.
    Public facts only: a hidden value never goes here."""


@dataclass
class PublicView:
    """What everyone at the table may see: one row per player, plus lines about the board."""

    columns: list[str]
    rows: list[list[str]]
    lines: list[str] = field(default_factory=list)


class GameOver(Exception):
    """The game has ended where play stands. Thrown by the driver into `play` when `end_check` says
    so after an entry, or raised by a flow where the rulebook ends the game in the middle of a step;
    the engine then goes straight to `final_count`."""

    def __init__(self, termination: Termination | None = None) -> None:
        super().__init__(termination.text if termination else "game over")
        self.termination = termination


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

    correction_example: str = ""
    """One correction of this game, as typed at a question (shown in the help)."""
    correction_verbs: tuple[str, ...] = ()
    """Words that start a correction of this game without 'adjust' (e.g. 'pay'); reason optional."""

    def play(self, state: S, say: Say) -> Steps:
        """Setup and every round, until play stops (or GameOver unwinds it)."""
        raise NotImplementedError(f"{type(self).__name__} defines neither play nor flow")
        yield  # a generator, for the type checker

    def final_count(self, state: S, say: Say) -> Flow:
        """The reveal and the final report, once play has stopped."""
        raise NotImplementedError(f"{type(self).__name__} defines neither final_count nor flow")
        yield  # a generator, for the type checker

    def flow(self, state: S, say: Say) -> Flow:
        """The game from setup to the final report: play, then the final count."""
        termination = None
        try:
            yield from self.play(state, say)
        except GameOver as over:
            termination = over.termination
        report = yield from self.final_count(state, say)
        if report.termination is None:
            report.termination = termination or self.termination(state)
        return report

    def end_check(self, state: S) -> Termination | None:
        """Has the game ended right now? Asked after every entry (answer or correction)."""
        return None

    def termination(self, state: S) -> Termination | None:
        """How a game whose play ran to its natural end ended (for the report)."""
        return None

    def correction_targets(self, state: S) -> Sequence[Target]:
        """Who and what corrections may name: the players by default."""
        return [Target(name) for name in self.player_names(state)]

    def correction_fields(self) -> Sequence[Field[S]]:
        """The fields corrections may change (see engine/corrections.py)."""
        return []

    @cached_property
    def fields(self) -> Sequence[Field[S]]:
        """`correction_fields()`, built once: a game's fields are its declaration and never change,
        and a resume replays every correction of the log through them."""
        return tuple(self.correction_fields())

    def player_names(self, state: S) -> Sequence[str]:
        return []

    def card_kinds(self) -> Sequence[CardKind]:
        """The kinds of printed cards the table can name, for the catalogue (engine/cards.py)."""
        return []

    def adjust(self, state: S, text: str) -> str:
        """Apply a manual correction; returns what changed. Raises InvalidAdjustment and then
        leaves the state untouched."""
        return apply_correction(text, self.correction_targets(state), self.fields, state)

    def adjust_help(self) -> str:
        """The forms a correction may take, one line, with an example of this game."""
        forms = usage([], self.fields)
        return f"{forms}; e.g. {self.correction_example}" if self.correction_example else forms

    def ended_by_correction(self, state: S) -> bool:
        """Kept for games not yet on `end_check`: True when a correction has ended the game."""
        return False

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
