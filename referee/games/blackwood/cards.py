"""The printed cards of Blackwood the table can name: potion cards and forest cards.

A potion card prints its coin reward and its reputation; a forest card its price. The flow asks
each of these with the questions made here, whose bound is also what checks a card typed into
the catalogue or imported into it. A card may be named where its first value is asked (a potion
when it is brewed, a forest card when it is bought); the catalogue ships empty (engine/cards.py).
Recipes, ingredients and colours stay with the table, as everywhere in this game (#potion-cards).
"""

from __future__ import annotations

from referee.asks import Number
from referee.engine.cards import CardKind
from referee.games.blackwood.state import PRINTED_VALUE_GUARD


def printed_number(prompt: str, section: str, most: int = PRINTED_VALUE_GUARD) -> Number:
    """A printed value, at most `most` where the situation bounds it (what she can pay)."""
    return Number(prompt, section, maximum=min(most, PRINTED_VALUE_GUARD))


def reward_question(witch: str) -> Number:
    return printed_number(f"{witch} brews a potion from the display: coin reward printed on it?", "brew-potion")


def reputation_question(witch: str) -> Number:
    return printed_number(f"{witch}: reputation printed on that potion?", "potion-cards")


POTION_CARD = CardKind(
    "potion",
    "potion card",
    (("reward", printed_number("Coin reward printed on the potion", "brew-potion")),
     ("reputation", printed_number("Reputation printed on the potion", "potion-cards"))),
)
FOREST_CARD = CardKind(
    "forest", "forest card", (("price", printed_number("Price printed on the card", "forest-cards")),)
)
KINDS = (POTION_CARD, FOREST_CARD)
