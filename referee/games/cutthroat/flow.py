"""The Cutthroat Kingdoms session, from setup to the final count, as the table plays it.

Each function yields the questions for one part of the rulebook's sequence and applies the answers
to the Kingdom. Only the driver sends answers in, and it has already validated them. Deals, card
texts and most lord/lady abilities stay with the table: what they change is entered as corrections.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Sequence
from typing import Any

from referee.asks import Choice, Confirm, Number, Parsed, Question
from referee.engine.game import Flow, Say
from referee.games.cutthroat import rules
from referee.games.cutthroat.gems import GEM_COLOURS, GEM_PLURALS, GEMS_PER_COLOUR
from referee.games.cutthroat.scoring import LARGEST_ENTRY, Holdings, PlayerHoldings, score
from referee.games.cutthroat.state import (
    ALMS,
    ALMS_COPPER,
    CHARACTERS,
    COLLECT_DEAD_COST,
    EVENT_CARDS,
    FEAST,
    FURY_KILLS,
    MERCENARY,
    MERCENARY_CARDS,
    NO_TERRITORY_COPPER,
    OTHER_EVENT,
    PILLAGE_COPPER,
    PURCHASES_PER_TURN,
    SOLDIER,
    TAXES_COPPER,
    TERRITORIES_BEYOND_PLAYERS,
    TRIBUTE,
    TRIBUTE_NO_TERRITORY_COPPER,
    WEDDING,
    WELCOME,
    WELCOME_COPPER,
    Kingdom,
    Player,
    Territory,
    TurnRecord,
)
from referee.outcome import ScoreReport

Steps = Generator[Question, Any, None]
Amount = Generator[Question, Any, int]

LARGEST_PRINTED_VALUE = 20
"""Upper bound on a printed copper or gem value typed at a prompt: a guard against typos only."""
KNOWN_TERRITORIES = ("Stonehold", "Three Rivers", "Nyghtwald", "The Hanging Tongue", "Marrow")
"""The territories the rulebook names; the others are read off the cards."""
RESERVED_WORDS = ("all", "none", "nobody", "everyone", "bank")

BUY_HIRELING = "buy a hireling"
BUY_MERCENARIES = "buy mercenaries"
CONQUER = "conquer"
ATTACK = "attack"
COLLECT_DEAD = "collect the dead"
TAXES = "taxes"
END_ACTIONS = "end the action phase"
STOP_ATTACK = "stop attacking"
NO = "no"


def flow(kingdom: Kingdom, say: Say) -> Flow:
    yield from set_up(kingdom, say)
    while kingdom.events_drawn < kingdom.events_total:
        seat = (kingdom.starting_seat + kingdom.turn_number) % len(kingdom.players)
        kingdom.turn_number += 1
        yield from take_turn(kingdom, kingdom.players[seat], say)
    return (yield from final_count(kingdom, say))


def names(players: Sequence[Player]) -> str:
    return ", ".join(player.name for player in players)


def turn_order_from(kingdom: Kingdom, first: Player) -> list[Player]:
    seat = kingdom.players.index(first)
    return kingdom.players[seat:] + kingdom.players[:seat]


# --- setup ----------------------------------------------------------------------------------------


def set_up(kingdom: Kingdom, say: Say) -> Steps:
    kingdom.phase = "setup"
    yield from choose_characters(kingdom, say)
    kingdom.events_total = yield Number(
        "How many cards are in the assembled event deck (Welcome to Aurum, the Royal Wedding and the "
        "Royal Feast included)?",
        "setup-event-deck",
        minimum=3,
        maximum=EVENT_CARDS,
    )
    say(
        f"Event deck: {kingdom.events_total} cards, Welcome to Aurum on top, the Royal Wedding near the "
        "middle, the Royal Feast at the bottom. One is drawn at the end of every turn."
    )
    say(
        f"Marketplace: gems in the purse, coins in the bank; the {len(kingdom.players)} bastards shuffled "
        f"into the hirelings ({kingdom.hireling_deck_size} cards); the mercenaries shuffled face down."
    )
    yield from name_territories(kingdom, say)
    say("Shuffle the feast cards and put them on the table.")
    announce_votes(kingdom, say)
    starter = yield Choice(
        "The vote for the starting player: who won it?",
        "setup-starting-player",
        options=tuple(player.name for player in kingdom.players),
    )
    first = kingdom.player(starter)
    kingdom.starting_seat = kingdom.players.index(first)
    for player in turn_order_from(kingdom, first):
        yield from choose_starting_territory(kingdom, player, say)


def announce_votes(kingdom: Kingdom, say: Say) -> None:
    """Who casts the extra vote: the player or players holding the fewest copper coins (#voting)."""
    fewest = min(player.copper for player in kingdom.players)
    extra = [player for player in kingdom.players if player.copper == fewest]
    say(f"Vote: 1 vote each, and 1 more for the fewest copper ({fewest}): {names(extra)}. "
        "A tied vote decides nothing.")


def choose_characters(kingdom: Kingdom, say: Say) -> Steps:
    for player in kingdom.players:
        taken = {other.character for other in kingdom.players}
        free = tuple(character for character in CHARACTERS if character not in taken)
        character = yield Choice(f"{player.name} leads which house (lord or lady)?", "setup-houses", options=free)
        rules.choose_character(player, character)
        say(f"{player.name} is {character}: {player.soldiers_total} soldiers in hand.")


def name_territories(kingdom: Kingdom, say: Say) -> Steps:
    count = len(kingdom.players) + TERRITORIES_BEYOND_PLAYERS
    say(f"Kingdom: draw {count} territories and lay them out in their slots (ruling territory-layout: "
        f"{kingdom.rulings['territory-layout']}).")
    for slot in range(1, count + 1):
        taken = rules.territory_names_taken(kingdom.territories) | {p.name.lower() for p in kingdom.players}
        unused = tuple(name for name in KNOWN_TERRITORIES if name.lower() not in taken)
        default = f"Slot {slot}"
        name = yield Parsed(
            f"Territory in slot {slot}: its name (Enter for '{default}')",
            "setup-kingdom",
            default=default,
            parser=functools.partial(parse_territory_name, taken=taken),
            hint="a name not used yet, up to 30 letters, digits, spaces, ' or -",
            examples=(default, *unused),
        )
        kingdom.territories.append(Territory(name))


def parse_territory_name(text: str, taken: set[str]) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 '\-]{0,29}", text):
        raise ValueError("not a territory name")
    if text.lower() in taken:
        raise ValueError("that name is already a territory or a player")
    if text.lower() in RESERVED_WORDS or text.split()[-1].lower() in GAME_VERBS:
        raise ValueError("that word is kept for corrections")
    return text


GAME_VERBS = ("plague", "cure", "kill", "return", "uses", "marries", "heir", "hireling")
"""Words that end a territory correction; a territory name may not end in one."""


def choose_starting_territory(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    free = tuple(territory.name for territory in kingdom.territories if territory.owner is None)
    name = yield Choice(f"{player.name}: starting territory?", "setup-starting-player", options=free)
    territory = kingdom.territory(name)
    stack = yield from placed_stack(kingdom, player, f"{player.name}: military cards under {territory.name}",
                                    say, optional=False, section="setup-starting-player")
    if stack is None:
        say(f"{player.name} has no military card to place and starts without a territory.")
        return
    rules.place(kingdom, player, territory, stack)
    copper = yield from copper_value(territory)
    player.copper += copper
    say(f"{player.name} holds {territory.name} with {describe_stack(stack)} and takes {copper} copper.")


def placed_stack(
    kingdom: Kingdom, player: Player, prompt: str, say: Say, optional: bool, section: str = "conquering"
) -> Generator[Question, Any, list[str] | None]:
    """The cards placed under a territory; asked again if a correction emptied the hand meanwhile."""
    while True:
        if kingdom.military_in_hand(player) == 0:
            return None
        stack = yield ask_stack(kingdom, player, prompt, optional, section)
        if stack is None or (
            stack.count(SOLDIER) <= kingdom.soldiers_in_hand(player) and stack.count(MERCENARY) <= player.mercenaries
        ):
            return list(stack) if stack is not None else None
        say(f"{player.name}'s hand changed meanwhile (a correction): choose the cards again.")


def ask_stack(kingdom: Kingdom, player: Player, prompt: str, optional: bool, section: str) -> Parsed[Any]:
    soldiers, mercenaries = kingdom.soldiers_in_hand(player), player.mercenaries
    return Parsed(
        f"{prompt}, top first ('s' soldier, 'm' mercenary; e.g. 's m s'{', or none' if optional else ''})",
        section,
        parser=lambda text: rules.parse_stack(text, soldiers, mercenaries, optional),
        hint=f"1 to 4 cards, at most {soldiers} soldier(s) and {mercenaries} mercenary card(s)"
        + (", or 'none'" if optional else ""),
        examples=rules.stack_examples(soldiers, mercenaries, optional),
    )


def describe_stack(stack: Sequence[str]) -> str:
    soldiers, mercenaries = stack.count(SOLDIER), stack.count(MERCENARY)
    parts = []
    if soldiers:
        parts.append(f"{soldiers} soldier{'s' if soldiers > 1 else ''}")
    if mercenaries:
        parts.append(f"{mercenaries} face-down mercenar{'ies' if mercenaries > 1 else 'y'}")
    return " and ".join(parts) or "no defenders"


# --- printed territory values (asked once per side, then remembered) -------------------------------


def copper_value(territory: Territory) -> Amount:
    side = territory.side
    if side not in territory.copper_value:
        territory.copper_value[side] = yield Number(
            f"{territory.name} ({side} side): copper value printed at the top left?",
            "resource-phase",
            maximum=LARGEST_PRINTED_VALUE,
        )
    return territory.copper_value[side]


def gem_value(territory: Territory) -> Amount:
    side = territory.side
    if side not in territory.gem_value:
        territory.gem_value[side] = yield Number(
            f"{territory.name} ({side} side): gem value printed at the top right?",
            "resource-phase",
            maximum=LARGEST_PRINTED_VALUE,
        )
    return territory.gem_value[side]


# --- a turn ---------------------------------------------------------------------------------------


def take_turn(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    kingdom.turn = TurnRecord()
    kingdom.active = player.name
    kingdom.phase = "resources"
    yield from resource_phase(kingdom, player, say)
    kingdom.phase = "actions"
    yield from action_phase(kingdom, player, say)
    kingdom.phase = "event"
    yield from event_phase(kingdom, player, say)


def resource_phase(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    own = kingdom.owned_by(player.name)
    payer: Player | None = None
    blackmailed_land: Territory | None = None
    if player.hirelings > 0:
        others = tuple(other.name for other in kingdom.players if other is not player)
        answer = yield Choice(
            f"{player.name}: show a blackmail card to collect from its house instead of the bank?",
            "blackmail",
            options=(NO, *others),
        )
        if answer != NO:
            payer = kingdom.player(answer)
            blackmailed_land = own[0] if own else None
            if len(own) > 1:
                chosen = yield Choice(
                    f"{player.name} blackmails {payer.name}: for which territory's resources?",
                    "blackmail",
                    options=tuple(territory.name for territory in own),
                )
                blackmailed_land = kingdom.territory(chosen)
    if not own:
        collect_copper(kingdom, player, NO_TERRITORY_COPPER, payer, say)
        say(f"{player.name} owns no territory: {NO_TERRITORY_COPPER} copper"
            + (f" from {payer.name} (blackmail)." if payer else "."))
        return
    for territory in own:
        if rules.feast_cards_left(kingdom) > 0:
            player.feast_cards += 1
            kingdom.feast_cards_drawn += 1
        else:
            say("The feast deck is used up: no feast card this time.")
        source = payer if territory is blackmailed_land else None
        yield from collect(kingdom, player, territory, source, say)


def collect(kingdom: Kingdom, player: Player, territory: Territory, payer: Player | None, say: Say) -> Steps:
    """One territory's resources: its copper or its gems (both under Cawdwell's Opulence)."""
    copper = yield from copper_value(territory)
    gems = yield from gem_value(territory)
    cawdwell = rules.holder_of(kingdom, "Cawdwell")
    opulence_left = cawdwell is not None and cawdwell.ability_uses.get("opulence", 0) > 0
    if payer is None:
        gems = min(gems, rules.gems_in_purse(kingdom))  # the purse holds 36 gems in all
    take = "both" if kingdom.turn.opulence else None
    if take is None:
        options = [f"{copper} copper", f"{gems} gems"]
        if opulence_left:
            options.append("both (Cawdwell's Opulence)")
        if not opulence_left and (copper == 0 or gems == 0):
            take = "copper" if gems == 0 else "gems"
        else:
            answer = yield Choice(
                f"{player.name} collects from {territory.name}: copper or gems?",
                "resource-phase",
                options=tuple(options),
            )
            take = answer.split()[1] if not answer.startswith("both") else "both"
            if take == "both":
                assert cawdwell is not None
                cawdwell.ability_uses["opulence"] -= 1
                kingdom.turn.opulence = True
                say(f"{cawdwell.name} uses Opulence ({cawdwell.ability_uses['opulence']} left): "
                    f"{player.name} takes both coins and gems this turn.")
    source = f" from {payer.name} (blackmail)" if payer else ""
    if take in ("copper", "both"):
        got = collect_copper(kingdom, player, copper, payer, say)
        say(f"{player.name} takes {got} copper{source} for {territory.name}.")
    if take in ("gems", "both"):
        got = collect_gems(kingdom, player, gems, payer, say)
        say(f"{player.name} takes {got} gem(s){source} for {territory.name}.")


def collect_copper(kingdom: Kingdom, player: Player, amount: int, payer: Player | None, say: Say) -> int:
    if payer is None:
        player.copper += amount
        return amount
    paid = rules.payable(payer, amount, kingdom.rulings["short-payment"])
    if paid < amount:
        say(f"{payer.name} holds only {payer.copper} copper: pays {paid} (ruling short-payment).")
    rules.transfer_copper(payer, player, paid)
    return paid


def collect_gems(kingdom: Kingdom, player: Player, amount: int, payer: Player | None, say: Say) -> int:
    if payer is None:
        got = min(amount, rules.gems_in_purse(kingdom))
        if got < amount:
            say(f"The purse holds only {got} gem(s) (36 in the game).")
    else:
        got = amount if payer.gems >= amount else (
            payer.gems if kingdom.rulings["short-payment"] == "what-they-have" else 0
        )
        if got < amount:
            say(f"{payer.name} holds only {payer.gems} gem(s): pays {got} (ruling short-payment).")
        payer.gems -= got
    player.gems += got
    return got


# --- actions --------------------------------------------------------------------------------------


def legal_actions(kingdom: Kingdom, player: Player) -> tuple[str, ...]:
    turn = kingdom.turn
    actions = []
    purchases_left = turn.purchases < PURCHASES_PER_TURN
    if purchases_left and rules.hirelings_available(kingdom) > 0:
        actions.append(BUY_HIRELING)
    if purchases_left and player.coin_value >= 1 and rules.mercenaries_available(kingdom) > 0:
        actions.append(BUY_MERCENARIES)
    armed = kingdom.military_in_hand(player) > 0
    if armed and rules.conquer_targets(kingdom):
        actions.append(CONQUER)
    if armed and rules.attack_targets(kingdom, player.name):
        actions.append(ATTACK)
    if not turn.collected_dead and player.dead > 0 and player.coin_value >= COLLECT_DEAD_COST:
        actions.append(COLLECT_DEAD)
    if player.character == "Cawdwell" and not turn.taxed and rules.tax_targets(kingdom, player.name):
        actions.append(TAXES)
    actions.append(END_ACTIONS)
    return tuple(actions)


def action_phase(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    while True:
        actions = legal_actions(kingdom, player)
        if actions == (END_ACTIONS,):
            say(f"{player.name} has no action left to take.")
            break
        action = yield Choice(f"{player.name}'s action phase: next action?", "action-phase", options=actions)
        if action == END_ACTIONS:
            break
        if action == BUY_HIRELING:
            yield from buy_hireling(kingdom, player, say)
        elif action == BUY_MERCENARIES:
            yield from buy_mercenaries(kingdom, player, say)
        elif action == CONQUER:
            yield from conquer(kingdom, player, say)
        elif action == ATTACK:
            yield from attack(kingdom, player, say)
        elif action == COLLECT_DEAD:
            rules.pay(player, COLLECT_DEAD_COST)
            say(f"{player.name} pays {COLLECT_DEAD_COST} copper and takes {player.dead} dead soldier(s) back.")
            player.dead = 0
            kingdom.turn.collected_dead = True
        elif action == TAXES:
            yield from taxes(kingdom, player, say)
    yield from conquest_collection(kingdom, player, say)


def buy_hireling(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    while True:
        cost = yield Number(
            f"{player.name} buys the top hireling: the cost printed on its back?",
            "cards-hireling",
            maximum=min(player.coin_value, LARGEST_PRINTED_VALUE),
        )
        if cost <= player.coin_value:
            break
        say(f"{player.name} now holds only {player.coin_value} in coins (a correction): enter the cost again.")
    rules.pay(player, cost)
    player.hirelings += 1
    kingdom.hirelings_drawn += 1
    if kingdom.rulings["empty-deck"] == "reshuffle" and kingdom.hirelings_drawn % kingdom.hireling_deck_size == 0:
        say("That was the last card of the hireling deck: its discard pile becomes the new deck "
            "(ruling empty-deck).")
    kingdom.turn.purchases += 1
    say(f"{player.name} pays {cost} and takes a hireling (purchase {kingdom.turn.purchases} of "
        f"{PURCHASES_PER_TURN}). Its text and any territory ability are the table's to apply.")


def buy_mercenaries(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    available = rules.mercenaries_available(kingdom)
    copper = 1
    while kingdom.rulings["purchase-unit"] == "batch":
        copper = yield Number(
            f"{player.name} buys mercenaries: how many copper spent (2 cards each; ruling purchase-unit: batch)?",
            "cards-military",
            minimum=1,
            maximum=max(1, min(player.coin_value, -(-available // 2))),
        )
        if copper <= player.coin_value:
            break
        say(f"{player.name} now holds only {player.coin_value} in coins (a correction): enter the copper again.")
    cards = rules.mercenaries_for(copper, available)
    rules.pay(player, copper)
    player.mercenaries += cards
    before, kingdom.mercenaries_drawn = kingdom.mercenaries_drawn, kingdom.mercenaries_drawn + cards
    reshuffles = kingdom.rulings["empty-deck"] == "reshuffle"
    if reshuffles and kingdom.mercenaries_drawn // MERCENARY_CARDS > before // MERCENARY_CARDS:
        say("The mercenary deck ran out: its discard pile becomes the new deck (ruling empty-deck).")
    kingdom.turn.purchases += 1
    unit = "ruling purchase-unit: " + kingdom.rulings["purchase-unit"]
    say(f"{player.name} pays {copper} copper for {cards} mercenary card(s) (purchase {kingdom.turn.purchases} "
        f"of {PURCHASES_PER_TURN}; {unit}).")


def conquer(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    targets = tuple(territory.name for territory in rules.conquer_targets(kingdom))
    name = yield Choice(f"{player.name} conquers which unoccupied territory?", "conquering", options=targets)
    territory = kingdom.territory(name)
    if not (yield from passage(kingdom, player, territory, "conquer", say)):
        return
    stack = yield from placed_stack(kingdom, player, f"{player.name}: military cards under {territory.name}", say,
                                    optional=True)
    if stack is None:
        say(f"{player.name} leaves {territory.name} unoccupied.")
        return
    occupy(kingdom, player, territory, stack, say)


def occupy(kingdom: Kingdom, player: Player, territory: Territory, stack: Sequence[str], say: Say) -> None:
    rules.place(kingdom, player, territory, stack)
    kingdom.turn.conquered.append(territory.name)
    say(f"{player.name} conquers {territory.name} with {describe_stack(stack)}.")


def taxes(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    targets = tuple(other.name for other in rules.tax_targets(kingdom, player.name))
    name = yield Choice(f"{player.name} (Cawdwell, Taxes) takes 3 copper from whom?", "lord-cawdwell",
                        options=targets)
    payer = kingdom.player(name)
    paid = rules.payable(payer, TAXES_COPPER, kingdom.rulings["short-payment"])
    rules.transfer_copper(payer, player, paid)
    kingdom.turn.taxed = True
    short = " (ruling short-payment)" if paid < TAXES_COPPER else ""
    say(f"{payer.name} pays {player.name} {paid} copper in taxes{short}.")


# --- attacks --------------------------------------------------------------------------------------


def attack(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    targets = rules.attack_targets(kingdom, player.name)
    listing = "; ".join(f"{t.name} ({t.owner}, {len(t.defenders)} defending)" for t in targets)
    name = yield Choice(
        f"{player.name} attacks which territory? {listing}",
        "accessibility",
        options=tuple(territory.name for territory in targets),
    )
    territory = kingdom.territory(name)
    if not (yield from passage(kingdom, player, territory, "attack", say)):
        return
    defender_name = territory.owner
    assert defender_name is not None
    while True:
        if territory.owner != defender_name:
            say(f"{territory.name} no longer belongs to {defender_name} (a correction): the attack ends.")
            return
        options = exchange_options(kingdom, player, kingdom.player(defender_name))
        if options == (STOP_ATTACK,):
            say(f"{player.name} has no military card left in hand: the attack on {territory.name} ends.")
            return
        top = territory.defenders[0]
        what = "a face-down mercenary: any type kills it" if top == MERCENARY else "a soldier"
        answer = yield Choice(
            f"Attack on {territory.name} (top defender: {what}). {player.name} discards which kind of card, "
            "and how is it answered?",
            "attack-and-defend",
            options=options,
        )
        if answer == STOP_ATTACK:
            say(f"{player.name} stops attacking {territory.name}.")
            return
        if territory.owner != defender_name or answer not in exchange_options(
            kingdom, player, kingdom.player(defender_name)
        ):
            say("That exchange is no longer possible after a correction.")
            continue
        resolve_exchange(kingdom, player, territory, answer, say)
        if not territory.defenders:
            break
    say(f"{territory.name}'s last defender is killed: {defender_name}'s house token goes back to them.")
    yield from last_defender_killed(kingdom, player, territory, kingdom.player(defender_name), say)


def passage(
    kingdom: Kingdom, player: Player, territory: Territory, aim: str, say: Say
) -> Generator[Question, Any, bool]:
    """Whether the player may reach the territory: accessible, or its way through granted (#accessibility)."""
    route = rules.passage_needed(kingdom, player.name, territory)
    if not route:
        return True
    through = ", ".join(f"{land.name} ({land.owner})" for land in route)
    granted = yield Confirm(
        f"{territory.name} is not accessible to {player.name}: passage needed through {through}. Granted?",
        "accessibility",
    )
    if granted:
        say(f"Passage granted through {through}.")
    else:
        say(f"No passage: {player.name} cannot {aim} {territory.name}.")
    return bool(granted)


def exchange_options(kingdom: Kingdom, attacker: Player, defender: Player) -> tuple[str, ...]:
    kinds = [kind for kind, held in ((SOLDIER, kingdom.soldiers_in_hand(attacker)),
                                     (MERCENARY, attacker.mercenaries)) if held > 0]
    answers = ["undefended"]
    helpers = [defender] + ([kingdom.player(defender.married_to)] if defender.married_to else [])
    for helper in helpers:
        if kingdom.soldiers_in_hand(helper) > 0:
            answers.append(f"cancelled by {helper.name}'s soldier")
        if helper.mercenaries > 0:
            answers.append(f"cancelled by {helper.name}'s mercenary")
    return (*(f"{kind}, {answer}" for kind in kinds for answer in answers), STOP_ATTACK)


def resolve_exchange(kingdom: Kingdom, attacker: Player, territory: Territory, answer: str, say: Say) -> None:
    kind, _, response = answer.partition(", ")
    rules.discard_military(kingdom, attacker, kind)
    match = re.fullmatch(r"cancelled by (?P<who>.+)'s (?P<kind>soldier|mercenary)", response)
    if match:
        helper = kingdom.player(match["who"])
        rules.discard_military(kingdom, helper, match["kind"])
        say(f"{helper.name}'s {match['kind']} cancels {attacker.name}'s {kind}: both are discarded.")
        return
    killed = rules.kill_top(kingdom, territory, 1)
    say(f"Undefended: {attacker.name}'s {kind} kills the top defender of {territory.name} (a {killed[0]}); "
        f"{len(territory.defenders)} left.")


def last_defender_killed(
    kingdom: Kingdom, player: Player, territory: Territory, former: Player, say: Say
) -> Steps:
    """Abilities that fire on killing a territory's last defender, then the chance to conquer it."""
    if player.character == "Tyber":
        paid = rules.payable(former, PILLAGE_COPPER, kingdom.rulings["short-payment"])
        rules.transfer_copper(former, player, paid)
        short = " (ruling short-payment)" if paid < PILLAGE_COPPER else ""
        say(f"Pillage: {former.name} pays {player.name} {paid} copper{short}.")
        yield from bedlam(kingdom, player, territory, say)
    if player.ability_uses.get("fury", 0) > 0:
        yield from fury(kingdom, player, territory, say)
    if kingdom.military_in_hand(player) > 0 and territory.owner is None:
        stack = yield from placed_stack(kingdom, player, f"{player.name} conquers {territory.name} now? Cards", say,
                                        optional=True)
        if stack is None:
            say(f"{territory.name} stays unoccupied.")
        else:
            occupy(kingdom, player, territory, stack, say)


def bedlam(kingdom: Kingdom, tyber: Player, territory: Territory, say: Say) -> Steps:
    sources = tuple(land.name for land in rules.adjacent(kingdom, territory) if MERCENARY in land.defenders)
    if not sources:
        say("Bedlam: no territory next to it holds a mercenary.")
        return
    name = sources[0]
    if len(sources) > 1:
        name = yield Choice(f"Bedlam: {tyber.name} takes the mercenaries of which territory?", "lady-tyber",
                            options=sources)
    land = kingdom.territory(name)
    taken = land.defenders.count(MERCENARY)
    land.defenders = [card for card in land.defenders if card != MERCENARY]
    tyber.mercenaries += taken
    say(f"Bedlam: {tyber.name} takes {taken} mercenary card(s) from {land.name} into her hand.")
    if not land.defenders and land.owner is not None:
        say(f"{land.name} is left unoccupied: {land.owner}'s house token goes back to them.")
        land.owner = None


def fury(kingdom: Kingdom, brom: Player, territory: Territory, say: Say) -> Steps:
    targets = tuple(
        land.name for land in rules.adjacent(kingdom, territory) if land.defenders and land.owner != brom.name
    )
    if not targets:
        return
    answer = yield Choice(
        f"Fury ({brom.ability_uses['fury']} left): {brom.name} kills the top 2 defenders of a territory next "
        f"to {territory.name}?",
        "lord-brom",
        options=(NO, *targets),
    )
    if answer == NO:
        return
    land = kingdom.territory(answer)
    owner = land.owner
    brom.ability_uses["fury"] -= 1
    killed = rules.kill_top(kingdom, land, FURY_KILLS)
    say(f"Fury: {brom.name} kills {len(killed)} defender(s) of {land.name}.")
    if land.owner is None:
        say(f"{land.name} is left unoccupied: {owner}'s house token goes back to them.")


def conquest_collection(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    """After the turn's conquests, the resources of one territory conquered (#conquering)."""
    conquered = dict.fromkeys(kingdom.turn.conquered)
    still_held = [name for name in conquered if kingdom.territory(name).owner == player.name]
    if not still_held:
        return
    options: list[str] = []
    for territory in map(kingdom.territory, still_held):
        copper = yield from copper_value(territory)
        gems = yield from gem_value(territory)
        gems = min(gems, rules.gems_in_purse(kingdom))
        if kingdom.turn.opulence:
            options.append(f"{territory.name}: both")
        elif gems == 0:
            options.append(f"{territory.name}: {copper} copper")
        else:
            options += [f"{territory.name}: {copper} copper", f"{territory.name}: {gems} gems"]
    answer = options[0] if len(options) == 1 else (
        yield Choice(f"{player.name} collects the resources of one territory conquered this turn",
                     "conquering", options=tuple(options))
    )
    name, _, take = answer.rpartition(": ")
    territory = kingdom.territory(name)
    if take != "gems":
        got = collect_copper(kingdom, player, territory.copper_value[territory.side], None, say)
        say(f"{player.name} takes {got} copper for conquering {territory.name}.")
    if not take.endswith("copper"):
        got = collect_gems(kingdom, player, territory.gem_value[territory.side], None, say)
        say(f"{player.name} takes {got} gem(s) for conquering {territory.name}.")


# --- events ---------------------------------------------------------------------------------------


def event_phase(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    kingdom.events_drawn += 1
    drawn = kingdom.events_drawn
    if drawn == 1:
        event = WELCOME
    elif drawn == kingdom.events_total:
        event = FEAST
    elif not kingdom.wedding_drawn and drawn == kingdom.events_total - 1:
        event = WEDDING
        say("Only the Royal Wedding can lie above the Royal Feast now.")
    else:
        options = ((WEDDING,) if not kingdom.wedding_drawn else ()) + (ALMS, TRIBUTE, OTHER_EVENT)
        event = yield Choice(f"Event {drawn} of {kingdom.events_total}: {player.name} draws which card?",
                             "event-phase", options=options)
    kingdom.last_event = event
    say(f"Event {drawn} of {kingdom.events_total}: {event}.")
    if event == WELCOME:
        yield from welcome_to_aurum(kingdom, say)
    elif event == WEDDING:
        kingdom.wedding_drawn = True
        yield from royal_wedding(kingdom, say)
    elif event == ALMS:
        yield from alms_of_lazarus(kingdom, say)
    elif event == TRIBUTE:
        yield from tribute(kingdom, player, say)
    elif event == OTHER_EVENT:
        say("Resolve the card as printed; enter what it changes as corrections.")
    else:
        yield from royal_feast(kingdom, player, say)


def parse_players(text: str, kingdom: Kingdom) -> list[Player]:
    lowered = text.lower().strip()
    if lowered in ("none", "nobody", "no one", "-"):
        return []
    if lowered in ("all", "everyone"):
        return list(kingdom.players)
    parts = [part for part in re.split(r"\s*,\s*" if "," in text else r"\s+", text.strip()) if part]
    chosen: list[Player] = []
    for part in parts:
        try:
            player = kingdom.player(part)
        except KeyError:
            raise ValueError(f"no player {part!r}") from None
        if player in chosen:
            raise ValueError(f"{player.name} named twice")
        chosen.append(player)
    return chosen


def parse_dealers(text: str, kingdom: Kingdom) -> list[Player]:
    chosen = parse_players(text, kingdom)
    if len(chosen) == 1:
        raise ValueError("a deal takes two players, so one player alone cannot have made one")
    return chosen


def welcome_to_aurum(kingdom: Kingdom, say: Say) -> Steps:
    everyone = [player.name for player in kingdom.players]
    dealers = yield Parsed(
        "Welcome to Aurum: who formalised a deal (names, 'all' or 'none')?",
        "welcome-to-aurum",
        parser=lambda text: parse_dealers(text, kingdom),
        hint="player names separated by spaces or commas, 'all' or 'none' (never just one player)",
        examples=("all", "none", " ".join(everyone[:2]), " ".join(everyone[1:3])),
    )
    for player in dealers:
        player.copper += WELCOME_COPPER
    if dealers:
        say(f"{names(dealers)} take {WELCOME_COPPER} copper each for their deal.")
    else:
        say("Nobody made a deal: no copper.")


def royal_wedding(kingdom: Kingdom, say: Say) -> Steps:
    say("The Royal Wedding: three minutes of open courtship.")
    while True:
        free = [player for player in kingdom.players if rules.can_marry(player)]
        if len(free) < 2:
            break
        first = yield Choice("A marriage agreed? Name one partner, or 'no more'", "royal-wedding",
                             options=(*(player.name for player in free), "no more"))
        if first == "no more":
            break
        bride = kingdom.player(first)
        second = yield Choice(f"{bride.name} marries whom?", "royal-wedding",
                              options=tuple(player.name for player in free if player is not bride))
        groom = kingdom.player(second)
        rules.marry(kingdom, bride, groom)
        say(f"{bride.name} and {groom.name} swap heirs: married, they win or lose together and may not "
            "attack each other.")


def parse_alms(text: str, kingdom: Kingdom) -> dict[str, int]:
    if text.lower().strip() in ("no decision", "tie", "none"):
        return {}
    if "," in text:
        pairs = [part.strip().rsplit(maxsplit=1) for part in text.split(",") if part.strip()]
    else:
        words = text.replace(":", " ").split()
        pairs = [words[index : index + 2] for index in range(0, len(words), 2)]
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError("expected names each followed by a number of copper")
    shares: dict[str, int] = {}
    for name, amount in pairs:
        name = name.rstrip(":").strip()
        try:
            player = kingdom.player(name)
        except KeyError:
            raise ValueError(f"no player {name!r}") from None
        if not amount.isdecimal():
            raise ValueError(f"{amount!r} is not a number of copper")
        if player.name in shares:
            raise ValueError(f"{player.name} named twice")
        shares[player.name] = int(amount)
    if sum(shares.values()) != ALMS_COPPER:
        raise ValueError(f"the shares add up to {sum(shares.values())}, not {ALMS_COPPER}")
    return shares


def alms_of_lazarus(kingdom: Kingdom, say: Say) -> Steps:
    everyone = [player.name for player in kingdom.players]
    announce_votes(kingdom, say)
    shares = yield Parsed(
        f"Alms of Lazarus: the vote's winning share of the {ALMS_COPPER} copper ('Ann 6 Bo 6'), or 'tie'",
        "alms-of-lazarus",
        parser=lambda text: parse_alms(text, kingdom),
        hint=f"player names each with copper, {ALMS_COPPER} in all; or 'tie' when the vote decided nothing",
        examples=("tie", f"{everyone[0]} {ALMS_COPPER}", f"{everyone[1]} 6 {everyone[2]} 6",
                  " ".join(f"{name} 4" for name in everyone[:3])),
    )
    if not shares:
        say("The vote is tied: nothing is decided and the copper stays in the bank.")
        return
    for name, amount in shares.items():
        kingdom.player(name).copper += amount
    say("Alms of Lazarus: " + ", ".join(f"{name} +{amount}" for name, amount in shares.items()) + " copper.")


def tribute(kingdom: Kingdom, drawer: Player, say: Say) -> Steps:
    """Every player collects the coins and the gems of each territory; 4 copper without land."""
    for player in turn_order_from(kingdom, drawer):
        own = kingdom.owned_by(player.name)
        if not own:
            player.copper += TRIBUTE_NO_TERRITORY_COPPER
            say(f"Tribute: {player.name} owns no territory and takes {TRIBUTE_NO_TERRITORY_COPPER} copper.")
            continue
        for territory in own:
            copper = yield from copper_value(territory)
            gems = yield from gem_value(territory)
            player.copper += copper
            got = collect_gems(kingdom, player, gems, None, say)
            say(f"Tribute: {player.name} takes {copper} copper and {got} gem(s) for {territory.name}.")


# --- the Royal Feast and the final count ------------------------------------------------------------


def royal_feast(kingdom: Kingdom, drawer: Player, say: Say) -> Steps:
    kingdom.phase = "feast"
    held = ", ".join(f"{player.name} {player.feast_cards}" for player in kingdom.players)
    say(f"The Royal Feast: clear the territories and military cards; feast cards gathered: {held}. "
        f"{drawer.name} serves first, then clockwise; then the tasting.")
    if sum(player.feast_cards for player in kingdom.players) == 0:
        say("Nobody gathered a feast card: nothing is served and no heir is in danger.")
        return
    seated = [(player, rules.heir_in_front_of(kingdom, player)) for player in turn_order_from(kingdom, drawer)]
    at_risk = [(player, heir) for player, heir in seated if heir is not None]
    if not at_risk:
        return
    poisoned = yield Parsed(
        "Main course: in front of whom did untasted poison turn up (names, or 'none')?",
        "royal-feast",
        parser=lambda text: parse_players(text, kingdom),
        hint="player names separated by spaces or commas, 'all' or 'none'",
        examples=("none", at_risk[0][0].name, "all"),
    )
    for player in poisoned:
        if rules.heir_in_front_of(kingdom, player) is None:
            say(f"No living heir sits in front of {player.name}: the poison harms nobody.")
    for player, heir in at_risk:
        if player in poisoned:
            yield from poison(kingdom, player, heir, say)


def poison(kingdom: Kingdom, eater: Player, heir: Player, say: Say) -> Steps:
    """An heir poisoned at the feast dies, unless a bastard is given up for it (#royal-feast)."""
    where = "" if eater is heir else f" (in front of {eater.name})"
    saver: Player | None = None
    if kingdom.rulings["bastard-save"] == "owner":
        if heir.hirelings > 0:
            saved = yield Confirm(
                f"{heir.name}'s heir is poisoned{where}. Does {heir.name} discard their own bastard to save it "
                "(ruling bastard-save: owner)?",
                "royal-feast",
            )
            saver = heir if saved else None
    else:
        holders = tuple(player.name for player in kingdom.players if player.hirelings > 0)
        if holders:
            answer = yield Choice(
                f"{heir.name}'s heir is poisoned{where}. Who discards {heir.name}'s bastard to save it "
                "(ruling bastard-save: holder)?",
                "royal-feast",
                options=("nobody", *holders),
            )
            saver = None if answer == "nobody" else kingdom.player(answer)
    if saver is not None:
        saver.hirelings -= 1
        say(f"{saver.name} discards the bastard of {heir.name}'s house: the heir lives.")
        return
    say(f"{heir.name}'s royal heir is poisoned and dies.")
    for note in rules.kill_heir(kingdom, heir):
        say(note)


def final_count(kingdom: Kingdom, say: Say) -> Generator[Question, Any, ScoreReport]:
    kingdom.phase, kingdom.active = "final", None
    card_points: dict[str, int] = {}
    for player in kingdom.players:
        card_points[player.name] = yield Number(
            f"{player.name}: VP printed on the food in front of them and on their own bastard, if held",
            "score-cards",
            maximum=LARGEST_ENTRY,
        )
    colours_left = dict.fromkeys(GEM_COLOURS, GEMS_PER_COLOUR)
    gems: dict[str, tuple[int, ...]] = {}
    for player in kingdom.players:
        gems[player.name] = yield from gem_colours(player, colours_left, say)
    kingdom.finished = True
    holdings = Holdings(
        tuple(
            PlayerHoldings(
                player.name,
                player.copper,
                player.silver,
                gems[player.name],
                card_points[player.name],
                player.heir_alive,
                player.married_to,
            )
            for player in kingdom.players
        ),
        gem_split=kingdom.rulings["gem-split"],
        tied_top=kingdom.rulings["tied-top"],
        team_ranks=kingdom.rulings["team-ranks"],
    )
    return score(holdings)


def gem_colours(player: Player, colours_left: dict[str, int], say: Say) -> Generator[Question, Any, tuple[int, ...]]:
    """The colours of a player's gems, one colour at a time; bounds keep the count and the supply right."""
    counts = dict.fromkeys(GEM_COLOURS, 0)
    left = player.gems
    for index, colour in enumerate(GEM_COLOURS):
        if left == 0:
            break
        room_after = sum(colours_left[later] for later in GEM_COLOURS[index + 1 :])
        least, most = max(0, left - room_after), min(colours_left[colour], left)
        if least == most:
            counts[colour] = least
        else:
            counts[colour] = yield Number(
                f"{player.name}'s {player.gems} gems: how many {GEM_PLURALS[colour]}? ({left} not yet counted)",
                "score-gems",
                minimum=least,
                maximum=most,
            )
        colours_left[colour] -= counts[colour]
        left -= counts[colour]
    if player.gems:
        say(f"{player.name}'s gems: " + ", ".join(
            f"{count} {GEM_PLURALS[colour] if count > 1 else colour}" for colour, count in counts.items() if count
        ) + ".")
    return tuple(counts[colour] for colour in GEM_COLOURS)
