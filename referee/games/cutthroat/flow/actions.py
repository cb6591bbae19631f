"""Phase II, actions: purchases, conquests, attacks and collecting the dead, each finished before
the next begins (an action moved on from is closed for the turn); Cawdwell's Taxes besides."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from referee.asks import Builder, Choice, Number, ask, pick, pick_numbered, table_step
from referee.engine.cards import ask_card, card_field, remember
from referee.engine.game import Say, Steps
from referee.games.cutthroat import rules
from referee.games.cutthroat.cards import HIRELING_CARD, printed_number
from referee.games.cutthroat.flow.attacks import attack
from referee.games.cutthroat.flow.conquest import conquer, conquest_collection
from referee.games.cutthroat.rulings import CONQUEST_COLLECTION, EMPTY_DECK, PURCHASE_UNIT, SHORT_PAYMENT
from referee.games.cutthroat.state import (
    ATTACKS,
    COLLECT_DEAD_COST,
    COLLECTING,
    CONQUEST,
    HANGING_TONGUE,
    MARROW,
    MERCENARY_CARDS,
    NYGHTWALD,
    PURCHASE,
    PURCHASES_PER_TURN,
    TAXES_COPPER,
    Kingdom,
    Player,
)


class Deed(Enum):
    """What the player does next in the action phase; the value is the option's label."""

    BUY_HIRELING = "buy a hireling"
    BUY_MERCENARIES = "buy mercenaries"
    CONQUER = "conquer"
    ATTACK = "attack"
    COLLECT_DEAD = "collect the dead"
    TAXES = "taxes"
    END = "end the action phase"


NUMBERS = {Deed.BUY_HIRELING: 1, Deed.BUY_MERCENARIES: 2, Deed.CONQUER: 3, Deed.ATTACK: 4, Deed.COLLECT_DEAD: 5,
           Deed.TAXES: 6, Deed.END: 0}
"""Each deed keeps its number from turn to turn (a gap where it is not offered); 0 always ends."""
ACTION_OF = {Deed.BUY_HIRELING: PURCHASE, Deed.BUY_MERCENARIES: PURCHASE, Deed.CONQUER: CONQUEST,
             Deed.ATTACK: ATTACKS, Deed.COLLECT_DEAD: COLLECTING}
"""The rulebook's action each deed belongs to (Taxes belongs to none: Cawdwell may tax in between)."""


@dataclass
class Collections:
    """The turn's collections of conquered land so far, kept by the action phase as it runs (a
    replay of the log runs it again): how many were made, and how many of the turn's conquests
    came before the last one."""

    made: int = 0
    since: int = 0


def income_due(kingdom: Kingdom, player: Player, deed: Deed, collections: Collections) -> bool:
    """Whether taking this deed completes an action that pays a collection first (so what it costs
    is not yet decided by the coins in hand)."""
    action = ACTION_OF.get(deed)
    under_way = kingdom.turn.action
    if action is None or under_way is None or under_way == action:
        return False
    return rules.collection_due(kingdom, player, collections.made, collections.since, phase_ends=False)


def possible(kingdom: Kingdom, player: Player, deed: Deed, collections: Collections | None = None) -> bool:
    due = collections is not None and income_due(kingdom, player, deed, collections)
    if deed is Deed.BUY_MERCENARIES:
        return rules.can_buy_mercenaries(kingdom, player, due)
    if deed is Deed.COLLECT_DEAD:
        return rules.can_collect_dead(kingdom, player, due)
    checks = {
        Deed.BUY_HIRELING: rules.can_buy_hireling,
        Deed.CONQUER: rules.can_conquer,
        Deed.ATTACK: rules.can_attack,
        Deed.TAXES: rules.can_tax,
    }
    return deed is Deed.END or checks[deed](kingdom, player)


def next_deed(kingdom: Kingdom, player: Player, collections: Collections | None = None) -> Builder[Deed]:
    def question() -> Choice[Deed]:
        offered = [(NUMBERS[deed], deed.value, deed) for deed in Deed if possible(kingdom, player, deed, collections)]
        return pick_numbered(f"{player.name}'s action phase: next action?", "action-phase", offered)

    return question


