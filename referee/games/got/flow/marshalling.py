"""The Draw and Marshalling phases (#phase-draw, #phase-marshalling): cards drawn, income
collected, and cards paid for with the off-House penalty, Limited and shadows checked."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from referee.asks import Ask, Builder, Number, Parsed, Question
from referee.engine.cards import Card as PrintedCard
from referee.engine.cards import ask_card, card_field, remember
from referee.engine.game import Say, Steps
from referee.games.got import parse, rules
from referee.games.got.cards import COST, HOUSE, ICONS, LIMITED, PRINTED_CARD, card_cost
from referee.games.got.flow.cards import card_icons
from referee.games.got.flow.shadows import shadows_offer
from referee.games.got.rulings import NEUTRAL_CARDS_NO_PENALTY
from referee.games.got.state import (
    MASTER_OF_COINS_EXTRA_GOLD,
    NEUTRAL,
    OFF_HOUSE_PENALTY,
    CardCost,
    Player,
    Table,
)

T = TypeVar("T")
Asking = Generator[Question, Any, T]
MARSHALLING_MARKS = "xnlsi"
MARSHAL_EXAMPLES = ("none", "0", "1", "2 1", "1x", "s", "1l 0", "2i")


def draw_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "draw", None
    yield from shadows_offer(table, say)
    parts = []
    for player in table.players:
        wanted = rules.cards_to_draw(player)
        drawn = min(wanted, player.draw_deck)
        player.draw_deck -= drawn
        player.hand += drawn
        part = f"{player.name} {drawn}"
        if drawn < wanted:
            part += f" (draw deck empty: {wanted - drawn} not drawn, ruling empty-draw-deck)"
        parts.append(part)
    say("Draw: " + ", ".join(parts) + ".")


def marshalling_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "marshalling", None
    yield from shadows_offer(table, say)
    for player in table.turn_order():
        table.active = player.name
        collected = rules.income(player)
        player.gold += collected
        say(f"{player.name} collects {collected} gold ({income_parts(player)}).")
        if player.hand == 0:
            say(f"{player.name} has no card in hand to play.")
            continue
        yield from marshal(table, player, say)
    table.active = None


def neutral_penalty(table: Table) -> bool:
    return NEUTRAL_CARDS_NO_PENALTY.of(table.rulings) == "penalty"


def marshal_question(table: Table, player: Player, limited_played: bool = False,
                     again: bool = False) -> Builder[tuple[CardCost, ...]]:
    """The cards played, as a builder: gold, hand and the rulings are read as they are now. Asked
    `again` after a card named on its own, with a Limited card already played or not."""

    def read(text: str) -> tuple[CardCost, ...]:
        cards = parse.parse_costs(text, MARSHALLING_MARKS)
        if len(cards) > player.hand:
            raise ValueError(f"{player.name} holds only {player.hand} cards")
        if sum(card.limited for card in cards) + limited_played > 1:
            raise ValueError("at most one Limited card per round")
        gold = rules.marshalling_gold(cards, player.house, neutral_penalty(table))
        if gold > player.gold:
            raise ValueError(f"those cost {gold} gold and {player.name} has {player.gold}")
        return cards

    def build() -> Ask[tuple[CardCost, ...]]:
        what = "another card played? Its name, or the printed costs" if again else "printed cost of each card played"
        return Parsed(
            f"{player.name} ({player.gold} gold): {what}, e.g. '3 2x 1', or 'none'",
            "phase-marshalling",
            parser=read,
            hint=f"printed costs with marks ({parse.describe_marks(MARSHALLING_MARKS)}), "
            f"within {player.gold} gold, or 'none'",
            examples=MARSHAL_EXAMPLES,
        )

    return build


def marshal(table: Table, player: Player, say: Say) -> Steps:
    """One player's cards played: checked against the gold, the hand and the Limited rule. A card
    may be named (its printed fields then come from the card catalogue, or are asked once): the
    player may then name or cost more cards, one answer at a time."""
    limited_played = again = False
    while player.hand > 0:
        question = marshal_question(table, player, limited_played, again)
        printed = yield from ask_card(PRINTED_CARD, "cost", question)
        if printed.name is None:  # printed costs with their marks, as ever: the player's cards are all given
            cards = yield from card_field(printed, "cost", question)
            yield from play_costs(table, player, cards, say)
            return
        played = yield from play_named(table, player, printed, limited_played, say)
        if played is not None:
            limited_played |= played.limited
            again = True


def play_costs(table: Table, player: Player, cards: tuple[CardCost, ...], say: Say) -> Steps:
    paid = rules.marshalling_gold(cards, player.house, neutral_penalty(table))
    player.gold -= paid
    player.hand -= len(cards)
    player.shadows += sum(card.shadows for card in cards)
    if cards:
        note = penalty_note(player, cards, neutral_penalty(table))
        say(f"{player.name} plays {len(cards)} card(s) for {paid} gold{note}; {player.gold} gold left.")
    yield from card_icons(table, player, cards, say)


def play_named(
    table: Table, player: Player, printed: PrintedCard, limited_played: bool, say: Say
) -> Asking[CardCost | None]:
    """A card named on its own: its House, cost, Limited and icons as printed (known, or asked and
    remembered), then paid for; one that cannot be played (a second Limited card, or more gold than
    is left) stays in hand, and the question is asked again. Returns the card played, if any."""
    house = yield from card_field(printed, "house", HOUSE)
    penalty = rules.marshalling_gold([card_cost(0, house, False, player.house)], player.house, neutral_penalty(table))
    cost = yield from card_field(printed, "cost", cost_question(player, player.gold - penalty))
    limited = yield from card_field(printed, "limited", LIMITED)
    gold, initiative = yield from card_field(printed, "icons", ICONS)
    yield from remember(printed)
    card = card_cost(cost, house, limited, player.house)
    paid = rules.marshalling_gold([card], player.house, neutral_penalty(table))
    if paid > player.gold or (limited and limited_played):
        why = "a second Limited card this round" if paid <= player.gold else f"{paid} gold, and {player.gold} is left"
        say(f"{printed.name} cannot be played ({why}): it stays in {player.name}'s hand.")
        return None
    player.gold -= paid
    player.hand -= 1
    player.income_next += gold
    player.initiative_bonus += initiative
    icons = [f"+{gold} gold from the next round's income"] * bool(gold)
    icons += [f"+{initiative} initiative from the next Plot phase"] * bool(initiative)
    note = penalty_note(player, [card], neutral_penalty(table))
    counted = f" ({' and '.join(icons)})" if icons else ""
    say(f"{player.name} plays {printed.name} for {paid} gold{note}{counted}; {player.gold} gold left.")
    return card


def cost_question(player: Player, most: int) -> Ask[int]:
    """A new card's printed cost, within what the player can pay for it (its House's penalty taken
    off); with too little gold for any, the printed cost as it is (the card then stays in hand)."""
    if most < 0:
        return COST
    return Number(f"Its printed gold cost? ({player.name} can pay up to {most})", COST.section,
                  maximum=min(most, COST.maximum))


def income_parts(player: Player) -> str:
    parts = [f"plot {player.plot.income if player.plot else 0}"]
    if player.income_bonus:
        parts.append(f"cards in play {player.income_bonus}")
    if player.title == "Master of Coins":
        parts.append(f"Master of Coins {MASTER_OF_COINS_EXTRA_GOLD}")
    return ", ".join(parts)


def penalty_note(player: Player, cards: Sequence[CardCost], neutral_penalty: bool) -> str:
    """What the referee did about the off-House penalty, and only where a penalty was in question."""
    notes = []
    other = sum(card.other_house for card in cards)
    neutral = sum(card.neutral for card in cards)
    into_shadows = sum(card.shadows for card in cards)
    if player.house == NEUTRAL:
        if other:
            notes.append("no off-House penalty for a Neutral House")
    else:
        if other:
            notes.append(f"{other} off-House card(s) at {OFF_HOUSE_PENALTY} more each")
        if neutral:
            ruled = f"{OFF_HOUSE_PENALTY} more each" if neutral_penalty else "no penalty"
            notes.append(f"neutral card(s): {ruled} (ruling neutral-cards-no-penalty)")
    if into_shadows:
        notes.append(f"{into_shadows} into shadows")
    return f" ({'; '.join(notes)})" if notes else ""
