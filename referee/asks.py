"""The questions a game flow asks the table, and how each one reads an answer.

An Ask[T] is a frozen description of a question whose answer is a T. `parse(raw)` turns what the
table typed into the value the flow receives, or raises InvalidAnswer saying what was wrong and
what is allowed. `encode(value)` gives the canonical text that goes in the session log, so
replaying the log parses exactly the same values again.

A flow asks with `value = yield from ask(question)`, which types the answer. The question may be
given as a builder (a function of no arguments returning the Ask): the driver builds it again after
every correction, so its options, bounds and counts always come from the current state.
A TableStep is the table's own work (a card's text, an ability): corrections may follow it, and
the flow goes on only when the table confirms.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from referee.errors import InvalidAnswer
from referee.wording import singular_after_one

MAX_ANSWER_LENGTH = 200
T = TypeVar("T")


def text_problem(raw: str, what: str) -> str | None:
    """Why a text the table typed cannot be stored (a correction, its reason), as `clean` bounds an
    answer: longer than MAX_ANSWER_LENGTH, or holding control characters; None when it can."""
    if len(raw) > MAX_ANSWER_LENGTH:
        return f"the {what} is too long ({len(raw):,} characters): at most {MAX_ANSWER_LENGTH} characters"
    if not raw.isprintable() and any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn")
                                     for ch in raw if ch not in "\t"):
        return f"the {what} holds control characters ({raw.encode('unicode_escape').decode()[:60]}): plain text only"
    return None


def clean(raw: str) -> str:
    """Trim an answer and refuse what no question accepts (control characters, very long text)."""
    if len(raw) > MAX_ANSWER_LENGTH:
        raise InvalidAnswer(raw[:20] + "...", "answer too long", f"at most {MAX_ANSWER_LENGTH} characters")
    # (a printable string has none of those categories: only the others need the character check)
    if not raw.isprintable() and any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn")
                                     for ch in raw if ch not in "\t"):
        raise InvalidAnswer(raw.encode("unicode_escape").decode(), "control characters", "plain text")
    return " ".join(raw.split())


@dataclass(frozen=True)
class Ask(Generic[T]):
    """A question for the table. `section` names the rulebook section that governs it.

    `end_check` is False while effects the rulebook treats as simultaneous are still settling:
    the driver then does not check for the end of the game until the next question."""

    prompt: str
    section: str = ""
    default: str | None = None
    end_check: bool = field(default=True, kw_only=True)

    def parse(self, raw: str) -> T:
        text = clean(raw)
        if not text and self.default is not None:
            text = self.default
        if not text:
            raise InvalidAnswer(raw, "no answer given", self.allowed())
        return self._parse(text)

    def _parse(self, text: str) -> T:
        raise NotImplementedError

    def encode(self, value: T) -> str:
        return str(value)

    def allowed(self) -> str:
        raise NotImplementedError

    def suggestions(self) -> list[str]:
        """Answers worth offering for completion."""
        return []

    def passes_on(self, raw: str) -> bool:
        """Whether a line given here confirms this question and answers the next one instead (a
        table step's: see TableStep). No other question does so."""
        return False


def _match_option(text: str, labels: Sequence[str], numbers: Sequence[int]) -> int:
    """The index of an option by its number, exact label, or unique prefix, ignoring case.
    Raises InvalidAnswer; an ambiguous prefix names its candidates."""
    lowered = text.lower()
    exact = [index for index, label in enumerate(labels) if label.lower() == lowered]
    if not exact and singular_after_one(lowered) != lowered:
        # An option labelled before its plural was right ('1 gems', now '1 gem'), as older logs
        # and answer files hold it.
        former = singular_after_one(lowered)
        exact = [index for index, label in enumerate(labels) if singular_after_one(label.lower()) == former]
    if exact:  # a label wins over a number: an option may be named "2 coins"
        return exact[0]
    if re.fullmatch(r"[0-9]{1,3}", lowered):
        if int(lowered) in numbers:
            return list(numbers).index(int(lowered))
        raise InvalidAnswer(text, "no option with that number", _listing(labels, numbers))
    prefixed = [index for index, label in enumerate(labels) if label.lower().startswith(lowered)]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        candidates = " or ".join(labels[index] for index in prefixed)
        raise InvalidAnswer(text, f"more than one option begins so ({candidates})", _listing(labels, numbers))
    raise InvalidAnswer(text, "not one of the options", _listing(labels, numbers))


def _listing(labels: Sequence[str], numbers: Sequence[int]) -> str:
    return ", ".join(f"{number}={label}" for number, label in zip(numbers, labels, strict=True))


@dataclass(frozen=True)
class Choice(Ask[T]):
    """Pick one of a few options: by number, by label, or by a unique first letter or prefix.

    `options` are the labels the table sees and the log records; `values` (parallel to them) are
    what the flow receives. Without values, the labels themselves are the values. Build typed
    choices with `pick`, plain ones with `choice`. `numbers` gives each option a number of its own,
    so that an action keeps its number from turn to turn (with a gap where one is not offered);
    without them the options are numbered 1, 2, 3..."""

    options: tuple[str, ...] = ()
    values: tuple[T, ...] = ()
    numbers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"a choice needs at least one option: {self.prompt!r}")
        if self.values and len(self.values) != len(self.options):
            raise ValueError(f"options and values differ in length: {self.prompt!r}")
        if not self.numbers:
            object.__setattr__(self, "numbers", tuple(range(1, len(self.options) + 1)))
        if len(self.numbers) != len(self.options) or len(set(self.numbers)) != len(self.numbers):
            raise ValueError(f"each option needs a number of its own: {self.prompt!r}")
        lowered = [label.lower() for label in self.options]
        if len(set(lowered)) != len(lowered):
            raise ValueError(f"two options share a label: {self.options!r}")

    def _parse(self, text: str) -> T:
        index = _match_option(text, self.options, self.numbers)
        return self.values[index] if self.values else cast(T, self.options[index])

    def encode(self, value: T) -> str:
        if not self.values:
            return str(value)
        for label, option in zip(self.options, self.values, strict=True):
            if option is value or option == value:
                return label
        raise ValueError(f"{value!r} is not among the values of {self.prompt!r}")

    def former_label(self, raw: str) -> bool:
        """Whether `raw` names an option by the label it had before its plural was right ('1 gems'
        for '1 gem'), as older logs hold it."""
        lowered = clean(raw).lower()
        former = singular_after_one(lowered)
        return former != lowered and lowered not in (label.lower() for label in self.options) and any(
            singular_after_one(label.lower()) == former for label in self.options)

    def label_of(self, raw: str) -> str:
        """The label an answer picks (what the log records)."""
        return self.options[_match_option(clean(raw), self.options, self.numbers)]

    def allowed(self) -> str:
        return _listing(self.options, self.numbers)

    def suggestions(self) -> list[str]:
        return list(self.options)


