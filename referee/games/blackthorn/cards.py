"""The printed cards of Council of Blackthorn the table can name: the faction cards.

A faction card prints its faction, whether it is an Ally or a Building, a trigger (a faction and
a value, or none) and, on a Building, its value. The flow asks each of these with the questions
here, which are also what checks a card typed into the catalogue or imported into it: the bounds
of a printed field live in one place. The catalogue ships empty; a card is known once the table
has named it (engine/cards.py).
"""

from __future__ import annotations

from referee.asks import Number, Parsed, choice, pick
from referee.engine.cards import CardKind
from referee.games.blackthorn.parse import TRIGGER_HINT, parse_trigger
from referee.games.blackthorn.state import FACTIONS

MAX_BUILDING_VALUE = 99
"""A guard against typos only: the rulebook gives no building values."""


def format_trigger(trigger: tuple[str, int] | None) -> str:
    """A trigger as the parser reads it back: 'guild 5', or 'none'."""
    return "none" if trigger is None else f"{trigger[0]} {trigger[1]}"


FACTION = choice("Which faction does the card show?", "phase-play-card", FACTIONS)
CLASS = pick("Is the card an Ally or a Building?", "buildings-vs-allies", [("ally", False), ("building", True)])
TRIGGER = Parsed(
    "Trigger printed on the card (faction and value, e.g. 'guild 5'), or 'none'",
    "trigger",
    parser=parse_trigger,
    hint=TRIGGER_HINT,
    examples=("noble 3", "guild 5", "legion 7", "peasant 4", "none"),
    formatter=format_trigger,
)
BUILDING_VALUE = Number("Building value printed on the card", "building-value", maximum=MAX_BUILDING_VALUE)

FACTION_CARD = CardKind(
    "faction-card",
    "faction card",
    (("faction", FACTION), ("class", CLASS), ("trigger", TRIGGER), ("value", BUILDING_VALUE)),
)
"""Its fields in the order a play reads them; a card learns each the first time it is asked."""
KINDS = (FACTION_CARD,)
