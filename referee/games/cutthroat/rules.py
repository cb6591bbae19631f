"""Cutthroat Kingdoms rules as plain functions on the Kingdom.

Everything here is deterministic: the flow decides when each rule applies and tells the table.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from referee.games.cutthroat.rulings import (
    BEDLAM_OWN_LAND,
    BEDLAM_PARTNER_LAND,
    CONQUEST_COLLECTION,
    EMPTY_DECK,
    STONEHOLD_DISCARD,
    TERRITORY_LAYOUT,
    ShortPayment,
)
from referee.games.cutthroat.state import (
    ABILITY_USES,
    ATTACKS,
    BROM_SOLDIERS,
    COLLECT_DEAD_COST,
    COLLECTING,
    CONQUEST,
    DARK_INFLUENCE_COPPER,
    FEAST_CARDS,
    FIRST_QUESTIONS,
    GEMS_IN_GAME,
    MARROW,
    MERCENARIES_PER_COPPER,
    MERCENARY,
    MERCENARY_CARDS,
    PURCHASE,
    PURCHASES_PER_TURN,
    SILVER_IN_COPPER,
    SOLDIER,
    SOLDIERS_PER_HOUSE,
    STONEHOLD,
    STONEHOLD_DISCARDS,
    TWICE_PER_GAME,
    Kingdom,
    Player,
    Territory,
    TurnRecord,
)

# --- houses ---------------------------------------------------------------------------------------


def starting_soldiers(character: str) -> int:
    """Brom's Might gives him 8 soldiers; every other house has 6."""
    return BROM_SOLDIERS if character == "Brom" else SOLDIERS_PER_HOUSE


def choose_character(player: Player, character: str) -> None:
    player.character = character
    player.soldiers_total = starting_soldiers(character)
    player.ability_uses = dict.fromkeys(TWICE_PER_GAME[character], ABILITY_USES)


def holder_of(kingdom: Kingdom, character: str) -> Player | None:
    for player in kingdom.players:
        if player.character == character:
            return player
    return None


# --- the map --------------------------------------------------------------------------------------


def neighbours(kingdom: Kingdom, index: int) -> list[int]:
    """Slots next to a territory: a row in slot order, or a ring (ruling territory-layout)."""
    count = len(kingdom.territories)
    if TERRITORY_LAYOUT.of(kingdom.rulings) == "ring" and count > 2:
        return sorted({(index - 1) % count, (index + 1) % count})
    return [other for other in (index - 1, index + 1) if 0 <= other < count]


def index_of(kingdom: Kingdom, territory: Territory) -> int:
    return kingdom.territories.index(territory)


def adjacent(kingdom: Kingdom, territory: Territory) -> list[Territory]:
    return [kingdom.territories[other] for other in neighbours(kingdom, index_of(kingdom, territory))]


def passage_needed(kingdom: Kingdom, attacker: str, target: Territory) -> list[Territory]:
    """The occupied territories of other players the attacker must pass through to reach the target.

    Empty when the target is accessible: next to one of the attacker's territories, reached through
    unoccupied land only, or the attacker owns none. Otherwise the route needing the fewest
    permissions is given (#accessibility).
    """
    start = [index_of(kingdom, territory) for territory in kingdom.owned_by(attacker)]
    goal = index_of(kingdom, target)
    if not start or goal in start:
        return []
    # 0-1 breadth-first search: stepping onto occupied land of another player costs a permission.
    best: dict[int, int] = dict.fromkeys(start, 0)
    came_from: dict[int, int] = {}
    queue: deque[int] = deque(start)
    while queue:
        here = queue.popleft()
        for there in neighbours(kingdom, here):
            if there == goal:
                cost = best[here]
            else:
                land = kingdom.territories[there]
                blocked = land.owner is not None and land.owner != attacker
                cost = best[here] + (1 if blocked else 0)
            if there not in best or cost < best[there]:
                best[there] = cost
                came_from[there] = here
                if there != goal:
                    if cost == best[here]:
                        queue.appendleft(there)
                    else:
                        queue.append(there)
    route: list[Territory] = []
    step = came_from.get(goal)
    while step is not None and step not in start:
        land = kingdom.territories[step]
        if land.owner is not None and land.owner != attacker:
            route.append(land)
        step = came_from.get(step)
    return list(reversed(route))


