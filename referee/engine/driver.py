"""The driver: the only code that sends answers into a game flow.

It validates every answer against the pending question before the flow sees it, so a rejected
answer changes nothing; it logs an answer only once the flow has taken it (the canonical text of
the answer, or a correction with its reason). After every entry it builds the pending question
again from the current state and asks the game whether it has ended. Replaying the same entries
always rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import CONFIRMATIONS, Ask, Notice, Question, TableStep, build, canonical, clean, text_problem
from referee.engine.cards import Catalogue, Remember, with_catalogue
from referee.engine.game import Game, GameOver
from referee.errors import InternalError, InvalidAdjustment, InvalidAnswer
from referee.outcome import ScoreReport, Termination


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

    def text(self) -> str:
        """The entry as a line of an answers file."""
        if self.adjust is not None:
            return f"adjust {self.adjust} ; {self.reason or ''}".rstrip(" ;")
        return self.answer or ""


class Driver:
    """Runs one game flow. `pending` is the question waiting for the table (None when over)."""

    def __init__(
        self, game: Game[Any], players: Sequence[str], options: Mapping[str, Any], catalogue: Catalogue | None = None
    ) -> None:
        self.game = game
        self.catalogue: Catalogue = catalogue or {}
        """The user's known cards, offered at card questions (a replay needs none: the log keeps them)."""
        self.learned: list[Remember] = []
        """Cards the flow asked to remember since the session last took them."""
        self.players = list(players)
        self.options = dict(options)
        self.state: Any = game.new_state(players, options)
        self.messages: list[str] = []
        self.entries: list[Entry] = []
        self.report: ScoreReport | None = None
        self.termination: Termination | None = None
        """Set once the end check has ended the game (the final count may still ask questions)."""
        self.pending: Ask[Any] | None = None
        self._question: Ask[Any] | Callable[[], Ask[Any]] | None = None
        self._flow = game.flow(self.state, self.messages.append)
        self._advance(lambda: next(self._flow))

    @property
    def finished(self) -> bool:
        return self.pending is None

    # --- moving the flow on --------------------------------------------------------------------

    def _advance(self, step: Callable[[], Question]) -> None:
        """Run the flow to its next question (or its end), then check for the end of the game."""
        try:
            question = step()
            while isinstance(question, Notice):  # nothing to ask: take it and go on
                if isinstance(question, Remember):
                    self.learned.append(question)
                question = self._flow.send(None)
        except StopIteration as stop:
            self._question, self.pending, self.report = None, None, stop.value
            return
        self._question = question
        self.pending = self._build()
        self._check_end()

    def use_catalogue(self, catalogue: Catalogue) -> None:
        """Offer these known cards from the pending question on."""
        self.catalogue = catalogue
        self.pending = self._build()

    def _build(self) -> Ask[Any] | None:
        return None if self._question is None else with_catalogue(build(self._question), self.catalogue)

    def _check_end(self) -> None:
        if self.pending is None or self.termination is not None or not self.pending.end_check:
            return
        termination = self.game.end_check(self.state)
        if termination is not None:
            self.termination = termination
            self.messages.append(f"The game is over: {termination.text}.")
            self._advance(lambda: self._flow.throw(GameOver(termination)))

    def _send(self, value: Any, what: str) -> None:
        """Send a validated value; an error inside the flow puts the driver back as it was."""
        try:
            self._advance(lambda: self._flow.send(value))
        except (InvalidAnswer, InvalidAdjustment):
            raise
        except Exception as error:
            kept = list(self.entries)
            self._rebuild(kept)
            raise InternalError(
                f"internal error in {self.game.id} at entry {len(kept) + 1} ({what}): "
                f"{type(error).__name__}: {error}; the session is kept at the last good answer"
            ) from error

    # --- entries -------------------------------------------------------------------------------

    def answer(self, raw: str) -> Entry:
        """Validate and apply one answer. Raises InvalidAnswer (nothing changes) if it does not fit."""
        ask = self.pending
        if ask is None:
            raise InvalidAnswer(raw, "the game is over", "no more answers")
        if isinstance(ask, TableStep) and clean(raw).lower() not in (*CONFIRMATIONS, ""):
            return self._answer_after_step(raw)
        value = ask.parse(raw)
        entry = Entry(answer=canonical(ask, raw, value))
        self._send(value, repr(entry.answer))
        self.entries.append(entry)
        return entry

    def _answer_after_step(self, raw: str) -> Entry:
        """An answer given at a table step confirms the step and answers the question after it;
        if it fits neither, nothing changes."""
        kept = list(self.entries)
        said = len(self.messages)
        self._send(None, "table step")
        try:
            if self.pending is None or isinstance(self.pending, TableStep):
                raise InvalidAnswer(raw, "the table step is not confirmed", TableStep("").allowed())
            entry = self.answer(raw)
        except InvalidAnswer as error:
            self._rebuild(kept)
            del self.messages[said:]
            raise InvalidAnswer(raw, f"{error.problem} (at the question after the table step)", error.allowed) from None
        if (entry.answer or "").lower() in CONFIRMATIONS:
            # Logged alone, an answer that reads as a confirmation would confirm the step on replay:
            # the log then says both.
            self.entries.insert(len(self.entries) - 1, Entry(answer="done"))
        return entry

    def adjust(self, text: str, reason: str) -> Entry:
        """Apply a correction. Raises InvalidAdjustment (nothing changes) if it breaks a rule."""
        if self.pending is None:
            raise InvalidAdjustment("the game is over; corrections are no longer possible")
        problem = text_problem(text, "correction") or text_problem(reason, "reason")
        if problem:  # (stored in the log: bounded as an answer is)
            raise InvalidAdjustment(problem)
        if not reason.strip():
            raise InvalidAdjustment("a correction needs a reason (e.g. the card or ability that caused it)")
        # Until it is accepted, the correction is not in `entries`: a refusal rebuilds from them as
        # they are (no copy is taken here: a resume replays thousands of corrections).
        try:
            summary = self.game.adjust(self.state, text)
        except InvalidAdjustment:  # a game refuses before it changes anything
            raise
        except ValueError as error:  # a game's reader tripped on odd text: still a refused correction
            self._rebuild(list(self.entries))
            raise InvalidAdjustment(f"cannot read {text!r}: {error}") from None
        problems = self.game.invariant_errors(self.state)
        if problems:
            self._rebuild(list(self.entries))  # the game let a broken state through: take the change back
            raise InvalidAdjustment(f"refused: {'; '.join(problems)}")
        try:
            rebuilt = self._build()
        except ValueError as error:  # e.g. no option left to choose from
            self._rebuild(list(self.entries))
            raise InvalidAdjustment(f"refused: the question would have no possible answer ({error})") from None
        entry = Entry(adjust=" ".join(text.split()), reason=" ".join(reason.split()))
        self.entries.append(entry)
        self.pending = rebuilt
        self.messages.append(f"Correction: {summary} ({entry.reason})")
        if self.game.ended_by_correction(self.state) and self.termination is None:
            self._advance(lambda: self._flow.throw(GameOver()))
        self._check_end()
        return entry

    def apply(self, entry: Entry) -> None:
        """Apply a logged entry (replay)."""
        if entry.adjust is not None:
            self.adjust(entry.adjust, entry.reason or "")
        else:
            self.answer(entry.answer or "")

    def _rebuild(self, entries: Sequence[Entry]) -> None:
        """Become the driver that replaying `entries` gives (taking a refused change back)."""
        fresh = replay(self.game, self.players, self.options, entries, self.catalogue).driver
        fresh.learned = self.learned[:0]  # what the replay re-learned was kept already
        self.__dict__.update(fresh.__dict__)
        del self.messages[:]  # the replay retold the whole game; the table has heard it already

    def take_messages(self) -> list[str]:
        messages, self.messages[:] = list(self.messages), []
        return messages


@dataclass
class ReplayResult:
    """A session rebuilt from its log: the driver where the replay stopped, how many entries fitted,
    and why the next one did not."""

    driver: Driver
    applied: int
    """How many entries fitted; fewer than given means the log stopped fitting there."""
    error: str | None = None


def replay(
    game: Game[Any],
    players: Sequence[str],
    options: Mapping[str, Any],
    entries: Sequence[Entry],
    catalogue: Catalogue | None = None,
) -> ReplayResult:
    """Rebuild a session from its log, stopping at the first entry that no longer fits. The log
    holds every card it used, so the catalogue only serves the questions still to come."""
    driver = Driver(game, players, options, catalogue)
    for index, entry in enumerate(entries):
        try:
            driver.apply(entry)
        except (InvalidAnswer, InvalidAdjustment) as error:
            return ReplayResult(driver, index, str(error))
    return ReplayResult(driver, len(entries))
