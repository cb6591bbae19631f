"""Council of Blackthorn end-of-game scoring: influence, the treason reveal, beheading, the winner.

Used by the guided session at its end and by `referee score council-of-blackthorn`.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Number, Parsed, Question, ask, pick
from referee.engine import facts
from referee.errors import InvalidAnswer, ScoreInputError
from referee.games.blackthorn.parse import TRACK_TEXT, parse_building_values, parse_track_value
from referee.games.blackthorn.state import FACTIONS, TRACK, TREASON_DECK, UNDER_CONSTRUCTION_POINTS, Player
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

GAME_ID = "council-of-blackthorn"
NUMBERS = facts.numbers(GAME_ID)
TREASON_CARD_POINTS: dict[str, int] = dict(NUMBERS["treason"]["points"])
"""Printed in the rules; Bribe and Spy are not (rulings bribe-value and spy-value)."""
DEFAULT_RULED_POINTS = {kind: int(NUMBERS["rulings"][f"{kind}-value"]["default"]) for kind in ("bribe", "spy")}
MAX_CARD_POINTS: int = NUMBERS["treason"]["most_points_per_card"]
"""Poison, the worst treason card (ruling treason-points-range)."""


@dataclass(frozen=True)
class FinalHoldings:
    """One player's holdings at the final count: faction track points, influence tokens, buildings
    and the treason revealed."""

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
        """Influence by part: the one place its formula is written."""
        return {
            "factions": sum(self.factions.values()),
            "tokens": self.tokens,
            "buildings": sum(self.buildings),
            "under_construction": UNDER_CONSTRUCTION_POINTS * self.under_construction,
        }

    def influence(self) -> int:
        return sum(self.breakdown().values())

    def visible_influence(self) -> int:
        """What the whole table sees of it during play: all but the hidden influence tokens."""
        return self.influence() - self.tokens


def final_holdings(player: Player, treason: int = 0) -> FinalHoldings:
    """A tracked player's holdings at the final count, with the treason points they reveal."""
    return FinalHoldings(
        player.name,
        {faction: player.points(faction) for faction in FACTIONS},
        player.influence,
        tuple(building.value for building in player.buildings if building.complete),
        sum(1 for building in player.buildings if not building.complete),
        treason,
    )


@dataclass(frozen=True)
class Holdings:
    """Everything the final count reads: each player's holdings in the final round's turn order, and
    notes for the report."""

    players: tuple[FinalHoldings, ...]
    """In the turn order of the final round: the last tie-break for the winner."""
    notes: tuple[str, ...] = ()
    order_source: str = "the guided session"
    """Where the final round's turn order came from, named when it breaks a tie."""


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


def turn_order_decides(players: Sequence[FinalHoldings]) -> list[str]:
    """The survivors tied on the most influence and then on the fewest treason points, when there
    are two or more of them: the first of them to play in the final round wins."""
    heads = beheaded(players)
    survivors = [player for player in players if player.name not in heads]
    if not survivors:
        return []
    best = max(player.influence() for player in survivors)
    tied = [player for player in survivors if player.influence() == best]
    fewest = min(player.treason for player in tied)
    still = [player.name for player in tied if player.treason == fewest]
    return still if len(still) > 1 else []


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
                notes.append(
                    "The final round's turn order: " + ", ".join(player.name for player in players)
                    + f" ({holdings.order_source})."
                )
    return ScoreReport(GAME_ID, True, reports, winners, notes)


# --- reading holdings --------------------------------------------------------------------------

PLAYER_FIELDS = ("name", "factions", "tokens", "buildings", "under_construction", "treason")


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


def read_turn_order(root: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """`turn_order`: every player once, the first to play in the final round first. Without it the
    order of `players` is that turn order."""
    order = root["turn_order"]
    allowed = f"each of {', '.join(names)} once, in the final round's turn order"
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        raise ScoreInputError(None, "turn_order", order, allowed)
    if sorted(order) != sorted(names):
        raise ScoreInputError(None, "turn_order", order, allowed)
    return list(order)


def parse_input(data: object) -> Holdings:
    """The end-of-game holdings of `referee score`: `players` (in the final round's turn order,
    unless `turn_order` gives it) and optional `rulings` for the Bribe and Spy values."""
    root = require_mapping(data, None, "(top level)")
    check_keys(root, None, ("players", "rulings", "turn_order"))
    card_points = dict(TREASON_CARD_POINTS) | dict(DEFAULT_RULED_POINTS)
    if "rulings" in root:
        rulings = require_mapping(root["rulings"], None, "rulings")
        check_keys(rulings, None, ("bribe-value", "spy-value"))
        for key in rulings:
            card_points[key.removesuffix("-value")] = read_int(rulings, key, None, 0, MAX_CARD_POINTS)
    notes: list[str] = []
    players = []
    at_top: dict[str, str] = {}
    for entry in read_players(root, *facts.player_range(GAME_ID)):
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
    if "turn_order" not in root:
        return Holdings(tuple(players), tuple(notes), "the order of 'players' in the input")
    by_name = {player.name: player for player in players}
    order = read_turn_order(root, list(by_name))
    return Holdings(tuple(by_name[name] for name in order), tuple(notes), "'turn_order' in the input")


def score_input(data: object) -> ScoreReport:
    return score(parse_input(data))


# --- interactive entry -------------------------------------------------------------------------


def ask_holdings(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    """Ask each player's end-of-game holdings; returns the JSON input shape. The names come in seat
    order; when the winner comes down to the final round's turn order, who played first is asked."""
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

            factions[faction] = yield from ask(
                Parsed(f"{name}: points on the {faction.capitalize()} track", "final-influence", parser=read,
                       hint=TRACK_TEXT)
            )
            if factions[faction] == TRACK[-1]:
                at_top[faction] = name
        tokens = yield from ask(Number(f"{name}: influence token points", "influence-tokens", maximum=9999))
        buildings = yield from ask(
            Parsed(
                f"{name}: values of completed buildings in play (e.g. '4 6', or 'none')",
                "final-influence",
                default="none",
                parser=parse_building_values,
                hint="building values separated by spaces, or 'none'",
            )
        )
        under_construction = yield from ask(
            Number(f"{name}: buildings still under construction", "final-influence", default="0", maximum=80)
        )
        treason = yield from ask(
            Number(f"{name}: treason points revealed", "treason-reveal", maximum=TREASON_DECK * MAX_CARD_POINTS)
        )
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
    entered: dict[str, Any] = {"players": players}
    tied = turn_order_decides(parse_input(entered).players)
    if tied:
        first = yield from ask(
            pick(
                f"{' and '.join(tied)} tie on influence and treason: who played first in the final round "
                "(the Right Hand of the King)?",
                "winner",
                [(name, index) for index, name in enumerate(names)],
            )
        )
        entered["turn_order"] = names[first:] + names[:first]
    return entered


SHORT_PARTS = {"factions": "fact.", "buildings": "build.", "under construction": "unbuilt"}
"""Shorter names of the score's parts, for a narrow terminal."""
SCORING = Scoring(score_input, ask_holdings, SHORT_PARTS)
"""How Council of Blackthorn is scored on its own (`referee score`)."""
