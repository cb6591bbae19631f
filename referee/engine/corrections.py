"""One grammar for the table's corrections, read by the engine for every game.

    adjust WHO FIELD +N|-N|=N ; reason

WHO is a player or another thing the game names (a territory, a House, the dice), matched by its
whole name, ignoring case; some fields belong to the game itself and take no WHO. FIELD is one of
the fields the game declares for that kind of thing, by name or unique prefix. A Counter field
takes a signed change or a new value, checked against its bounds; an Action field reads the rest
of the line itself (e.g. 'Marrow plague', 'Ann marries Bo'). A bare number is refused: it could
mean a change or a value.

A game declares its fields once (`Game.correction_fields`) with how to read and write each, its
bounds and whether it is hidden; the engine parses, checks and describes the change. A hidden
field's new value is never part of the description, which goes on the shared screen. A line is
read once (`parse`) into a Correction, which is then applied (`apply`) and told by it; the driver
keeps the last one read, so that a line read as it is typed (to mask a hidden amount) is not
read again when it is entered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from referee.errors import InvalidAdjustment

S = TypeVar("S")

GAME = "game"
"""The kind of the fields that belong to the game itself: they take no WHO (e.g. 'adjust end')."""
PLAYER = "player"

CHANGE = re.compile(r"(?P<sign>[+=-])\s*(?P<amount>[0-9]{1,4})")
FORMS = "+N (add), -N (take away) or =N (set)"


@dataclass(frozen=True)
class Target:
    """Something a correction can name: a player, a territory, a House, the dice..."""

    name: str
    kind: str = PLAYER


@dataclass(frozen=True)
class Counter(Generic[S]):
    """A whole-number field: the engine computes the new value and checks it against the bounds;
    `write` may still refuse it (InvalidAdjustment) for a rule the bounds cannot say."""

    name: str
    read: Callable[[S, str], int]
    write: Callable[[S, str, int], None]
    bounds: Callable[[S, str], tuple[int, int]] = lambda state, who: (0, 9999)
    kind: str = PLAYER
    hidden: bool = False
    about: str = ""


@dataclass(frozen=True)
class Action(Generic[S]):
    """A field with a form of its own: `apply(state, who, rest)` reads the rest of the line, changes
    the state and returns what changed (no hidden value in it), or raises InvalidAdjustment.

    Its line may carry a hidden amount (a payment between purses), so it is `hidden` unless the
    game says that everything the line names is open to the table (a faction level, a die)."""

    name: str
    apply: Callable[[S, str, str], str]
    form: str
    kind: str = PLAYER
    about: str = ""
    hidden: bool = True


Field = Counter[S] | Action[S]


@dataclass(frozen=True)
class Correction(Generic[S]):
    """A correction as read: whom it names (a name, or '' for the game itself), which field, and
    the rest of the line (its change, or an Action's own form)."""

    who: str
    field: Field[S]
    rest: str

    @property
    def keeps_amount_hidden(self) -> bool:
        """Its amount stays off the shared screen as it is typed: a hidden field's."""
        return isinstance(self.field, Counter) and self.field.hidden

    @property
    def told_by_name_only(self) -> bool:
        """Told on the shared screen by what it was about, not by what it changed: a hidden count,
        or a form of its own that may carry one (a payment between purses)."""
        return self.field.hidden


def read_change(rest: str, field_name: str) -> tuple[str, int]:
    """'+N', '-N' or '=N' as (sign, amount); a bare number or anything else is refused."""
    text = rest.strip()
    match = CHANGE.fullmatch(text)
    if match:
        return match["sign"], int(match["amount"])
    if re.fullmatch(r"[0-9]{1,4}", text):
        raise InvalidAdjustment(f"a bare number is ambiguous for {field_name}: write {FORMS}, e.g. +{text} or ={text}")
    raise InvalidAdjustment(f"cannot read {text!r} for {field_name}: write {FORMS}")


def changed_value(current: int, sign: str, amount: int) -> int:
    if sign == "=":
        return amount
    return current + amount if sign == "+" else current - amount


def apply(correction: Correction[S], state: S) -> str:
    """Apply a read correction; returns what changed for the shared screen (no hidden value)."""
    who, field, rest = correction.who, correction.field, correction.rest
    if isinstance(field, Action):
        return field.apply(state, who, rest)
    sign, amount = read_change(rest, field.name)
    current = field.read(state, who)
    new = changed_value(current, sign, amount)
    low, high = field.bounds(state, who)
    owner = f"{who}'s " if who else ""
    if not low <= new <= high:
        shown = "" if field.hidden else f" (it is {current})"
        raise InvalidAdjustment(f"{owner}{field.name} would be {new}{shown}; allowed: {low} to {high}")
    field.write(state, who, new)
    if field.hidden:
        return f"{owner}{field.name} changed (hidden)"
    return f"{owner}{field.name} {current} -> {new}"


def parse(text: str, targets: Sequence[Target], fields: Sequence[Field[S]]) -> Correction[S]:
    """Read a correction: WHO is the longest target name the line starts with (InvalidAdjustment
    says what does not read)."""
    words = text.split()
    if not words:
        raise InvalidAdjustment(f"say what to correct: {usage(targets, fields)}")
    lowered = [word.lower() for word in words]
    names = sorted(((target.name.lower().split(), target) for target in targets), key=lambda named: -len(named[0]))
    for name_words, target in names:  # the longest name first: 'Red Keep' before 'Red'
        if lowered[: len(name_words)] == name_words:
            rest = words[len(name_words) :]
            return Correction(target.name, pick_field(target.name, target.kind, rest, fields), " ".join(rest[1:]))
    own = [field for field in fields if field.kind == GAME]
    if own:
        field = match_field(words[0], own)
        if field is not None:
            return Correction("", field, " ".join(words[1:]))
    known = ", ".join(target.name for target in targets)
    raise InvalidAdjustment(
        f"a correction starts with who it is about ({known}), not {words[0]!r}; {usage(targets, fields)}"
    )


def pick_field(who: str, kind: str, rest: Sequence[str], fields: Sequence[Field[S]]) -> Field[S]:
    own = [field for field in fields if field.kind == kind]
    if not rest:
        raise InvalidAdjustment(f"say which field of {who} to correct: {', '.join(field.name for field in own)}")
    field = match_field(rest[0], own)
    if field is None:
        raise InvalidAdjustment(f"{who} has no field {rest[0]!r}; fields: {', '.join(field.name for field in own)}")
    return field


def match_field(word: str, fields: Sequence[Field[S]]) -> Field[S] | None:
    lowered = word.lower()
    exact = [field for field in fields if field.name == lowered]
    if exact:
        return exact[0]
    prefixed = [field for field in fields if field.name.startswith(lowered)]
    return prefixed[0] if len(prefixed) == 1 else None


def usage(targets: Sequence[Target], fields: Sequence[Field[S]]) -> str:
    """The correction forms of a game, one line: its fields by kind, the fields of one kind that
    take the same form named together."""
    parts = []
    kinds = list(dict.fromkeys(field.kind for field in fields))
    for kind in kinds:
        own = [field for field in fields if field.kind == kind]
        counters = [field.name for field in own if isinstance(field, Counter)]
        forms: dict[str, list[str]] = {}
        for field in own:
            if isinstance(field, Action):
                forms.setdefault(field.form, []).append(field.name)
        who = "" if kind == GAME else f"<{kind}> "
        if counters:
            parts.append(f"{who}<{'|'.join(counters)}> <+N|-N|=N>")
        for form, names in forms.items():
            named = names[0] if len(names) == 1 else f"<{'|'.join(names)}>"
            parts.append(f"{who}{named} {form}".strip())
    return "adjust " + "; or ".join(parts) + " ; reason"
