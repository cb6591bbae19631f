"""The printed cards of Cutthroat Kingdoms the table can name: territories and hirelings.

A territory prints a copper value (top left) and a gem value (top right) on each of its two sides,
healthy and plagued; a hireling prints its cost on its back. The flow asks each value with the
questions here, which also check a card typed into the catalogue or imported into it, so that the
bounds of a printed value live in one place. A territory is named at setup, so its values are a
card of the catalogue under that name (the slot's placeholder name is not a printed one); a
hireling may be named at its cost. The catalogue ships empty (engine/cards.py).
"""

from __future__ import annotations

from referee.asks import Number
from referee.engine.cards import CardKind
from referee.games.cutthroat.state import COPPER, GEMS, SIDES

LARGEST_PRINTED_VALUE = 20
"""Upper bound on a printed copper, gem or cost value typed at a prompt: a guard against typos only."""


def printed_number(prompt: str, section: str, most: int = LARGEST_PRINTED_VALUE) -> Number:
    """A printed value, at most `most` where the situation bounds it (what a player can pay)."""
    return Number(prompt, section, maximum=min(most, LARGEST_PRINTED_VALUE))


def territory_field(kind: str, side: str) -> str:
    """The field of a territory card that holds its copper or gem value on one side."""
    return kind if side == SIDES[0] else f"{side} {kind}"


TERRITORY_CARD = CardKind(
    "territory",
    "territory",
    tuple(
        (territory_field(kind, side), printed_number(f"{kind.capitalize()} value printed on the {side} side",
                                                     "resource-phase"))
        for side in SIDES
        for kind in (COPPER, GEMS)
    ),
)
HIRELING_CARD = CardKind(
    "hireling", "hireling", (("cost", printed_number("Cost printed on its back", "cards-hireling")),)
)
KINDS = (TERRITORY_CARD, HIRELING_CARD)
PLACES = {territory_field(kind, side): (kind, side) for side in SIDES for kind in (COPPER, GEMS)}
"""Each territory field and the value it is: (copper or gems, the side)."""