def choice(prompt: str, section: str, labels: Iterable[str], default: str | None = None) -> Choice[str]:
    """A choice whose answer is the chosen label itself."""
    return Choice(prompt, section, default, options=tuple(labels))


def pick(prompt: str, section: str, options: Iterable[tuple[str, T]], default: str | None = None) -> Choice[T]:
    """A choice of (label, value) pairs: the table sees and the log records the label, the flow
    receives the value (a player, a territory, an action)."""
    pairs = tuple(options)
    return Choice(prompt, section, default, options=tuple(label for label, _ in pairs),
                  values=tuple(value for _, value in pairs))


def pick_numbered(
    prompt: str, section: str, options: Iterable[tuple[int, str, T]], default: str | None = None
) -> Choice[T]:
    """A choice whose options keep fixed numbers: (number, label, value) triples."""
    triples = tuple(options)
    return Choice(prompt, section, default, options=tuple(label for _, label, _ in triples),
                  values=tuple(value for _, _, value in triples), numbers=tuple(number for number, _, _ in triples))


@dataclass(frozen=True)
class Number(Ask[int]):
    """A whole number within bounds."""

    minimum: int = 0
    maximum: int = 99

    def _parse(self, text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,6}", text):
            raise InvalidAnswer(text, "not a whole number", self.allowed())
        value = int(text)
        if not self.minimum <= value <= self.maximum:
            raise InvalidAnswer(text, "out of range", self.allowed())
        return value

    def allowed(self) -> str:
        return f"a whole number from {self.minimum} to {self.maximum}"


YES = ("y", "yes", "true", "1")
NO = ("n", "no", "false", "0")


@dataclass(frozen=True)
class Confirm(Ask[bool]):
    """Yes or no."""

    def _parse(self, text: str) -> bool:
        lowered = text.lower()
        if lowered in YES:
            return True
        if lowered in NO:
            return False
        raise InvalidAnswer(text, "not yes or no", self.allowed())

    def encode(self, value: bool) -> str:
        return "yes" if value else "no"

    def allowed(self) -> str:
        return "y(es) or n(o)"

    def suggestions(self) -> list[str]:
        return ["yes", "no"]


