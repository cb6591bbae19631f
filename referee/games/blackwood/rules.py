"""Blackwood rules as plain functions on plain state: the forest grid, coins, potions and spells.

Everything here is deterministic bookkeeping on the table; the flow decides when each rule applies.
"""

from __future__ import annotations

import string
from collections import Counter
from collections.abc import Sequence

from referee.games.blackwood.rulings import COIN_SUPPLY, FAGUS_TOKENS, FOREST_DECK
from referee.games.blackwood.scoring import COIN_VALUE_IN_BOX, FAGUS_TOKENS_IN_BOX
from referee.games.blackwood.state import (
    EMPTY_CARD,
    EXPEDITIONS,
    FIRST_SPELL_COST,
    FOREST_COLUMNS,
    FOREST_ROWS,
    LOAN_ALLOWED_AT_MOST,
    MAX_INGREDIENTS_PER_CARD,
    NO_CARD,
    POTION_DISPLAY,
    ROUNDS_PER_EXPEDITION,
    SPELL_STEPS,
    SPELLS,
    Cell,
    Table,
    Turn,
    Witch,
)
from referee.outcome import Termination

EXPEDITIONS_OVER = "expeditions-over"
"""The natural end of the game; the other ends come from the potions (see game_end)."""


# --- the forest grid -----------------------------------------------------------------------------


def new_forest(witches: int) -> list[list[Cell]]:
    return [[EMPTY_CARD] * FOREST_COLUMNS for _ in range(FOREST_ROWS[witches])]


def cell_label(row: int, column: int) -> str:
    """'A1' is the card nearest both the round marker's row and the village."""
    return f"{string.ascii_uppercase[row]}{column + 1}"


def cards_in_forest(forest: Sequence[Sequence[Cell]]) -> int:
    return sum(1 for row in forest for cell in row if cell is not NO_CARD)


def free_cells(forest: Sequence[Sequence[Cell]]) -> list[tuple[int, int]]:
    """Cards with no puppet on them: where a puppet may be placed (#forest-exploration)."""
    return [
        (row, column)
        for row, cells in enumerate(forest)
        for column, cell in enumerate(cells)
        if cell == EMPTY_CARD
    ]


def puppets_by_witch(forest: Sequence[Sequence[Cell]]) -> Counter[str]:
    return Counter(cell for row in forest for cell in row if cell)


def puppet_cells(forest: Sequence[Sequence[Cell]], owner: str | None = None) -> list[tuple[int, int]]:
    """Cells with a puppet (of `owner`, when given)."""
    return [
        (row, column)
        for row, cells in enumerate(forest)
        for column, cell in enumerate(cells)
        if cell and (owner is None or cell == owner)
    ]


def first_witch(forest: Sequence[Sequence[Cell]], column: int) -> str | None:
    """The owner of the puppet farthest from the round marker in its column (#first-witch)."""
    for row in reversed(range(len(forest))):
        owner = forest[row][column]
        if owner:
            return owner
    return None


def next_returning(forest: Sequence[Sequence[Cell]], column: int) -> int | None:
    """The row of the puppet nearest the round marker in its column: it is resolved next."""
    for row, cells in enumerate(forest):
        if cells[column]:
            return row
    return None


def take_card(forest: list[list[Cell]], row: int, column: int) -> None:
    """The card leaves the forest; the cards beyond it slide one place toward the village."""
    cells = forest[row]
    del cells[column]
    cells.append(NO_CARD)


def gaps(forest: Sequence[Sequence[Cell]]) -> int:
    return sum(1 for row in forest for cell in row if cell is NO_CARD)


def deal_into_gaps(forest: list[list[Cell]], available: int) -> int:
    """Deal up to `available` cards into the gaps, nearest row first, village side first."""
    dealt = 0
    for cells in forest:
        for column, cell in enumerate(cells):
            if cell is NO_CARD and dealt < available:
                cells[column] = EMPTY_CARD
                dealt += 1
    return dealt


def forest_cards_accounted(table: Table) -> int:
    """Every forest card is in the deck, the discard pile, the forest or in front of a witch."""
    held = sum(len(witch.forest_cards) for witch in table.witches)
    in_play = table.forest_deck + table.forest_discard + table.foraged + cards_in_forest(table.forest)
    return in_play + held


def draw_forest_cards(table: Table, wanted: int) -> tuple[int, bool]:
    """Take up to `wanted` cards from the forest deck; returns (drawn, reshuffled).

    When the deck runs short and ruling forest-deck is 'reshuffle', the discard pile becomes the
    new deck first.
    """
    reshuffled = False
    if table.forest_deck < wanted and FOREST_DECK.of(table.rulings) == "reshuffle" and table.forest_discard:
        table.forest_deck += table.forest_discard
        table.forest_discard = 0
        reshuffled = True
    drawn = min(wanted, table.forest_deck)
    table.forest_deck -= drawn
    return drawn, reshuffled


# --- coins ---------------------------------------------------------------------------------------


