"""Council of Serpents rules as plain functions on plain state.

The changes a card or a Time track action makes to the Houses, all applied at once; Wars; the new
Time track; and whether the game has ended (a House on the Triumph or Collapse symbol, or the
Keeper of Balance on an empty Influence deck). Everything is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from referee.games.serpents.houses import ATTRIBUTES, COLLAPSE_VALUE, HOUSES, TRIUMPH_VALUE
from referee.games.serpents.state import (
    GuildEffect,
    HouseChanges,
    IntrigueEffect,
    Table,
    TrackAction,
    TrackCard,
)
from referee.outcome import Termination

KNOWN_GUILDS: dict[str, GuildEffect] = {
    "Savage Clans": GuildEffect({"wealth": -1, "popularity": -1, "strength": 2}, {"strength": -2}),
    "Merchant Guild": GuildEffect({"wealth": 2, "popularity": -1}),
    "Brewer's Circle": GuildEffect({"popularity": 2, "wealth": -1}),
}
"""Guild effects the source prints in its examples; any other Guild is read off the card."""

KNOWN_INTRIGUE: dict[str, IntrigueEffect] = {
    "Hire Assassin": IntrigueEffect(own={"wealth": -1}, other={"strength": -2}),
}
"""Intrigue effects the source prints; the others are read off the card when first revealed."""

EXAMPLE_GUILDS = ("Savage Clans", "Merchant Guild", "Brewer's Circle", "Hunter's Hall")


# --- the tracks ----------------------------------------------------------------------------------


def clamp(value: int) -> int:
    """A marker stops on the Collapse or Triumph symbol (ruling track-ends: 0 and 13)."""
    return max(COLLAPSE_VALUE, min(TRIUMPH_VALUE, value))


def fates(values: Mapping[str, int]) -> list[str]:
    """'Triumphs' and/or 'Collapses': the ends one House's markers have reached (none, one or both)."""
    reached = []
    if any(value >= TRIUMPH_VALUE for value in values.values()):
        reached.append("Triumphs")
    if any(value <= COLLAPSE_VALUE for value in values.values()):
        reached.append("Collapses")
    return reached


def termination(table: Table) -> Termination | None:
    """Has the game ended? Every House on a symbol counts, and so does the Keeper of Balance revealed
    on an empty Influence deck."""
    # An empty deck credits a Keeper only: ended_by becomes "deck" solely in flow/deck.py
    # (deck_ran_out), in the statement that names the Keeper (the solo player, or the player who
    # revealed the card); when nobody reveals it the deck is reshuffled and the game goes on. So a
    # deck end with no Keeper cannot happen, and the Keeper test below never turns one away.
    if table.ended_by == "deck" and table.keeper is not None:
        text = f"the Influence deck ran out and {table.keeper} holds the Keeper of Balance"
        return Termination("keeper-of-balance", text)
    ended = {house: fates(table.houses[house]) for house in HOUSES if fates(table.houses[house])}
    if not ended:
        return None
    kinds = {fate for reached in ended.values() for fate in reached}
    code = "house-triumphs-and-collapses" if len(kinds) == 2 else f"house-{kinds.pop().lower()}"
    described = [f"House {house.capitalize()} {' and '.join(reached).lower()}" for house, reached in ended.items()]
    return Termination(code, " and ".join(described))


def combine(*parts: HouseChanges) -> HouseChanges:
    """Several simultaneous changes added up per House and attribute."""
    total: HouseChanges = {}
    for part in parts:
        for house, changes in part.items():
            for attribute, amount in changes.items():
                total.setdefault(house, {})
                total[house][attribute] = total[house].get(attribute, 0) + amount
    return total


def apply_changes(houses: dict[str, dict[str, int]], changes: HouseChanges) -> list[str]:
    """Apply simultaneous changes; returns one line per House that moved ('House Jane: Wealth 3 -> 5')."""
    lines = []
    for house in HOUSES:
        moved = []
        for attribute in ATTRIBUTES:
            amount = changes.get(house, {}).get(attribute, 0)
            if amount == 0:
                continue
            before = houses[house][attribute]
            houses[house][attribute] = clamp(before + amount)
            moved.append(f"{attribute.capitalize()} {before} -> {houses[house][attribute]}")
        if moved:
            lines.append(f"House {house.capitalize()}: {', '.join(moved)}")
    return lines


