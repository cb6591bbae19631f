"""Council of Serpents rules as plain functions on plain state, and the readers of printed card text.

Card effects are not in the rulebook: the table reads them off the cards in a short form
('jane popularity -1 wealth +2', 'most popularity +1', 'own wealth -1 other strength -2'), and the
functions here turn that text into changes and apply them. Everything is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from referee.games.serpents.houses import ATTRIBUTES, COLLAPSE_VALUE, HIGHEST_PLAYING_VALUE, HOUSES, TRIUMPH_VALUE
from referee.games.serpents.state import (
    INTRIGUE_CARDS,
    GuildEffect,
    IntrigueEffect,
    TrackAction,
    TrackCard,
)

Changes = dict[str, int]
"""Attribute -> signed change, for one House."""
HouseChanges = dict[str, Changes]
"""House -> its changes, all applied at the same moment."""

PLAY_RULING_CHOICES: dict[str, tuple[str, ...]] = {
    "time-track-order": ("first-placed-last", "first-placed-first"),
    "starting-cards": ("set-aside", "discard-pile"),
    "peace-choice": ("automatic", "always-ask"),
    "intrigue-effects": ("after-losses", "before-losses"),
    "struggle-attribute": ("strength", "wealth"),
    "empty-deck-and-discard": ("draw-nothing",),
    "serpentess-court-refill": ("refill",),
}
"""Rulings of a guided session (rulebook section ruling-<id>), the default first."""

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

MAX_CHANGE = HIGHEST_PLAYING_VALUE
TOKEN = re.compile(r"[a-z']+|[+-]\d+|\d+|=")


class CardTextError(ValueError):
    """Card text the referee cannot read; the message says why."""


# --- the tracks ----------------------------------------------------------------------------------


def clamp(value: int) -> int:
    """A marker stops on the Collapse or Triumph symbol (ruling track-ends: 0 and 13)."""
    return max(COLLAPSE_VALUE, min(TRIUMPH_VALUE, value))


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


# --- reading printed card text -------------------------------------------------------------------


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower().replace("’", "'"))


def match_word(word: str, names: Sequence[str]) -> str | None:
    """A name by its unique prefix ('w' -> wealth, 'ro' -> rowel)."""
    found = [name for name in names if name.startswith(word)]
    return found[0] if len(found) == 1 else None


def _read_change(words: list[str], position: int, attributes: Sequence[str]) -> tuple[str, int, int]:
    """An attribute and its signed amount at `position`; returns the next position too."""
    attribute = match_word(words[position], ATTRIBUTES)
    if attribute is None:
        raise CardTextError(f"{words[position]!r} is not an attribute (wealth, popularity, strength)")
    if attribute not in attributes:
        raise CardTextError(f"this card changes only {' or '.join(attributes)}, not {attribute}")
    if position + 1 >= len(words) or not re.fullmatch(r"[+-]\d+", words[position + 1]):
        raise CardTextError(f"{attribute} needs a signed amount, e.g. '{attribute} +2' or '{attribute} -1'")
    amount = int(words[position + 1])
    if not 1 <= abs(amount) <= MAX_CHANGE:
        raise CardTextError(f"a change is from 1 to {MAX_CHANGE} up or down, not {amount:+d}")
    return attribute, amount, position + 2


def read_changes(words: list[str], attributes: Sequence[str] = ATTRIBUTES) -> Changes:
    """'wealth -1 strength +2' (or 'w-1 s+2') as changes; each attribute at most once."""
    changes: Changes = {}
    position = 0
    while position < len(words):
        attribute, amount, position = _read_change(words, position, attributes)
        if attribute in changes:
            raise CardTextError(f"{attribute} is named twice")
        changes[attribute] = amount
    return changes


def parse_changes(text: str) -> Changes:
    """One House's changes, e.g. a preferred action or a Guild effect: 'wealth -1 strength +2'."""
    words = tokens(text)
    if not words:
        raise CardTextError("no change given")
    changes = read_changes(words)
    return changes


def parse_house_changes(text: str, allowed: Sequence[str], attributes: Sequence[str] = ATTRIBUTES) -> HouseChanges:
    """Changes for named Houses: 'clay wealth -1 jane popularity +1', 'both popularity -1' or 'none'.
    `attributes` limits what may change (a first Conflict card moves only Wealth or Popularity)."""
    words = tokens(text)
    if words in (["none"], ["nothing"]):
        return {}
    result: HouseChanges = {}
    groups: list[tuple[list[str], list[str]]] = []
    for word in words:
        targets = list(allowed) if word == "both" and len(allowed) == 2 else None
        house = match_word(word, allowed) if not re.fullmatch(r"[+-]?\d+", word) else None
        if house is not None and match_word(word, ATTRIBUTES) is None:
            targets = [house]
        if targets is not None:
            groups.append((targets, []))
        elif match_word(word, HOUSES) and not match_word(word, ATTRIBUTES):
            raise CardTextError(f"House {match_word(word, HOUSES)!s} is not one of the Houses this card affects")
        elif not groups:
            names = " or ".join(house.capitalize() for house in allowed)
            raise CardTextError(
                f"start with the House the change is for ({names}{' or both' if len(allowed) == 2 else ''})"
            )
        else:
            groups[-1][1].append(word)
    for targets, change_words in groups:
        if not change_words:
            raise CardTextError(f"no change given for {' and '.join(house.capitalize() for house in targets)}")
        changes = read_changes(change_words, attributes)
        for house in targets:
            if house in result and set(result[house]) & set(changes):
                raise CardTextError(f"House {house.capitalize()} has an attribute named twice")
            result.setdefault(house, {}).update(changes)
    if not result:
        raise CardTextError("no change given")
    return result