def action_phase(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    collections = Collections()
    while True:
        if not any(possible(kingdom, player, deed, collections) for deed in Deed if deed is not Deed.END):
            say(f"{player.name} has no action left to take.")
            break
        deed = yield from ask(next_deed(kingdom, player, collections))
        if deed is Deed.END:
            break
        if deed in ACTION_OF:
            if kingdom.turn.action not in (None, ACTION_OF[deed]):
                yield from action_complete(kingdom, player, collections, say)
                if not possible(kingdom, player, deed):
                    say(f"{player.name} cannot pay for that after all: {deed.value} is not taken.")
                    continue
            rules.begin_action(kingdom.turn, ACTION_OF[deed])
        if deed is Deed.BUY_HIRELING:
            yield from buy_hireling(kingdom, player, say)
        elif deed is Deed.BUY_MERCENARIES:
            yield from buy_mercenaries(kingdom, player, say)
        elif deed is Deed.CONQUER:
            yield from conquer(kingdom, player, say)
        elif deed is Deed.ATTACK:
            yield from attack(kingdom, player, say)
        elif deed is Deed.COLLECT_DEAD:
            back = rules.collect_dead(kingdom, player)
            say(f"{player.name} pays {COLLECT_DEAD_COST} copper and takes {back} dead soldier(s) back.")
        else:
            yield from taxes(kingdom, player, say)
    yield from action_complete(kingdom, player, collections, say, phase_ends=True)


def action_complete(kingdom: Kingdom, player: Player, collections: Collections, say: Say,
                    phase_ends: bool = False) -> Steps:
    """The action under way is complete (closed for the turn, or the phase ends): then the
    resources of one territory it conquered, when ruling conquest-collection gives a collection
    now (#conquering)."""
    ruling = CONQUEST_COLLECTION.of(kingdom.rulings)
    due = rules.collection_due(kingdom, player, collections.made, collections.since, phase_ends)
    completed = kingdom.turn.action
    rules.finish_action(kingdom.turn)
    if due:
        if ruling != "end-of-actions":
            what = "attacks are" if completed == ATTACKS else "conquests are"
            say(f"{player.name}'s {what} complete: the resources of one territory conquered are collected now "
                f"(ruling conquest-collection: {ruling}).")
        since = 0 if ruling == "end-of-actions" else collections.since
        if (yield from conquest_collection(kingdom, player, say, since)):
            collections.made += 1
    elif ruling == "once-a-turn" and rules.held_conquests(kingdom, player, collections.since):
        say(f"{player.name} has collected for a conquest this turn already: no second collection "
            f"(ruling conquest-collection: {ruling}).")
    collections.since = len(kingdom.turn.conquered)


# --- purchase assistance ------------------------------------------------------------------------------


def hireling_cost(player: Player) -> Builder[int]:
    return lambda: printed_number(
        f"{player.name} buys the top hireling: the cost printed on its back?", "cards-hireling", player.coin_value
    )


def buy_hireling(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    hireling = yield from ask_card(HIRELING_CARD, "cost", hireling_cost(player))
    cost = yield from card_field(hireling, "cost", hireling_cost(player))
    yield from remember(hireling)
    rules.pay(player, cost)
    player.hirelings += 1
    kingdom.hirelings_drawn += 1
    if EMPTY_DECK.of(kingdom.rulings) == "reshuffle" and kingdom.hirelings_drawn % kingdom.hireling_deck_size == 0:
        say("That was the last card of the hireling deck: its discard pile becomes the new deck "
            "(ruling empty-deck).")
    kingdom.turn.purchases += 1
    say(f"{player.name} pays {cost} and takes a hireling (purchase {kingdom.turn.purchases} of "
        f"{PURCHASES_PER_TURN}).")
    marrow = rules.marrow_pays_a_mercenary(kingdom, player)
    if marrow is not None:
        if rules.mercenaries_available(kingdom) > 0:
            player.mercenaries += 1
            kingdom.mercenaries_drawn += 1
            say(f"{marrow.name}: {player.name} gains a mercenary with the hireling.")
        else:
            say(f"{marrow.name}: the mercenary deck is empty, so {player.name} gains no mercenary.")
    reminders = purchase_abilities(kingdom, player)
    other = " other" if reminders else ""
    yield from table_step(
        " ".join([f"{player.name}'s hireling:", *reminders, f"Apply any{other} territory ability a purchase sets "
                  "off, and enter what it changes as corrections."]),
        "cards-hireling",
    )


def purchase_abilities(kingdom: Kingdom, buyer: Player) -> list[str]:
    """What the territories the rulebook describes do at a hireling purchase (counted here, told in
    the table step that follows): Nyghtwald's owner
    draws 2 and keeps 1 (this overrides The Hanging Tongue); The Hanging Tongue's owner, once a turn,
    draws 2 when someone else buys and hands the buyer 1. Their plagued sides are read off the card."""
    notes = []
    own = {land.name.lower(): land for land in kingdom.owned_by(buyer.name)}
    nyghtwald = own.get(NYGHTWALD.lower())
    if nyghtwald is not None and not nyghtwald.plagued:
        kingdom.hirelings_drawn += 1  # two drawn, one kept
        notes.append(f"{NYGHTWALD}: draw 2, keep 1 and discard the other face up (counted as 1 hireling); "
                     f"this overrides {HANGING_TONGUE}.")
        return notes
    if nyghtwald is not None:
        notes.append(f"{NYGHTWALD} is plagued: apply its plagued side's text.")
    for land in kingdom.territories:
        if not rules.is_named(land, HANGING_TONGUE) or land.owner in (None, buyer.name):
            continue
        if land.plagued:
            notes.append(f"{HANGING_TONGUE} ({land.owner}'s) is plagued: apply its plagued side's text.")
        elif not kingdom.turn.hanging_tongue_used:
            kingdom.turn.hanging_tongue_used = True
            notes.append(f"{HANGING_TONGUE} ({land.owner}'s, once this turn): {land.owner} draws 2, gives "
                         f"{buyer.name} 1 and discards the other face up.")
    for land in own.values():
        if rules.is_named(land, MARROW) and land.plagued:
            notes.append(f"{land.name} is plagued: apply its plagued side's text.")
    return notes


def mercenary_copper(kingdom: Kingdom, player: Player) -> Builder[int]:
    def question() -> Number:
        most = min(player.coin_value, -(-rules.mercenaries_available(kingdom) // 2))
        return Number(
            f"{player.name} buys mercenaries: how many copper spent (2 cards each; ruling purchase-unit: batch)?"
            + ("" if most >= 1 else " Nothing can be bought now: 0"),
            "cards-military",
            minimum=min(1, most),
            maximum=most,
        )

    return question


def buy_mercenaries(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    copper = 1
    if PURCHASE_UNIT.of(kingdom.rulings) == "batch":
        copper = yield from ask(mercenary_copper(kingdom, player))
        if copper == 0:
            say(f"{player.name} buys no mercenaries after all.")
            return
    cards = rules.mercenaries_for(copper, rules.mercenaries_available(kingdom))
    rules.pay(player, copper)
    player.mercenaries += cards
    before, kingdom.mercenaries_drawn = kingdom.mercenaries_drawn, kingdom.mercenaries_drawn + cards
    reshuffles = EMPTY_DECK.of(kingdom.rulings) == "reshuffle"
    if reshuffles and kingdom.mercenaries_drawn // MERCENARY_CARDS > before // MERCENARY_CARDS:
        say("The mercenary deck ran out: its discard pile becomes the new deck (ruling empty-deck).")
    kingdom.turn.purchases += 1
    unit = "ruling purchase-unit: " + PURCHASE_UNIT.of(kingdom.rulings)
    say(f"{player.name} pays {copper} copper for {cards} mercenary card(s) (purchase {kingdom.turn.purchases} "
        f"of {PURCHASES_PER_TURN}; {unit}).")


# --- Cawdwell's Taxes ---------------------------------------------------------------------------------


def tax_question(kingdom: Kingdom, player: Player) -> Builder[Player | None]:
    def question() -> Choice[Player | None]:
        targets: list[tuple[str, Player | None]] = [
            (other.name, other) for other in rules.tax_targets(kingdom, player.name)]
        return pick(f"{player.name} (Cawdwell, Taxes) takes {TAXES_COPPER} copper from whom?", "lord-cawdwell",
                    targets or [("nobody (no neighbour now)", None)])

    return question


def taxes(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    payer = yield from ask(tax_question(kingdom, player))
    kingdom.turn.taxed = True
    if payer is None:
        say(f"{player.name} taxes nobody.")
        return
    ruling = SHORT_PAYMENT.of(kingdom.rulings)
    paid = rules.payable(payer, TAXES_COPPER, ruling)
    rules.transfer_copper(payer, player, paid)
    short = f" of the {TAXES_COPPER} due (ruling short-payment: {ruling})" if paid < TAXES_COPPER else ""
    say(f"{payer.name} pays {player.name} {paid} copper in taxes{short}.")
