"""Blackwood's end-of-game score: reputation, coins and Fagus Beech tokens, then the tie-breaks.

Rulebook sections: #final-score, #tie-breaks, #score-input, #ruling-final-tie, #ruling-coin-supply,
#ruling-fagus-tokens.
The potion cards' printed values are not known here, so the table gives each witch's reputation
sum as her cards lie; the referee checks what it can (counts, the components in the box) and does
the arithmetic and the tie-breaks.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.asks import Number, Question, ask
from referee.engine.facts import player_range
from referee.errors import ScoreInputError
from referee.games.blackwood.rulings import (
    COIN_SUPPLY,
    FAGUS_TOKENS,
    FINAL_TIE,
    RULINGS,
    SCORE_RULINGS,
    FinalTie,
    Supply,
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

GAME_ID = "blackwood"
PLAYERS = player_range(GAME_ID)
"""How many witches may play (the registry)."""

COINS_PER_POINT = 3
POINTS_PER_FAGUS_TOKEN = -5
FAGUS_TOKENS_IN_BOX = 10
POTION_CARDS_IN_BOX = 40
COIN_VALUE_IN_BOX = 30 * 1 + 20 * 5
REPUTATION_ENTRY_LIMIT = 999
"""Printed reputation values are unknown; this bound only catches a slip of the keyboard."""

RULING_CHOICES: dict[str, tuple[str, ...]] = {ruling.name: RULINGS.choices[ruling.name] for ruling in SCORE_RULINGS}
"""The rulings the score depends on, each with its choices, the default first (rulebooks/blackwood.toml)."""

PLAYER_FIELDS = ("name", "reputation", "coins", "fagus_tokens", "potions_brewed")
TOP_LEVEL_FIELDS = ("players", "rulings")


@dataclass(frozen=True)
class WitchHoldings:
    """What one witch has in front of her when the game ends."""

    name: str
    reputation: int
    """The sum of reputation on her potion cards, each read on the side it lies on."""
    coins: int
    fagus_tokens: int
    potions_brewed: int
    """All her potion cards, any side up: sold or traded potions were still brewed."""


@dataclass(frozen=True)
class Rulings:
    """The readings the referee takes where the rulebook is silent; the table may override them."""

    final_tie: FinalTie = FINAL_TIE.of(RULINGS.defaults())
    coin_supply: Supply = COIN_SUPPLY.of(RULINGS.defaults())
    fagus_tokens: Supply = FAGUS_TOKENS.of(RULINGS.defaults())

    @staticmethod
    def chosen(rulings: Mapping[str, str]) -> Rulings:
        """The score's rulings as chosen for a game (a session's, or the score input's)."""
        return Rulings(FINAL_TIE.of(rulings), COIN_SUPPLY.of(rulings), FAGUS_TOKENS.of(rulings))


@dataclass(frozen=True)
class Holdings:
    """Every witch's end-of-game holdings, in seat order, and the rulings in force."""

    witches: tuple[WitchHoldings, ...]
    rulings: Rulings = field(default_factory=Rulings)


# --- reading the input ---------------------------------------------------------------------------


def _read_rulings(root: Mapping[str, Any]) -> Rulings:
    if "rulings" not in root:
        return Rulings()
    given = require_mapping(root["rulings"], None, "rulings")
    check_keys(given, None, tuple(RULING_CHOICES))
    chosen: dict[str, str] = {}
    for ruling, choices in RULING_CHOICES.items():
        value = given.get(ruling, choices[0])
        if value not in choices:
            raise ScoreInputError(None, f"rulings.{ruling}", value, " or ".join(choices))
        chosen[ruling] = value
    return Rulings.chosen(chosen)


