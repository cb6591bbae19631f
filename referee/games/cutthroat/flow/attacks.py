"""Attacking territories: accessibility and passage, Stonehold's price, the exchanges of attack and
defence, and what killing the last defender sets off (Tyber's Pillage and Bedlam, Brom's Fury,
the chance to conquer at once)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from referee.asks import Builder, Choice, Parsed, Question, ask, pick
from referee.engine.game import Say, Steps
from referee.games.cutthroat import rules
from referee.games.cutthroat.flow.shared import free_label, known_names, occupy_if_placed, passage
from referee.games.cutthroat.parse import discard_examples, parse_discards
from referee.games.cutthroat.rulings import BEDLAM_OWN_LAND, BEDLAM_PARTNER_LAND, SHORT_PAYMENT, STONEHOLD_DISCARD
from referee.games.cutthroat.state import (
    FIRST_QUESTIONS,
    FURY_KILLS,
    MERCENARY,
    PILLAGE_COPPER,
    SOLDIER,
    Kingdom,
    Player,
    Territory,
)
from referee.wording import possessive

STOP_ATTACK = "stop attacking"
NO_FURY = ("no", "no Fury", "Fury not used")
NO_BEDLAM = ("none", "no mercenaries", "no territory")


@dataclass(frozen=True)
class Exchange:
    """One round of an attack: the kind of card the attacker discards (None: the attack stops) and
    who cancels it with which kind of card (None: undefended, the top defender dies)."""

    kind: str | None
    helper: str | None = None
    helper_kind: str | None = None


STOP = Exchange(None)


def target_question(kingdom: Kingdom, player: Player) -> Builder[Territory | None]:
    def question() -> Choice[Territory | None]:
        targets = rules.attack_targets(kingdom, player.name)
        listing = "; ".join(describe_target(territory) for territory in targets)
        options: list[tuple[str, Territory | None]] = [(territory.name, territory) for territory in targets]
        return pick(f"{player.name} attacks which territory? {listing}", "accessibility",
                    options or [("no target now", None)])

    return question


def describe_target(territory: Territory) -> str:
    price = rules.stonehold_discards(territory)
    toll = f"; {price} military card(s) discarded first" if price else ""
    return f"{territory.name} ({territory.owner}, {len(territory.defenders)} defending{toll})"


def attack(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    territory = yield from ask(target_question(kingdom, player))
    if territory is None or territory.owner is None:
        say(f"{player.name} has no territory to attack now.")
        return
    if not (yield from passage(kingdom, player, territory, "attack", say)):
        return
    defender = territory.owner
    while True:
        if territory.owner != defender:
            say(f"{territory.name} no longer belongs to {defender} (a correction): the attack ends.")
            return
        if kingdom.military_in_hand(player) == 0:
            say(f"{player.name} has no military card left in hand: the attack on {territory.name} ends.")
            return
        price = rules.stonehold_due(kingdom, territory)
        if price and not (yield from pay_stonehold(kingdom, player, territory, price, say)):
            return
        exchange = yield from ask(exchange_question(kingdom, player, territory, defender))
        if exchange.kind is None:
            if territory.owner == defender:
                say(f"{player.name} stops attacking {territory.name}.")
            else:
                say(f"{territory.name} no longer belongs to {defender} (a correction): the attack ends.")
            return
        resolve_exchange(kingdom, player, territory, exchange, say)
        if not territory.defenders:
            break
    say(f"{possessive(territory.name)} last defender is killed: {defender}'s house token goes back to them.")
    yield from last_defender_killed(kingdom, player, territory, kingdom.player(defender), say)


# --- Stonehold ------------------------------------------------------------------------------------------


def stonehold_question(kingdom: Kingdom, player: Player, territory: Territory, count: int) -> Builder[
        list[str] | None]:
    def question() -> Parsed[list[str] | None]:
        soldiers, mercenaries = kingdom.soldiers_in_hand(player), player.mercenaries
        return Parsed(
            f"{territory.name}: before attacking, {player.name} discards {count} military card(s) ('s' soldier, "
            "'m' mercenary; or 'none' to leave it alone)",
            "cards-territory",
            parser=lambda text: parse_discards(text, count, soldiers, mercenaries),
            hint=f"{count} card(s) from {soldiers} soldier(s) and {mercenaries} mercenary card(s), or 'none'",
            examples=discard_examples(count, soldiers, mercenaries),
        )

    return question


def pay_stonehold(kingdom: Kingdom, player: Player, territory: Territory, count: int, say: Say) -> Generator[
        Question, Any, bool]:
    """Stonehold's price (2 military cards, 1 on its plagued side), paid before the attacking card;
    which cards is asked only when the hand holds both kinds. False: no attack after all."""
    soldiers, mercenaries = kingdom.soldiers_in_hand(player), player.mercenaries
    ruling = f"ruling stonehold-discard: {STONEHOLD_DISCARD.of(kingdom.rulings)}"
    if soldiers + mercenaries < count:
        say(f"{player.name} cannot discard the {count} military card(s) {territory.name} demands: no attack "
            f"({ruling}).")
        return False
    cards: list[str] | None
    if mercenaries == 0 or soldiers == 0:
        cards = [SOLDIER if mercenaries == 0 else MERCENARY] * count
    else:
        cards = yield from ask(stonehold_question(kingdom, player, territory, count))
    if cards is None:
        say(f"{player.name} leaves {territory.name} alone.")
        return False
    for kind in cards:
        rules.discard_military(kingdom, player, kind)
    kingdom.turn.stonehold_paid_at = len(territory.defenders)
    say(f"{territory.name}: {player.name} discards {describe_cards(cards)} before attacking ({ruling}).")
    return True


def describe_cards(cards: list[str]) -> str:
    soldiers, mercenaries = cards.count(SOLDIER), cards.count(MERCENARY)
    parts = [f"{soldiers} soldier{'s' if soldiers > 1 else ''}"] if soldiers else []
    if mercenaries:
        parts.append(f"{mercenaries} mercenar{'ies' if mercenaries > 1 else 'y'}")
    return " and ".join(parts)


# --- the exchanges ----------------------------------------------------------------------------------------


def exchange_options(kingdom: Kingdom, attacker: Player, defender: Player) -> list[tuple[str, Exchange]]:
    kinds = [kind for kind, held in ((SOLDIER, kingdom.soldiers_in_hand(attacker)),
                                     (MERCENARY, attacker.mercenaries)) if held > 0]
    answers: list[tuple[str, str | None, str | None]] = [("undefended", None, None)]
    helpers = [defender] + ([kingdom.player(defender.married_to)] if defender.married_to else [])
    for helper in helpers:
        if kingdom.soldiers_in_hand(helper) > 0:
            answers.append((f"cancelled by {helper.name}'s soldier", helper.name, SOLDIER))
        if helper.mercenaries > 0:
            answers.append((f"cancelled by {helper.name}'s mercenary", helper.name, MERCENARY))
    options = [(f"{kind}, {text}", Exchange(kind, who, with_kind))
               for kind in kinds for text, who, with_kind in answers]
    return [*options, (STOP_ATTACK, STOP)]


def exchange_question(kingdom: Kingdom, attacker: Player, territory: Territory, defender: str) -> Builder[Exchange]:
    """The next exchange, from the hands and the territory as they are now."""

    def question() -> Choice[Exchange]:
        if territory.owner != defender or not territory.defenders:
            return pick(f"{territory.name} is no longer {defender}'s to defend (a correction): the attack ends",
                        "attack-and-defend", [(STOP_ATTACK, STOP)])
        top = territory.defenders[0]
        what = "a face-down mercenary: any type kills it" if top == MERCENARY else "a soldier"
        return pick(
            f"Attack on {territory.name} (top defender: {what}). {attacker.name} discards which kind of card, "
            "and how is it answered?",
            "attack-and-defend",
            exchange_options(kingdom, attacker, kingdom.player(defender)),
        )

    return question


def resolve_exchange(kingdom: Kingdom, attacker: Player, territory: Territory, exchange: Exchange, say: Say) -> None:
    assert exchange.kind is not None
    rules.discard_military(kingdom, attacker, exchange.kind)
    if exchange.helper is not None and exchange.helper_kind is not None:
        helper = kingdom.player(exchange.helper)
        rules.discard_military(kingdom, helper, exchange.helper_kind)
        say(f"{helper.name}'s {exchange.helper_kind} cancels {attacker.name}'s {exchange.kind}: both are discarded.")
        return
    killed = rules.kill_top(kingdom, territory, 1)
    say(f"Undefended: {attacker.name}'s {exchange.kind} kills the top defender of {territory.name} (a {killed[0]}); "
        f"{len(territory.defenders)} left.")


# --- the last defender killed ------------------------------------------------------------------------------


def last_defender_killed(kingdom: Kingdom, player: Player, territory: Territory, former: Player, say: Say) -> Steps:
    """Abilities that fire on killing a territory's last defender, then the chance to conquer it."""
    if player.character == "Tyber":
        ruling = SHORT_PAYMENT.of(kingdom.rulings)
        paid = rules.payable(former, PILLAGE_COPPER, ruling)
        rules.transfer_copper(former, player, paid)
        short = f" of the {PILLAGE_COPPER} due (ruling short-payment: {ruling})" if paid < PILLAGE_COPPER else ""
        say(f"Pillage: {former.name} pays {player.name} {paid} copper{short}.")
        yield from bedlam(kingdom, player, territory, say)
    if player.ability_uses.get("fury", 0) > 0:
        yield from fury(kingdom, player, territory, say)
    if kingdom.military_in_hand(player) > 0 and territory.owner is None:
        yield from occupy_if_placed(kingdom, player, territory, f"{player.name} conquers {territory.name} now? Cards",
                                    f"{territory.name} stays unoccupied.", say)


