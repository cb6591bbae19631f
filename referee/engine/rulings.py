"""Rulings as a game declares them: each one's name and every value it may take, typed.

A ruling is a reading the referee takes where a rulebook is silent; the rulebook's TOML gives its
default and the table may choose another value (`--ruling NAME=VALUE`). A game declares each of
its rulings once, with its values as a Literal type:

    TriggerTiming = Literal["after", "before"]
    TRIGGER_AFTER_DICE = Ruling[TriggerTiming]("trigger-after-dice", get_args(TriggerTiming))

and reads it as `TRIGGER_AFTER_DICE.of(table.rulings) == "before"`: the type checker refuses a
comparison with a value the ruling does not have, and `of` refuses a state without the ruling.
Its RulingSet holds the declarations against the TOML when the game loads: a ruling the TOML
offers and the game does not declare, a declared one the TOML lacks, a default or a choice that is
not a declared value, each stops the game from loading. The state keeps the chosen values as a
plain mapping of names to values, as the session log and the exports have always had them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from referee.engine import facts
from referee.errors import SessionError

V = TypeVar("V", bound=str)


class RulingsMismatch(ValueError):
    """A game's declared rulings and its rulebook's TOML disagree: the game does not load."""


@dataclass(frozen=True)
class Ruling(Generic[V]):
    """One ruling: its name (as in the rulebook and `--ruling`) and every value it may take."""

    name: str
    values: tuple[V, ...]

    def of(self, rulings: Mapping[str, str]) -> V:
        """The value chosen for this ruling in a state's rulings."""
        value = rulings[self.name]
        if value not in self.values:
            raise RulingsMismatch(f"ruling {self.name} has no value {value!r}; its values: {', '.join(self.values)}")
        return value


@dataclass(frozen=True)
class RulingSet:
    """A game's rulings, held against its rulebook's TOML when built (see the module)."""

    rulebook: str | None = None
    """The rulebook whose TOML gives the defaults; None for a game without overridable rulings."""
    declared: tuple[Ruling[Any], ...] = ()
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each ruling's values, its default first (the TOML's order after it)."""

    @classmethod
    def of(cls, rulebook: str, *declared: Ruling[Any]) -> RulingSet:
        """The declared rulings of `rulebook`, checked against its TOML now."""
        return cls(rulebook, declared, checked(rulebook, declared, facts.ruling_choices(rulebook)))

    def __iter__(self) -> Iterator[Ruling[Any]]:
        return iter(self.declared)

    def defaults(self) -> dict[str, str]:
        return {name: values[0] for name, values in self.choices.items()}

    def chosen(self, options: Mapping[str, Any]) -> dict[str, str]:
        """Each ruling's default, with the table's overrides from options["rulings"]."""
        rulings = self.defaults()
        overrides = options.get("rulings", {})
        if not isinstance(overrides, Mapping):
            raise SessionError("rulings are given as NAME=VALUE pairs")
        for ruling, value in overrides.items():
            if ruling not in self.choices or value not in self.choices[ruling]:
                allowed = "; ".join(f"{key}={'|'.join(values)}" for key, values in self.choices.items())
                raise SessionError(f"unknown ruling override {ruling}={value}; allowed: {allowed}")
            rulings[ruling] = value
        return rulings


def checked(
    rulebook: str, declared: Sequence[Ruling[Any]], written: Mapping[str, tuple[str, ...]]
) -> dict[str, tuple[str, ...]]:
    """The TOML's choices of each declared ruling; RulingsMismatch where the two disagree."""
    names = [ruling.name for ruling in declared]
    undeclared = [name for name in written if name not in names]
    if undeclared:
        raise RulingsMismatch(f"{rulebook}: the TOML offers rulings the game does not declare: {', '.join(undeclared)}")
    result = {}
    for ruling in declared:
        if ruling.name not in written:
            raise RulingsMismatch(f"{rulebook}: ruling {ruling.name} is declared but not in the TOML")
        values = written[ruling.name]
        unknown = [value for value in values if value not in ruling.values]
        if unknown:
            raise RulingsMismatch(
                f"{rulebook}: ruling {ruling.name} has no value {unknown[0]!r} (the TOML's "
                f"{'default' if unknown[0] == values[0] else 'choice'}); its values: {', '.join(ruling.values)}"
            )
        missing = [value for value in ruling.values if value not in values]
        if missing:
            raise RulingsMismatch(f"{rulebook}: the TOML does not offer {ruling.name}={missing[0]}")
        result[ruling.name] = values
    return result
