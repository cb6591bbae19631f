"""Cutthroat Kingdoms gem scoring: full sets of all six colours and same-colour groups.

Each gem counts once, either in a full set (25 VP) or in its colour's group (the group's size
squared). Forming more full sets is not always better, so every possible number of sets is tried.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

GEM_COLOURS = ("ruby", "sapphire", "emerald", "amethyst", "diamond", "topaz")
GEM_PLURALS = {
    "ruby": "rubies",
    "sapphire": "sapphires",
    "emerald": "emeralds",
    "amethyst": "amethysts",
    "diamond": "diamonds",
    "topaz": "topaz",
}
GEMS_PER_COLOUR = 6
"""The game holds 36 gems, 6 of each colour (publisher's FAQ: no more exist)."""
FULL_SET_POINTS = 25


def same_colour_points(count: int) -> int:
    """1, 4, 9, 16, 25, 36 VP for 1 to 6 gems of one colour: the count squared."""
    return count * count


@dataclass(frozen=True)
class GemSplit:
    """How one player's gems are scored: `full_sets` sets, the leftover gems grouped by colour."""

    full_sets: int
    group_sizes: tuple[int, ...]
    """Gems left for the same-colour group of each colour, in GEM_COLOURS order."""

    @property
    def set_points(self) -> int:
        return FULL_SET_POINTS * self.full_sets

    @property
    def group_points(self) -> int:
        # A colour's leftovers form one group: splitting it would only lower the sum of squares.
        return sum(same_colour_points(size) for size in self.group_sizes)

    @property
    def total(self) -> int:
        return self.set_points + self.group_points


def split_with_sets(gems: Sequence[int], full_sets: int) -> GemSplit:
    """The split that forms `full_sets` full sets and groups everything left."""
    if len(gems) != len(GEM_COLOURS) or any(count < 0 for count in gems):
        raise ValueError(f"expected {len(GEM_COLOURS)} gem counts, none negative: {list(gems)}")
    if not 0 <= full_sets <= min(gems):
        raise ValueError(f"cannot form {full_sets} full sets from {list(gems)}")
    return GemSplit(full_sets, tuple(count - full_sets for count in gems))


def possible_splits(gems: Sequence[int]) -> list[GemSplit]:
    """Every number of full sets the gems allow, from none up to the scarcest colour's count."""
    return [split_with_sets(gems, sets) for sets in range(min(gems) + 1)]


def best_split(gems: Sequence[int]) -> GemSplit:
    """The split worth most; on equal worth, the one with more full sets."""
    return max(possible_splits(gems), key=lambda split: (split.total, split.full_sets))


def most_sets_split(gems: Sequence[int]) -> GemSplit:
    """As many full sets as possible, the rest grouped (ruling gem-split = most-sets)."""
    return split_with_sets(gems, min(gems))
