"""Cards the table can name: the referee learns a card's printed numbers once.

The rulebooks leave the printed cards out, so a flow asks for a card's numbers (its faction, its
trigger, its value...) as the card comes out. With a CardQuestion as the first of those questions,
the table may answer with the card's printed name instead:

- a name the user's catalogue knows fills in every printed field at once (no more questions);
- `card NAME` names a new card: its fields are asked as usual, then remembered under the name;
- an ordinary answer to the first question goes on as before, and nothing is remembered.

The flow reads each printed field with `card_field`, which asks only what the card does not tell
yet, and ends with `remember`, which hands what was learned to the session (the engine stores it
in the catalogue). The log records a known card with all its fields, so a replay never depends on
the catalogue as it is later.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from referee.asks import Ask, Notice, Question, canonical
from referee.errors import InvalidAnswer

T = TypeVar("T")
CARD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ',.:!&-]{0,47}")
"""A printed card name: letters, digits, spaces and a little punctuation; at most 48 characters."""
Catalogue = Mapping[str, Mapping[str, Mapping[str, str]]]
"""kind id -> card name -> printed field -> its canonical answer text."""


@dataclass(frozen=True)
class CardKind:
    """A kind of printed card (e.g. Blackthorn's faction cards) and its printed fields, in order,
    each with the question that reads it: the one source of its bounds, for play and for import."""

    id: str
    noun: str
    fields: tuple[tuple[str, Ask[Any]], ...]

    def field_names(self) -> list[str]:
        return [name for name, _ in self.fields]

    def check(self, printed: Mapping[str, object]) -> dict[str, str]:
        """Each field's text read by its question and written canonically; raises ValueError naming
        the field that is unknown or out of bounds."""
        questions = dict(self.fields)
        result = {}
        for name, text in printed.items():
            if name not in questions:
                raise ValueError(f"{self.noun} has no field {name!r}; fields: {', '.join(questions)}")
            if not isinstance(text, str | int) or isinstance(text, bool):
                raise ValueError(f"field {name}: {text!r} is not text")
            question = questions[name]
            try:
                result[name] = canonical(question, str(text), question.parse(str(text)))
            except InvalidAnswer as error:
                raise ValueError(f"field {name}: {error}") from None
        return result


@dataclass
class Card:
    """A card as the table gave it: its printed name (None when only numbers were given) and its
    printed fields known so far, as canonical answer texts."""

    kind: str
    name: str | None
    printed: dict[str, str] = field(default_factory=dict)
    learned: bool = False
    """True once a field was asked that the catalogue should remember under the name."""


@dataclass(frozen=True)
class Remember(Notice):
    """Yielded by a flow (through `remember`): a named card's printed fields to keep. The driver
    takes it without a question; a live session writes it into the catalogue."""

    kind: str
    name: str
    printed: Mapping[str, str]


@dataclass(frozen=True)
class CardQuestion(Ask[Card]):
    """The first question about a card, answerable also by the card's printed name.

    `inner` reads the ordinary answer for the field `first`. `known` is the catalogue of this kind,
    filled in by the driver; the flow leaves it empty."""

    kind: CardKind = field(default_factory=lambda: CardKind("", "", ()))
    first: str = ""
    inner: Ask[Any] = field(default_factory=lambda: Ask(""))
    known: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)

    def _parse(self, text: str) -> Card:
        if text.lower().startswith("card "):
            return self._named(text[len("card ") :].strip())
        try:
            value = self.inner.parse(text)
        except InvalidAnswer as error:
            known = self._known(text)
            if known is not None:
                return known
            raise InvalidAnswer(text, error.problem, self.allowed()) from None
        return Card(self.kind.id, None, {self.first: canonical(self.inner, text, value)})

    def _named(self, rest: str) -> Card:
        """'NAME' (a new card: its fields are asked) or 'NAME {...}' (a card as the log keeps it)."""
        name, brace, record = rest.partition(" {")
        name = name.strip()
        if not CARD_NAME.fullmatch(name):
            raise InvalidAnswer(rest, "not a card name", "letters, digits and spaces, at most 48 characters")
        if not brace:
            return Card(self.kind.id, name, {})
        try:
            printed = json.loads("{" + record)
            if not isinstance(printed, dict):
                raise ValueError("not an object")
            return Card(self.kind.id, name, self.kind.check(printed))
        except ValueError as error:
            raise InvalidAnswer(rest, f"the card's printed fields do not read ({error})", self.allowed()) from None

    def _known(self, text: str) -> Card | None:
        wanted = text.lower()
        for name, printed in self.known.items():
            if name.lower() == wanted:
                return Card(self.kind.id, name, dict(printed))
        return None

    def encode(self, value: Card) -> str:
        if value.name is None:
            return value.printed[self.first]
        if not value.printed:
            return f"card {value.name}"
        return f"card {value.name} {json.dumps(value.printed, sort_keys=True, ensure_ascii=False)}"

    def allowed(self) -> str:
        names = f"a known {self.kind.noun} by name, " if self.known else ""
        return f"{self.inner.allowed()}; or {names}'card NAME' for a new {self.kind.noun}"

    def suggestions(self) -> list[str]:
        return [*self.inner.suggestions(), *sorted(self.known)]


def ask_card(kind: CardKind, first: str, inner: Ask[Any]) -> Generator[Question, Any, Card]:
    """Ask the first question about a card; the answer may name the card."""
    card = yield CardQuestion(inner.prompt, inner.section, inner.default, kind=kind, first=first, inner=inner)
    assert isinstance(card, Card)
    return card


def card_field(card: Card, name: str, question: Ask[T]) -> Generator[Question, Any, T]:
    """A printed field of the card: from what the card already tells, else asked (and noted)."""
    if name in card.printed:
        return question.parse(card.printed[name])
    value: T = yield question
    card.printed[name] = question.encode(value)
    card.learned = card.name is not None
    return value


def remember(card: Card) -> Generator[Question, Any, None]:
    """Hand a named card's newly asked fields to the catalogue (nothing for an unnamed card)."""
    if card.name is not None and card.learned:
        yield Remember(card.kind, card.name, dict(card.printed))


def with_catalogue(question: Ask[Any], catalogue: Catalogue) -> Ask[Any]:
    """The question as the table meets it: a card question knows the catalogue's cards of its kind."""
    if isinstance(question, CardQuestion) and question.kind.id in catalogue:
        from dataclasses import replace

        return replace(question, known=catalogue[question.kind.id])
    return question

