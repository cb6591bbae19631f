"""The printed cards of A Game of Thrones (1st edition) the table can name, for marshalling.

A card prints its gold cost, its House (or none: a neutral card), whether it is Limited, and any
gold or initiative icon in its text box. The flow asks these with the questions here, which also
check a card typed into the catalogue or imported into it, so that the bounds of a printed field
live in one place. A card may be named where the cards marshalled are asked; the catalogue ships
empty (engine/cards.py). A card's strength is not kept: challenges take the strength totals.
"""

from __future__ import annotations

from referee.asks import Confirm, Number, Parsed, choice
from referee.engine.cards import CardKind
from referee.games.got import parse
from referee.games.got.state import HOUSES, NEUTRAL, CardCost

ICON_EXAMPLES = ("1 0", "0 1", "2 0", "0 0")


def format_icons(icons: tuple[int, int]) -> str:
    """'1 0': the gold icon, then the initiative icon, as parse_icons reads them."""
    return f"{icons[0]} {icons[1]}"


def icons_question(prompt: str) -> Parsed[tuple[int, int]]:
    return Parsed(
        prompt,
        "text-box-icons",
        parser=parse.parse_icons,
        hint=f"two whole numbers from 0 to {parse.MAX_ICON}: the gold icon, then the initiative icon "
        "(0 for an icon the card does not show)",
        examples=ICON_EXAMPLES,
        formatter=format_icons,
    )


COST = Number("Its printed gold cost?", "phase-marshalling", maximum=parse.MAX_ICON)
HOUSE = choice(f"Its House ({NEUTRAL} for a neutral card)?", "phase-marshalling", HOUSES)
LIMITED = Confirm("Is it Limited?", "phase-marshalling")
ICONS = icons_question("Its gold icon and its initiative icon as printed, e.g. '1 0' (0 0 for none)?")

PRINTED_CARD = CardKind("card", "card", (("cost", COST), ("house", HOUSE), ("limited", LIMITED), ("icons", ICONS)))
KINDS = (PRINTED_CARD,)


def card_cost(cost: int, house: str, limited: bool, player_house: str) -> CardCost:
    """What the marks of a typed cost say, read off the card's printed House instead."""
    return CardCost(cost, other_house=house not in (player_house, NEUTRAL), neutral=house == NEUTRAL,
                    limited=limited)
