"""The Blackwood table as the referee tracks it: plain, JSON-friendly dataclasses.

The forest is a grid of cells. Rows are lettered from the one nearest the round marker (A) outward;
columns are numbered from the village (1) to the far end (5), so the round marker stands under
column N in round N of an expedition. A cell is None when no card lies there, "" for a card with no
puppet on it, or the name of the witch whose puppet stands on the card.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

PUPPETS_PER_WITCH = 3
STARTING_COINS = 8
FOREST_COLUMNS = 5
FOREST_ROWS = {2: 3, 3: 4, 4: 5}
"""Rows of forest cards by the number of witches (#setup)."""
FOREST_CARDS = 56
POTION_CARDS = 40
POTION_DISPLAY = 6
EXPEDITIONS = 3
ROUNDS_PER_EXPEDITION = 5

FIRST_SPELL_COST = 2
"""Coins for a witch's first spell; each later spell costs one coin more (#exchange-for-spell)."""
SPELL_POTIONS = 2
SELL_COINS = 3
SELL_REPUTATION = -2
"""Already printed on a potion's coin side; the referee keeps the front value and subtracts this."""
LOAN_COINS = 5
LOAN_ALLOWED_AT_MOST = 2
RIVAL_COMPENSATION = 2
FORAGE_CARDS = 5
MAX_INGREDIENTS_PER_CARD = 3
"""A forest card shows 1 to 3 ingredients (#forest-cards): the most one card can put into potions."""

PRINTED_VALUE_GUARD = 99
"""Prices, rewards and reputation are printed on cards the referee has not seen. This bound only
catches a slip of the keyboard; it is not a rule of the game."""

FOREST_STEP = "Forest Exploration"
VILLAGE_STEP = "Return to the Village"

SECOND_PUPPET = "second-puppet"
SWAP = "swap"
FORAGE = "forage"
FREE_CARD = "free-card"
MISSING_INGREDIENT = "missing-ingredient"
MOVE_A_RIVAL = "move-a-rival"
SPELL_STEPS: dict[str, tuple[str, ...]] = {
    SECOND_PUPPET: (FOREST_STEP,),
    SWAP: (FOREST_STEP, VILLAGE_STEP),
    FORAGE: (FOREST_STEP, VILLAGE_STEP),
    FREE_CARD: (VILLAGE_STEP,),
    MISSING_INGREDIENT: (VILLAGE_STEP,),
    MOVE_A_RIVAL: (FOREST_STEP,),
}
"""The six spells (descriptive labels: the source names none) and the steps each works in (#spells)."""
SPELLS = tuple(SPELL_STEPS)

Cell = str | None
NO_CARD: Cell = None
EMPTY_CARD: Cell = ""


@dataclass
class Spell:
    """A spell a witch has gained (one of SPELLS), and whether she has used it."""

    kind: str
    used: bool = False


@dataclass
class Witch:
    """A witch and what she has: coins, puppets at home, forest cards, potions, spells and Fagus
    Beech tokens."""

    name: str
    coins: int = STARTING_COINS
    puppets_home: int = PUPPETS_PER_WITCH
    forest_cards: list[int] = field(default_factory=list)
    """The printed prices of the forest cards lying in front of her."""
    potion_reputation: int = 0
    """The reputation printed on the fronts of all her potion cards."""
    potions_kept: int = 0
    """Potions still front side up: they may be sold or traded for a spell."""
    potions_sold: int = 0
    potions_traded: int = 0
    spells: list[Spell] = field(default_factory=list)
    fagus_tokens: int = 0

    @property
    def potions_brewed(self) -> int:
        return self.potions_kept + self.potions_sold + self.potions_traded

    @property
    def reputation(self) -> int:
        """Her potion cards' reputation as they lie: a sold potion's coin side shows 2 less."""
        return self.potion_reputation + SELL_REPUTATION * self.potions_sold


@dataclass
class Turn:
    """What one witch's turn allows so far: puppets still to place, spells in effect, brewing.

    A Return to the Village turn belongs to one returning puppet: it ends once the card under that
    puppet is settled and she has nothing more to do."""

    step: str
    to_place: int = 0
    second_puppets: int = 0
    """Second-puppet spells cast this turn (ruling second-puppet-twice)."""
    decided: bool = False
    """Return to the Village: whether she has bought or discarded the card under her puppet."""
    free_card: bool = False
    brews: int = 0
    """Potions brewed this turn."""
    cards_spent: int = 0
    """Forest cards discarded for those potions this turn: their unused ingredients may still go
    into further potions of the same turn."""
    missing_ingredients: int = 0
    """Missing-ingredient spells cast this turn, one ingredient each."""


@dataclass
class Table:
    """The whole Blackwood table: the witches, the rulings, the forest, the decks and where the game
    stands."""

    witches: list[Witch]
    """In seat (clockwise) order."""
    rulings: dict[str, str]
    forest: list[list[Cell]]
    """forest[row][column]: row 0 is nearest the round marker, column 0 is next to the village."""
    forest_deck: int
    forest_discard: int = 0
    foraged: int = 0
    """Forest cards drawn by the forage spell, waiting for the witch to pick one or none."""
    potion_display: int = POTION_DISPLAY
    potion_deck: int = POTION_CARDS - POTION_DISPLAY
    cauldron: int = 0
    """Seat of the witch holding the cauldron (the first player marker)."""
    expedition: int = 1
    round: int = 0
    """Round within the expedition, 1 to 5 (0 before the first round)."""
    step: str = "setup"
    active: str | None = None
    end_declared: bool = False
    """The table declared that no potion left in the game can be brewed."""
    finished: bool = False

    def witch(self, name: str) -> Witch:
        for witch in self.witches:
            if witch.name.lower() == name.lower():
                return witch
        raise KeyError(name)

    def seat(self, name: str) -> int:
        return self.witches.index(self.witch(name))

    def clockwise_from_cauldron(self) -> list[Witch]:
        return self.witches[self.cauldron :] + self.witches[: self.cauldron]

    @property
    def rounds_played(self) -> int:
        """Rounds begun in the whole game (1 to 15)."""
        return (self.expedition - 1) * ROUNDS_PER_EXPEDITION + self.round

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
