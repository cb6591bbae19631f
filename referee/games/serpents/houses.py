"""The three noble Houses, their attribute tracks, and when a House Triumphs or Collapses."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

HOUSES = ("clay", "jane", "rowel")
ATTRIBUTES = ("wealth", "popularity", "strength")

LOWEST_PLAYING_VALUE = 1
HIGHEST_PLAYING_VALUE = 12
COLLAPSE_VALUE = LOWEST_PLAYING_VALUE - 1
"""The Collapse symbol, entered as 0 (ruling track-ends)."""
TRIUMPH_VALUE = HIGHEST_PLAYING_VALUE + 1
"""The Triumph symbol, entered as 13 (ruling track-ends)."""


class Fate(Enum):
    """What an Ambition card foretells for a House."""

    TRIUMPHS = "triumphs"
    COLLAPSES = "collapses"


@dataclass(frozen=True)
class House:
    """One House's three attribute values at the end of play."""

    name: str
    wealth: int
    popularity: int
    strength: int

    @property
    def title(self) -> str:
        return f"House {self.name.capitalize()}"

    def attributes(self) -> dict[str, int]:
        return {"wealth": self.wealth, "popularity": self.popularity, "strength": self.strength}

    def on_triumph(self) -> list[str]:
        """Attributes above the highest playing value, i.e. on the Triumph symbol."""
        return [name for name, value in self.attributes().items() if value > HIGHEST_PLAYING_VALUE]

    def on_collapse(self) -> list[str]:
        """Attributes below the lowest playing value, i.e. on the Collapse symbol."""
        return [name for name, value in self.attributes().items() if value < LOWEST_PLAYING_VALUE]

    def reached_fates(self) -> set[Fate]:
        """Every end this House has reached; both when one marker Triumphs and another Collapses."""
        fates: set[Fate] = set()
        if self.on_triumph():
            fates.add(Fate.TRIUMPHS)
        if self.on_collapse():
            fates.add(Fate.COLLAPSES)
        return fates


def describe_fate(house: House, fate: Fate) -> str:
    """'House Jane triumphs (popularity 13)': the end and the attributes that caused it."""
    causes = house.on_triumph() if fate is Fate.TRIUMPHS else house.on_collapse()
    values = ", ".join(f"{attribute} {house.attributes()[attribute]}" for attribute in causes)
    return f"{house.title} {fate.value} ({values})"