def bedlam_question(kingdom: Kingdom, tyber: Player, territory: Territory) -> Builder[Territory | None]:
    """Which territory next door gives up its mercenaries: Tyber chooses, but may not decline
    (a session of the first questions was offered 'none')."""

    def question() -> Choice[Territory | None]:
        sources: list[tuple[str, Territory | None]] = [
            (f"{land.name} ({land.defenders.count(MERCENARY)} mercenary card(s))", land)
            for land in rules.bedlam_sources(kingdom, tyber, territory)
        ]
        if kingdom.questions == FIRST_QUESTIONS or not sources:
            sources.insert(0, (free_label(NO_BEDLAM, known_names(kingdom)), None))
        return pick(f"Bedlam: {tyber.name} takes every mercenary of which territory next to {territory.name}?",
                    "lady-tyber", sources)

    return question


def bedlam(kingdom: Kingdom, tyber: Player, territory: Territory, say: Say) -> Steps:
    """Tyber takes every mercenary of one territory next to it into her hand; the territories of
    her own and of her partner are spared unless rulings bedlam-own-land and bedlam-partner-land
    say otherwise. One territory to take from is taken without a question."""
    sources = rules.bedlam_sources(kingdom, tyber, territory)
    if not sources:
        spared = rules.bedlam_spared(kingdom, tyber)
        held = {land.owner for land in rules.adjacent(kingdom, territory) if MERCENARY in land.defenders}
        why = ""
        if tyber.name in held & spared:
            why = f" (her own are spared, ruling bedlam-own-land: {BEDLAM_OWN_LAND.of(kingdom.rulings)})"
        elif held & spared:
            why = (f" (her partner's are spared, ruling bedlam-partner-land: "
                   f"{BEDLAM_PARTNER_LAND.of(kingdom.rulings)})")
        say(f"Bedlam: no territory next to {territory.name} holds a mercenary to take{why}.")
        return
    land: Territory | None
    if len(sources) == 1 and kingdom.questions > FIRST_QUESTIONS:
        land = sources[0]
        say(f"Bedlam: {land.name} is the one territory next to {territory.name} with mercenaries to take.")
    else:
        land = yield from ask(bedlam_question(kingdom, tyber, territory))
    if land is None:
        say(f"Bedlam: {tyber.name} takes no mercenaries.")
        return
    owner = land.owner
    taken = land.defenders.count(MERCENARY)
    land.defenders = [card for card in land.defenders if card != MERCENARY]
    tyber.mercenaries += taken
    say(f"Bedlam: {tyber.name} takes {taken} mercenary card(s) from {land.name} into her hand.")
    if not land.defenders and owner is not None:
        land.owner = None
        say(f"{land.name} is left unoccupied: {owner}'s house token goes back to them.")


