"""Cutthroat Kingdoms rules as plain functions on the Kingdom.

Everything here is deterministic: the flow decides when each rule applies and tells the table.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from referee.games.cutthroat.state import (
    ABILITY_USES,
    BROM_SOLDIERS,
    DARK_INFLUENCE_COPPER,
    FEAST_CARDS,
    GEMS_IN_GAME,
    MAX_DEFENDERS,
    MERCENARIES_PER_COPPER,
    MERCENARY,
    MERCENARY_CARDS,
    SILVER_IN_COPPER,
    SOLDIER,
    SOLDIERS_PER_HOUSE,
    TWICE_PER_GAME,
    Kingdom,
    Player,
    Territory,
)

RULING_CHOICES: dict[str, tuple[str, ...]] = {
    "territory-layout": ("row", "ring"),
    "short-payment": ("what-they-have", "nothing"),
    "purchase-unit": ("pair", "batch"),
    "empty-deck": ("reshuffle", "closed"),
    "bastard-save": ("owner", "holder"),
}
"""The guided session's rulings (rulebook section #rulings), the default first."""


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
    if kingdom.rulings.get("territory-layout") == "ring" and count > 2:
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


STACK_WORDS = {"s": SOLDIER, "soldier": SOLDIER, "soldiers": SOLDIER, "m": MERCENARY, "merc": MERCENARY,
               "mercs": MERCENARY, "mercenary": MERCENARY, "mercenaries": MERCENARY}
NO_STACK = ("none", "no", "nothing", "-")


def parse_stack(text: str, soldiers: int, mercenaries: int, optional: bool) -> list[str] | None:
    """Military cards placed under a territory, top first: 'soldier merc soldier', 's m s' or 'sms'.

    Between 1 and 4 cards, no more of a kind than the hand holds; 'none' where placing is optional.
    """
    words = text.lower().replace(",", " ").split()
    if optional and words and words[0] in NO_STACK and len(words) == 1:
        return None
    if len(words) == 1 and words[0] not in STACK_WORDS and set(words[0]) <= {"s", "m"}:
        words = list(words[0])
    if not words or any(word not in STACK_WORDS for word in words):
        raise ValueError("not a list of soldiers and mercenaries")
    stack = [STACK_WORDS[word] for word in words]
    if len(stack) > MAX_DEFENDERS:
        raise ValueError(f"at most {MAX_DEFENDERS} military cards go under a territory")
    if stack.count(SOLDIER) > soldiers:
        raise ValueError(f"only {soldiers} soldier(s) in hand")
    if stack.count(MERCENARY) > mercenaries:
        raise ValueError(f"only {mercenaries} mercenary card(s) in hand")
    return stack


def stack_examples(soldiers: int, mercenaries: int, optional: bool) -> tuple[str, ...]:
    """A few stacks this hand can place (so a random player always finds a valid answer)."""
    examples = []
    for text in ("s", "m", "s s", "s m", "m s s", "s s s s", "m m m m", "s m s m"):
        words = text.split()
        if words.count("s") <= soldiers and words.count("m") <= mercenaries:
            examples.append(text)
    return (*examples, "none") if optional else tuple(examples)


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


def payable(player: Player, amount: int, ruling: str) -> int:
    """What a player owing `amount` copper to another hands over (ruling short-payment)."""
    if player.copper >= amount:
        return amount
    return player.copper if ruling == "what-they-have" else 0


def transfer_copper(payer: Player, payee: Player, amount: int) -> None:
    payer.copper -= amount
    payee.copper += amount


def gems_in_purse(kingdom: Kingdom) -> int:
    return GEMS_IN_GAME - kingdom.gems_held()


def mercenaries_available(kingdom: Kingdom) -> int:
    """Cards the mercenary deck can still give (ruling empty-deck)."""
    if kingdom.rulings.get("empty-deck") == "closed":
        return MERCENARY_CARDS - kingdom.mercenaries_drawn
    return MERCENARY_CARDS - kingdom.mercenaries_in_play()


def hirelings_available(kingdom: Kingdom) -> int:
    held = sum(player.hirelings for player in kingdom.players)
    if kingdom.rulings.get("empty-deck") == "closed":
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
