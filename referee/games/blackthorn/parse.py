"""Council of Blackthorn answer parsers: the free-form answers the table types (a card's trigger,
a track value, a list of building values). Each returns a value or raises ValueError saying what
was wrong; the question around it says what is allowed."""

from __future__ import annotations

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
