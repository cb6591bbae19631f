"""Spell Descriptions (#spells): what each of the six spells does when a witch casts it.

The referee applies every effect itself. The swap spell needs no table step: it moves only cards
without puppets, and the referee tells forest cards apart only by the puppets on them (what a card
shows is the table's to see), so a swap changes nothing the referee counts."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Confirm, Number, Parsed, Question, ask, pick
from referee.engine.cards import ask_card, card_field, remember
from referee.engine.game import Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.cards import FOREST_CARD, printed_number
from referee.games.blackwood.flow.wording import supply_note
from referee.games.blackwood.parse import NONE, most_foraged_price, read_foraged_price
from referee.games.blackwood.rulings import RIVAL_SPOT
from referee.games.blackwood.state import (
    EMPTY_CARD,
    FORAGE,
    FORAGE_CARDS,
    FREE_CARD,
    MISSING_INGREDIENT,
    MOVE_A_RIVAL,
    RIVAL_COMPENSATION,
    SECOND_PUPPET,
    SWAP,
    Table,
    Turn,
    Witch,
)


def cast(table: Table, witch: Witch, turn: Turn, kind: str, say: Say) -> Steps:
    if kind == SECOND_PUPPET:
        turn.to_place += 1
        turn.second_puppets += 1
        again = ""
        if turn.second_puppets > 1:
            again = f" (her copy number {turn.second_puppets} this turn: ruling second-puppet-twice)"
        say(f"{witch.name} casts {kind}: she places one more puppet this turn{again}.")
    elif kind == SWAP:
        say(f"{witch.name} casts {kind}: swap two forest cards without puppets.")
    elif kind == FREE_CARD:
        turn.free_card = True
        say(f"{witch.name} casts {kind}: the card under her returning puppet costs her nothing.")
    elif kind == MISSING_INGREDIENT:
        turn.missing_ingredients += 1
        say(f"{witch.name} casts {kind}: it supplies one ingredient missing from a potion she brews this turn.")
    elif kind == FORAGE:
        yield from forage(table, witch, say)
    elif kind == MOVE_A_RIVAL:
        yield from move_a_rival(table, witch, turn, say)


def forage(table: Table, witch: Witch, say: Say) -> Steps:
    drawn, reshuffled = rules.draw_forest_cards(table, FORAGE_CARDS)
    table.foraged = drawn
    if reshuffled:
        say("The forest deck ran short: shuffle the discards into a new deck (ruling forest-deck).")
    price = yield from foraged_card(witch, drawn)
    kept = 0
    if price is not None:
        witch.coins -= price // 2
        witch.forest_cards.append(price)
        kept = 1
        say(f"{witch.name} buys it for {price // 2} coins (half of {price}, rounded down).")
    table.forest_discard += drawn - kept
    table.foraged = 0
    say(f"The other {drawn - kept} drawn card(s) are discarded.")


def foraged_card(witch: Witch, drawn: int) -> Generator[Question, Any, int | None]:
    """The card she buys of those drawn, which may be named: its printed price (asked once, then
    known), or None when she buys none."""
    question = foraged_price_question(witch, drawn)
    card = yield from ask_card(FOREST_CARD, "price", question)
    if card.name is None:
        return (yield from card_field(card, "price", question))

    def price() -> Number:
        return printed_number(f"{witch.name} buys {card.name} at half price: its printed price?", "spells",
                              most_foraged_price(witch.coins))

    paid = yield from card_field(card, "price", price)
    yield from remember(card)
    return paid


def foraged_price_question(witch: Witch, drawn: int) -> Builder[int | None]:
    def build() -> Parsed[int | None]:
        held = witch.coins
        most = most_foraged_price(held)
        return Parsed(
            f"{witch.name} casts forage and draws {drawn} forest card(s): printed price of the one she buys "
            f"at half price, or '{NONE}'",
            "spells",
            parser=lambda text: read_foraged_price(text, held),
            hint=f"a printed price from 0 to {most}, or '{NONE}'",
            examples=(NONE, *(str(value) for value in range(0, min(most, 6) + 1))),
        )

    return build


def move_a_rival(table: Table, witch: Witch, turn: Turn, say: Say) -> Steps:
    rivals = [
        (f"{rules.cell_label(row, column)} {table.forest[row][column]}", (row, column))
        for row, column in rules.puppet_cells(table.forest)
        if table.forest[row][column] != witch.name
    ]
    which = f"{witch.name} casts {MOVE_A_RIVAL}: which rival puppet moves?"
    row, column = yield from ask(pick(which, "spells", rivals))
    rival = table.witch(str(table.forest[row][column]))
    vacated = rules.cell_label(row, column)
    destinations = [(rules.cell_label(*cell), cell) for cell in rules.free_cells(table.forest)]
    new_row, new_column = yield from ask(pick(f"{rival.name}'s puppet moves from {vacated} to which card?",
                                              "spells", destinations))
    table.forest[new_row][new_column] = rival.name
    table.forest[row][column] = EMPTY_CARD
    paid = rules.pay_from_supply(table, rival, RIVAL_COMPENSATION)
    say(f"{rival.name}'s puppet moves to {rules.cell_label(new_row, new_column)}; she takes {paid} coins."
        + supply_note(paid, RIVAL_COMPENSATION))
    if RIVAL_SPOT.of(table.rulings) == "extra" and witch.puppets_home > turn.to_place:
        if (yield from ask(Confirm(f"Does {witch.name} put a puppet on {vacated} now (ruling rival-spot)?", "spells"))):
            table.forest[row][column] = witch.name
            witch.puppets_home -= 1
            say(f"{witch.name} puts a puppet on {vacated}, besides her own placement (ruling rival-spot).")
    elif turn.to_place > 0 and witch.puppets_home > 0:
        say(f"{vacated} is free: {witch.name} may place her puppet for this turn there (ruling rival-spot).")
