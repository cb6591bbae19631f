"""The driver: the only code that sends answers into a game flow.

It validates every answer against the pending question before the flow sees it, so a rejected
answer changes nothing; it logs an answer only once the flow has taken it (the canonical text of
the answer, or a correction with its reason). After every entry it builds the pending question
again from the current state and asks the game whether it has ended. Replaying the same entries
always rebuilds the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.asks import CONFIRMATIONS, Ask, Notice, Question, TableStep, build, canonical, text_problem
from referee.engine.cards import Catalogue, Remember, with_catalogue
from referee.engine.corrections import Correction, Target, parse
from referee.engine.game import Game, GameOver
from referee.errors import InternalError, InvalidAdjustment, InvalidAnswer
from referee.outcome import ScoreReport, Termination


@dataclass(frozen=True)
class Entry:
    """One step of a session log: an answer, or a correction with its reason.

    An entry the driver took also keeps the correction as it read it (`read`, not part of the log):
    what an undo or a redo says of it comes from there, without reading the line again."""

    answer: str | None = None
    adjust: str | None = None
    reason: str | None = None
    read: Correction[Any] | None = field(default=None, compare=False, repr=False)

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
        """The entry as the table types it, and as a line of an answers file: the answer, or
        'adjust TEXT ; REASON'."""
        if self.adjust is not None:
            return f"adjust {self.adjust} ; {self.reason or ''}".rstrip(" ;")
        return self.answer or ""

    def told(self) -> str:
        """The entry as the screen tells it back (after an undo or a redo): the answer, or
        'correction TEXT (REASON)'."""
        if self.adjust is not None:
            return f"correction {self.adjust} ({self.reason})"
        return self.answer or ""


class Driver:
    """Runs one game flow. `pending` is the question waiting for the table (None when over)."""

    def __init__(
        self,
        game: Game[Any],
        players: Sequence[str],
        options: Mapping[str, Any],
        catalogue: Catalogue | None = None,
        questions: int | None = None,
    ) -> None:
        self.game = game
        self.catalogue: Catalogue = catalogue or {}
        """The user's known cards, offered at card questions (a replay needs none: the log keeps them)."""
        self.learned: list[Remember] = []
        """Cards the flow asked to remember since the session last took them."""
        self.players = list(players)
        self.options = dict(options)
        self.questions = game.questions_version if questions is None else questions
        """The version of the questions this session is played with (a stored session's own)."""
        self._start()

    def _start(self) -> None:
        """The game from its setup to its first question, with nothing entered yet."""
        self.state: Any = self.game.new_state(self.players, self.options, self.questions)
        self.messages: list[str] = []
        self.entries: list[Entry] = []
        self.report: ScoreReport | None = None
        self.termination: Termination | None = None
        """Set once the end check has ended the game (the final count may still ask questions)."""
        self.pending: Ask[Any] | None = None
        self._question: Ask[Any] | Callable[[], Ask[Any]] | None = None
        self._answer_read: tuple[Ask[Any], str, Any] | None = None
        self._correction_read: tuple[tuple[str, tuple[Target, ...]], Correction[Any]] | None = None
        self._flow = self.game.flow(self.state, self.messages.append)
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

    def read(self, raw: str) -> Any:
        """The value an answer gives the pending question; raises InvalidAnswer (nothing changes)
        if it does not fit. The answer read last is kept until it is given: a line checked as it
        is entered is not read again to be applied."""
        ask = self.pending
        if ask is None:
            raise InvalidAnswer(raw, "the game is over", "no more answers")
        kept = self._answer_read
        if kept is not None and kept[0] is ask and kept[1] == raw:
            return kept[2]
        value = ask.parse(raw)
        self._answer_read = (ask, raw, value)
        return value

    def answer(self, raw: str) -> Entry:
        """Validate and apply one answer. Raises InvalidAnswer (nothing changes) if it does not fit."""
        ask = self.pending
        if ask is not None and ask.passes_on(raw):  # a table step given the next question's answer
            return self._answer_after_step(raw)
        value = self.read(raw)
        assert ask is not None
        self._answer_read = None  # given: a value the flow may change is never handed over twice
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
            if self.pending is None or self.pending.passes_on(raw):  # a step after a step takes no answer
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

    def read_correction(self, text: str) -> Correction[Any]:
        """The correction a line reads as where the game stands; raises InvalidAdjustment. The
        correction read last is kept: a line read as it is typed (to mask a hidden amount) is not
        read again when it is entered."""
        targets = tuple(self.game.correction_targets(self.state))
        key = (" ".join(text.split()), targets)
        kept = self._correction_read
        if kept is not None and kept[0] == key:
            return kept[1]
        correction = parse(text, targets, self.game.fields)
        self._correction_read = (key, correction)
        return correction

    def adjust(self, text: str, reason: str, typed: bool = True) -> Entry:
        """Apply a correction. Raises InvalidAdjustment (nothing changes) if it breaks a rule.
        `typed`: the table typed it now, so its texts are bounded as an answer is; a logged one
        (a replay) is not held to a bound newer than its log."""
        if self.pending is None:
            raise InvalidAdjustment("the game is over; corrections are no longer possible")
        problem = typed and (text_problem(text, "correction") or text_problem(reason, "reason"))
        if problem:  # (stored in the log: bounded as an answer is)
            raise InvalidAdjustment(problem)
        if not reason.strip():
            raise InvalidAdjustment("a correction needs a reason (e.g. the card or ability that caused it)")
        # Until it is accepted, the correction is not in `entries`: a refusal rebuilds from them as
        # they are (no copy is taken here: a resume replays thousands of corrections).
        correction = self.read_correction(text)
        self._correction_read = None  # applied below: the state it was read against changes
        try:
            summary = self.game.adjust(self.state, correction)
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
        entry = Entry(adjust=" ".join(text.split()), reason=" ".join(reason.split()), read=correction)
        self.entries.append(entry)
        self.pending = rebuilt
        self.messages.append(f"Correction: {summary} ({entry.reason})")
        self._check_end()
        return entry

    def apply(self, entry: Entry, typed: bool = False) -> None:
        """Apply a logged entry (replay), or with `typed` one the table gives now (an edit's new value)."""
        if entry.adjust is not None:
            self.adjust(entry.adjust, entry.reason or "", typed=typed)
        else:
            self.answer(entry.answer or "")

    def _rebuild(self, entries: Sequence[Entry]) -> None:
        """Play `entries` again from the setup (taking a refused change back)."""
        self._start()
        for entry in entries:
            self.apply(entry)
        self.learned = []  # what the replay re-learned was kept already
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
    questions: int | None = None,
) -> ReplayResult:
    """Rebuild a session from its log, stopping at the first entry that no longer fits. The log
    holds every card it used, so the catalogue only serves the questions still to come; `questions`
    is the version of the questions the log answers (the game's own when None)."""
    driver = Driver(game, players, options, catalogue, questions)
    for index, entry in enumerate(entries):
        try:
            driver.apply(entry)
        except (InvalidAnswer, InvalidAdjustment) as error:
            return ReplayResult(driver, index, str(error))
    return ReplayResult(driver, len(entries))
