"""Council of Serpents end of game: which Houses Triumph or Collapse, and whose Ambitions came true.

Used by `referee score council-of-serpents`. There are no points: a player's total is the number of
their own Ambition cards that came true, and the winners are everyone with at least one (shared
victory), their teammates in a 4-player game, or the Keeper of Balance when the Influence deck ran
out (3-player variant and solo).

Input: {"houses": {"clay"|"jane"|"rowel": {"wealth", "popularity", "strength"}},
        "players": [{"name", "ambitions": ["<house>-triumphs" | "<house>-collapses", ...]}],
        "keeper_of_balance": name | null, "rulings": {id: value} (optional overrides)}
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Number, Question, ask, choice, pick
from referee.errors import ScoreInputError
from referee.games.serpents.ambitions import (
    AMBITIONS,
    AMBITIONS_PER_PLAYER,
    KEEPER_PLAYER_COUNTS,
    SOLO_PLAYERS,
    TEAM_PLAYERS,
    TEAM_SEATS,
    ambition_id,
    ambition_title,
    house_ambitions_held,
    teammate_seat,
)
from referee.games.serpents.houses import (
    ATTRIBUTES,
    COLLAPSE_VALUE,
    HOUSES,
    TRIUMPH_VALUE,
    Fate,
    House,
    describe_fate,
)
from referee.games.serpents.rulings import Rulings, parse_rulings
from referee.outcome import (
    PlayerScore,
    ScoreReport,
    Scoring,
    Team,
    assign_ranks,
    check_keys,
    read_players,
    require_mapping,
)

GAME_ID = "council-of-serpents"
TOP_LEVEL_KEYS = ("houses", "players", "keeper_of_balance", "rulings")
PLAYER_KEYS = ("name", "ambitions")
AMBITIONS_PART = "ambitions"
"""Breakdown part: how many of the player's own Ambition cards came true (one column for all)."""
KEEPER_PART = "keeper_of_balance"
"""Breakdown part of the Keeper of Balance's holder: 1 when the card wins."""
NO_KEEPER = "nobody"
SOLO_LOSER_RANK = 2
"""A solo player who loses comes second, behind the Serpentess (who is not a player)."""


@dataclass(frozen=True)
class PlayerAmbitions:
    """A player and the House Ambition cards they hold at the end."""

    name: str
    ambitions: tuple[str, ...]
    """House Ambition cards held; for the Keeper of Balance's holder, the ignored other card."""


@dataclass(frozen=True)
class Holdings:
    """Everything the end-of-game count reads: the Houses, each player's Ambitions, who holds the
    Keeper of Balance, and the rulings."""

    houses: tuple[House, ...]
    """Clay, Jane and Rowel, in that order."""
    players: tuple[PlayerAmbitions, ...]
    """In seat (turn) order from the starting player: it decides the 4-player teams."""
    keeper_of_balance: str | None = None
    """Who holds the Keeper of Balance card: the solo player, or one player of a 3-player game."""
    rulings: Rulings = Rulings()
    deck_ran_out: bool | None = None
    """Whether the game ended on an empty Influence deck, when known (a guided session knows; for the
    score input, ruling keeper-wins-without-house-end reads it from the holdings)."""


# --- reading the input ---------------------------------------------------------------------------


def _read_attribute(house_data: Mapping[str, Any], house: str, attribute: str, rulings: Rulings) -> int:
    field = f"houses.{house}.{attribute}"
    value = house_data[attribute]
    if rulings.track_ends == "clamp":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoreInputError(None, field, value, "a whole number (ruling track-ends is clamp)")
        return value
    allowed = (
        f"a whole number from {COLLAPSE_VALUE} (Collapse symbol) to {TRIUMPH_VALUE} (Triumph symbol)"
    )
    if isinstance(value, bool) or not isinstance(value, int) or not COLLAPSE_VALUE <= value <= TRIUMPH_VALUE:
        raise ScoreInputError(None, field, value, allowed)
    return value


