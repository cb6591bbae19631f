"""Cards the table can name: the referee learns a card's printed numbers once.

The rulebooks leave the printed cards out, so a flow asks for a card's numbers (its faction, its
trigger, its value...) as the card comes out. With a CardQuestion as the first of those questions,
the table may answer with the card's printed name instead:

- a name the user's catalogue knows fills in every printed field at once (no more questions);
- `card NAME` names a new card: its fields are asked as usual, then remembered under the name;
- an ordinary answer to the first question goes on as before, and nothing is remembered.

Where the flow knows the card's printed name already (the table typed it earlier, e.g. a territory
named at setup), it passes `name`: a card the catalogue knows is then the question's default (Enter
accepts it whole), and an ordinary answer is a field of that card, remembered under its name.

The flow reads each printed field with `card_field`, which asks only what the card does not tell
yet, and calls `remember`, which hands what was learned to the session (the engine stores it in
the catalogue). The log records a known card with all its fields, so a replay never depends on
the catalogue as it is later. A known card must fit the question as it stands: its first field is
read by the ordinary question, so a card the situation rules out (one the player cannot pay for)
is refused like any answer that does not fit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from referee.asks import Ask, Builder, Choice, Notice, Question, build, canonical
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

    `inner` reads the ordinary answer for the field `first`. `name` is the card's printed name
    when the flow knows it already. `known` is the catalogue of this kind, filled in by the driver;
    the flow leaves it empty."""

    kind: CardKind = field(default_factory=lambda: CardKind("", "", ()))
    first: str = ""
    inner: Ask[Any] = field(default_factory=lambda: Ask(""))
    known: Mapping[str, Mapping[str, str]] = field(default_factory=dict, compare=False)
    name: str | None = None

    def _parse(self, text: str) -> Card:
        if self.name is not None and text.lower() == self.name.lower():
            known = self._known(text)
            if known is not None:
                return self._fitting(known)
        if text.lower().startswith("card "):  # always the card as given: a log replays without the catalogue
            return self._fitting(self._named(text[len("card ") :].strip()))
        try:
            value = self.inner.parse(text)
        except InvalidAnswer as error:
            known = self._known(text) if self.name is None else None
            if known is not None:
                return self._fitting(known)
            raise InvalidAnswer(text, error.problem, self.allowed()) from None
        # An ordinary answer takes nothing from the catalogue, so that it means what it always did
        # (an answers file plays the same whatever the catalogue holds). Of a card the flow named,
        # it is a field to remember.
        return Card(self.kind.id, self.name, {self.first: canonical(self.inner, text, value)},
                    learned=self.name is not None)

    def _named(self, rest: str) -> Card:
        """'NAME' (a new card: its fields are asked) or 'NAME {...}' (a card as the log keeps it)."""
        name, brace, record = rest.partition(" {")
        name = name.strip()
        if not CARD_NAME.fullmatch(name):
            raise InvalidAnswer(rest, "not a card name", "letters, digits and spaces, at most 48 characters")
        if self.name is not None and name.lower() != self.name.lower():
            raise InvalidAnswer(rest, f"this card is {self.name}", self.allowed())
        if not brace:  # a new card: its fields follow, as asked (and as the log has them)
            return Card(self.kind.id, self.name or name, {})
        try:
            printed = json.loads("{" + record)
            if not isinstance(printed, dict):
                raise ValueError("not an object")
            return Card(self.kind.id, self.name or name, self.kind.check(printed))
        except ValueError as error:
            raise InvalidAnswer(rest, f"the card's printed fields do not read ({error})", self.allowed()) from None

    def _known(self, text: str) -> Card | None:
        wanted = text.lower()
        for name, printed in self.known.items():
            if name.lower() == wanted:
                return Card(self.kind.id, name, dict(printed))
        return None

    def _fitting(self, card: Card) -> Card:
        """A card given whole must fit the question now: its first field is an answer it takes."""
        text = card.printed.get(self.first)
        if text is not None:
            try:
                self.inner.parse(text)
            except InvalidAnswer as error:
                raise InvalidAnswer(
                    str(card.name), f"its {self.first} {text} does not fit now ({error.problem})", self.inner.allowed()
                ) from None
        return card

    def encode(self, value: Card) -> str:
        named_here = self.name is not None and value.name is not None and value.name.lower() == self.name.lower()
        plain = value.printed.get(self.first, "")
        if value.name is None or (named_here and set(value.printed) == {self.first}
                                  and plain.lower() != str(self.name).lower()):
            return plain  # an ordinary answer (of a card the flow named itself), which never reads as its name
        if not value.printed:
            return f"card {value.name}"
        return f"card {value.name} {json.dumps(value.printed, sort_keys=True, ensure_ascii=False)}"

    def allowed(self) -> str:
        if self.name is not None:
            known = self._known(self.name)
            if known is not None and self.first in known.printed:
                return f"{self.inner.allowed()}; or Enter for {known.name} as known"
            return self.inner.allowed()
        names = f"a known {self.kind.noun} by name, " if self.known else ""
        return f"{self.inner.allowed()}; or {names}'card NAME' for a new {self.kind.noun}"

    def suggestions(self) -> list[str]:
        if self.name is not None:
            return [*self.inner.suggestions(), *([self.name] if self._known(self.name) else [])]
        return [*self.inner.suggestions(), *sorted(self.known)]


