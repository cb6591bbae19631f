"""Council of Blackthorn answer parsers: the free-form answers the table types (a card's trigger,
a track value, a list of building values). Each returns a value or raises ValueError saying what
was wrong; the question around it says what is allowed."""

from __future__ import annotations

import re

from referee.games.blackthorn.state import FACTIONS, TRACK

TRIGGER_HINT = "a faction (noble, guild, legion, peasant) and a value from 0 to 13, or 'none'"
TRACK_TEXT = "a track value: " + ", ".join(str(value) for value in TRACK)


def parse_trigger(text: str) -> tuple[str, int] | None:
    """A card's printed trigger: 'guild 5', 'g5', 'peasant: 4'; 'none' when the card prints none."""
    words = text.lower().replace(":", " ").split()
    if words in (["none"], ["no"], ["-"]):
        return None
    if len(words) == 1:  # 'g5' or 'guild5'
        head = words[0].rstrip("0123456789")
        words = [head, words[0][len(head) :]] if head and head != words[0] else words
    if len(words) != 2 or not words[1].isdecimal():
        raise ValueError("not a faction and a value")
    factions = [faction for faction in FACTIONS if faction.startswith(words[0])]
    if len(factions) != 1:
        raise ValueError(f"no such faction {words[0]!r}")
    needed = int(words[1])
    if needed > TRACK[-1]:
        raise ValueError("trigger value above 13")
    return factions[0], needed


def parse_track_value(text: str) -> int:
    """A value a token can stand on: 0, 1, 2, 3, 4, 5, 7, 9 or 13."""
    if not text.isdecimal() or int(text) not in TRACK:
        raise ValueError("not a value on the faction track")
    return int(text)


def parse_building_values(text: str) -> list[int]:
    """Building values separated by spaces or commas ('4 6'), or 'none'."""
    if text.lower() in ("none", "-", "0 buildings"):
        return []
    parts = text.replace(",", " ").split()
    if not all(part.isdecimal() and len(part) <= 3 for part in parts):
        raise ValueError("not a list of building values")
    return [int(part) for part in parts]


# --- effect lines: what a card's text or an Action changes, in one line --------------------------

EFFECT_FIELDS = (*FACTIONS, "influence", "treason", "hand")
"""What an effect line may change: a faction level, influence points, Treason cards, the hand."""
EFFECT_HINT = (
    "changes in one line, each a field and a signed number: a faction (levels), influence, treason "
    "(cards) or hand, e.g. 'influence +3 treason +1' or 'legion +1'; or 'none'"
)
EFFECT_CHANGE_TEXT = r"(?P<field>[a-z]+)\s*(?P<amount>[+-][0-9]{1,2})"

Change = tuple[str, str, int]
"""One change of an effect line: whom it names ('' for the player the card or Action belongs to),
the field and the signed amount."""
Effect = tuple[Change, ...]


def effect_field(word: str) -> str:
    """A field of an effect line by its name or a unique beginning ('inf', 'l')."""
    found = [name for name in EFFECT_FIELDS if name.startswith(word)]
    if word in EFFECT_FIELDS:
        return word
    if len(found) != 1:
        raise ValueError(f"no field {word!r} (fields: {', '.join(EFFECT_FIELDS)})")
    return found[0]


def parse_effect(text: str, names: tuple[str, ...] = (), own: str = "") -> Effect:
    """An effect line: 'influence +3 treason +1', 'Hana peasant -1', or 'none' for no change.

    A change may begin with one of `names` (players the line may name); without one it is the
    owner's, and so is one naming `own` (the owner by name). Commas and semicolons may separate."""
    rest = " ".join(text.lower().replace(",", " ").replace(";", " ").split())
    if rest in ("none", "nothing", "-"):
        return ()
    by_length = sorted((name.lower() for name in names), key=len, reverse=True)
    changes: list[Change] = []
    while rest:
        who = next((name for name in by_length if rest.startswith(name + " ")), "")
        if who:
            rest = rest[len(who) :].lstrip()
        match = re.match(EFFECT_CHANGE_TEXT + r"(?:\s+|$)", rest)
        if match is None:
            shown = rest.split()[0]
            if any(field.startswith(shown) for field in EFFECT_FIELDS):
                raise ValueError(f"cannot read {rest!r}: a field takes a signed number, e.g. '{shown} +1'")
            who_may = f" or a player ({', '.join(names)})" if names else ""
            raise ValueError(f"{shown!r} is not a field ({', '.join(EFFECT_FIELDS)}){who_may}")
        amount = int(match["amount"])
        if amount == 0:
            raise ValueError("a change of 0 changes nothing")
        owner = "" if who in ("", own.lower()) else next(name for name in names if name.lower() == who)
        changes.append((owner, effect_field(match["field"]), amount))
        rest = rest[match.end() :]
    if not changes:
        raise ValueError("no change given")
    return tuple(changes)


def format_effect(effect: Effect) -> str:
    """An effect line as `parse_effect` reads it back ('none' for no change)."""
    if not effect:
        return "none"
    return " ".join(f"{who + ' ' if who else ''}{field} {amount:+d}" for who, field, amount in effect)


def parse_own_effect(text: str) -> Effect:
    """An effect that names nobody: what a card's text or Action does for its own player (the form
    the card catalogue keeps)."""
    return parse_effect(text)