def _check_nested_keys(data: Mapping[str, Any], path: str, names: Sequence[str]) -> None:
    """Exactly the given keys, with errors naming the full path (houses.clay.wealth)."""
    try:
        check_keys(data, None, names, names)
    except ScoreInputError as error:
        raise ScoreInputError(None, f"{path}.{error.field}", error.value, error.allowed) from None


def _read_houses(data: object, rulings: Rulings) -> tuple[House, ...]:
    houses = require_mapping(data, None, "houses")
    _check_nested_keys(houses, "houses", HOUSES)
    result = []
    for house in HOUSES:
        house_data = require_mapping(houses[house], None, f"houses.{house}")
        _check_nested_keys(house_data, f"houses.{house}", ATTRIBUTES)
        values = {
            attribute: _read_attribute(house_data, house, attribute, rulings) for attribute in ATTRIBUTES
        }
        result.append(House(house, **values))
    return tuple(result)


def _read_keeper(root: Mapping[str, Any], names: Sequence[str]) -> str | None:
    keeper = root.get("keeper_of_balance")
    if len(names) == SOLO_PLAYERS:
        if keeper is not None and keeper != names[0]:
            raise ScoreInputError(None, "keeper_of_balance", keeper, f"null or {names[0]!r}: the solo player")
        return names[0]
    if keeper is None:
        return None
    if len(names) not in KEEPER_PLAYER_COUNTS:
        raise ScoreInputError(
            None, "keeper_of_balance", keeper,
            f"null: the Keeper of Balance is used only with 3 players or solo, not with {len(names)}",
        )
    if keeper not in names:
        allowed = "null or one of the players: " + ", ".join(names)
        raise ScoreInputError(None, "keeper_of_balance", keeper, allowed)
    return str(keeper)


def _read_ambitions(
    entry: Mapping[str, Any], name: str, player_count: int, holds_keeper: bool, taken: dict[str, str]
) -> tuple[str, ...]:
    expected = house_ambitions_held(player_count, holds_keeper)
    if player_count == SOLO_PLAYERS:
        why = "an empty list: the solo player holds only the Keeper of Balance"
    elif holds_keeper:
        why = "a list of 1 Ambition: the card dealt beside the Keeper of Balance (it is ignored)"
    else:
        why = f"a list of {expected} Ambition{'s' if expected != 1 else ''} with {player_count} players"
    if "ambitions" not in entry:
        if expected == 0:
            return ()
        raise ScoreInputError(name, "ambitions", None, why)
    raw = entry["ambitions"]
    if not isinstance(raw, list) or len(raw) != expected:
        raise ScoreInputError(name, "ambitions", raw, why)
    result = []
    for card in raw:
        ambition = card.strip().lower() if isinstance(card, str) else card
        if ambition not in AMBITIONS:
            raise ScoreInputError(name, "ambitions", card, "one of " + ", ".join(AMBITIONS))
        if ambition in taken:
            holder = "this player" if taken[ambition] == name else taken[ambition]
            raise ScoreInputError(
                name, "ambitions", card, f"each Ambition card held once ({holder} already holds {ambition})"
            )
        taken[ambition] = name
        result.append(ambition)
    return tuple(result)


def parse_input(data: object) -> Holdings:
    """Validate the whole input; the first problem raises ScoreInputError naming it."""
    root = require_mapping(data, None, "(top level)")
    check_keys(root, None, TOP_LEVEL_KEYS, ("houses", "players"))
    rulings = parse_rulings(root.get("rulings", {}))
    houses = _read_houses(root["houses"], rulings)
    entries = read_players(root, SOLO_PLAYERS, TEAM_PLAYERS)
    names = [str(entry["name"]) for entry in entries]
    keeper = _read_keeper(root, names)
    taken: dict[str, str] = {}
    players = []
    for entry, name in zip(entries, names, strict=True):
        check_keys(entry, name, PLAYER_KEYS)
        ambitions = _read_ambitions(entry, name, len(names), name == keeper, taken)
        players.append(PlayerAmbitions(name, ambitions))
    return Holdings(houses, tuple(players), keeper, rulings)