@dataclass(frozen=True)
class CardChoice(CardQuestion, Choice[Card]):
    """A card question whose ordinary answer is one of a few options: it is shown, numbered and
    answered at a key like any choice, and a card's name may be typed instead."""


def card_question(kind: CardKind, first: str, inner: Ask[Any], name: str | None = None) -> CardQuestion:
    """The first question about a card as the table meets it (see CardQuestion)."""
    if isinstance(inner, Choice):
        return CardChoice(inner.prompt, inner.section, inner.default, options=inner.options, numbers=inner.numbers,
                          end_check=inner.end_check, kind=kind, first=first, inner=inner, name=name)
    return CardQuestion(inner.prompt, inner.section, inner.default, end_check=inner.end_check, kind=kind,
                        first=first, inner=inner, name=name)


def ask_card(
    kind: CardKind, first: str, inner: Ask[Any] | Builder[Any], name: str | None = None
) -> Generator[Question, Any, Card]:
    """Ask the first question about a card; the answer may name the card. Given as a builder, the
    ordinary question is built again after every correction, like any other."""
    if isinstance(inner, Ask):
        card = yield card_question(kind, first, inner, name)
    else:
        card = yield lambda: card_question(kind, first, build(inner), name)
    assert isinstance(card, Card)
    return card


def card_field(card: Card, name: str, question: Ask[T] | Builder[T]) -> Generator[Question, Any, T]:
    """A printed field of the card: from what the card already tells, else asked (and noted). The
    question may be a builder, built again after a correction like any other."""
    asked: Ask[T] = build(question)
    if name in card.printed:
        return asked.parse(card.printed[name])
    value: T = yield question
    card.printed[name] = build(question).encode(value)  # built now: a correction may have rebuilt it
    card.learned = card.name is not None
    return value


def remember(card: Card) -> Generator[Question, Any, None]:
    """Hand a named card's newly asked fields to the catalogue (nothing for an unnamed card). It may
    be called after each field: what was handed over is not handed over again."""
    if card.name is not None and card.learned:
        card.learned = False
        yield Remember(card.kind, card.name, dict(card.printed))


def with_catalogue(question: Ask[Any], catalogue: Catalogue) -> Ask[Any]:
    """The question as the table meets it: a card question knows the catalogue's cards of its kind."""
    if isinstance(question, CardQuestion) and question.kind.id in catalogue:
        from dataclasses import replace

        known = catalogue[question.kind.id]
        shown = replace(question, known=known)
        named = shown._known(question.name) if question.name is not None else None
        if named is not None and question.first in named.printed:
            return replace(shown, default=named.name)  # Enter accepts the card as known
        return shown
    return question