@dataclass(frozen=True)
class Dice(Ask[tuple[int, ...]]):
    """One value per named die, each one of the die's faces. '2 0 1 3', '2,0,1,3' or '2013'."""

    faces: tuple[int, ...] = ()
    names: tuple[str, ...] = ()

    def _parse(self, text: str) -> tuple[int, ...]:
        parts = re.split(r"[\s,;/]+", text.strip(" ,;/"))
        if len(parts) == 1 and re.fullmatch(r"[0-9]+", parts[0]) and len(parts[0]) == len(self.names) > 1:
            parts = list(parts[0])
        if len(parts) != len(self.names) or not all(re.fullmatch(r"[0-9]{1,3}", part) for part in parts):
            raise InvalidAnswer(text, f"expected {len(self.names)} die values", self.allowed())
        values = tuple(int(part) for part in parts)
        for name, value in zip(self.names, values, strict=True):
            if value not in self.faces:
                raise InvalidAnswer(text, f"{name} die cannot show {value}", self.allowed())
        return values

    def encode(self, value: tuple[int, ...]) -> str:
        return " ".join(str(v) for v in value)

    def allowed(self) -> str:
        faces = ", ".join(str(face) for face in sorted(set(self.faces)))
        return f"{len(self.names)} values in the order {' '.join(self.names)}, each one of {faces}"


@dataclass(frozen=True)
class Parsed(Ask[T]):
    """A free-form answer read by a game-specific parser (e.g. a card's trigger: 'guild 5').

    The parser raises InvalidAnswer or ValueError; `hint` says what is allowed. The parser must be
    deterministic so the log replays identically; `encode` keeps the cleaned text.
    """

    parser: Callable[[str], T] = field(default=lambda text: cast(T, text), compare=False)
    hint: str = ""
    examples: tuple[str, ...] = ()
    formatter: Callable[[T], str] | None = field(default=None, compare=False)
    """Writes a value back as text the parser reads; needed where a value is kept (a card's field)."""

    def _parse(self, text: str) -> T:
        try:
            return self.parser(text)
        except InvalidAnswer:
            raise
        except ValueError as error:
            raise InvalidAnswer(text, str(error) or "not understood", self.allowed()) from None

    def encode(self, value: T) -> str:
        # The log keeps the text the table typed (see canonical); a kept value needs a formatter.
        if self.formatter is None:
            raise NotImplementedError(f"no formatter to write back an answer to {self.prompt!r}")
        return self.formatter(value)

    def allowed(self) -> str:
        return self.hint

    def suggestions(self) -> list[str]:
        return list(self.examples)


CONFIRMATIONS = ("done", "ok", "next")
"""What confirms a table step (Enter gives "done")."""


@dataclass(frozen=True)
class TableStep(Ask[None]):
    """The table carries something out by hand (a card's text, an ability, an event).

    Corrections may be entered while it is pending; Enter (or 'done') confirms it, and only then
    does the flow go on to what it automates next, which so sees every correction. An answer to
    the question after the step also confirms it (logs written before a step existed replay so)."""

    default: str | None = "done"

    def _parse(self, text: str) -> None:
        if text.lower() not in CONFIRMATIONS:
            raise InvalidAnswer(text, "the table step is not confirmed", self.allowed())

    def encode(self, value: None) -> str:
        return "done"

    def passes_on(self, raw: str) -> bool:
        try:
            return clean(raw).lower() not in (*CONFIRMATIONS, "")
        except InvalidAnswer:  # no question takes it: the step's own reading refuses it
            return False

    def allowed(self) -> str:
        return "Enter (or 'done') once the table has done it; corrections first with 'adjust'"

    def suggestions(self) -> list[str]:
        return ["done"]


class Notice:
    """Something a flow hands the engine without asking the table (e.g. a card to remember);
    the driver takes it and sends None straight back."""


Builder = Callable[[], Ask[T]]
"""A question given as a function of the current state, built again after every correction."""
Question = Ask[Any] | Callable[[], Ask[Any]] | Notice
"""What a flow yields: an Ask, a builder of one, or a notice for the engine."""


def ask(question: Ask[T] | Builder[T]) -> Generator[Question, Any, T]:
    """Ask the table and receive the typed answer: `value = yield from ask(Number(...))`."""
    answer = yield question
    return cast(T, answer)


def table_step(prompt: str, section: str = "") -> Generator[Question, Any, None]:
    """Say what the table does by hand; continue once it has confirmed (corrections before)."""
    yield TableStep(prompt, section)


def build(question: Ask[Any] | Callable[[], Ask[Any]]) -> Ask[Any]:
    """The Ask a yielded question stands for now."""
    return question if isinstance(question, Ask) else question()


def canonical(ask: Ask[Any], raw: str, value: Any) -> str:
    """The text to log for an accepted answer: canonical where the Ask can encode it."""
    if isinstance(ask, Parsed):
        text = clean(raw)
        return text if text else (ask.default or "")
    if isinstance(ask, Choice) and ask.former_label(raw):
        return clean(raw)  # an older log replayed is the same log: its label stays as it was written
    return ask.encode(value)
