"""Setup (#setup, #deck-building, #melee-setup): House cards, draw decks, the face-down starting
forces, and in melee the board, tokens and titles put out."""

from __future__ import annotations

from referee.asks import Ask, Builder, Number, Parsed, ask, choice
from referee.engine.game import Say, Steps
from referee.games.got import parse, rules
from referee.games.got.flow.cards import card_icons
from referee.games.got.flow.common import Asking
from referee.games.got.rulings import SETUP_ATTACHMENT_COST, STARTING_FORCE_PRINTED_COST
from referee.games.got.state import (
    DRAW_DECK_MINIMUM,
    HOUSES,
    NEUTRAL,
    SETUP_COST_LIMIT,
    SETUP_HAND,
    CardCost,
    Player,
    Table,
)

MAX_DRAW_DECK = 999
"""Upper bound for a draw deck as typed: the source sets only the minimum of 60."""
SETUP_MARKS = "axi"
FORCE_EXAMPLES = ("3 2", "5", "2 1 1a", "none", "4 1", "1x 2", "2i 3")


def set_up(table: Table, say: Say) -> Steps:
    # setup, plots and titles are the whole table's steps: no player is "active" in them
    table.phase, table.active = "setup", None
    if table.melee:
        say(
            "Melee setup: put the game board in the middle of the table, the Power and Gold tokens on their "
            "spaces, and the 6 Title figures on theirs."
        )
    for player in table.players:
        player.house = yield from ask(
            choice(f"{player.name}: which House card is in play?", "deck-building", HOUSES)
        )
        player.draw_deck = yield from ask(
            Number(
                f"{player.name}: how many cards are in the draw deck?",
                "deck-building",
                minimum=DRAW_DECK_MINIMUM,
                maximum=MAX_DRAW_DECK,
            )
        )
    say(f"Each player draws {SETUP_HAND} cards and picks a starting force of Characters and Locations, face down.")
    for player in table.players:
        player.draw_deck -= SETUP_HAND
        player.hand = SETUP_HAND
    forces = []
    for player in table.players:
        forces.append((yield from starting_force(table, player, say)))
    say(f"All starting forces are turned face up; each player draws back up to {SETUP_HAND} cards.")
    for player, cards in zip(table.players, forces, strict=True):
        yield from card_icons(table, player, cards, say)


def force_question(table: Table, player: Player) -> Builder[tuple[CardCost, ...]]:
    """The starting force as a builder: its limits read the hand and the rulings as they are now."""

    def read(text: str) -> tuple[CardCost, ...]:
        cards = parse.parse_costs(text, SETUP_MARKS)
        if len(cards) > player.hand:
            raise ValueError(f"only {player.hand} cards were drawn")
        total = force_cost(table, player, cards)
        if total > SETUP_COST_LIMIT:
            raise ValueError(f"the starting force counts {total}, more than {SETUP_COST_LIMIT}")
        return cards

    def build() -> Ask[tuple[CardCost, ...]]:
        return Parsed(
            f"{player.name}: printed cost of each card in the starting force, e.g. '3 2', '2 1a', or 'none'",
            "setup",
            parser=read,
            hint=f"printed costs adding up to {SETUP_COST_LIMIT} or less "
            f"({parse.describe_marks(SETUP_MARKS)}), or 'none'",
            examples=FORCE_EXAMPLES,
        )

    return build


def attachments_count(table: Table) -> bool:
    return SETUP_ATTACHMENT_COST.of(table.rulings) == "counts"


def penalty_house(table: Table, player: Player) -> str | None:
    """The House whose off-House penalty the starting force counts (ruling starting-force-printed-cost)."""
    return player.house if STARTING_FORCE_PRINTED_COST.of(table.rulings) == "with-penalty" else None


def force_cost(table: Table, player: Player, cards: tuple[CardCost, ...]) -> int:
    return rules.starting_force_cost(cards, attachments_count(table), penalty_house(table, player))


def starting_force(table: Table, player: Player, say: Say) -> Asking[tuple[CardCost, ...]]:
    cards = yield from ask(force_question(table, player))
    total = force_cost(table, player, cards)
    notes = []
    if any(card.attachment for card in cards):
        counted = "count" if attachments_count(table) else "are free"
        notes.append(f"ruling setup-attachment-cost: attachments {counted}")
    if any(card.other_house for card in cards):
        if player.house == NEUTRAL:
            notes.append("a Neutral House has no off-House penalty")
        else:
            counted = "with" if penalty_house(table, player) else "without"
            notes.append(f"ruling starting-force-printed-cost: counted {counted} the off-House penalty")
    note = f" ({'; '.join(notes)})" if notes else ""
    say(f"{player.name}'s starting force: {len(cards)} card(s) counting {total} of {SETUP_COST_LIMIT}{note}.")
    refill = min(len(cards), player.draw_deck)
    player.draw_deck -= refill
    player.hand = player.hand - len(cards) + refill
    return cards
