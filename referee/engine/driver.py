"""The driver: the only code that sends answers into a game flow.

It validates every answer against the pending Ask before the flow sees it, so a rejected answer
changes nothing; it records accepted answers as log entries (the canonical text of the answer, or
a correction with its reason). Replaying the same entries always rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Ask, canonical
from referee.engine.game import Game, GameOver
from referee.errors import InvalidAdjustment, InvalidAnswer
from referee.outcome import ScoreReport


@dataclass(frozen=True)
class Entry:
    """One step of a session log: an answer, or a correction with its reason."""

    answer: str | None = None
    adjust: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, str]:
        if self.adjust is not None:
            return {"adjust": self.adjust, "reason": self.reason or ""}
        return {"answer": self.answer or ""}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Entry:
        if "adjust" in data:
            return Entry(adjust=str(data["adjust"]), reason=str(data.get("reason", "")))
        return Entry(answer=str(data["answer"]))


class Driver:
    """Runs one game flow. `pending` is the question waiting for the table (None when over)."""

    def __init__(self, game: Game[Any], players: Sequence[str], options: Mapping[str, Any]) -> None:
        self.game = game
        self.players = list(players)
        self.options = dict(options)
        self.state: Any = game.new_state(players, options)
        self.messages: list[str] = []
        self.entries: list[Entry] = []
        self.report: ScoreReport | None = None
        self.pending: Ask | None = None
        self._flow = game.flow(self.state, self.messages.append)
        self._step(None, first=True)

    @property
    def finished(self) -> bool:
        return self.pending is None

    def _step(self, value: Any, first: bool = False, end: bool = False) -> None:
        try:
            if end:
                self.pending = self._flow.throw(GameOver())
            else:
                self.pending = next(self._flow) if first else self._flow.send(value)
        except StopIteration as stop:
            self.pending = None
            self.report = stop.value

    def answer(self, raw: str) -> Entry:
        """Validate and apply one answer. Raises InvalidAnswer (nothing changes) if it does not fit."""
        ask = self.pending
        if ask is None:
            raise InvalidAnswer(raw, "the game is over", "no more answers")
        value = ask.parse(raw)
        entry = Entry(answer=canonical(ask, raw, value))
        self.entries.append(entry)
        self._step(value)
        return entry

    def adjust(self, text: str, reason: str) -> Entry:
        """Apply a correction. Raises InvalidAdjustment (nothing changes) if it breaks a rule."""
        if self.pending is None:
            raise InvalidAdjustment("the game is over; corrections are no longer possible")
        if not reason.strip():
            raise InvalidAdjustment("a correction needs a reason (e.g. the card or ability that caused it)")
        try:
            summary = self.game.adjust(self.state, text)
        except InvalidAdjustment:
            raise
        except ValueError as error:  # a game's reader tripped on odd text: still a refused correction
            self._rebuild(self.entries)  # and whatever it may have touched is put back
            raise InvalidAdjustment(f"cannot read {text!r}: {error}") from None
        entry = Entry(adjust=" ".join(text.split()), reason=" ".join(reason.split()))
        problems = self.game.invariant_errors(self.state)
        if problems:
            self._rebuild(self.entries)  # the game let a broken state through: take the change back
            raise InvalidAdjustment(f"refused: {'; '.join(problems)}")
        self.entries.append(entry)
        self.messages.append(f"Correction: {summary} ({entry.reason})")
        if self.game.ended_by_correction(self.state):
            self._step(None, end=True)  # no answer is waiting any more: the game is over
        return entry

    def apply(self, entry: Entry) -> None:
        """Apply a logged entry (replay)."""
        if entry.adjust is not None:
            self.adjust(entry.adjust, entry.reason or "")
        else:
            self.answer(entry.answer or "")

    def _rebuild(self, entries: Sequence[Entry]) -> None:
        """Become the driver that replaying `entries` gives (taking a refused correction back)."""
        fresh = replay(self.game, self.players, self.options, entries).driver
        self.__dict__.update(fresh.__dict__)
        del self.messages[:]  # the replay retold the whole game; the table has heard it already

    def take_messages(self) -> list[str]:
        messages, self.messages[:] = list(self.messages), []
        return messages


@dataclass
class ReplayResult:
    driver: Driver
    applied: int
    """How many entries fitted; fewer than given means the log stopped fitting there."""
    error: str | None = None


def replay(
    game: Game[Any], players: Sequence[str], options: Mapping[str, Any], entries: Sequence[Entry]
) -> ReplayResult:
    """Rebuild a session from its log, stopping at the first entry that no longer fits."""
    driver = Driver(game, players, options)
    for index, entry in enumerate(entries):
        try:
            driver.apply(entry)
        except (InvalidAnswer, InvalidAdjustment) as error:
            return ReplayResult(driver, index, str(error))
    return ReplayResult(driver, len(entries))