# --- the rules -----------------------------------------------------------------------------------


def fulfilled_ambitions(holdings: Holdings, notes: list[str]) -> set[str]:
    """The Ambition cards that came true: one per end a House reached. Notes say which and why."""
    fulfilled: set[str] = set()
    for house in holdings.houses:
        fates = house.reached_fates()
        if len(fates) == len(Fate):
            choice = holdings.rulings.triumph_and_collapse
            if choice != "both":
                fates = {Fate(f"{choice}s")}
            kept = "both triumphs and collapses" if choice == "both" else f"counts only as it {choice}s"
            notes.append(
                f"{house.title} has a marker on the Triumph symbol and one on the Collapse symbol: "
                f"it {kept} (ruling triumph-and-collapse)."
            )
        for fate in sorted(fates, key=lambda fate: fate.value, reverse=True):
            notes.append(describe_fate(house, fate) + ".")
            fulfilled.add(ambition_id(house.name, fate))
    if fulfilled:
        if holdings.rulings.track_ends == "clamp":
            notes.append(
                f"Values of {COLLAPSE_VALUE} or less count as the Collapse symbol and {TRIUMPH_VALUE} or "
                "more as the Triumph symbol (ruling track-ends, overridden to clamp)."
            )
        else:
            notes.append(
                f"{COLLAPSE_VALUE} stands for the Collapse symbol and {TRIUMPH_VALUE} for the Triumph "
                "symbol (ruling track-ends)."
            )
    return fulfilled


def _teams(players: Sequence[PlayerScore]) -> list[Team] | None:
    if len(players) != TEAM_PLAYERS:
        return None
    teams = []
    for seats in TEAM_SEATS:
        members = [players[seat] for seat in seats]
        totals = [member.total for member in members]
        total = None if any(value is None for value in totals) else sum(value or 0 for value in totals)
        teams.append(Team([member.name for member in members], total))
    return teams


def _unfinished(holdings: Holdings, notes: list[str]) -> ScoreReport:
    notes.append("No House has triumphed or collapsed: the game is not over and nobody has won yet.")
    if holdings.keeper_of_balance is not None:
        notes.append(
            "The Keeper of Balance is not credited with an empty Influence deck "
            "(ruling keeper-wins-without-house-end, overridden to false)."
        )
    players = [PlayerScore(player.name, None) for player in holdings.players]
    return ScoreReport(GAME_ID, False, players, [], notes, _teams(players))


def _keeper_notes(holdings: Holdings, fulfilled: set[str], keeper_wins: bool, notes: list[str]) -> None:
    keeper = holdings.keeper_of_balance
    solo = len(holdings.players) == SOLO_PLAYERS
    if keeper_wins and holdings.deck_ran_out:
        notes.append(f"The Influence deck ran out: {keeper} reveals the Keeper of Balance and wins.")
    elif keeper_wins:
        notes.append(
            "No House triumphed or collapsed, so the game ended with the Influence deck running out: "
            f"{keeper} reveals the Keeper of Balance and wins (ruling keeper-wins-without-house-end)."
        )
    elif solo:
        notes.append(
            "Solo game: a House ended before the Influence deck ran out, so the Serpentess wins "
            f"and {keeper} loses (rank {SOLO_LOSER_RANK}, behind her)."
        )
    else:
        notes.append(f"{keeper} holds the Keeper of Balance, which cannot win once a House has ended.")
    for player in holdings.players:
        if player.name == keeper and player.ambitions:
            ignored = player.ambitions[0]
            came_true = " It came true, but does not count." if ignored in fulfilled else ""
            notes.append(
                f"{keeper}'s other Ambition card, {ambition_title(ignored)}, is ignored "
                f"because {keeper} holds the Keeper of Balance.{came_true}"
            )


