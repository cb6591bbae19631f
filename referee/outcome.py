"""The end-of-game report every game produces: totals, breakdowns, ranks, winners and notes.

Guided sessions and `referee score` both end in a ScoreReport, built by the same scoring code.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from referee.errors import ScoreInputError

if TYPE_CHECKING:
    from referee.asks import Question


@dataclass
class PlayerScore:
    """One player's line of the score report: the total and its parts, the rank, whether they were
    eliminated, and a reason shown as their status (e.g. a teammate's win)."""

    name: str
    total: int | None
    breakdown: dict[str, int] = field(default_factory=dict)
    rank: int | None = None
    eliminated: bool = False
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "rank": self.rank,
            "eliminated": self.eliminated,
            "reason": self.reason,
        }


@dataclass
class Team:
    """Players scored together as a side, with their total."""

    members: list[str]
    total: int | None

    def to_json(self) -> dict[str, Any]:
        return {"members": list(self.members), "total": self.total}


@dataclass(frozen=True)
class Termination:
    """How a game ended: a stable code (e.g. 'power-reached', 'factions-blocked') and a sentence."""

    code: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "text": self.text}


@dataclass
class ScoreReport:
    """The end-of-game report every game produces: each player's score, the winners, notes, any
    teams and how the game ended."""

    game: str
    ended: bool
    players: list[PlayerScore]
    winners: list[str]
    notes: list[str] = field(default_factory=list)
    teams: list[Team] | None = None
    termination: Termination | None = None
    """How the game ended; set by guided sessions (a score from holdings alone has none)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "ended": self.ended,
            "players": [player.to_json() for player in self.players],
        }
        if self.teams is not None:
            data["teams"] = [team.to_json() for team in self.teams]
        data["winners"] = list(self.winners)
        data["notes"] = list(self.notes)
        if self.termination is not None:
            data["termination"] = self.termination.to_json()
        return data

    def player(self, name: str) -> PlayerScore:
        for player in self.players:
            if player.name == name:
                return player
        raise KeyError(name)


@dataclass(frozen=True)
class Scoring:
    """How a game scores on its own, from the holdings at the end (`referee score`): holdings read
    from JSON and scored, the questions that ask them of the table (their answers in the JSON
    shape), and shorter names of the score's parts for a narrow screen."""

    score_input: Callable[[object], ScoreReport]
    """Raises ScoreInputError naming the field that does not fit."""
    ask_holdings: Callable[[list[str]], Generator[Question, Any, dict[str, Any]]]
    short_parts: Mapping[str, str] = field(default_factory=dict)


K = TypeVar("K")


def assign_ranks(players: Sequence[PlayerScore], sort_key: Callable[[PlayerScore], K]) -> None:
    """Rank players that are still in by `sort_key` (smaller key = better); equal keys share a rank.

    Eliminated players and players without a total get no rank.
    """
    ranked = [player for player in players if not player.eliminated and player.total is not None]
    ranked.sort(key=sort_key)  # type: ignore[arg-type]
    previous: object = object()
    rank = 0
    for position, player in enumerate(ranked, 1):
        key = sort_key(player)
        if key != previous:
            rank = position
            previous = key
        player.rank = rank


# --- reading score input -------------------------------------------------------------------------


def require_mapping(value: object, player: str | None, field_name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScoreInputError(player, field_name, value, "a JSON object")
    return value


def check_keys(
    data: Mapping[str, Any], player: str | None, allowed: Sequence[str], required: Sequence[str] = ()
) -> None:
    """Unknown keys are an error (a typo must not be silently ignored); required keys must be there."""
    for key in data:
        if key not in allowed:
            raise ScoreInputError(player, key, data[key], "known fields: " + ", ".join(allowed))
    for key in required:
        if key not in data:
            raise ScoreInputError(player, key, None, "this field is required")


def read_int(
    data: Mapping[str, Any],
    key: str,
    player: str | None,
    minimum: int = 0,
    maximum: int | None = None,
    default: int | None = None,
) -> int:
    """A whole number field within bounds (booleans are not numbers here)."""
    if key not in data:
        if default is not None:
            return default
        raise ScoreInputError(player, key, None, "this field is required")
    value = data[key]
    upper = "" if maximum is None else f" to {maximum}"
    allowed = f"a whole number from {minimum}{upper}" if maximum is not None else f"a whole number >= {minimum}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreInputError(player, key, value, allowed)
    if value < minimum or (maximum is not None and value > maximum):
        raise ScoreInputError(player, key, value, allowed)
    return value


def read_bool(data: Mapping[str, Any], key: str, player: str | None, default: bool | None = None) -> bool:
    if key not in data:
        if default is not None:
            return default
        raise ScoreInputError(player, key, None, "this field is required")
    value = data[key]
    if not isinstance(value, bool):
        raise ScoreInputError(player, key, value, "true or false")
    return value


def read_players(data: object, minimum: int, maximum: int) -> list[Mapping[str, Any]]:
    """The `players` list: minimum..maximum objects, each with a unique non-empty `name`."""
    root = require_mapping(data, None, "(top level)")
    if "players" not in root:
        raise ScoreInputError(None, "players", None, f"a list of {minimum} to {maximum} players")
    players = root["players"]
    if not isinstance(players, list) or not minimum <= len(players) <= maximum:
        shown = players if not isinstance(players, list) else f"{len(players)} players"
        raise ScoreInputError(None, "players", shown, f"a list of {minimum} to {maximum} players")
    seen: set[str] = set()
    result = []
    for index, entry in enumerate(players, 1):
        entry = require_mapping(entry, f"#{index}", "player")
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ScoreInputError(f"#{index}", "name", name, "a non-empty name")
        if name in seen:
            raise ScoreInputError(name, "name", name, "each player named once")
        seen.add(name)
        result.append(entry)
    return result