def fury_question(kingdom: Kingdom, brom: Player, territory: Territory) -> Builder[Territory | None]:
    def question() -> Choice[Territory | None]:
        no = free_label(NO_FURY, known_names(kingdom))
        targets: list[tuple[str, Territory | None]] = [
            (land.name, land) for land in fury_targets(kingdom, brom, territory)]
        return pick(
            f"Fury ({brom.ability_uses['fury']} left): {brom.name} kills the top 2 defenders of a territory next "
            f"to {territory.name}?",
            "lord-brom",
            [(no, None), *targets],
        )

    return question


def fury_targets(kingdom: Kingdom, brom: Player, territory: Territory) -> list[Territory]:
    """Defended territories next to it; never Brom's own (#faq: no killing your own military cards)."""
    return [land for land in rules.adjacent(kingdom, territory) if land.defenders and land.owner != brom.name]


def fury(kingdom: Kingdom, brom: Player, territory: Territory, say: Say) -> Steps:
    if not fury_targets(kingdom, brom, territory):
        return
    land = yield from ask(fury_question(kingdom, brom, territory))
    if land is None or not land.defenders or brom.ability_uses.get("fury", 0) == 0:
        return
    owner = land.owner
    brom.ability_uses["fury"] -= 1
    killed = rules.kill_top(kingdom, land, FURY_KILLS)
    say(f"Fury: {brom.name} kills {len(killed)} defender(s) of {land.name}.")
    if land.owner is None:
        say(f"{land.name} is left unoccupied: {owner}'s house token goes back to them.")