def supply_coins(table: Table) -> int | None:
    """Coins left in the supply, or None when ruling coin-supply is 'unlimited'."""
    if COIN_SUPPLY.of(table.rulings) == "unlimited":
        return None
    return COIN_VALUE_IN_BOX - sum(witch.coins for witch in table.witches)


def pay_from_supply(table: Table, witch: Witch, amount: int) -> int:
    """Pay a witch from the supply; a limited supply pays no more than it holds (ruling coin-supply)."""
    left = supply_coins(table)
    paid = amount if left is None else min(amount, left)
    witch.coins += paid
    return paid


def fagus_tokens_left(table: Table) -> int | None:
    """Fagus Beech tokens left beside the hut, or None when ruling fagus-tokens is 'unlimited'."""
    if FAGUS_TOKENS.of(table.rulings) == "unlimited":
        return None
    return FAGUS_TOKENS_IN_BOX - sum(witch.fagus_tokens for witch in table.witches)


def may_borrow(table: Table, witch: Witch) -> bool:
    """A witch with 2 coins or fewer may borrow (#fagus-loan); while the tokens are limited
    (ruling fagus-tokens), only as long as one is left."""
    left = fagus_tokens_left(table)
    return witch.coins <= LOAN_ALLOWED_AT_MOST and (left is None or left > 0)


def compensation(witch: Witch) -> int:
    """Coins for her leftover forest cards at an expedition's end: half their prices, rounded down."""
    return sum(witch.forest_cards) // 2


# --- potions and spells --------------------------------------------------------------------------


def potions_in_game(table: Table) -> int:
    return table.potion_display + table.potion_deck + sum(witch.potions_brewed for witch in table.witches)


def refill_display(table: Table) -> int:
    """Top the potion display back up to 6 from the deck; returns the cards added."""
    added = min(POTION_DISPLAY - table.potion_display, table.potion_deck)
    table.potion_display += added
    table.potion_deck -= added
    return added


def potions_exhausted(table: Table) -> bool:
    """No potion card is left to brew: the display and the potion deck are both empty."""
    return table.potion_display == 0 and table.potion_deck == 0


def spells_per_type(witches: int) -> int:
    """One card fewer in each spell stack than there are witches (#setup)."""
    return witches - 1


def spells_held(table: Table) -> Counter[str]:
    return Counter(spell.kind for witch in table.witches for spell in witch.spells)


def spells_left(table: Table, kind: str) -> int:
    return spells_per_type(len(table.witches)) - spells_held(table)[kind]


def spell_cost(witch: Witch) -> int:
    """2 coins for her first spell, one more for each spell she already has (#exchange-for-spell)."""
    return FIRST_SPELL_COST + len(witch.spells)


def spells_on_offer(table: Table) -> tuple[str, ...]:
    held, stack = spells_held(table), spells_per_type(len(table.witches))
    return tuple(kind for kind in SPELLS if held[kind] < stack)


def may_trade(table: Table, witch: Witch) -> bool:
    if witch.potions_kept < 2 or witch.coins < spell_cost(witch):
        return False
    return bool(spells_on_offer(table))


def ingredients_left(turn: Turn) -> int:
    """How many more potions this turn's spent ingredients could still go into (#brew-potion).

    The referee does not see the cards, so it counts the most they can hold: 3 ingredients on
    each forest card discarded this turn, and 1 for each missing-ingredient spell cast. Every
    potion takes at least one of them."""
    return MAX_INGREDIENTS_PER_CARD * turn.cards_spent + turn.missing_ingredients - turn.brews


def ready_spells(witch: Witch, step: str) -> tuple[str, ...]:
    """Her face-up spells that work in this step, each kind once (another face-up copy of a kind
    is offered again once the first is cast)."""
    kinds = {spell.kind for spell in witch.spells if not spell.used and step in SPELL_STEPS[spell.kind]}
    return tuple(kind for kind in SPELLS if kind in kinds)


def use_spell(witch: Witch, kind: str) -> None:
    for spell in witch.spells:
        if spell.kind == kind and not spell.used:
            spell.used = True
            return
    raise ValueError(f"{witch.name} has no face-up {kind} spell")


def restore_spells(table: Table) -> int:
    restored = 0
    for witch in table.witches:
        for spell in witch.spells:
            restored += spell.used
            spell.used = False
    return restored


# --- the end of the game -------------------------------------------------------------------------


def game_end(table: Table) -> Termination | None:
    """How the game ends with the round just finished, if it does (#end-of-game): after the third
    expedition, or once no potion is left to brew or the table has declared that none can be
    (ruling potions-run-out: both only take effect at the end of a round)."""
    if table.expedition == EXPEDITIONS and table.round == ROUNDS_PER_EXPEDITION:
        return Termination(EXPEDITIONS_OVER, "the third expedition is over")
    if table.end_declared:
        return Termination("no-potion-brewable", "the table declared that no potion left can be brewed")
    if potions_exhausted(table):
        return Termination("potions-exhausted", "no potion card is left to brew")
    return None
