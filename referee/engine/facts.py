"""Each game fact in one place: player counts from the registry, overridable rulings from the TOML.

The game modules, `--ruling`, score input and the rulebook tests all read them from here, so a
count or a ruling's default is written once.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from referee.games.registry import find_game
from referee.rules.paths import builtin_dir


def player_range(game_id: str) -> tuple[int, int]:
    info = find_game(game_id)
    return info.min_players, info.max_players


@cache
def numbers(rulebook: str) -> dict[str, Any]:
    """The game's components, numbers and rulings (rulebooks/<rulebook>.toml)."""
    with open(builtin_dir() / f"{rulebook}.toml", "rb") as file:
        return tomllib.load(file)


def ruling_choices(rulebook: str) -> dict[str, tuple[str, ...]]:
    """The rulings a table may override by name, each with its choices, the default first."""
    result: dict[str, tuple[str, ...]] = {}
    for name, ruling in numbers(rulebook).get("rulings", {}).items():
        choices = ruling.get("choices")
        if isinstance(choices, list):
            default = str(ruling["default"])
            result[name] = (default, *(str(choice) for choice in choices if str(choice) != default))
    return result
