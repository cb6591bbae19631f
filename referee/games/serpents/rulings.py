"""The readings the end-of-game count takes where the Council of Serpents rulebook is silent.

Every ruling and its choices (the default first) are in rulebooks/council-of-serpents.toml, read
through referee.engine.facts; the score input and a guided session take their overrides from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.engine.facts import ruling_choices
from referee.errors import ScoreInputError
from referee.outcome import require_mapping

RULEBOOK = "council-of-serpents"
SCORE_RULINGS = ("track-ends", "ambition-deck", "triumph-and-collapse", "keeper-wins-without-house-end")
"""The rulings that decide an end-of-game count; the others belong to play."""


@dataclass(frozen=True)
class Rulings:
    """The rulings the end-of-game count applies, as chosen for the game, and which of them the
    table overrode."""

    track_ends: str = "strict"
    """strict: attributes from 0 to 13 only; clamp: any whole number, read against the symbols."""
    triumph_and_collapse: str = "both"
    """Which fate counts for a House with one marker on Triumph and another on Collapse."""
    keeper_wins_without_house_end: bool = True
    """With a Keeper of Balance and no House ended, the Influence deck ran out: the Keeper wins."""
    overridden: tuple[str, ...] = ()
    """Ids the table overrode, to say so in the report."""


def score_ruling_choices() -> dict[str, tuple[str, ...]]:
    choices = ruling_choices(RULEBOOK)
    return {ruling: choices[ruling] for ruling in SCORE_RULINGS}


def rulings_from(chosen: Mapping[str, str]) -> Rulings:
    """The count's rulings from each ruling's chosen value (defaults where none is given)."""
    choices = score_ruling_choices()
    values = {ruling: chosen.get(ruling, options[0]) for ruling, options in choices.items()}
    return Rulings(
        track_ends=values["track-ends"],
        triumph_and_collapse=values["triumph-and-collapse"],
        keeper_wins_without_house_end=values["keeper-wins-without-house-end"] == "true",
        overridden=tuple(ruling for ruling in SCORE_RULINGS if values[ruling] != choices[ruling][0]),
    )


def _as_choice(value: object) -> str | None:
    """A JSON value as a ruling's choice: true/false for a yes-or-no ruling, a word for the others."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else None


def parse_rulings(data: object) -> Rulings:
    """The `rulings` object of the score input: known ids only, each set to one of its choices."""
    overrides: Mapping[str, Any] = require_mapping(data, None, "rulings")
    choices = score_ruling_choices()
    chosen: dict[str, str] = {}
    for ruling, value in overrides.items():
        if ruling not in choices:
            raise ScoreInputError(None, f"rulings.{ruling}", value, "known rulings: " + ", ".join(choices))
        shown = _as_choice(value)
        if shown is None or shown not in choices[ruling]:
            raise ScoreInputError(None, f"rulings.{ruling}", value, " or ".join(choices[ruling]))
        chosen[ruling] = shown
    return rulings_from(chosen)