def _own_result(
    player: PlayerAmbitions, keeper: str | None, fulfilled: set[str], keeper_wins: bool
) -> tuple[dict[str, int], str]:
    """The player's breakdown (own Ambitions that came true) and a reason naming them."""
    if player.name == keeper:
        breakdown = {KEEPER_PART: 1 if keeper_wins else 0}
        if keeper_wins:
            return breakdown, "Keeper of Balance: the Influence deck ran out"
        return breakdown, "Keeper of Balance: a House ended before the Influence deck ran out"
    came_true = [ambition_title(ambition) for ambition in player.ambitions if ambition in fulfilled]
    breakdown = {AMBITIONS_PART: len(came_true)}
    if came_true:
        return breakdown, " and ".join(came_true) + " came true"
    return breakdown, "no Ambition came true"


def score(holdings: Holdings) -> ScoreReport:
    """Which Houses ended, whose Ambitions came true, and who wins. Pure: no input, no output."""
    notes: list[str] = []
    fulfilled = fulfilled_ambitions(holdings, notes)
    keeper = holdings.keeper_of_balance
    deck_ran_out = holdings.deck_ran_out
    if deck_ran_out is None:
        deck_ran_out = holdings.rulings.keeper_wins_without_house_end
    keeper_wins = not fulfilled and keeper is not None and deck_ran_out
    if not fulfilled and not keeper_wins:
        return _unfinished(holdings, notes)
    if keeper is not None:
        _keeper_notes(holdings, fulfilled, keeper_wins, notes)

    players: list[PlayerScore] = []
    for player in holdings.players:
        breakdown, reason = _own_result(player, keeper, fulfilled, keeper_wins)
        players.append(PlayerScore(player.name, sum(breakdown.values()), breakdown, reason=reason))

    own_winners = {score.name for score in players if score.total}
    winners: list[str] = []
    for seat, score_line in enumerate(players):
        partner_seat = teammate_seat(seat, len(players))
        partner = players[partner_seat] if partner_seat is not None else None
        if score_line.name in own_winners:
            winners.append(score_line.name)
        elif partner is not None and partner.name in own_winners:
            winners.append(score_line.name)
            score_line.reason = f"teammate {partner.name} won ({partner.reason})"
    solo_loss = len(players) == SOLO_PLAYERS and not keeper_wins
    if not solo_loss:
        ignored_came_true = any(
            player.name == keeper and fulfilled & set(player.ambitions) for player in holdings.players
        )
        _victory_notes(players, winners, own_winners, ignored_came_true, notes)
    assign_ranks(players, lambda player: 0 if player.name in winners else 1)
    if solo_loss:
        players[0].rank = SOLO_LOSER_RANK
    return ScoreReport(GAME_ID, True, players, winners, notes, _teams(players))


def _victory_notes(
    players: Sequence[PlayerScore],
    winners: Sequence[str],
    own_winners: set[str],
    keeper_card_ignored: bool,
    notes: list[str],
) -> None:
    if not winners:
        if keeper_card_ignored:
            notes.append("No Ambition came true apart from the ignored card: nobody wins.")
        else:
            notes.append("No player's Ambition came true: nobody wins.")
        return
    if len(players) != TEAM_PLAYERS:
        if len(winners) > 1:
            notes.append("Shared victory: " + ", ".join(winners) + ".")
        return
    winning_teams = 0
    for seats in TEAM_SEATS:
        members = [players[seat].name for seat in seats]
        if any(member in own_winners for member in members):
            winning_teams += 1
            makers = ", ".join(member for member in members if member in own_winners)
            notes.append(
                f"Team {members[0]} + {members[1]} wins together (an Ambition came true for: {makers})."
            )
    if winning_teams > 1:
        notes.append("Shared victory: both teams win (" + ", ".join(winners) + ").")


def score_input(data: object) -> ScoreReport:
    return score(parse_input(data))


# --- asking the table ----------------------------------------------------------------------------