def spouse_of(kingdom: Kingdom, name: str) -> str | None:
    return kingdom.player(name).married_to


def attack_targets(kingdom: Kingdom, attacker: str) -> list[Territory]:
    """Defended territories of other players, except a marriage partner's (#marriage)."""
    partner = spouse_of(kingdom, attacker)
    return [
        territory
        for territory in kingdom.territories
        if territory.owner not in (None, attacker, partner) and territory.defenders
    ]


def is_named(territory: Territory, name: str) -> bool:
    return territory.name.lower() == name.lower()


def stonehold_discards(territory: Territory) -> int:
    """Military cards an attacker discards before attacking a defended Stonehold: 2, or 1 on its
    plagued side; none when it is unoccupied or is another territory (#cards-territory, #faq)."""
    if not is_named(territory, STONEHOLD) or not territory.defenders:
        return 0
    return STONEHOLD_DISCARDS[territory.side]


def stonehold_due(kingdom: Kingdom, territory: Territory) -> int:
    """The discards due now before the next attacking card against this territory: once a turn
    (ruling stonehold-discard: once-per-turn), or again for each new defending card on top
    (each-defender)."""
    count = stonehold_discards(territory)
    paid_at = kingdom.turn.stonehold_paid_at
    if count == 0 or paid_at is None:
        return count
    if STONEHOLD_DISCARD.of(kingdom.rulings) == "each-defender" and len(territory.defenders) < paid_at:
        return count
    return 0


def marrow_pays_a_mercenary(kingdom: Kingdom, buyer: Player) -> Territory | None:
    """Healthy Marrow gives its owner a mercenary when they buy a hireling (#combat-examples)."""
    for territory in kingdom.owned_by(buyer.name):
        if is_named(territory, MARROW) and not territory.plagued:
            return territory
    return None


def bedlam_spared(kingdom: Kingdom, tyber: Player) -> set[str]:
    """Whose territories Bedlam leaves alone: Tyber's own (ruling bedlam-own-land) and her marriage
    partner's (ruling bedlam-partner-land, which a session of the first questions never had)."""
    spared = set()
    if BEDLAM_OWN_LAND.of(kingdom.rulings) == "spared":
        spared.add(tyber.name)
    partner = tyber.married_to
    if partner is not None and kingdom.questions > FIRST_QUESTIONS \
            and BEDLAM_PARTNER_LAND.of(kingdom.rulings) == "spared":
        spared.add(partner)
    return spared


def bedlam_sources(kingdom: Kingdom, tyber: Player, territory: Territory) -> list[Territory]:
    """Territories next to the one whose last defender Tyber killed that hold mercenaries, but for
    those Bedlam spares (#lady-tyber)."""
    spared = bedlam_spared(kingdom, tyber)
    return [land for land in adjacent(kingdom, territory) if MERCENARY in land.defenders and land.owner not in spared]


def conquer_targets(kingdom: Kingdom) -> list[Territory]:
    """Unoccupied territories (those beyond other players' land need passage, as for an attack)."""
    return [territory for territory in kingdom.territories if territory.owner is None]


def tax_targets(kingdom: Kingdom, cawdwell: str) -> list[Player]:
    """Players owning a territory next to one of Cawdwell's; anyone if he owns none (#lord-cawdwell)."""
    others = [player for player in kingdom.players if player.name != cawdwell]
    own = kingdom.owned_by(cawdwell)
    if not own:
        return others
    near = {land.owner for territory in own for land in adjacent(kingdom, territory)}
    return [player for player in others if player.name in near]


# --- cards and stacks -----------------------------------------------------------------------------


def action_open(turn: TurnRecord, action: str) -> bool:
    """An action may be taken unless the player has already moved on from it this turn (#action-phase)."""
    return action not in turn.finished_actions


def begin_action(turn: TurnRecord, action: str) -> None:
    """Taking an action finishes the one under way: it is closed for the rest of the turn."""
    if turn.action is not None and turn.action != action:
        turn.finished_actions.append(turn.action)
    turn.action = action


def finish_action(turn: TurnRecord) -> None:
    """The action under way is finished (closed for the turn) and none has begun yet."""
    if turn.action is not None:
        turn.finished_actions.append(turn.action)
    turn.action = None


