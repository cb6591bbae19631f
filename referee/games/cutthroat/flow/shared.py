"""What several parts of the Cutthroat Kingdoms flow ask or say alike: the printed values of a
territory, the military cards placed under one, a few ways of naming players, coins and gems
collected from the bank or a player, and passage through others' land. The phase modules import
this module, not each other.

A question whose options or bounds come from state a correction can change is given as a builder,
so the driver builds it again from the current state after every correction.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from typing import Any

from referee.asks import Builder, Confirm, Parsed, Question, ask
from referee.engine.cards import Card, card_field, card_question, remember
from referee.engine.game import Say
from referee.games.cutthroat import rules
from referee.games.cutthroat.cards import PLACES, TERRITORY_CARD, printed_number, territory_field
from referee.games.cutthroat.parse import parse_stack, stack_examples
from referee.games.cutthroat.rulings import SHORT_PAYMENT
from referee.games.cutthroat.state import COPPER, GEMS, GEMS_IN_GAME, MERCENARY, SOLDIER, Kingdom, Player, Territory
from referee.wording import counted

Amount = Generator[Question, Any, int]
TERRITORY_FIELDS = dict(TERRITORY_CARD.fields)


def names(players: Sequence[Player]) -> str:
    return ", ".join(player.name for player in players)


def turn_order_from(kingdom: Kingdom, first: Player) -> list[Player]:
    seat = kingdom.players.index(first)
    return kingdom.players[seat:] + kingdom.players[:seat]


def free_label(candidates: Iterable[str], taken: Iterable[str]) -> str:
    """The first of the candidate labels that no player or territory is named, so that a name
    like 'No' can still be chosen by name."""
    used = {name.lower() for name in taken}
    return next(label for label in candidates if label.lower() not in used)


def known_names(kingdom: Kingdom) -> list[str]:
    return [player.name for player in kingdom.players] + [territory.name for territory in kingdom.territories]


# --- printed territory values (asked once per side, then remembered) -------------------------------


def value_question(territory: Territory, kind: str) -> Builder[int]:
    corner, what = ("top left", "copper") if kind == COPPER else ("top right", "gem")
    return lambda: printed_number(
        f"{territory.name} ({territory.side} side): {what} value printed at the {corner}?", "resource-phase"
    )


def territory_question(territory: Territory, kind: str) -> Builder[Card]:
    """The value as a field of the territory's card: a territory the catalogue knows is accepted
    with Enter, and a value given is remembered under the territory's name."""
    return lambda: card_question(
        TERRITORY_CARD, territory_field(kind, territory.side), value_question(territory, kind)(), name=territory.name
    )


def printed_value(territory: Territory, kind: str) -> Amount:
    """A territory's copper or gem value on the side now up, asked the first time it is needed.

    The question names the side; a plague or a cure entered meanwhile rebuilds it, and the answer
    is kept for the side that is up when it comes. A named territory's answer is its card: every
    value the card tells is kept (what this game was told already stays), and what was learned is
    remembered."""
    known = territory.copper_value if kind == COPPER else territory.gem_value
    while territory.side not in known:
        if not territory.named:
            value = yield from ask(value_question(territory, kind))
            known[territory.side] = value
            continue
        card = yield from ask(territory_question(territory, kind))
        for field_name in list(card.printed):
            what, side = PLACES[field_name]
            value = yield from card_field(card, field_name, TERRITORY_FIELDS[field_name])
            (territory.copper_value if what == COPPER else territory.gem_value).setdefault(side, value)
        yield from remember(card)
    return known[territory.side]


def printed_values(territory: Territory) -> Generator[Question, Any, tuple[int, int]]:
    """Both values of the side that is up once they are known (asked if not): (copper, gems)."""
    while True:
        copper = yield from printed_value(territory, COPPER)
        gems = yield from printed_value(territory, GEMS)
        if territory.side in territory.copper_value:  # no plague or cure turned it meanwhile
            return copper, gems


# --- military cards placed under a territory --------------------------------------------------------


def stack_question(kingdom: Kingdom, player: Player, prompt: str, optional: bool, section: str) -> Builder[
        list[str] | None]:
    """The cards placed under a territory, bounded by the hand as it is now; an empty hand (after
    a correction) can only answer 'none'."""

    def question() -> Parsed[list[str] | None]:
        soldiers, mercenaries = kingdom.soldiers_in_hand(player), player.mercenaries
        can_skip = optional or soldiers + mercenaries == 0
        return Parsed(
            f"{prompt}, top first ('s' soldier, 'm' mercenary; e.g. 's m s'{', or none' if can_skip else ''})",
            section,
            parser=lambda text: parse_stack(text, soldiers, mercenaries, can_skip),
            hint=f"1 to 4 cards, at most {soldiers} soldier(s) and {mercenaries} mercenary card(s)"
            + (", or 'none'" if can_skip else ""),
            examples=stack_examples(soldiers, mercenaries, can_skip),
        )

    return question


