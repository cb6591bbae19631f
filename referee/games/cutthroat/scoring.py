"""Cutthroat Kingdoms end-of-game scoring: coins, the unmarried bonus, cards, gems and marriages.

Used by `referee score cutthroat-kingdoms` (JSON or interactive) and by any guided session's end.
Rulebook sections: #game-end, #score-coins, #score-cards, #score-gems, #score-marriage.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Confirm, Number, Parsed, Question, ask, pick
from referee.engine import facts
from referee.errors import ScoreInputError
from referee.games.cutthroat.gems import (
    GEM_COLOURS,
    GEM_PLURALS,
    GEMS_PER_COLOUR,
    GemSplit,
    best_split,
    most_sets_split,
)
from referee.games.cutthroat.parse import parse_gem_line
from referee.games.cutthroat.rulings import (
    GEM_SPLIT,
    RULINGS,
    SCORE_RULINGS,
    TEAM_RANKS,
    TIED_TOP,
    GemSplitting,
    TeamRanks,
    TiedTop,
)
from referee.outcome import (
    PlayerScore,
    ScoreReport,
    Scoring,
    Team,
    check_keys,
    read_bool,
    read_int,
    read_players,
    require_mapping,
)

GAME_ID = "cutthroat-kingdoms"
MIN_PLAYERS, MAX_PLAYERS = facts.player_range(GAME_ID)
COPPER_POINTS = 1
SILVER_POINTS = 5
LARGEST_ENTRY = 999_999
"""The largest number typed at a prompt; coins are unlimited, so this only guards against typos."""

PLAYER_FIELDS = ("name", "copper", "silver", "gems", "card_vp", "heir_alive", "married_to")
REQUIRED_FIELDS = ("name", "copper", "silver", "gems", "card_vp", "heir_alive")
RULING_CHOICES = {ruling.name: RULINGS.choices[ruling.name] for ruling in SCORE_RULINGS}
"""The rulings of the final score, each with its choices, the default first (from the rulebook's TOML)."""

NOT_MARRIED_LABELS = ("nobody", "no one", "(unmarried)")
"""The first of these that is not a player's name answers "not married"."""


@dataclass(frozen=True)
class PlayerHoldings:
    """What one player has at the final count: coins, gems by colour, card points, whether their
    heir lives and whom they married."""

    name: str
    copper: int
    silver: int
    gems: tuple[int, ...]
    """Gems of each colour, in GEM_COLOURS order."""
    card_vp: int
    """Victory points printed on the cards the player may score (feast cards, their own bastard)."""
    heir_alive: bool
    married_to: str | None


@dataclass(frozen=True)
class Holdings:
    """Everything the final count reads: each player's holdings, in seat order, and the rulings that
    settle the score."""

    players: tuple[PlayerHoldings, ...]
    """In seat order."""
    gem_split: GemSplitting = GEM_SPLIT.of(RULINGS.defaults())
    tied_top: TiedTop = TIED_TOP.of(RULINGS.defaults())
    team_ranks: TeamRanks = TEAM_RANKS.of(RULINGS.defaults())


# --- reading the input ---------------------------------------------------------------------------


def _read_gems(entry: Mapping[str, Any], player: str) -> tuple[int, ...]:
    gems = require_mapping(entry["gems"], player, "gems")
    for colour, count in gems.items():
        if colour not in GEM_COLOURS:
            raise ScoreInputError(player, "gems", colour, "the gem colours " + ", ".join(GEM_COLOURS))
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= GEMS_PER_COLOUR:
            raise ScoreInputError(
                player, f"gems.{colour}", count, f"a whole number from 0 to {GEMS_PER_COLOUR}"
            )
    return tuple(int(gems.get(colour, 0)) for colour in GEM_COLOURS)


def _read_spouse(entry: Mapping[str, Any], player: str, names: Sequence[str]) -> str | None:
    spouse = entry.get("married_to")
    others = [name for name in names if name != player]
    allowed = "null (unmarried) or the name of another player: " + ", ".join(others)
    if spouse is None:
        return None
    if not isinstance(spouse, str) or spouse not in others:
        raise ScoreInputError(player, "married_to", spouse, allowed)
    return spouse


def _read_rulings(root: Mapping[str, Any]) -> dict[str, str]:
    chosen = {ruling: choices[0] for ruling, choices in RULING_CHOICES.items()}
    if "rulings" not in root:
        return chosen
    rulings = require_mapping(root["rulings"], None, "rulings")
    check_keys(rulings, None, tuple(RULING_CHOICES))
    for ruling, value in rulings.items():
        choices = RULING_CHOICES[ruling]
        if value not in choices:
            raise ScoreInputError(None, f"rulings.{ruling}", value, "one of " + ", ".join(choices))
        chosen[ruling] = value
    return chosen


def _check_marriages(players: Sequence[PlayerHoldings]) -> None:
    by_name = {player.name: player for player in players}
    for player in players:
        if player.married_to is None:
            continue
        spouse = by_name[player.married_to]
        if spouse.married_to != player.name:
            raise ScoreInputError(
                spouse.name,
                "married_to",
                spouse.married_to,
                f"{player.name!r}, since {player.name} is married to {spouse.name}",
            )
        if not player.heir_alive:
            # A marriage dissolves the moment one of its heirs dies (#marriage).
            raise ScoreInputError(
                player.name,
                "heir_alive",
                False,
                "true while married (a dead heir dissolves the marriage; then set married_to to null)",
            )


def _check_gem_supply(players: Sequence[PlayerHoldings]) -> None:
    for index, colour in enumerate(GEM_COLOURS):
        in_play = sum(player.gems[index] for player in players)
        if in_play > GEMS_PER_COLOUR:
            raise ScoreInputError(
                None,
                f"gems.{colour}",
                in_play,
                f"at most {GEMS_PER_COLOUR} {GEM_PLURALS[colour]} across all players (the game has "
                f"{GEMS_PER_COLOUR} of each colour)",
            )


def parse_input(data: object) -> Holdings:
    """Validate the JSON input; every problem raises ScoreInputError naming player, field and value."""
    root = require_mapping(data, None, "(top level)")
    check_keys(root, None, ("players", "rulings"))
    entries = read_players(root, MIN_PLAYERS, MAX_PLAYERS)
    names = [str(entry["name"]) for entry in entries]
    players = []
    for entry, name in zip(entries, names, strict=True):
        check_keys(entry, name, PLAYER_FIELDS, REQUIRED_FIELDS)
        players.append(
            PlayerHoldings(
                name=name,
                copper=read_int(entry, "copper", name),
                silver=read_int(entry, "silver", name),
                gems=_read_gems(entry, name),
                card_vp=read_int(entry, "card_vp", name),
                heir_alive=read_bool(entry, "heir_alive", name),
                married_to=_read_spouse(entry, name, names),
            )
        )
    _check_marriages(players)
    _check_gem_supply(players)
    rulings = _read_rulings(root)
    return Holdings(
        tuple(players),
        gem_split=GEM_SPLIT.of(rulings),
        tied_top=TIED_TOP.of(rulings),
        team_ranks=TEAM_RANKS.of(rulings),
    )


# --- the rules -----------------------------------------------------------------------------------


def coin_points(player: PlayerHoldings) -> int:
    return COPPER_POINTS * player.copper + SILVER_POINTS * player.silver


def gets_unmarried_bonus(player: PlayerHoldings) -> bool:
    """Coin VP count twice for a player whose royal heir is alive and unmarried (#score-coins)."""
    return player.heir_alive and player.married_to is None


def gem_split_for(player: PlayerHoldings, ruling: GemSplitting) -> GemSplit:
    return most_sets_split(player.gems) if ruling == "most-sets" else best_split(player.gems)


def breakdown(player: PlayerHoldings, split: GemSplit) -> dict[str, int]:
    return {
        "copper": COPPER_POINTS * player.copper,
        "silver": SILVER_POINTS * player.silver,
        "unmarried_bonus": coin_points(player) if gets_unmarried_bonus(player) else 0,
        "cards": player.card_vp,
        "gem_sets": split.set_points,
        "gem_groups": split.group_points,
    }


def sides(players: Sequence[PlayerHoldings]) -> list[tuple[str, ...]]:
    """The players and married couples that compete, in seat order of their first member."""
    result: list[tuple[str, ...]] = []
    placed: set[str] = set()
    for player in players:
        if player.name in placed:
            continue
        side = (player.name,) if player.married_to is None else (player.name, player.married_to)
        placed.update(side)
        result.append(side)
    return result


def _gem_note(player: PlayerHoldings, split: GemSplit, ruling: GemSplitting) -> str | None:
    """Say how the gems were split, where the player had a choice to make."""
    if min(player.gems) == 0:
        return None
    sets = "1 full set" if split.full_sets == 1 else f"{split.full_sets} full sets"
    counted = f"{sets} ({split.set_points}) + same-colour groups ({split.group_points}) = {split.total} VP"
    if ruling == "most-sets":
        return (
            f"{player.name}'s gems: {counted}, as many full sets as possible (ruling gem-split: most-sets)."
        )
    note = f"{player.name}'s gems: {counted}, the split worth most (ruling gem-split)"
    most = most_sets_split(player.gems)
    if most.full_sets != split.full_sets and most.total < split.total:
        note += f"; forming {most.full_sets} full sets would give only {most.total} VP"
    return note + "."


def _names(side: Sequence[str]) -> str:
    return " and ".join(side)


def score(holdings: Holdings) -> ScoreReport:
    """Totals, breakdowns, team totals, ranks, winners and notes. Pure: no input, no output."""
    notes: list[str] = []
    scores: dict[str, PlayerScore] = {}
    for player in holdings.players:
        split = gem_split_for(player, holdings.gem_split)
        parts = breakdown(player, split)
        scores[player.name] = PlayerScore(player.name, sum(parts.values()), parts)
        gem_note = _gem_note(player, split, holdings.gem_split)
        if gem_note:
            notes.append(gem_note)

    competing = sides(holdings.players)
    side_totals = {side: sum(scores[name].total or 0 for name in side) for side in competing}
    teams = [Team(list(side), side_totals[side]) for side in competing if len(side) == 2]
    for team in teams:
        first, second = team.members
        notes.append(
            f"{first} and {second} are married: {scores[first].total} + {scores[second].total} = "
            f"{team.total} VP as one team; they win or lose together."
        )

    for side, total in side_totals.items():
        better = [other for other, other_total in side_totals.items() if other_total > total]
        ahead = sum(len(other) for other in better) if holdings.team_ranks == "players" else len(better)
        for name in side:
            scores[name].rank = ahead + 1
    if teams and len(competing) > 1:
        if holdings.team_ranks == "players":
            notes.append("Ranks count players: a couple fills two places (ruling team-ranks: players).")
        else:
            notes.append("Ranks count sides: a married couple takes one place (ruling team-ranks).")

    top = max(side_totals.values())
    leaders = [side for side, total in side_totals.items() if total == top]
    winners = [name for side in leaders for name in side]
    if len(leaders) > 1:
        tied = ", ".join(_names(side) for side in leaders)
        if holdings.tied_top == "nobody":
            winners = []
            notes.append(f"{tied} tie for the most VP ({top}): nobody wins (ruling tied-top: nobody).")
        else:
            notes.append(
                f"{tied} tie for the most VP ({top}); the rules give no tie-break, so they share the win "
                "(ruling tied-top)."
            )
    return ScoreReport(
        game=GAME_ID,
        ended=True,
        players=[scores[player.name] for player in holdings.players],
        winners=winners,
        notes=notes,
        teams=teams,
    )


def score_input(data: object) -> ScoreReport:
    return score(parse_input(data))


# --- interactive entry ---------------------------------------------------------------------------


def gem_line(name: str, left: dict[str, int]) -> Parsed[dict[str, int]]:
    """A player's gems on one line, in colour order; Enter for none."""
    still = ", ".join(f"{left[colour]} {GEM_PLURALS[colour]}" for colour in GEM_COLOURS)
    order = " ".join(GEM_COLOURS)
    return Parsed(
        f"{name}: gems of each colour on one line, in the order {order} (e.g. 3 1 1 1 1 0)",
        "score-gems",
        default="0 0 0 0 0 0",
        parser=lambda text: parse_gem_line(text, left),
        hint=f"{len(GEM_COLOURS)} whole numbers in the order {order}; still unclaimed: {still}",
        examples=("0 0 0 0 0 0", " ".join("1" if left[colour] else "0" for colour in GEM_COLOURS)),
    )


def ask_holdings(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    """Ask each player's end-of-game holdings in seat order; returns the JSON input shape.

    Bounds make impossible answers impossible: a colour takes only the gems still left of it, a
    spouse can only be a player not yet accounted for, and a married heir is alive by definition.
    A player's gems are typed on one line, one count per colour.
    """
    taken = {name.lower() for name in names}
    not_married = next(label for label in NOT_MARRIED_LABELS if label not in taken)
    gems_left = dict.fromkeys(GEM_COLOURS, GEMS_PER_COLOUR)
    spouses: dict[str, str | None] = {}
    players: list[dict[str, Any]] = []
    for position, name in enumerate(names):
        copper = yield from ask(Number(f"{name}: copper coins", "score-coins", maximum=LARGEST_ENTRY))
        silver = yield from ask(Number(f"{name}: silver coins", "score-coins", maximum=LARGEST_ENTRY))
        gems = yield from ask(gem_line(name, dict(gems_left)))
        for colour, count in gems.items():
            gems_left[colour] -= count
        card_vp = yield from ask(Number(
            f"{name}: VP printed on the cards they may score (feast cards, their own bastard, ...)",
            "score-cards",
            maximum=LARGEST_ENTRY,
        ))
        if name not in spouses:
            candidates = [later for later in names[position + 1 :] if later not in spouses]
            spouse: str | None = None
            if candidates:
                spouse = yield from ask(pick(
                    f"{name}: is their heir married at the end, and to whose heir?",
                    "score-marriage",
                    [(not_married, None), *((candidate, candidate) for candidate in candidates)],
                    default=not_married,
                ))
            spouses[name] = spouse
            if spouse is not None:
                spouses[spouse] = name
        married_to = spouses[name]
        heir_alive = True
        if married_to is None:
            heir_alive = yield from ask(Confirm(f"{name}: is {name}'s royal heir still alive?", "score-coins"))
        players.append(
            {
                "name": name,
                "copper": copper,
                "silver": silver,
                "gems": gems,
                "card_vp": card_vp,
                "heir_alive": heir_alive,
                "married_to": married_to,
            }
        )
    return {"players": players}


SHORT_PARTS = {"gem groups": "groups", "gem sets": "sets", "unmarried bonus": "single"}
"""Shorter names of the score's parts, for a narrow terminal."""
SCORING = Scoring(score_input, ask_holdings, SHORT_PARTS)
"""How Cutthroat Kingdoms is scored on its own (`referee score`)."""
