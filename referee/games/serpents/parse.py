"""Readers of what the table types in Council of Serpents: printed card text and places of play.

Card effects are not in the rulebook: the table reads them off the cards in a short form
('jane popularity -1 wealth +2', 'most popularity +1', 'own wealth -1 other strength -2'), and the
parsers here turn that text into plain values (or raise CardTextError saying why they cannot).
Each parser comes with the hint and examples its question shows. Deterministic: a log replays the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from referee.asks import Choice
from referee.games.serpents.houses import ATTRIBUTES, COLLAPSE_VALUE, HIGHEST_PLAYING_VALUE, HOUSES, TRIUMPH_VALUE
from referee.games.serpents.state import (
    INTRIGUE_CARDS,
    Changes,
    HouseChanges,
    IntrigueEffect,
    TrackAction,
    pair_title,
)

T = TypeVar("T")

MAX_CHANGE = HIGHEST_PLAYING_VALUE
TOKEN = re.compile(r"[a-z']+|[+-]\d+|\d+|=")

START_HINT = "three numbers from 1 to 12 in the order Wealth Popularity Strength, e.g. '5 5 4'"
START_EXAMPLES = ("5 5 4", "3 6 9", "7 4 5", "6 6 6", "4 8 3", "9 2 7", "2 10 5", "5 3 9")
TRACK_EXAMPLES = (
    "clay wealth -1 strength +2",
    "jane popularity -1 wealth +2",
    "rowel strength -1 popularity +2",
    "clay popularity +1",
    "nothing",
    "most popularity -1",
    "least popularity +1",
)
TRACK_HINT = (
    "a House and its changes ('jane popularity -1 wealth +2'), 'nothing', 'most popularity -1' or "
    "'least popularity +1' (the House(s) with the most or least Popularity), or 'guilds'"
)
CHANGES_EXAMPLES = ("wealth -1 strength +2", "popularity -1 wealth +2", "strength -1 popularity +2")
CHANGES_HINT = "attributes and signed amounts, e.g. 'wealth -1 strength +2' (w, p, s for short)"
GUILD_UPPER_EXAMPLES = ("strength +2 wealth -1", "wealth +2 popularity -1", "popularity +2 strength -1")
GUILD_LOWER_EXAMPLES = ("strength -2", "wealth -1", "popularity -2")
GUILD_PLAY_HINT = "'<Guild name> at <House>', e.g. 'Savage Clans at Jane'; a Guild in play goes to another House"
INTRIGUE_EFFECT_EXAMPLES = (
    "own wealth -1 other strength -2",
    "other strength -1",
    "own strength +2",
    "own keeps strength",
    "by hand",
    "none",
)
INTRIGUE_EFFECT_HINT = (
    "'own <changes>' for the card's House and 'other <changes>' for the opposing House, "
    "'own keeps strength' if it skips the halving, 'by hand' for any other text, or 'none'"
)


class CardTextError(ValueError):
    """Card text the referee cannot read; the message says why."""


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower().replace("’", "'"))


def match_word(word: str, names: Sequence[str]) -> str | None:
    """A name by its unique prefix ('w' -> wealth, 'ro' -> rowel)."""
    found = [name for name in names if name.startswith(word)]
    return found[0] if len(found) == 1 else None


# --- attribute changes ---------------------------------------------------------------------------


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
    return read_changes(words)


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


# --- Time track actions --------------------------------------------------------------------------


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


# --- Intrigue and Guild cards --------------------------------------------------------------------


def parse_intrigue_effect(text: str) -> IntrigueEffect:
    """An Intrigue card's War effect: 'own wealth -1 other strength -2'; 'own keeps strength' for a
    House that skips the halving of step III; 'by hand' for text the table carries out itself;
    'none' for no change."""
    words = tokens(text)
    if words in (["none"], ["nothing"]):
        return IntrigueEffect()
    if words == ["by", "hand"]:
        return IntrigueEffect(by_hand=True)
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
            raise CardTextError("start with 'own' (the card's House) or 'other' (the opposing House), or say 'by hand'")
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


def intrigue_examples(count: int) -> tuple[str, ...]:
    names = list(INTRIGUE_CARDS)
    same = tuple(", ".join([name] * count) for name in names)
    mixed = tuple(
        ", ".join(names[(start + index) % len(names)] for index in range(count)) for start in range(len(names))
    )
    return same + mixed


def parse_guild_name(text: str, known: Iterable[str]) -> str:
    """A Guild's name as printed; a name seen before keeps its first spelling."""
    name = " ".join(text.replace("’", "'").split())
    if not re.fullmatch(r"[A-Za-z][A-Za-z' ]{1,39}", name):
        raise CardTextError("a Guild name is 2 to 40 letters, spaces or apostrophes")
    for existing in known:
        if existing.lower() == name.lower():
            return existing
    return " ".join(word[:1].upper() + word[1:] for word in name.split())