def placed_stack(
    kingdom: Kingdom, player: Player, prompt: str, optional: bool, section: str = "conquering"
) -> Generator[Question, Any, list[str] | None]:
    """The cards placed under a territory; None when the hand holds none or the player places none."""
    if kingdom.military_in_hand(player) == 0:
        return None
    return (yield from ask(stack_question(kingdom, player, prompt, optional, section)))


def occupy_if_placed(kingdom: Kingdom, player: Player, territory: Territory, prompt: str, left_empty: str,
                     say: Say) -> Generator[Question, Any, None]:
    """Ask for the cards the player places under an unoccupied territory, then occupy it; said
    `left_empty` when none are placed, and no conquest when a correction meanwhile gave it an owner."""
    stack = yield from placed_stack(kingdom, player, prompt, optional=True)
    if stack is None:
        say(left_empty)
    elif territory.owner is not None:
        say(f"{territory.name} was taken meanwhile (a correction).")
    else:
        occupy(kingdom, player, territory, stack, say)


def occupy(kingdom: Kingdom, player: Player, territory: Territory, stack: Sequence[str], say: Say) -> None:
    rules.place(kingdom, player, territory, stack)
    kingdom.turn.conquered.append(territory.name)
    say(f"{player.name} conquers {territory.name} with {describe_stack(stack)}.")


def describe_stack(stack: Sequence[str]) -> str:
    soldiers, mercenaries = stack.count(SOLDIER), stack.count(MERCENARY)
    parts = []
    if soldiers:
        parts.append(f"{soldiers} soldier{'s' if soldiers > 1 else ''}")
    if mercenaries:
        parts.append(f"{mercenaries} face-down mercenar{'ies' if mercenaries > 1 else 'y'}")
    return " and ".join(parts) or "no defenders"


def announce_votes(kingdom: Kingdom, say: Say) -> None:
    """Who casts the extra vote: the player or players holding the fewest copper coins (#voting).
    Only their names are said, never how much they hold."""
    extra = rules.poorest(kingdom)
    say(f"Vote: 1 vote each, and 1 more for the fewest copper coins: {names(extra)}. A tied vote decides nothing.")


# --- coins and gems collected, passage asked (the resource, action and event phases alike) ------------


def collect_copper(kingdom: Kingdom, player: Player, amount: int, payer: Player | None, say: Say) -> int:
    """Copper from the bank, or from a blackmailed player (who pays what the ruling says)."""
    if payer is None:
        player.copper += amount
        return amount
    ruling = SHORT_PAYMENT.of(kingdom.rulings)
    paid = rules.payable(payer, amount, ruling)
    if paid < amount:
        say(f"{payer.name} cannot pay all {amount} copper and pays {paid} (ruling short-payment: {ruling}).")
    rules.transfer_copper(payer, player, paid)
    return paid


def collect_gems(kingdom: Kingdom, player: Player, amount: int, payer: Player | None, say: Say) -> int:
    """Gems drawn from the purse (no more than it holds), or from a blackmailed player."""
    if payer is None:
        got = min(amount, rules.gems_in_purse(kingdom))
        if got < amount:
            say(f"The purse holds only {counted(got, 'gem')} ({GEMS_IN_GAME} in the game, ruling gem-supply).")
    else:
        ruling = SHORT_PAYMENT.of(kingdom.rulings)
        got = rules.short_payment(payer.gems, amount, ruling)
        if got < amount:
            say(f"{payer.name} cannot hand over all {counted(amount, 'gem')} and hands over {got} "
                f"(ruling short-payment: {ruling}).")
        payer.gems -= got
    player.gems += got
    return got


def passage_question(kingdom: Kingdom, player: Player, territory: Territory) -> Builder[bool]:
    def question() -> Confirm:
        route = rules.passage_needed(kingdom, player.name, territory)
        if not route:
            return Confirm(f"{territory.name} is now accessible to {player.name} (a correction). Go on?",
                           "accessibility")
        through = ", ".join(f"{land.name} ({land.owner})" for land in route)
        return Confirm(f"{territory.name} is not accessible to {player.name}: passage needed through {through}. "
                       "Granted?", "accessibility")

    return question


def passage(kingdom: Kingdom, player: Player, territory: Territory, aim: str, say: Say) -> Generator[
        Question, Any, bool]:
    """Whether the player may reach the territory: accessible, or its way through granted (#accessibility)."""
    if not rules.passage_needed(kingdom, player.name, territory):
        return True
    granted = yield from ask(passage_question(kingdom, player, territory))
    through = ", ".join(f"{land.name} ({land.owner})" for land in rules.passage_needed(kingdom, player.name, territory))
    if granted:
        say(f"Passage granted through {through}." if through else f"{player.name} goes on to {territory.name}.")
    else:
        say(f"No passage: {player.name} cannot {aim} {territory.name}.")
    return granted