def _check_names(names: Sequence[str]) -> None:
    if not SOLO_PLAYERS <= len(names) <= TEAM_PLAYERS:
        allowed = f"{SOLO_PLAYERS} to {TEAM_PLAYERS} players"
        raise ScoreInputError(None, "players", f"{len(names)} players", allowed)
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ScoreInputError(None, "name", name, "a non-empty name")
        if name in seen:
            raise ScoreInputError(name, "name", name, "each player named once")
        seen.add(name)


def ask_holdings(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    """Ask the table for every House attribute and every player's Ambition cards.

    Each question's bounds rule out a bad value: attributes from 0 to 13, and only Ambition cards no
    one has named yet. Returns the JSON input shape that score_input reads.
    """
    _check_names(names)
    houses: dict[str, dict[str, int]] = {}
    for house in HOUSES:
        houses[house] = {}
        for attribute in ATTRIBUTES:
            houses[house][attribute] = yield from ask(Number(
                f"House {house.capitalize()}: final {attribute.capitalize()} "
                f"({COLLAPSE_VALUE} = Collapse symbol, {TRIUMPH_VALUE} = Triumph symbol)",
                section="houses-and-attributes",
                minimum=COLLAPSE_VALUE,
                maximum=TRIUMPH_VALUE,
            ))

    keeper: str | None = None
    if len(names) == SOLO_PLAYERS:
        keeper = names[0]
    elif len(names) in KEEPER_PLAYER_COUNTS:
        nobody = NO_KEEPER if NO_KEEPER not in (name.lower() for name in names) else f"({NO_KEEPER})"
        keeper = yield from ask(pick(
            "Who holds the Keeper of Balance card? (3-player variant; choose "
            f"{nobody} if it was not played or not dealt)",
            "keeper-of-balance",
            [(nobody, None), *((name, name) for name in names)],
        ))

    held = yield from ask_ambition_cards(names, keeper)
    players = [{"name": player.name, "ambitions": list(player.ambitions)} for player in held]
    return {"houses": houses, "players": players, "keeper_of_balance": keeper}


def ask_ambition_cards(
    names: Sequence[str], keeper: str | None, say: Callable[[str], None] | None = None
) -> Generator[Question, Any, list[PlayerAmbitions]]:
    """Each player's House Ambition cards in seat order, one card at a time, each from the cards no
    one has named yet. In a guided session (given `say`), which knows that every card was dealt,
    the last player's cards are the ones left, and are said rather than asked."""
    counts = [house_ambitions_held(len(names), name == keeper) for name in names]
    everything_dealt = say is not None and sum(counts) == len(AMBITIONS)
    remaining = list(AMBITIONS)
    result = []
    for seat, (name, count) in enumerate(zip(names, counts, strict=True)):
        if say is not None and everything_dealt and seat == len(names) - 1:
            held = list(remaining)
            say(f"{name} holds the last Ambition cards: {', '.join(ambition_title(card) for card in held)}.")
        else:
            held = []
            for number in range(1, count + 1):
                if name == keeper:
                    prompt = f"{name}: the Ambition card dealt beside the Keeper of Balance (it is ignored)"
                else:
                    prompt = f"{name}: Ambition card {number} of {count}"
                card = yield from ask(choice(prompt, "ambitions", remaining))
                held.append(card)
                remaining.remove(card)
        result.append(PlayerAmbitions(name, tuple(held)))
    return result



SHORT_PARTS = {"ambitions": "amb."}
"""Shorter names of the count's parts, for a narrow terminal."""
SCORING = Scoring(score_input, ask_holdings, SHORT_PARTS)
"""How Council of Serpents is counted on its own (`referee score`)."""

__all__ = [
    "AMBITIONS_PER_PLAYER",
    "GAME_ID",
    "SCORING",
    "Holdings",
    "PlayerAmbitions",
    "ask_ambition_cards",
    "ask_holdings",
    "fulfilled_ambitions",
    "parse_input",
    "score",
    "score_input",
]