def _read_witch(entry: Mapping[str, Any], rulings: Rulings) -> WitchHoldings:
    name: str = entry["name"]
    check_keys(entry, name, PLAYER_FIELDS, required=PLAYER_FIELDS)
    tokens_limited = rulings.fagus_tokens == "limited"
    fagus_tokens = read_int(entry, "fagus_tokens", name, 0, FAGUS_TOKENS_IN_BOX if tokens_limited else None)
    potions_brewed = read_int(entry, "potions_brewed", name, 0, POTION_CARDS_IN_BOX)
    reputation = read_int(entry, "reputation", name, -REPUTATION_ENTRY_LIMIT, REPUTATION_ENTRY_LIMIT)
    if potions_brewed == 0 and reputation != 0:
        raise ScoreInputError(name, "reputation", reputation, "0 when potions_brewed is 0 (no potion cards)")
    coins = read_int(entry, "coins", name, 0, COIN_VALUE_IN_BOX if rulings.coin_supply == "limited" else None)
    return WitchHoldings(name, reputation, coins, fagus_tokens, potions_brewed)


def _check_total(witches: Sequence[WitchHoldings], field_name: str, in_box: int, what: str) -> None:
    total = sum(getattr(witch, field_name) for witch in witches)
    if total > in_box:
        raise ScoreInputError(None, f"{field_name} (all players)", total, f"at most {in_box} in all ({what})")


def parse_input(data: object) -> Holdings:
    """Validate `{"players": [...], "rulings": {...}}` and return the holdings; ScoreInputError if bad."""
    root = require_mapping(data, None, "(top level)")
    check_keys(root, None, TOP_LEVEL_FIELDS)
    entries = read_players(root, *PLAYERS)
    rulings = _read_rulings(root)
    witches = tuple(_read_witch(entry, rulings) for entry in entries)
    if rulings.fagus_tokens == "limited":
        _check_total(witches, "fagus_tokens", FAGUS_TOKENS_IN_BOX,
                     "the box holds 10 Fagus Beech tokens; ruling fagus-tokens, which the table may set to unlimited")
    _check_total(witches, "potions_brewed", POTION_CARDS_IN_BOX, "the game has 40 potion cards")
    if rulings.coin_supply == "limited":
        _check_total(witches, "coins", COIN_VALUE_IN_BOX,
                     "the box holds 130 in coins; ruling coin-supply, which the table may set to unlimited")
    return Holdings(witches, rulings)


# --- the rules -----------------------------------------------------------------------------------


def breakdown(witch: WitchHoldings) -> dict[str, int]:
    """Her score by part (#final-score): reputation, 1 per full 3 coins, -5 per Fagus Beech token."""
    return {
        "reputation": witch.reputation,
        "coin_points": witch.coins // COINS_PER_POINT,
        "fagus_penalty": witch.fagus_tokens * POINTS_PER_FAGUS_TOKEN,
    }


def _names(witches: Sequence[WitchHoldings]) -> str:
    names = [witch.name for witch in witches]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _tie_break_notes(
    level: Sequence[WitchHoldings], total: int, ranks: Mapping[str, int], rulings: Rulings
) -> list[str]:
    """Plain-words account of how witches level on `total` points were ordered (#tie-breaks)."""
    notes = [
        f"{_names(level)} tie on {total} points; first tie-break, fewer potions brewed: "
        + ", ".join(f"{witch.name} {witch.potions_brewed}" for witch in level) + "."
    ]
    for potions in sorted({witch.potions_brewed for witch in level}):
        same_potions = [witch for witch in level if witch.potions_brewed == potions]
        if len(same_potions) < 2:
            continue
        notes.append(
            f"{_names(same_potions)} brewed {potions} potions each; second tie-break, more coins: "
            + ", ".join(f"{witch.name} {witch.coins}" for witch in same_potions) + "."
        )
        for coins in sorted({witch.coins for witch in same_potions}, reverse=True):
            still_level = [witch for witch in same_potions if witch.coins == coins]
            if len(still_level) < 2:
                continue
            place = _ordinal(ranks[still_level[0].name])
            if place == "1st" and rulings.final_tie == "none":
                outcome = "nobody wins (ruling final-tie, set by the table to none)"
            else:
                outcome = f"they share {place} place (ruling final-tie: the rulebook has no third tie-break)"
            notes.append(f"{_names(still_level)} also hold {coins} coins each; {outcome}.")
    return notes


