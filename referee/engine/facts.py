"""A game's numbers, read from its rulebook's TOML (rulebooks/<rulebook>.toml): its player counts,
components, printed values and the rulings' defaults and choices.

The game modules, `--ruling`, score input and the rulebook tests all read them from here, so a
count or a ruling's default is written once. (The registry repeats a game's name and player counts
so that games are listed without reading any TOML; a rulebook test holds the two the same.)
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from referee.data_dir import data_dir
from referee.rulebook_files import builtin_dir
from referee.safe_files import read_cache, read_regular, write_cache

NUMBERS_CACHE_FORMAT = 1


def player_range(rulebook: str) -> tuple[int, int]:
    """How many may play: the least and the most (the TOML's [game] players)."""
    low, high = numbers(rulebook)["game"]["players"]
    return int(low), int(high)


_unkept: dict[str, tuple[Path, str]] = {}
"""Numbers read from a TOML this run and not kept yet: where they go, and the text to write."""


@cache
def numbers(rulebook: str) -> dict[str, Any]:
    """The game's components, numbers and rulings (rulebooks/<rulebook>.toml).

    Reading TOML takes longer than the rest of loading a game, and a game is loaded before its
    first question. So a session keeps the numbers it read as JSON in the data directory's cache
    (`keep_numbers`), under a digest of the TOML's bytes, and they are read from there while those
    bytes are the same. Only reading happens here: a command that only reads writes nothing."""
    raw = read_regular(builtin_dir() / f"{rulebook}.toml", follow=True)
    key = hashlib.blake2b(raw, digest_size=20, person=b"numbers%d" % NUMBERS_CACHE_FORMAT).hexdigest()
    kept = data_dir() / "cache" / f"numbers-{rulebook}.json"
    try:  # (read_cache: only a copy that matches its own digest, never through a link)
        stored = json.loads(read_cache(kept, data_dir()) or "null")
        if stored["key"] == key and isinstance(stored["numbers"], dict):
            return stored["numbers"]  # (a table, as the TOML's own is)
    except (ValueError, KeyError, TypeError):
        pass  # none kept yet, or not usable: read the TOML
    import tomllib

    parsed = tomllib.loads(raw.decode("utf-8"))
    try:
        text = json.dumps({"key": key, "numbers": parsed}, separators=(",", ":"))
    except (TypeError, ValueError):
        return parsed  # a value JSON cannot hold (a date): read from the TOML every time
    if json.loads(text)["numbers"] == parsed:
        _unkept[rulebook] = (kept, text)
    return parsed


def keep_numbers() -> None:
    """Keep the numbers read from TOML this run in the data directory's cache, for the next run
    (called as a session closes: it writes in the data directory anyway)."""
    while _unkept:
        _rulebook, (kept, text) = _unkept.popitem()
        write_cache(kept, text, data_dir())


def ruling_choices(rulebook: str) -> dict[str, tuple[str, ...]]:
    """The rulings a table may override by name, each with its choices, the default first."""
    result: dict[str, tuple[str, ...]] = {}
    for name, ruling in numbers(rulebook).get("rulings", {}).items():
        choices = ruling.get("choices")
        if isinstance(choices, list):
            default = str(ruling["default"])
            result[name] = (default, *(str(choice) for choice in choices if str(choice) != default))
    return result
