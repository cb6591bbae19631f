"""Return to the Village (#return-to-village): the marker's column comes home, nearest puppet first.

Each returning puppet gives its witch a turn: she buys the card under it or lets it go, and takes
additional actions before or after. After a purchase her turn stays open while she has an action
left (brewing with the card is what she bought it for, #brew-potion); after a discard it ends
unless she adds ' more', since nothing she could do then is new: she may do it all before
discarding, at the same question."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Number, Question, ask
from referee.engine.cards import ask_card, card_field, remember
from referee.engine.game import Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.cards import FOREST_CARD, printed_number
from referee.games.blackwood.flow.actions import open_actions, take_action
from referee.games.blackwood.flow.turn import turn_question
from referee.games.blackwood.flow.wording import coins
from referee.games.blackwood.parse import DISCARD, TurnAnswer, TurnOptions
from referee.games.blackwood.state import PRINTED_VALUE_GUARD, VILLAGE_STEP, Table, Turn, Witch


def return_to_village(table: Table, say: Say) -> Steps:
    table.step = VILLAGE_STEP
    column = table.round - 1
    returned: set[str] = set()
    while (row := rules.next_returning(table.forest, column)) is not None:
        owner = table.forest[row][column]
        assert owner
        witch = table.witch(owner)
        returned.add(witch.name)
        yield from village_turn(table, witch, row, column, say)
    idle = [witch.name for witch in table.witches if witch.name not in returned]
    if idle:
        say(f"No puppet comes back for {', '.join(idle)}: no turn in {VILLAGE_STEP} this round.")


def village_options(table: Table, witch: Witch, turn: Turn) -> TurnOptions:
    actions = open_actions(table, witch, turn)
    if turn.decided:
        return TurnOptions(frozenset(), None, actions, True)
    return TurnOptions(frozenset(), PRINTED_VALUE_GUARD if turn.free_card else witch.coins, actions, False)


def village_question(table: Table, witch: Witch, turn: Turn, label: str) -> Builder[TurnAnswer]:
    def prompt(options: TurnOptions) -> str:
        if turn.decided:
            return f"{witch.name}, anything more this turn, or done? ({coins(witch.coins)})"
        cost = "free with her spell" if turn.free_card else f"she has {coins(witch.coins)}"
        return f"{witch.name}'s puppet returns from {label}: price to buy the card ({cost}), or {DISCARD}"

    return turn_question(table, witch, "return-to-village", prompt, lambda: village_options(table, witch, turn))


def purchase_or_not(table: Table, witch: Witch, turn: Turn, label: str) -> Generator[Question, Any, TurnAnswer]:
    """The question of her returning puppet, where the card under it may be named: a named card
    is bought at its printed price (asked once, then known)."""
    question = village_question(table, witch, turn, label)
    card = yield from ask_card(FOREST_CARD, "price", question)
    if card.name is None:  # a price, 'discard', an action or 'done', as the question reads it
        return (yield from card_field(card, "price", question))

    def price() -> Number:
        most = village_options(table, witch, turn).max_price
        return printed_number(f"{witch.name} buys {card.name}: its printed price?", "forest-cards",
                              PRINTED_VALUE_GUARD if most is None else most)

    paid = yield from card_field(card, "price", price)
    yield from remember(card)
    return TurnAnswer("buy", price=paid)


def village_turn(table: Table, witch: Witch, row: int, column: int, say: Say) -> Steps:
    table.active = witch.name
    turn = Turn(VILLAGE_STEP)
    label = rules.cell_label(row, column)
    keep_open = True
    while True:
        if turn.decided and (not keep_open or not village_options(table, witch, turn).actions):
            return
        if turn.decided:
            answer = yield from ask(village_question(table, witch, turn, label))
        else:
            answer = yield from purchase_or_not(table, witch, turn, label)
        if answer.kind == "done":
            return
        if answer.kind == "action":
            yield from take_action(table, witch, turn, answer.action, say)
            continue
        turn.decided = True
        if answer.kind == "buy":
            paid = 0 if turn.free_card else answer.price
            witch.coins -= paid
            witch.forest_cards.append(answer.price)
            how = "free (spell)" if turn.free_card else f"for {paid}"
            say(f"{witch.name} buys the card on {label} {how}; the row slides toward the village.")
            keep_open = True  # she may brew with it, or borrow now that she has paid
        else:
            table.forest_discard += 1
            say(f"The card on {label} is discarded; the row slides toward the village.")
            keep_open = answer.more
        turn.free_card = False
        rules.take_card(table.forest, row, column)
        witch.puppets_home += 1
