"""Council of Blackthorn end-of-game scoring: influence, the treason reveal, beheading, the winner.

Used by the guided session at its end and by `referee score council-of-blackthorn`.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Number, Parsed, Question
from referee.errors import InvalidAnswer, ScoreInputError
from referee.games.blackthorn.state import FACTIONS, TRACK, UNDER_CONSTRUCTION_POINTS
from referee.outcome import (
    PlayerScore,
    ScoreReport,
    assign_ranks,
    check_keys,
    read_int,
    read_players,
    require_mapping,
)

GAME_ID = "council-of-blackthorn"
TREASON_CARD_POINTS = {"rumor": 0, "poison": 3}
"""Printed in the rules; Bribe and Spy are not (rulings bribe-value and spy-value)."""
DEFAULT_RULED_POINTS = {"bribe": 1, "spy": 2}
MAX_CARD_POINTS = 3
"""Poison, the worst treason card (ruling treason-points-range)."""


@dataclass(frozen=True)
class FinalHoldings:
    name: str
    factions: Mapping[str, int]
    """Points reached on each faction track (a track value)."""
    tokens: int
    buildings: tuple[int, ...]
    """Building values of completed buildings in play."""
    under_construction: int
    treason: int
    """Treason points revealed."""

    def breakdown(self) -> dict[str, int]:
        return {
            "factions": sum(self.factions.values()),
            "tokens": self.tokens,
            "buildings": sum(self.buildings),
            "under_construction": UNDER_CONSTRUCTION_POINTS * self.under_construction,
        }

    def influence(self) -> int:
        return sum(self.breakdown().values())


@dataclass(frozen=True)
class Holdings:
    players: tuple[FinalHoldings, ...]
    """In the turn order of the final round."""
    notes: tuple[str, ...] = ()


def reveal_order(players: Sequence[FinalHoldings]) -> list[FinalHoldings]:
    """Lowest influence reveals first; equal influence in turn order (ruling reveal-order-ties)."""
    return sorted(players, key=lambda player: player.influence())


def beheaded(players: Sequence[FinalHoldings]) -> set[str]:
    """Who the King beheads.

    Three or more players: everyone tied for the most treason points, unless that most is 0.
    Two players: a player with at least twice the opponent's points (and more than 0).
    """
    if len(players) == 2:
        first, second = players
        return {
            player.name
            for player, other in ((first, second), (second, first))
            if player.treason > 0 and player.treason >= 2 * other.treason
        }
    most = max(player.treason for player in players)
    if most == 0:
        return set()
    return {player.name for player in players if player.treason == most}


def score(holdings: Holdings) -> ScoreReport:
    players = holdings.players
    notes = list(holdings.notes)
    order = {player.name: index for index, player in enumerate(players)}
    heads = beheaded(players)
    reports = []
    for player in players:
        report = PlayerScore(player.name, player.influence(), player.breakdown())
        if player.name in heads:
            report.eliminated = True
            report.reason = f"beheaded with {player.treason} treason points"
        reports.append(report)
    treason = {player.name: player.treason for player in players}
    notes.append(
        "Treason revealed (lowest influence first): "
        + ", ".join(f"{player.name} {player.treason}" for player in reveal_order(players))
    )
    if len(players) == 2:
        notes.append("Two players: beheaded only with at least twice the opponent's treason points.")
    if not heads:
        notes.append("Nobody is beheaded.")
    elif len(heads) == len(players):
        notes.append("Everyone is beheaded: nobody wins.")

    def ranking(player: PlayerScore) -> tuple[int, int, int]:
        return (-(player.total or 0), treason[player.name], order[player.name])

    assign_ranks(reports, ranking)
    survivors = sorted((report for report in reports if not report.eliminated), key=ranking)
    winners: list[str] = []
    if survivors:
        best = survivors[0]
        winners = [best.name]
        tied = [report for report in survivors if report.total == best.total]
        if len(tied) > 1:
            fewest = min(treason[report.name] for report in tied)
            still = [report for report in tied if treason[report.name] == fewest]
            if len(still) == 1:
                notes.append(f"Tie on {best.total} influence: {best.name} wins with the fewest treason points.")
            else:
                notes.append(
                    f"Tie on {best.total} influence and {fewest} treason points: {best.name} wins "
                    "as the first of them to play in the final round."
                )
    return ScoreReport(GAME_ID, True, reports, winners, notes)


# --- reading holdings --------------------------------------------------------------------------

PLAYER_FIELDS = ("name", "factions", "tokens", "buildings", "under_construction", "treason")
TRACK_TEXT = "a track value: " + ", ".join(str(value) for value in TRACK)


def _treason_points(value: object, name: str, card_points: Mapping[str, int], notes: list[str]) -> int:
    if isinstance(value, bool):
        raise ScoreInputError(name, "treason", value, "points (a whole number >= 0) or card counts")
    if isinstance(value, int):
        if value < 0:
            raise ScoreInputError(name, "treason", value, "a whole number >= 0")
        return value
    counts = require_mapping(value, name, "treason")
    kinds = ("rumor", "bribe", "spy", "poison")
    check_keys(counts, name, kinds)
    total = 0
    for kind in kinds:
        total += read_int(counts, kind, name, default=0) * card_points[kind]
    used = [kind for kind in ("bribe", "spy") if counts.get(kind)]
    if used:
        notes.append(
            f"Ruling applied for {name}: "
            + ", ".join(f"{kind.capitalize()} counts {card_points[kind]}" for kind in used)
            + " (values not printed in the rules; override with 'rulings')."
        )
    return total


def parse_input(data: object) -> Holdings:
    root = require_mapping(data, None, "(top level)")
    check_keys(root, None, ("players", "rulings"))
    card_points = dict(TREASON_CARD_POINTS) | dict(DEFAULT_RULED_POINTS)
    if "rulings" in root:
        rulings = require_mapping(root["rulings"], None, "rulings")
        check_keys(rulings, None, ("bribe-value", "spy-value"))
        for key in rulings:
            card_points[key.removesuffix("-value")] = read_int(rulings, key, None, 0, MAX_CARD_POINTS)
    notes: list[str] = []
    players = []
    at_top: dict[str, str] = {}
    for entry in read_players(root, 2, 6):
        name = entry["name"]
        check_keys(entry, name, PLAYER_FIELDS, ("factions",))
        factions_data = require_mapping(entry["factions"], name, "factions")
        check_keys(factions_data, name, FACTIONS, FACTIONS)
        factions = {}
        for faction in FACTIONS:
            value = factions_data[faction]
            if isinstance(value, bool) or value not in TRACK:
                raise ScoreInputError(name, f"factions.{faction}", value, TRACK_TEXT)
            if value == TRACK[-1]:
                if faction in at_top:
                    raise ScoreInputError(
                        name, f"factions.{faction}", value, f"below 13: {at_top[faction]} already holds 13"
                    )
                at_top[faction] = name
            factions[faction] = value
        buildings = entry.get("buildings", [])
        if not isinstance(buildings, list) or not all(
            isinstance(value, int) and not isinstance(value, bool) and value >= 0 for value in buildings
        ):
            raise ScoreInputError(name, "buildings", buildings, "a list of building values (whole numbers >= 0)")
        players.append(
            FinalHoldings(
                name,
                factions,
                read_int(entry, "tokens", name, default=0),
                tuple(buildings),
                read_int(entry, "under_construction", name, default=0),
                _treason_points(entry.get("treason", 0), name, card_points, notes),
            )
        )
    return Holdings(tuple(players), tuple(notes))


def score_input(data: object) -> ScoreReport:
    return score(parse_input(data))


# --- interactive entry -------------------------------------------------------------------------


def parse_track_value(text: str) -> int:
    if not text.isdecimal() or int(text) not in TRACK:
        raise ValueError("not a value on the faction track")
    return int(text)


def parse_building_values(text: str) -> list[int]:
    if text.lower() in ("none", "-", "0 buildings"):
        return []
    parts = text.replace(",", " ").split()
    if not all(part.isdecimal() and len(part) <= 3 for part in parts):
        raise ValueError("not a list of building values")
    return [int(part) for part in parts]


def ask_holdings(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    """Ask each player's end-of-game holdings; returns the JSON input shape."""
    players: list[dict[str, Any]] = []
    at_top: dict[str, str] = {}
    for name in names:
        factions: dict[str, int] = {}
        for faction in FACTIONS:
            holder = at_top.get(faction)

            def read(text: str, holder: str | None = holder) -> int:
                value = parse_track_value(text)
                if value == TRACK[-1] and holder is not None:
                    raise InvalidAnswer(text, f"{holder} already holds 13", "a value below 13")
                return value

            factions[faction] = yield Parsed(
                f"{name}: points on the {faction.capitalize()} track",
                "final-influence",
                parser=read,
                hint=TRACK_TEXT,
            )
            if factions[faction] == TRACK[-1]:
                at_top[faction] = name
        tokens = yield Number(f"{name}: influence token points", "influence-tokens", maximum=9999)
        buildings = yield Parsed(
            f"{name}: values of completed buildings in play (e.g. '4 6', or 'none')",
            "final-influence",
            default="none",
            parser=parse_building_values,
            hint="building values separated by spaces, or 'none'",
        )
        under_construction = yield Number(
            f"{name}: buildings still under construction", "final-influence", default="0", maximum=80
        )
        treason = yield Number(f"{name}: treason points revealed", "treason-reveal", maximum=96 * 3)
        players.append(
            {
                "name": name,
                "factions": factions,
                "tokens": tokens,
                "buildings": buildings,
                "under_construction": under_construction,
                "treason": treason,
            }
        )
    return {"players": players}
