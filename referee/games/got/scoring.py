"""A Game of Thrones: The Card Game (1st edition) end-of-game count: power totals and the winner at 15.

Used by `referee score got-lcg-1e`. The rules are in rulebooks/got-lcg-1e.md (#end-of-game,
#power-count and the rulings #ruling-simultaneous-fifteen and #ruling-ranks-below-winner).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Number, Question, ask, pick
from referee.engine import facts
from referee.errors import ScoreInputError
from referee.games.got.rulings import (
    RANKS_BELOW_WINNER,
    RULINGS,
    SCORE_RULINGS,
    SIMULTANEOUS_FIFTEEN,
    RanksBelowWinner,
    SimultaneousFifteen,
)
from referee.outcome import (
    PlayerScore,
    ScoreReport,
    Scoring,
    assign_ranks,
    check_keys,
    read_int,
    read_players,
    require_mapping,
)

GAME_ID = "got-lcg-1e"
POWER_TO_WIN = 15
MIN_PLAYERS, MAX_PLAYERS = facts.player_range(GAME_ID)
JOUST_PLAYERS = 2
MAX_POWER_PER_FIELD = 99
"""The source sets no limit on power tokens; this bound only catches typing slips."""

RULING_CHOICES: dict[str, tuple[str, ...]] = {ruling.name: RULINGS.choices[ruling.name] for ruling in SCORE_RULINGS}
"""The rulings the count applies, each with its choices, the default first (read from
rulebooks/got-lcg-1e.toml, [rulings], the one place they are written)."""

PLAYER_FIELDS = ("name", "house_power", "card_power")
TOP_LEVEL_FIELDS = ("players", "first_to_fifteen", "rulings")
SAME_MOMENT = "(at the same moment)"
"""The answer for 'who reached 15 first?' when nobody did so before the others."""


@dataclass(frozen=True)
class PlayerPower:
    """One player's power at the count: tokens on the House card and on their other cards."""

    name: str
    house_power: int
    """Power tokens on the House card."""
    card_power: int
    """Power tokens on the player's other cards in play (Renown, Infamy, card effects)."""

    @property
    def total(self) -> int:
        return self.house_power + self.card_power

    def breakdown(self) -> dict[str, int]:
        return {"house_power": self.house_power, "card_power": self.card_power}


@dataclass(frozen=True)
class Holdings:
    """Everything the power count reads: each player's power, who reached 15 first, and the rulings
    that apply."""

    players: tuple[PlayerPower, ...]
    """In seat order."""
    first_to_fifteen: str | None = None
    """Who the table says reached 15 before anyone else, when several have 15 or more."""
    simultaneous_fifteen: SimultaneousFifteen = SIMULTANEOUS_FIFTEEN.of(RULINGS.defaults())
    ranks_below_winner: RanksBelowWinner = RANKS_BELOW_WINNER.of(RULINGS.defaults())


# --- the rules ---------------------------------------------------------------------------------


def mode_name(player_count: int) -> str:
    return "joust" if player_count == JOUST_PLAYERS else "melee"


def players_at_fifteen(players: Sequence[PlayerPower]) -> list[PlayerPower]:
    return [player for player in players if player.total >= POWER_TO_WIN]


def joined_names(names: Sequence[str]) -> str:
    """'Ann', 'Ann and Bo', 'Ann, Bo and Cy'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def power_list(players: Sequence[PlayerPower]) -> str:
    return ", ".join(f"{player.name} {player.total}" for player in players)


def choose_winners(holdings: Holdings, notes: list[str]) -> list[str]:
    """Who has won: the one player at 15, the first there, or several by #ruling-simultaneous-fifteen."""
    reached = players_at_fifteen(holdings.players)
    if not reached:
        notes.append(f"Nobody has {POWER_TO_WIN} power yet: the game is not over and nobody has won.")
        return []
    if len(reached) == 1:
        notes.append(f"{reached[0].name} wins with {reached[0].total} power ({POWER_TO_WIN} or more wins).")
        return [reached[0].name]
    if holdings.first_to_fifteen is not None:
        first = holdings.first_to_fifteen
        later = [player for player in reached if player.name != first]
        notes.append(
            f"Several players have {POWER_TO_WIN} or more power ({power_list(reached)}); {first} got "
            f"there first and wins, as the game ended at that moment "
            f"(later: {', '.join(player.name for player in later)})."
        )
        return [first]
    if holdings.simultaneous_fifteen == "most-power":
        most = max(player.total for player in reached)
        winners = [player.name for player in reached if player.total == most]
        outcome = (
            f"{winners[0]} has the most power ({most}) and wins"
            if len(winners) == 1
            else f"{joined_names(winners)} share the most power ({most}) and share the win"
        )
        notes.append(
            f"Ruling {SIMULTANEOUS_FIFTEEN.name} (most-power) applied: {power_list(reached)} reached "
            f"{POWER_TO_WIN} at the same moment; {outcome}. To share the win among all of them instead, "
            f'set "rulings": {{"{SIMULTANEOUS_FIFTEEN.name}": "shared"}}.'
        )
        return winners
    notes.append(
        f"Ruling {SIMULTANEOUS_FIFTEEN.name} (shared) applied: {power_list(reached)} reached {POWER_TO_WIN} "
        f"at the same moment and share the win. If one got there first, name them in first_to_fifteen; "
        f'to give the win to the most power, set "rulings": {{"{SIMULTANEOUS_FIFTEEN.name}": "most-power"}}.'
    )
    return [player.name for player in reached]