def parse_guild_play(text: str, known: Iterable[str]) -> tuple[str, str]:
    """'Savage Clans at Jane' (or without 'at'): the Guild's name and the House it is played at."""
    words = text.split()
    house = match_word(words[-1].lower(), HOUSES) if len(words) > 1 else None
    if house is None:
        raise CardTextError("name the Guild and then the House, e.g. 'Savage Clans at Jane'")
    name_words = words[:-2] if words[-2].lower() == "at" else words[:-1]
    return parse_guild_name(" ".join(name_words), known), house


# --- where a card is played ----------------------------------------------------------------------


def pair_in_order(text: str) -> str:
    """A play naming two Houses, in either order and with a space or a hyphen between them
    ('conflict jane clay', 'trade Rowel-Jane'), written as the option that names them
    ('conflict Clay-Jane'); other text is left as it is."""
    words = text.replace("-", " ").split()
    if words and words[-1].lower() == "(war)":
        words = words[:-1]
    if len(words) < 3:
        return text
    first, second = (match_word(word.lower(), HOUSES) for word in words[-2:])
    if first is None or second is None or first == second:
        return text
    return " ".join([*words[:-2], pair_title((first, second))])


@dataclass(frozen=True)
class PlayChoice(Choice[T]):
    """Where an Influence card is played: an option by its number or label, where a pair of Houses
    may also be named in either order, with a space or a hyphen ('conflict jane clay')."""

    def _parse(self, text: str) -> T:
        return super()._parse(pair_in_order(text))


# --- printed text written back (for the card catalogue: each reads back with its parser above) ----


def format_changes(changes: Changes) -> str:
    """'wealth -1 strength +2'."""
    return " ".join(f"{attribute} {amount:+d}" for attribute, amount in changes.items())


def format_house_changes(changes: HouseChanges) -> str:
    """'clay wealth -1 jane popularity +1', or 'none'."""
    return " ".join(f"{house} {format_changes(own)}" for house, own in changes.items() if own) or "none"


def format_track_action(action: TrackAction) -> str:
    """'jane popularity -1 wealth +2', 'most popularity +1', 'nothing' or 'guilds'."""
    if action.kind == "house":
        return f"{action.house} {format_changes(action.changes)}"
    if action.kind in ("most", "least"):
        return f"{action.kind} {format_changes(action.changes)}"
    return action.kind


def format_intrigue_effect(effect: IntrigueEffect) -> str:
    """'own wealth -1 other strength -2', 'own keeps strength', 'by hand' or 'none'."""
    if effect.by_hand:
        return "by hand"
    parts = []
    if effect.own or effect.keeps_strength:
        parts += ["own", *(["keeps strength"] if effect.keeps_strength else []), format_changes(effect.own)]
    if effect.other:
        parts += ["other", format_changes(effect.other)]
    return " ".join(part for part in parts if part) or "none"


def format_start_values(values: tuple[int, int, int]) -> str:
    """'5 5 4'."""
    return " ".join(str(value) for value in values)