def held_conquests(kingdom: Kingdom, player: Player, since: int = 0) -> list[Territory]:
    """The territories conquered this turn (from its `since`-th conquest on) the player still holds."""
    names = dict.fromkeys(kingdom.turn.conquered[since:])
    return [kingdom.territory(name) for name in names if kingdom.territory(name).owner == player.name]


def collection_due(kingdom: Kingdom, player: Player, made: int, since: int, phase_ends: bool) -> bool:
    """Whether the action under way, now complete, gives the resources of one territory it conquered
    (ruling conquest-collection): once a turn, or once for each action that conquered land, as soon
    as that action is complete; or once a turn when the action phase ends. `made` counts the
    collections already made this turn, `since` the turn's conquests already collected for."""
    ruling = CONQUEST_COLLECTION.of(kingdom.rulings)
    if ruling == "end-of-actions":
        return phase_ends and made == 0 and bool(held_conquests(kingdom, player))
    if ruling == "once-a-turn" and made > 0:
        return False
    return bool(held_conquests(kingdom, player, since))


def can_purchase(kingdom: Kingdom) -> bool:
    return action_open(kingdom.turn, PURCHASE) and kingdom.turn.purchases < PURCHASES_PER_TURN


def can_buy_hireling(kingdom: Kingdom, player: Player) -> bool:
    return can_purchase(kingdom) and hirelings_available(kingdom) > 0


def can_buy_mercenaries(kingdom: Kingdom, player: Player, income_due: bool = False) -> bool:
    """`income_due`: a collection comes before this purchase, so coins in hand do not decide yet."""
    affordable = income_due or player.coin_value >= 1
    return can_purchase(kingdom) and affordable and mercenaries_available(kingdom) > 0


def can_conquer(kingdom: Kingdom, player: Player) -> bool:
    armed = kingdom.military_in_hand(player) > 0
    return action_open(kingdom.turn, CONQUEST) and armed and bool(conquer_targets(kingdom))


def can_attack(kingdom: Kingdom, player: Player) -> bool:
    armed = kingdom.military_in_hand(player) > 0
    return action_open(kingdom.turn, ATTACKS) and armed and bool(attack_targets(kingdom, player.name))


def can_collect_dead(kingdom: Kingdom, player: Player, income_due: bool = False) -> bool:
    """Once a turn, outside attacks, for 2 copper, when the dead pile holds a soldier. `income_due`:
    a collection comes first (the attack action completing), so the coins in hand do not decide yet."""
    affordable = income_due or player.coin_value >= COLLECT_DEAD_COST
    return action_open(kingdom.turn, COLLECTING) and player.dead > 0 and affordable


def collect_dead(kingdom: Kingdom, player: Player) -> int:
    """Pay 2 copper and take every dead soldier back; collecting is done in one go, so it closes."""
    pay(player, COLLECT_DEAD_COST)
    back, player.dead = player.dead, 0
    finish_action(kingdom.turn)
    return back


def can_tax(kingdom: Kingdom, player: Player) -> bool:
    return player.character == "Cawdwell" and not kingdom.turn.taxed and bool(tax_targets(kingdom, player.name))


def place(kingdom: Kingdom, player: Player, territory: Territory, stack: Sequence[str]) -> None:
    """Conquer an unoccupied territory: the house token and the stack go on it (#conquering)."""
    territory.owner = player.name
    territory.defenders = list(stack)
    player.mercenaries -= stack.count(MERCENARY)


def kill_top(kingdom: Kingdom, territory: Territory, count: int) -> list[str]:
    """Kill the top `count` defenders; returns what died. Soldiers go to their owner's dead pile,
    mercenaries to the discard; when the last one dies the house token goes home (#attack-and-defend).
    """
    killed = territory.defenders[:count]
    del territory.defenders[:count]
    if territory.owner is not None:
        kingdom.player(territory.owner).dead += killed.count(SOLDIER)
    if not territory.defenders:
        territory.owner = None
    return killed


def discard_military(kingdom: Kingdom, player: Player, kind: str) -> None:
    """A military card discarded from hand counts as killed: a soldier goes to the dead pile."""
    if kind == SOLDIER:
        player.dead += 1
    else:
        player.mercenaries -= 1


def return_to_hand(kingdom: Kingdom, territory: Territory) -> int:
    """Every military card on the territory goes back to its owner's hand and the house token home
    (e.g. a Sneak); soldiers count as in hand again once they leave the territory."""
    count = len(territory.defenders)
    if territory.owner is not None:
        kingdom.player(territory.owner).mercenaries += territory.defenders.count(MERCENARY)
    territory.defenders = []
    territory.owner = None
    return count