def parse_track_action(text: str) -> TrackAction:
    """A Time track action as printed: 'jane popularity -1 wealth +2', 'nothing', 'most popularity +1',
    'least strength -1' (the House(s) with the most or least Popularity), or 'guilds'."""
    words = tokens(text)
    if not words:
        raise CardTextError("no action given")
    head = words[0]
    if head == "nothing":
        return TrackAction("nothing")
    if head in ("guilds", "guild", "activate"):
        return TrackAction("guilds")
    if head in ("most", "least"):
        rest = words[1:]
        # 'most popularity: popularity -1' names the compared attribute first; only Popularity is compared.
        if len(rest) >= 2 and match_word(rest[0], ATTRIBUTES) and not re.fullmatch(r"[+-]\d+", rest[1]):
            if match_word(rest[0], ATTRIBUTES) != "popularity":
                raise CardTextError("Most and Least compare Popularity")
            rest = rest[1:]
        if not rest:
            raise CardTextError(f"'{head}' needs the change, e.g. '{head} popularity +1'")
        return TrackAction(head, None, read_changes(rest))
    house = match_word(head, HOUSES)
    if house is None:
        raise CardTextError(f"{head!r} is not a House, 'nothing', 'most', 'least' or 'guilds'")
    if len(words) == 1:
        raise CardTextError(f"House {house.capitalize()} needs its changes, e.g. '{house} wealth +2'")
    return TrackAction("house", house, read_changes(words[1:]))


def parse_intrigue_effect(text: str) -> IntrigueEffect:
    """An Intrigue card's War effect: 'own wealth -1 other strength -2'; 'own keeps strength' for a
    House that skips the halving of step III; 'none' for no change."""
    words = tokens(text)
    if words in (["none"], ["nothing"]):
        return IntrigueEffect()
    effect = IntrigueEffect()
    group: str | None = None
    collected: dict[str, list[str]] = {"own": [], "other": []}
    position = 0
    while position < len(words):
        word = words[position]
        if word in ("own", "other"):
            group = word
        elif word in ("keep", "keeps"):
            if group != "own":
                raise CardTextError("only the own House can keep its Strength ('own keeps strength')")
            effect.keeps_strength = True
            if position + 1 < len(words) and words[position + 1] == "strength":
                position += 1
        elif group is None:
            raise CardTextError("start with 'own' (the card's House) or 'other' (the opposing House)")
        else:
            collected[group].append(word)
        position += 1
    effect.own = read_changes(collected["own"])
    effect.other = read_changes(collected["other"])
    if not (effect.own or effect.other or effect.keeps_strength):
        raise CardTextError("no change given; use 'none' for a card that changes nothing")
    return effect


def parse_intrigue_names(text: str, count: int) -> tuple[str, ...]:
    """The names of revealed Intrigue cards, separated by commas: 'hire assassin, healers'."""
    parts = [part.strip().lower() for part in re.split(r"[,;/]+", text) if part.strip()]
    if len(parts) != count:
        raise CardTextError(f"expected {count} card name{'s' if count != 1 else ''}, got {len(parts)}")
    names = []
    for part in parts:
        found = [
            name
            for name in INTRIGUE_CARDS
            if name.lower().startswith(part) or any(word.startswith(part) for word in name.lower().split())
        ]
        if len(found) != 1:
            raise CardTextError(f"{part!r} is not one of {', '.join(INTRIGUE_CARDS)}")
        names.append(found[0])
    return tuple(names)


def parse_guild_name(text: str, known: Iterable[str]) -> str:
    """A Guild's name as printed; a name seen before keeps its first spelling."""
    name = " ".join(text.replace("’", "'").split())
    if not re.fullmatch(r"[A-Za-z][A-Za-z' ]{1,39}", name):
        raise CardTextError("a Guild name is 2 to 40 letters, spaces or apostrophes")
    for existing in known:
        if existing.lower() == name.lower():
            return existing
    return " ".join(word[:1].upper() + word[1:] for word in name.split())


def parse_start_values(text: str) -> tuple[int, int, int]:
    """A House's starting Wealth, Popularity and Strength: '5 5 4'."""
    numbers = re.findall(r"\d+", text)
    if len(numbers) != len(ATTRIBUTES) or re.sub(r"[\d\s,;/]", "", text):
        raise CardTextError("three whole numbers: Wealth Popularity Strength, e.g. '5 5 4'")
    values = tuple(int(number) for number in numbers)
    for attribute, value in zip(ATTRIBUTES, values, strict=True):
        if not COLLAPSE_VALUE < value < TRIUMPH_VALUE:
            raise CardTextError(f"{attribute} starts on a playing space, 1 to {HIGHEST_PLAYING_VALUE}, not {value}")
    return values[0], values[1], values[2]


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
    parts = []
    if effect.own:
        parts.append(f"own House {describe_changes(effect.own)}")
    if effect.other:
        parts.append(f"opposing House {describe_changes(effect.other)}")
    if effect.keeps_strength:
        parts.append("own House keeps its Strength in step III")
    return "; ".join(parts) or "no change"
