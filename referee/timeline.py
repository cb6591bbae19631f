"""A session's log replayed step by step, with where the game stood before each entry.

The log holds only answers and corrections; their round, turn and phase are not stored but derived,
by replaying the log through the driver and reading the game's header before each entry. History,
summaries, score progressions and reports all read a session this way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.engine.driver import Driver, Entry
from referee.engine.game import Game, Header
from referee.errors import InvalidAdjustment, InvalidAnswer


@dataclass(frozen=True)
class Step:
    """One entry of the log as it was played."""

    number: int
    """Its position in the log, from 1."""
    entry: Entry
    """As the driver took it (a correction with what it was read as)."""
    header: Header
    """Where the game stood just before it."""
    asked: str
    """The question waiting when it was given ('' once the game was over)."""

    @property
    def question(self) -> str | None:
        """The question it answered (None for a correction)."""
        return self.asked if self.entry.answer is not None else None

    @property
    def round(self) -> int:
        """The round it belongs to (0 before the first round)."""
        return self.header.round or 0

    @property
    def turn(self) -> tuple[int | None, str | None]:
        """The round and whose turn it was, as the header said them."""
        return (self.header.round, self.header.active)

    def told(self) -> str:
        """The step as the screen tells it back: whose turn, the question, the answer."""
        where = f"{self.header.active}: " if self.header.active else ""
        if self.entry.answer is not None:
            return f"{where}{self.asked} -> {self.entry.told()}"
        return f"{where}{self.entry.told()}"


@dataclass
class Walk:
    """A session's log replayed step by step: each entry with where the game stood before it, the
    driver after the last, and why the walk stopped early, if it did."""

    driver: Driver
    """The driver after the last entry replayed."""
    steps: list[Step] = field(default_factory=list)
    error: str | None = None
    """Set when an entry no longer fits: the walk stopped before it."""


After = Callable[[Step, Driver], bool]
"""Called after each entry with the driver as it left it; True stops the walk there."""


def walk(
    game: Game[Any],
    players: Sequence[str],
    options: Mapping[str, Any],
    entries: Sequence[Entry],
    after: After | None = None,
    first: int = 1,
    questions: int | None = None,
) -> Walk:
    """Replay `entries`, noting each one's header and question from entry `first` on; stops at the
    first that does not fit. `questions` is the version of the questions the log answers."""
    driver = Driver(game, players, options, questions=questions)
    driver.take_messages()
    result = Walk(driver)
    for number, entry in enumerate(entries, 1):
        noted = number >= first
        header = game.header(driver.state) if noted else None
        asked = driver.pending.prompt if noted and driver.pending is not None else ""
        try:
            driver.apply(entry)
        except (InvalidAnswer, InvalidAdjustment) as error:
            result.error = f"entry {number} no longer fits: {error}"
            return result
        driver.take_messages()  # what the referee said is not kept: it may name hidden values
        if header is None:
            continue
        step = Step(number, driver.entries[-1] if entry.adjust is not None else entry, header, asked)
        result.steps.append(step)
        if after is not None and after(step, driver):
            break
    return result


def where(header: Header) -> tuple[str, str, str]:
    """Round, turn and phase as short texts ('-' where the game gives none)."""
    turn = header.active or header.turn or "-"
    return (str(header.round) if header.round else "-", turn, header.phase or "-")