def rank_players(
    holdings: Holdings, reports: Sequence[PlayerScore], winners: Sequence[str], notes: list[str]
) -> None:
    """Winners share rank 1; the others follow #ruling-ranks-below-winner.

    With no winner yet, the ranks are plain standings by power.
    """
    by_power = holdings.ranks_below_winner == "by-power" or not winners

    def rank_key(report: PlayerScore) -> tuple[int, int]:
        if report.name in winners:
            return (0, 0)
        return (1, -(report.total or 0) if by_power else 0)

    assign_ranks(reports, rank_key)
    others = [report for report in reports if report.name not in winners]
    if len(others) < 2:
        return  # one player or none below the winners: every reading ranks them the same
    if not winners:
        notes.append("Standings by total power, most first; equal totals share a place.")
    elif by_power:
        notes.append(
            f"Ruling {RANKS_BELOW_WINNER.name} (by-power) applied: the players who did not win are ranked by "
            f"total power; equal totals share a rank."
        )
    else:
        notes.append(
            f"Ruling {RANKS_BELOW_WINNER.name} (shared) applied: every player who did not win shares rank "
            f"{others[0].rank}."
        )
    ranks: dict[int, list[PlayerScore]] = {}
    for report in others:
        ranks.setdefault(report.rank or 0, []).append(report)
    for rank, tied in sorted(ranks.items()):
        if len(tied) > 1 and by_power:
            notes.append(
                f"{joined_names([report.name for report in tied])} share rank {rank} with "
                f"{tied[0].total} power each."
            )


def score(holdings: Holdings) -> ScoreReport:
    notes = [f"{mode_name(len(holdings.players)).capitalize()}: {len(holdings.players)} players."]
    reports = [PlayerScore(player.name, player.total, player.breakdown()) for player in holdings.players]
    winners = choose_winners(holdings, notes)
    rank_players(holdings, reports, winners, notes)
    return ScoreReport(GAME_ID, bool(winners), reports, winners, notes)


# --- reading holdings --------------------------------------------------------------------------


def read_rulings(root: Mapping[str, Any]) -> dict[str, str]:
    rulings = {ruling: choices[0] for ruling, choices in RULING_CHOICES.items()}
    if "rulings" not in root:
        return rulings
    given = require_mapping(root["rulings"], None, "rulings")
    check_keys(given, None, tuple(RULING_CHOICES))
    for ruling, value in given.items():
        choices = RULING_CHOICES[ruling]
        if value not in choices:
            raise ScoreInputError(None, f"rulings.{ruling}", value, "one of " + ", ".join(choices))
        rulings[ruling] = value
    return rulings


def read_first_to_fifteen(root: Mapping[str, Any], players: Sequence[PlayerPower]) -> str | None:
    value = root.get("first_to_fifteen")
    if value is None:
        return None
    reached = [player.name for player in players_at_fifteen(players)]
    allowed = (
        f"null, or one of the players with {POWER_TO_WIN} or more power: {', '.join(reached)}"
        if reached
        else f"null (nobody has {POWER_TO_WIN} power)"
    )
    if not isinstance(value, str) or value not in reached:
        raise ScoreInputError(None, "first_to_fifteen", value, allowed)
    return value


def parse_input(data: object) -> Holdings:
    root = require_mapping(data, None, "(top level)")
    check_keys(root, None, TOP_LEVEL_FIELDS, ("players",))
    players = []
    for entry in read_players(root, MIN_PLAYERS, MAX_PLAYERS):
        name = entry["name"]
        check_keys(entry, name, PLAYER_FIELDS, PLAYER_FIELDS)
        players.append(
            PlayerPower(
                name,
                read_int(entry, "house_power", name, 0, MAX_POWER_PER_FIELD),
                read_int(entry, "card_power", name, 0, MAX_POWER_PER_FIELD),
            )
        )
    rulings = read_rulings(root)
    return Holdings(
        tuple(players),
        read_first_to_fifteen(root, players),
        SIMULTANEOUS_FIFTEEN.of(rulings),
        RANKS_BELOW_WINNER.of(rulings),
    )


def score_input(data: object) -> ScoreReport:
    return score(parse_input(data))


# --- interactive entry -------------------------------------------------------------------------


def ask_holdings(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    """Ask each player's power, and who reached 15 first when several did; returns the JSON input shape."""
    players: list[dict[str, Any]] = []
    for name in names:
        house_power = yield from ask(
            Number(f"{name}: power on the House card", "power-count", minimum=0, maximum=MAX_POWER_PER_FIELD)
        )
        card_power = yield from ask(
            Number(
                f"{name}: power on all other cards in play (characters, locations, attachments)",
                "power-count",
                minimum=0,
                maximum=MAX_POWER_PER_FIELD,
            )
        )
        players.append({"name": name, "house_power": house_power, "card_power": card_power})
    result: dict[str, Any] = {"players": players}
    reached = [
        player["name"] for player in players if player["house_power"] + player["card_power"] >= POWER_TO_WIN
    ]
    if len(reached) > 1:
        options: list[tuple[str, str | None]] = [(name, name) for name in reached]
        options.append((SAME_MOMENT, None))
        result["first_to_fifteen"] = yield from ask(
            pick(
                f"{joined_names(reached)} have {POWER_TO_WIN} or more power. Who reached {POWER_TO_WIN} first?",
                "ruling-simultaneous-fifteen",
                options,
            )
        )
    return result


SHORT_PARTS = {"card power": "cards", "house power": "house"}
"""Shorter names of the count's parts, for a narrow terminal."""
SCORING = Scoring(score_input, ask_holdings, SHORT_PARTS)
"""How A Game of Thrones is scored on its own (`referee score`)."""