def extreme_houses(houses: Mapping[str, Mapping[str, int]], attribute: str, most: bool) -> list[str]:
    """The House or Houses with the most (or least) of an attribute; tied Houses all count."""
    values = [houses[house][attribute] for house in HOUSES]
    target = max(values) if most else min(values)
    return [house for house in HOUSES if houses[house][attribute] == target]


def guild_activation(guilds: Mapping[str, str], effects: Mapping[str, GuildEffect]) -> HouseChanges:
    """Every Guild in play applies its upper effect to its House, all at once (Thriving Guilds)."""
    return combine(*({house: dict(effects[guild].upper)} for guild, house in guilds.items()))


def track_changes(
    action: TrackAction,
    houses: Mapping[str, Mapping[str, int]],
    guilds: Mapping[str, str],
    guild_effects: Mapping[str, GuildEffect],
    struggle_attribute: str,
) -> HouseChanges:
    """What a Time track card does to the Houses when it is resolved."""
    if action.kind == "house" and action.house is not None:
        return {action.house: dict(action.changes)}
    if action.kind in ("most", "least"):
        chosen = extreme_houses(houses, "popularity", most=action.kind == "most")
        return {house: dict(action.changes) for house in chosen}
    if action.kind == "guilds":
        return guild_activation(guilds, guild_effects)
    if action.kind in ("windfall", "struggle"):
        attribute = "popularity" if action.kind == "windfall" else struggle_attribute
        top, bottom = (-1, 1) if action.kind == "windfall" else (1, -1)
        return combine(
            {house: {attribute: top} for house in extreme_houses(houses, attribute, most=True)},
            {house: {attribute: bottom} for house in extreme_houses(houses, attribute, most=False)},
        )
    return {}


def keeps_place_on_new_track(placed: Sequence[TrackCard], card: TrackCard) -> bool:
    """While forming a Time track, a card showing a House already on it is discarded instead."""
    if card.action.kind != "house":
        return True
    return all(other.action.house != card.action.house for other in placed)


def absent_houses(track: Iterable[TrackCard]) -> list[str]:
    """Houses no card of the Time track shows: they carry out their preferred action."""
    shown = {card.action.house for card in track if card.action.kind == "house"}
    return [house for house in HOUSES if house not in shown]


# --- War -----------------------------------------------------------------------------------------


def war_spoils(houses: Mapping[str, Mapping[str, int]], first: str, second: str, prize: str) -> tuple[str, str, int]:
    """Step II: the stronger House takes the prize from the weaker, as much as the Strength difference
    but never more than the loser has. Returns (winner, loser, amount); ('', '', 0) on a tie."""
    difference = houses[first]["strength"] - houses[second]["strength"]
    if difference == 0:
        return "", "", 0
    winner, loser = (first, second) if difference > 0 else (second, first)
    return winner, loser, min(abs(difference), houses[loser][prize])


def strength_after_losses(strength: int) -> int:
    """Step III: a House keeps half its Strength, rounded up."""
    return (strength + 1) // 2


def intrigue_changes(effect: IntrigueEffect, house: str, opponent: str) -> HouseChanges:
    return combine({house: dict(effect.own)}, {opponent: dict(effect.other)})


# --- describing ----------------------------------------------------------------------------------


def describe_changes(changes: Mapping[str, int]) -> str:
    return ", ".join(f"{attribute.capitalize()} {amount:+d}" for attribute, amount in changes.items()) or "no change"


def describe_action(action: TrackAction, struggle_attribute: str = "strength") -> str:
    if action.kind == "house" and action.house:
        return f"House {action.house.capitalize()}: {describe_changes(action.changes)}"
    if action.kind in ("most", "least"):
        return f"{action.kind.capitalize()} Popularity: {describe_changes(action.changes)}"
    if action.kind == "guilds":
        return "Activate all Guild cards"
    if action.kind == "windfall":
        return "Windfall: most popular -1 Popularity, least popular +1 Popularity"
    if action.kind == "struggle":
        word = struggle_attribute.capitalize()
        return f"Struggle: highest {word} +1 {word}, lowest {word} -1 {word}"
    return "Nothing happens"


def describe_intrigue(effect: IntrigueEffect) -> str:
    if effect.by_hand:
        return "carried out by hand in its War step"
    parts = []
    if effect.own:
        parts.append(f"own House {describe_changes(effect.own)}")
    if effect.other:
        parts.append(f"opposing House {describe_changes(effect.other)}")
    if effect.keeps_strength:
        parts.append("own House keeps its Strength in step III")
    return "; ".join(parts) or "no change"
