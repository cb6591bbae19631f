"""What a guided game provides to the engine, and what it declares for the layers around it.

A game is a flow (a generator that yields questions and receives validated answers) over a plain
state object, plus the pieces the engine and the screen need around it: the fields corrections may
change, the end check, invariants and a public view. The flow has no randomness, clock or I/O:
everything random comes from the table.

A game writes its flow as `play` (setup and every round, until play stops) and `final_count` (the
reveal and the report). The engine joins them: after every entry the driver asks `end_check`
whether the game has ended; if so it throws GameOver into `play`, which unwinds to the final count.

A game's Game class is its one declaration: how many play and which names they may not take, its
typed rulings, its correction fields, the kinds of printed cards the table can name, its public
view with shorter column headers, its progression chart, the role a player takes, whether it
scores points, and the version of its questions. The base class gives the defaults, so a game
states only what is its own; the generic layers (summaries, charts, the screen) ask the Game and
never name a game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from referee.asks import Question
from referee.engine import facts
from referee.engine.cards import CardKind
from referee.engine.corrections import Correction, Field, Target, apply, usage
from referee.engine.rulings import RulingSet
from referee.errors import SessionError
from referee.outcome import ScoreReport, Termination
from referee.user_text import name_problem

Say = Callable[[str], None]
"""How a flow tells the table something (what the referee worked out, a ruling applied)."""

Flow = Generator[Question, Any, ScoreReport]
Steps = Generator[Question, Any, None]



class State(Protocol):
    """A game's state: plain data that writes itself out as JSON (comparisons, scenarios, exports)."""

    def to_json(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=State)

Values = dict[str, dict[str, int]]
"""Chart title -> series name -> value, at one moment of the game (a progression's reading)."""


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
    round_name: str = "Round"
    """What the rulebook calls what `round` counts: "Round", or "Turn" in a game whose rulebook
    counts turns and no rounds (Cutthroat Kingdoms: one event is drawn at the end of each turn)."""

    @property
    def counted_in_turns(self) -> bool:
        return self.round_name == "Turn"

    def columns(self) -> tuple[str, str]:
        """The names of a log's two columns for `round` and whose turn it was."""
        return (self.round_name, "Player") if self.counted_in_turns else (self.round_name, "Turn")


@dataclass
class PublicView:
    """What everyone at the table may see: one row per player, plus lines about the board."""

    columns: list[str]
    rows: list[list[str]]
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Progression(Generic[S]):
    """What a game charts as its running score, and how to read it from the game's state. Only
    what the whole table may see is charted."""

    round_label: str
    """What the x axis counts ('round', or 'turn' where the game has no rounds)."""
    read: Callable[[S], Values]
    note: str = ""


@dataclass(frozen=True)
class RoleField:
    """Where a game's state (as JSON, game.to_json) names what each player plays as: a character,
    a House, a lord or lady."""

    label: str
    players_key: str
    field: str


@dataclass(frozen=True)
class Setup:
    """What a game's state starts from: the players in seat order, the rulings in force, and the
    version of the questions the session is played with (see Game.questions_version)."""

    players: tuple[str, ...]
    rulings: dict[str, str]
    questions: int


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
    """The game's rulebook id (rulebooks/<id>.md and its numbers, rulebooks/<id>.toml)."""

    # --- the declaration: what a game states only where it is its own ------------------------

    reserved_names: tuple[str, ...] = ()
    """Words no player may be named (ones the game's corrections or questions use), lower case."""
    player_noun: str = "player"
    """What the game calls a player in messages ('witch')."""
    rulings: RulingSet = RulingSet()
    """The rulings the table may override, checked against the rulebook's TOML as the game loads."""
    printed_cards: tuple[CardKind, ...] = ()
    """The kinds of printed cards the table can name, for the catalogue (engine/cards.py)."""
    short_headers: Mapping[str, str] = MappingProxyType({})
    """Shorter headers of its public view's columns and its score's parts, for a narrow terminal."""
    progression: Progression[S] | None = None
    """Its running score by round, where it keeps one in the open."""
    role: RoleField | None = None
    """What each player plays as, where the game has such a choice."""
    scores_points: bool = True
    """False where a total is no score (Council of Serpents counts Ambitions that came true)."""
    questions_version: int = 1
    """The version of the questions its flow asks. A session records the version it is played
    with, and a replay hands the recorded one back (Setup.questions), so that a log answered to
    older questions is asked them again; it goes up when questions are taken away or merged."""
    correction_example: str = ""
    """One correction of this game, as typed at a question (shown in the help)."""
    correction_verbs: tuple[str, ...] = ()
    """Words that start a correction of this game without 'adjust' (e.g. 'pay'); reason optional."""

    @property
    def title(self) -> str:
        """The game's name in messages: its rulebook's."""
        return str(facts.numbers(self.rulebook)["game"]["name"])

    @property
    def player_counts(self) -> tuple[int, int]:
        """The fewest and the most players: its rulebook's (read as a session starts, so that a
        session keeps its rulebook's numbers for the next start: engine/facts.py)."""
        return facts.player_range(self.rulebook)

    # --- starting ---------------------------------------------------------------------------

    def check_players(self, players: Sequence[str]) -> None:
        """Raise SessionError if this list of names cannot play (count, duplicates, reserved words)."""
        low, high = self.player_counts
        check_names(self.title, players, low, high, self.reserved_names, self.player_noun)

    def new_state(self, players: Sequence[str], options: Mapping[str, Any], questions: int | None = None) -> S:
        """The state before the first question, for the table's options and a questions version
        (the game's own unless a stored session recorded an earlier one)."""
        self.check_players(players)
        version = self.questions_version if questions is None else questions
        if not 1 <= version <= self.questions_version:
            raise SessionError(
                f"this session was played with version {version} of the questions; this referee asks "
                f"versions 1 to {self.questions_version}: upgrade it to replay the session"
            )
        return self.initial_state(Setup(tuple(players), self.rulings.chosen(options), version))

    @abstractmethod
    def initial_state(self, setup: Setup) -> S:
        """The state before the first question."""

    # --- the flow ---------------------------------------------------------------------------

    play: Callable[[S, Say], Steps]
    """Setup and every round, until play stops (or GameOver unwinds it): the game's flow module's,
    declared as `play = staticmethod(flow.play)`."""
    final_count: Callable[[S, Say], Flow]
    """The reveal and the final report, once play has stopped."""

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

    # --- corrections ------------------------------------------------------------------------

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
        """The kinds of printed cards the table can name (the declared `printed_cards`)."""
        return self.printed_cards

    def adjust(self, state: S, correction: Correction[S]) -> str:
        """Apply a correction as read; returns what changed (no hidden value). Raises
        InvalidAdjustment, and then leaves the state untouched."""
        return apply(correction, state)

    def adjust_help(self) -> str:
        """The forms a correction may take, one line, with an example of this game."""
        forms = usage([], self.fields)
        return f"{forms}; e.g. {self.correction_example}" if self.correction_example else forms

    # --- checks and views -------------------------------------------------------------------

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

    def to_json(self, state: S) -> dict[str, Any]:
        """The whole state as plain JSON data (for comparisons and export): the state's own."""
        return state.to_json()


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