# --- coins, gems and decks ------------------------------------------------------------------------


def pay(player: Player, amount: int) -> None:
    """Pay the bank: copper first, then silver, the bank giving copper change (its coins are unlimited)."""
    if amount > player.coin_value:
        raise ValueError(f"{player.name} cannot pay {amount}")
    from_copper = min(amount, player.copper)
    player.copper -= from_copper
    remaining = amount - from_copper
    if remaining:
        silver = -(-remaining // SILVER_IN_COPPER)
        player.silver -= silver
        player.copper += silver * SILVER_IN_COPPER - remaining


def short_payment(held: int, amount: int, ruling: ShortPayment) -> int:
    """What a player owing `amount` of something and holding `held` of it hands over (ruling
    short-payment): all of it when they can; otherwise what they hold, or nothing."""
    if held >= amount:
        return amount
    return held if ruling == "what-they-have" else 0


def payable(player: Player, amount: int, ruling: ShortPayment) -> int:
    """The copper a player owing `amount` copper to another hands over."""
    return short_payment(player.copper, amount, ruling)


def transfer_copper(payer: Player, payee: Player, amount: int) -> None:
    payer.copper -= amount
    payee.copper += amount


def gems_in_purse(kingdom: Kingdom) -> int:
    return GEMS_IN_GAME - kingdom.gems_held()


def mercenaries_available(kingdom: Kingdom) -> int:
    """Cards the mercenary deck can still give (ruling empty-deck)."""
    if EMPTY_DECK.of(kingdom.rulings) == "closed":
        return MERCENARY_CARDS - kingdom.mercenaries_drawn
    return MERCENARY_CARDS - kingdom.mercenaries_in_play()


def hirelings_available(kingdom: Kingdom) -> int:
    held = sum(player.hirelings for player in kingdom.players)
    if EMPTY_DECK.of(kingdom.rulings) == "closed":
        return kingdom.hireling_deck_size - kingdom.hirelings_drawn
    return kingdom.hireling_deck_size - held


def feast_cards_left(kingdom: Kingdom) -> int:
    return FEAST_CARDS - kingdom.feast_cards_drawn


def mercenaries_for(copper: int, available: int) -> int:
    return min(MERCENARIES_PER_COPPER * copper, available)


# --- heirs and marriages --------------------------------------------------------------------------


def marry(kingdom: Kingdom, first: Player, second: Player) -> None:
    """The two players swap royal heirs (#marriage)."""
    first.married_to = second.name
    second.married_to = first.name


def can_marry(player: Player) -> bool:
    return player.heir_alive and player.married_to is None


def kill_heir(kingdom: Kingdom, player: Player) -> list[str]:
    """A royal heir dies: its marriage dissolves at once; Slaine's Dark Influence pays. Returns notes."""
    notes = []
    player.heir_alive = False
    if player.married_to is not None:
        partner = kingdom.player(player.married_to)
        partner.married_to = None
        player.married_to = None
        notes.append(f"The marriage of {player.name} and {partner.name} is dissolved; both heirs go home.")
    notes.extend(dark_influence(kingdom, "royal heir"))
    return notes


def dark_influence(kingdom: Kingdom, what: str) -> list[str]:
    slaine = holder_of(kingdom, "Slaine")
    if slaine is None:
        return []
    slaine.copper += DARK_INFLUENCE_COPPER
    return [f"{slaine.name} (Slaine, Dark Influence) takes {DARK_INFLUENCE_COPPER} copper: a {what} was killed."]


def heir_in_front_of(kingdom: Kingdom, player: Player) -> Player | None:
    """Whose living heir sits in front of this player: their own, or their partner's once married."""
    owner = kingdom.player(player.married_to) if player.married_to else player
    return owner if owner.heir_alive else None


def territory_names_taken(territories: Sequence[Territory]) -> set[str]:
    return {territory.name.lower() for territory in territories}


def poorest(kingdom: Kingdom) -> list[Player]:
    """The player or players with the fewest copper coins: they cast an extra vote (#voting)."""
    fewest = min(player.copper for player in kingdom.players)
    return [player for player in kingdom.players if player.copper == fewest]
