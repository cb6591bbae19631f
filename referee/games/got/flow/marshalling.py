"""The Draw and Marshalling phases (#phase-draw, #phase-marshalling): cards drawn, income
collected, and cards paid for with the off-House penalty, Limited and shadows checked."""

from __future__ import annotations

from collections.abc import Sequence

from referee.asks import Ask, Builder, Parsed, ask
from referee.engine.game import Say, Steps
from referee.games.got import parse, rules
from referee.games.got.flow.cards import card_icons
from referee.games.got.flow.shadows import shadows_offer
from referee.games.got.state import (
    MASTER_OF_COINS_EXTRA_GOLD,
    NEUTRAL,
    OFF_HOUSE_PENALTY,
    CardCost,
    Player,
    Table,
)

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
    return table.rulings["neutral-cards-no-penalty"] == "penalty"


def marshal_question(table: Table, player: Player) -> Builder[tuple[CardCost, ...]]:
    """The cards played, as a builder: gold, hand and the rulings are read as they are now."""

    def read(text: str) -> tuple[CardCost, ...]:
        cards = parse.parse_costs(text, MARSHALLING_MARKS)
        if len(cards) > player.hand:
            raise ValueError(f"{player.name} holds only {player.hand} cards")
        if sum(card.limited for card in cards) > 1:
            raise ValueError("at most one Limited card per round")
        gold = rules.marshalling_gold(cards, player.house, neutral_penalty(table))
        if gold > player.gold:
            raise ValueError(f"those cost {gold} gold and {player.name} has {player.gold}")
        return cards

    def build() -> Ask[tuple[CardCost, ...]]:
        return Parsed(
            f"{player.name} ({player.gold} gold): printed cost of each card played, e.g. '3 2x 1', or 'none'",
            "phase-marshalling",
            parser=read,
            hint=f"printed costs with marks ({parse.describe_marks(MARSHALLING_MARKS)}), "
            f"within {player.gold} gold, or 'none'",
            examples=MARSHAL_EXAMPLES,
        )

    return build


def marshal(table: Table, player: Player, say: Say) -> Steps:
    """One player's cards played: checked against the gold, the hand and the Limited rule."""
    cards = yield from ask(marshal_question(table, player))
    paid = rules.marshalling_gold(cards, player.house, neutral_penalty(table))
    player.gold -= paid
    player.hand -= len(cards)
    player.shadows += sum(card.shadows for card in cards)
    if cards:
        note = penalty_note(player, cards, neutral_penalty(table))
        say(f"{player.name} plays {len(cards)} card(s) for {paid} gold{note}; {player.gold} gold left.")
    yield from card_icons(table, player, cards, say)


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
