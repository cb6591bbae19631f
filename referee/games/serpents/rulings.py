"""The readings the referee takes where the Council of Serpents rulebook is silent, and overrides.

Each id matches a `### ... {#ruling-<id>}` section of rulebooks/council-of-serpents.md and a
`[rulings.<id>]` table of rulebooks/council-of-serpents.toml; the first choice is the default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.errors import ScoreInputError
from referee.outcome import require_mapping

RULING_CHOICES: dict[str, tuple[object, ...]] = {
    "track-ends": ("strict", "clamp"),
    "ambition-deck": ("house-fates",),
    "triumph-and-collapse": ("both", "triumph", "collapse"),
    "keeper-wins-without-house-end": (True, False),
}


@dataclass(frozen=True)
class Rulings:
    track_ends: str = "strict"
    """strict: attributes from 0 to 13 only; clamp: any whole number, read against the symbols."""
    triumph_and_collapse: str = "both"
    """Which fate counts for a House with one marker on Triumph and another on Collapse."""
    keeper_wins_without_house_end: bool = True
    """With a Keeper of Balance and no House ended, the Influence deck ran out: the Keeper wins."""
    overridden: tuple[str, ...] = ()
    """Ids the table overrode, to say so in the report."""


def _shown(choice: object) -> str:
    if isinstance(choice, bool):
        return "true" if choice else "false"
    return str(choice)


def parse_rulings(data: object) -> Rulings:
    """The `rulings` object of the score input: known ids only, each set to one of its choices."""
    overrides: Mapping[str, Any] = require_mapping(data, None, "rulings")
    values: dict[str, object] = {ruling: choices[0] for ruling, choices in RULING_CHOICES.items()}
    for ruling, value in overrides.items():
        if ruling not in RULING_CHOICES:
            known = "known rulings: " + ", ".join(RULING_CHOICES)
            raise ScoreInputError(None, f"rulings.{ruling}", value, known)
        choices = RULING_CHOICES[ruling]
        # A bool is an int in Python; compare types too so that 1 does not pass for true.
        if not any(type(value) is type(choice) and value == choice for choice in choices):
            allowed = " or ".join(_shown(choice) for choice in choices)
            raise ScoreInputError(None, f"rulings.{ruling}", value, allowed)
        values[ruling] = value
    return Rulings(
        track_ends=str(values["track-ends"]),
        triumph_and_collapse=str(values["triumph-and-collapse"]),
        keeper_wins_without_house_end=bool(values["keeper-wins-without-house-end"]),
        overridden=tuple(ruling for ruling in overrides if overrides[ruling] != RULING_CHOICES[ruling][0]),
    )
