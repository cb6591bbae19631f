"""A Game of Thrones (1st edition) rules as plain functions on plain state.

Reading the table's answers (plots, costs, challenge results) and the arithmetic that follows:
income, costs with the off-House penalty, challenge winners and claims, initiative, dominance and
titles. The flow decides when each applies; nothing here asks or prints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from referee.games.got.state import (
    CARDS_DRAWN_PER_ROUND,
    MASTER_OF_COINS_EXTRA_GOLD,
    MASTER_OF_LAWS_EXTRA_DRAW,
    NEUTRAL,
    OFF_HOUSE_PENALTY,
    POWER_TO_WIN,
    SHADOWS_ENTRY_COST,
    THREE_PLAYERS,
    TITLE_STRENGTH,
    TITLE_STRENGTH_BONUS,
    TITLES,
    Player,
    Plot,
)

MAX_ICON = 20
"""Upper bound for a plot icon or a card cost as typed: the source sets none; this catches slips."""
MAX_STRENGTH = 99
"""Upper bound for a strength total as typed (the source sets none)."""
MAX_RENOWN = 20
"""Upper bound for Renown characters on one side, or power from card text, in one challenge."""
NONE_WORDS = ("none", "no", "-", "nothing")


# --- reading answers ---------------------------------------------------------------------------


def parse_plot(text: str) -> Plot:
    """'income initiative claim [name]', e.g. '5 0 1' or '4 2 1 A Noble Cause'."""
    words = text.replace(",", " ").split()
    numbers = words[:3]
    if len(numbers) < 3 or not all(re.fullmatch(r"\d{1,2}", word) for word in numbers):
        raise ValueError("expected three numbers: income, initiative, claim")
    income, initiative, claim = (int(word) for word in numbers)
    if max(income, initiative, claim) > MAX_ICON:
        raise ValueError(f"a plot icon above {MAX_ICON}")
    return Plot(income, initiative, claim, " ".join(words[3:]))


@dataclass(frozen=True)
class CardCost:
    """One card paid for: its printed cost and what the table marked about it."""

    cost: int
    other_house: bool = False
    """'x': a card of another House."""
    neutral: bool = False
    """'n': a neutral card."""
    limited: bool = False
    """'l': a Limited card."""
    attachment: bool = False
    """'a': a Set-up attachment (starting force only)."""
    shadows: bool = False
    """'s' alone: a card put into shadows, which costs 2 gold whatever it prints."""


def parse_costs(text: str, marks: str) -> tuple[CardCost, ...]:
    """Printed costs, each with optional marks from `marks`: '3 2x 1l', 's', or 'none'."""
    words = text.lower().replace(",", " ").split()
    if len(words) == 1 and words[0] in NONE_WORDS:
        return ()
    cards = []
    for word in words:
        if word == "s" and "s" in marks:
            cards.append(CardCost(SHADOWS_ENTRY_COST, shadows=True))
            continue
        match = re.fullmatch(r"(\d{1,2})([a-z]*)", word)
        if match is None:
            raise ValueError(f"cannot read {word!r} as a cost")
        cost, flags = int(match[1]), match[2]
        if cost > MAX_ICON:
            raise ValueError(f"a cost above {MAX_ICON}")
        unknown = [flag for flag in flags if flag not in marks or flag == "s"]
        if unknown or len(set(flags)) != len(flags):
            raise ValueError(f"unknown or repeated mark in {word!r}")
        if "x" in flags and "n" in flags:
            raise ValueError(f"{word!r}: a card is of another House or neutral, not both")
        cards.append(CardCost(cost, "x" in flags, "n" in flags, "l" in flags, "a" in flags))
    return tuple(cards)


def describe_marks(marks: str) -> str:
    meanings = {
        "x": "x = of another House",
        "n": "n = neutral card",
        "l": "l = Limited",
        "a": "a = Set-up attachment",
        "s": "'s' alone = a card into shadows (2 gold)",
    }
    return "; ".join(meanings[mark] for mark in marks)


@dataclass(frozen=True)
class ChallengeResult:
    attack: int
    defence: int | None
    """None when no character defended."""
    renown: int = 0
    """Participating Renown characters on the winning side."""
    extra_power: int = 0
    """Power the winner's card texts add to their House card in this challenge."""


def parse_challenge(text: str) -> ChallengeResult:
    """'attack defence [rN] [pN]': '5 3', '4 -' (nobody defended), '6 2 r1', '3 - r1 p1'."""
    words = text.lower().replace(",", " ").split()
    if len(words) < 2:
        raise ValueError("expected the attacking and the defending strength")
    attack_word, defence_word, *extras = words
    if not re.fullmatch(r"\d{1,2}", attack_word):
        raise ValueError("the attacking strength is a whole number")
    if defence_word != "-" and not re.fullmatch(r"\d{1,2}", defence_word):
        raise ValueError("the defending strength is a whole number, or '-' when nobody defended")
    renown = extra = 0
    seen: set[str] = set()
    for word in extras:
        match = re.fullmatch(r"([rp])(\d{1,2})", word)
        if match is None or match[1] in seen:
            raise ValueError(f"cannot read {word!r}; add rN (Renown) or pN (power from card text) once each")
        seen.add(match[1])
        value = int(match[2])
        if value > MAX_RENOWN:
            raise ValueError(f"{word!r} is above {MAX_RENOWN}")
        if match[1] == "r":
            renown = value
        else:
            extra = value
    return ChallengeResult(int(attack_word), None if defence_word == "-" else int(defence_word), renown, extra)


def parse_strengths(text: str, count: int) -> tuple[int, ...]:
    """One whole number per player, in the order asked: '5 3 0'."""
    words = text.replace(",", " ").split()
    if len(words) != count or not all(re.fullmatch(r"\d{1,2}", word) for word in words):
        raise ValueError(f"expected {count} whole numbers, one per player in the order given")
    return tuple(int(word) for word in words)


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
