"""Game Setup, steps 2 to 7: houses (and the Royal Pillow), the event deck, the marketplace, the
kingdom, the feast cards, and the vote on who starts with the starting territories."""

from __future__ import annotations

import functools

from referee.asks import Confirm, Number, Parsed, ask, choice, pick
from referee.engine.game import Say, Steps
from referee.games.cutthroat import rules
from referee.games.cutthroat.flow.shared import (
    announce_votes,
    describe_stack,
    placed_stack,
    printed_value,
    turn_order_from,
)
from referee.games.cutthroat.parse import parse_territory_name
from referee.games.cutthroat.rulings import TERRITORY_LAYOUT
from referee.games.cutthroat.state import (
    CHARACTERS,
    COPPER,
    EVENT_CARDS,
    KNOWN_TERRITORIES,
    LORDS,
    TERRITORIES_BEYOND_PLAYERS,
    Kingdom,
    Player,
    Territory,
)


def set_up(kingdom: Kingdom, say: Say) -> Steps:
    kingdom.phase = "setup"
    yield from choose_houses(kingdom, say)
    yield from royal_pillow(kingdom, say)
    kingdom.events_total = yield from ask(Number(
        "How many cards are in the assembled event deck (Welcome to Aurum, the Royal Wedding and the "
        "Royal Feast included)?",
        "setup-event-deck",
        minimum=3,
        maximum=EVENT_CARDS,
    ))
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
    first = yield from ask(pick(
        "The vote for the starting player: who won it?",
        "setup-starting-player",
        [(player.name, player) for player in kingdom.players],
    ))
    kingdom.starting_seat = kingdom.players.index(first)
    for player in turn_order_from(kingdom, first):
        yield from choose_starting_territory(kingdom, player, say)


def choose_houses(kingdom: Kingdom, say: Say) -> Steps:
    """Step 2: each player's lord or lady, with the house's heir, bastard, tokens and soldiers."""
    for player in kingdom.players:
        taken = {other.character for other in kingdom.players}
        free = [character for character in CHARACTERS if character not in taken]
        character = yield from ask(choice(f"{player.name} leads which house (lord or lady)?", "setup-houses", free))
        rules.choose_character(player, character)
        card = "lord" if character in LORDS else "lady"
        say(f"{player.name} is {character}: takes {character}'s royal heir, bastard and house tokens (a token in "
            f"each box of the face-down {card} card) and {player.soldiers_total} soldiers as a starting hand. "
            "The bastard goes into the hireling deck at step 4.")


def royal_pillow(kingdom: Kingdom, say: Say) -> Steps:
    """The optional Royal Pillow: it and one hireling per player are shuffled and dealt, one each."""
    used = yield from ask(Confirm("Do you play with the Royal Pillow (an optional card dealt at setup)?",
                                  "setup-houses"))
    if not used:
        return
    kingdom.royal_pillow = True
    kingdom.hireling_deck_size += 1  # the card left over, Pillow or hireling, goes into the hireling deck
    for player in kingdom.players:
        player.hirelings += 1
    kingdom.hirelings_drawn += len(kingdom.players)
    say(f"Royal Pillow: shuffle it with {len(kingdom.players)} random hirelings and deal one card to each "
        "player, face down; the card left over goes back into the hireling deck.")


def name_territories(kingdom: Kingdom, say: Say) -> Steps:
    count = len(kingdom.players) + TERRITORIES_BEYOND_PLAYERS
    say(f"Kingdom: draw {count} territories and lay them out in their slots (ruling territory-layout: "
        f"{TERRITORY_LAYOUT.of(kingdom.rulings)}).")
    for slot in range(1, count + 1):
        taken = rules.territory_names_taken(kingdom.territories) | {p.name.lower() for p in kingdom.players}
        unused = tuple(name for name in KNOWN_TERRITORIES if name.lower() not in taken)
        default = f"Slot {slot}"
        name = yield from ask(Parsed(
            f"Territory in slot {slot}: its name",  # the screen adds the default, Enter's answer
            "setup-kingdom",
            default=default,
            parser=functools.partial(parse_territory_name, taken=taken),
            hint="a name not used yet, up to 30 letters, digits, spaces, ' or -",
            examples=(default, *unused),
        ))
        kingdom.territories.append(Territory(name, named=name.lower() != default.lower()))


def choose_starting_territory(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    """Step 7: a free territory, 1 to 4 military cards under it, and its copper."""
    territory = yield from ask(lambda: pick(
        f"{player.name}: starting territory?",
        "setup-starting-player",
        [(land.name, land) for land in kingdom.territories if land.owner is None],
    ))
    stack = yield from placed_stack(kingdom, player, f"{player.name}: military cards under {territory.name}",
                                    optional=False, section="setup-starting-player")
    if stack is None:
        say(f"{player.name} has no military card to place and starts without a territory.")
        return
    if territory.owner is not None:
        say(f"{territory.name} was taken meanwhile (a correction): {player.name} starts without a territory.")
        return
    rules.place(kingdom, player, territory, stack)
    copper = yield from printed_value(territory, COPPER)
    player.copper += copper
    say(f"{player.name} holds {territory.name} with {describe_stack(stack)} and takes {copper} copper.")
