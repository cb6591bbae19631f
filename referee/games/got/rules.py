"""A Game of Thrones (1st edition) rules as plain functions on plain state.

The arithmetic that follows the table's answers: costs with the off-House penalty, income,
initiative, challenge winners and claims, dominance, titles, and the win at 15 power. The flow
decides when each applies; nothing here asks or prints (the answers are read in parse.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.games.got.state import (
    CARDS_DRAWN_PER_ROUND,
    MASTER_OF_COINS_EXTRA_GOLD,
    MASTER_OF_LAWS_EXTRA_DRAW,
    NEUTRAL,
    OFF_HOUSE_PENALTY,
    POWER_TO_WIN,
    THREE_PLAYERS,
    TITLE_STRENGTH,
    TITLE_STRENGTH_BONUS,
    TITLES,
    CardCost,
    ChallengeResult,
    Player,
)
from referee.outcome import Termination

POWER_REACHED = "power-reached"
"""The termination code of every finished game: somebody has 15 power."""


# --- costs -------------------------------------------------------------------------------------


def starting_force_cost(cards: Sequence[CardCost], attachments_count: bool, penalty_house: str | None = None) -> int:
    """What the face-down starting force counts against the limit of 5.

    Printed costs (ruling starting-force-printed-cost); with `penalty_house` given, the off-House
    penalty of that House is added too. Ruling setup-attachment-cost decides Set-up attachments.
    """
    counted = [card for card in cards if attachments_count or not card.attachment]
    if penalty_house is None:
        return sum(card.cost for card in counted)
    return sum(card_gold(card, penalty_house, neutral_penalty=False) for card in counted)


def card_gold(card: CardCost, house: str, neutral_penalty: bool) -> int:
    """Gold to play one card: its cost, plus 2 for a card of another House unless the House is Neutral."""
    if card.shadows:
        return card.cost
    penalised = card.other_house or (card.neutral and neutral_penalty)
    return card.cost + (OFF_HOUSE_PENALTY if penalised and house != NEUTRAL else 0)


def marshalling_gold(cards: Sequence[CardCost], house: str, neutral_penalty: bool) -> int:
    return sum(card_gold(card, house, neutral_penalty) for card in cards)


# --- income, draws, initiative, dominance ------------------------------------------------------


def income(player: Player) -> int:
    """Plot gold, plus gold icons in play, plus 2 for the Master of Coins."""
    plot_gold = player.plot.income if player.plot else 0
    coins = MASTER_OF_COINS_EXTRA_GOLD if player.title == "Master of Coins" else 0
    return plot_gold + player.income_bonus + coins


def cards_to_draw(player: Player) -> int:
    return CARDS_DRAWN_PER_ROUND + (MASTER_OF_LAWS_EXTRA_DRAW if player.title == "Master of Laws" else 0)


def initiative(player: Player) -> int:
    return (player.plot.initiative if player.plot else 0) + player.initiative_bonus


def highest(values: Sequence[tuple[Player, int]]) -> list[Player]:
    top = max(value for _, value in values)
    return [player for player, value in values if value == top]


def initiative_leaders(players: Sequence[Player]) -> list[Player]:
    return highest([(player, initiative(player)) for player in players])


def fewest_power(players: Sequence[Player]) -> list[Player]:
    """Ruling initiative-tie: among tied players, the one with the least power."""
    least = min(player.power for player in players)
    return [player for player in players if player.power == least]


def dominance_totals(players: Sequence[Player], strengths: Sequence[int]) -> list[tuple[Player, int]]:
    """Unspent gold plus the strength of standing characters."""
    return [(player, player.gold + strength) for player, strength in zip(players, strengths, strict=True)]


# --- challenges --------------------------------------------------------------------------------


def title_bonus(player: Player, kind: str, participating: bool) -> int:
    """+3 for the title matching the kind of challenge, when the player has a participating character."""
    return TITLE_STRENGTH_BONUS if participating and player.title == TITLE_STRENGTH[kind] else 0


@dataclass(frozen=True)
class Resolution:
    """How a challenge came out: each side's total with title bonuses, whether the attacker won, and
    whether it was unopposed."""

    attack_total: int
    defence_total: int
    attacker_wins: bool
    unopposed: bool


def resolve(attacker: Player, defender: Player, kind: str, result: ChallengeResult) -> Resolution:
    """Totals with title bonuses; the attacker wins ties; unopposed when the defence totals 0."""
    attack = result.attack + title_bonus(attacker, kind, participating=True)
    defence = 0 if result.defence is None else result.defence + title_bonus(defender, kind, participating=True)
    wins = attack >= defence
    return Resolution(attack, defence, wins, wins and defence == 0)


def power_claim(defender: Player, claim: int) -> tuple[int, int]:
    """A power claim: how many tokens come off the defender's House card, and how many from the reserve."""
    from_house = min(claim, defender.house_power)
    return from_house, claim - from_house


def players_at_fifteen(players: Sequence[Player]) -> list[Player]:
    return [player for player in players if player.power >= POWER_TO_WIN]


def power_reached(players: Sequence[Player]) -> Termination | None:
    """The game is over the moment anyone has 15 power: who (several when they got there together)."""
    reached = [player.name for player in players_at_fifteen(players)]
    if not reached:
        return None
    if len(reached) == 1:
        return Termination(POWER_REACHED, f"{reached[0]} reached {POWER_TO_WIN} power")
    names = f"{', '.join(reached[:-1])} and {reached[-1]}"
    return Termination(POWER_REACHED, f"{names} reached {POWER_TO_WIN} power at the same moment")


# --- titles ------------------------------------------------------------------------------------


def open_titles(
    taken_this_round: Sequence[str], taken_last_round: Sequence[str], player_count: int, round_number: int
) -> tuple[str, ...]:
    """Titles a player may take now: not taken this round, and with 3 players in an even round, not
    taken in the round before."""
    barred = set(taken_this_round)
    if player_count == THREE_PLAYERS and round_number % 2 == 0:
        barred |= set(taken_last_round)
    return tuple(title for title in TITLES if title not in barred)