def score(holdings: Holdings) -> ScoreReport:
    """The final scores, ranks and winners of valid holdings (from parse_input)."""
    witches = holdings.witches
    by_name = {witch.name: witch for witch in witches}
    players = [PlayerScore(witch.name, sum(breakdown(witch).values()), breakdown(witch)) for witch in witches]

    def standing(player: PlayerScore) -> tuple[int, int, int]:
        witch = by_name[player.name]
        return (-(player.total or 0), witch.potions_brewed, -witch.coins)

    assign_ranks(players, standing)
    ranks = {player.name: player.rank or 0 for player in players}
    totals = {player.name: player.total or 0 for player in players}

    notes: list[str] = []
    for total in sorted(set(totals.values()), reverse=True):
        level = sorted((witch for witch in witches if totals[witch.name] == total),
                       key=lambda witch: ranks[witch.name])
        if len(level) > 1:
            notes.extend(_tie_break_notes(level, total, ranks, holdings.rulings))

    coins_held = sum(witch.coins for witch in witches)
    if holdings.rulings.coin_supply == "unlimited" and coins_held > COIN_VALUE_IN_BOX:
        notes.append(f"The witches hold {coins_held} in coins, more than the {COIN_VALUE_IN_BOX} in the box; "
                     "accepted because the table set ruling coin-supply to unlimited.")
    tokens_held = sum(witch.fagus_tokens for witch in witches)
    if holdings.rulings.fagus_tokens == "unlimited" and tokens_held > FAGUS_TOKENS_IN_BOX:
        notes.append(f"The witches hold {tokens_held} Fagus Beech tokens, more than the {FAGUS_TOKENS_IN_BOX} in "
                     "the box; accepted because the table set ruling fagus-tokens to unlimited.")

    leaders = [player.name for player in players if player.rank == 1]
    shared_and_refused = len(leaders) > 1 and holdings.rulings.final_tie == "none"
    winners = [] if shared_and_refused else leaders
    return ScoreReport(GAME_ID, True, players, winners, notes)


def score_input(data: object) -> ScoreReport:
    """Validate the JSON input and score it."""
    return score(parse_input(data))


# --- asking the table ----------------------------------------------------------------------------


def _ask_number(prompt: str, section: str, minimum: int, maximum: int) -> Generator[Question, Any, int]:
    """Ask for a whole number; when only one value is possible it is taken without asking."""
    if minimum == maximum:
        return minimum
    answer = yield from ask(Number(prompt, section=section, minimum=minimum, maximum=maximum))
    return answer


def ask_holdings(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    """Ask each witch's holdings in seat order; return the JSON input shape for score_input.

    The bounds shrink as answers come in, so the totals in the box can never be exceeded.
    """
    read_players({"players": [{"name": name} for name in names]}, *PLAYERS)
    tokens_left, potions_left, coins_left = FAGUS_TOKENS_IN_BOX, POTION_CARDS_IN_BOX, COIN_VALUE_IN_BOX
    entries: list[dict[str, Any]] = []
    for name in names:
        fagus_tokens = yield from _ask_number(
            f"{name}: how many Fagus Beech tokens?", "fagus-loan", 0, tokens_left)
        potions_brewed = yield from _ask_number(
            f"{name}: how many potion cards (any side up)?", "tie-breaks", 0, potions_left)
        reputation = 0
        if potions_brewed:
            reputation = yield from _ask_number(
                f"{name}: total reputation on those potion cards, as they lie?", "final-score",
                -REPUTATION_ENTRY_LIMIT, REPUTATION_ENTRY_LIMIT)
        coins = yield from _ask_number(f"{name}: how many coins (by value)?", "final-score", 0, coins_left)
        tokens_left -= fagus_tokens
        potions_left -= potions_brewed
        coins_left -= coins
        entries.append({"name": name, "reputation": reputation, "coins": coins,
                        "fagus_tokens": fagus_tokens, "potions_brewed": potions_brewed})
    return {"players": entries}


SHORT_PARTS = {"coin points": "coins", "fagus penalty": "fagus", "reputation": "rep."}
"""Shorter names of the score's parts, for a narrow terminal."""
SCORING = Scoring(score_input, ask_holdings, SHORT_PARTS)
"""How Blackwood is scored on its own (`referee score`)."""
