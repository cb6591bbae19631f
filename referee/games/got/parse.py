"""Reading the table's answers in A Game of Thrones (1st edition): plots, card costs with their
marks, icons, challenge results and dominance strengths.

Each parser takes the text typed at a question and returns plain values (state.py), or raises
ValueError saying what is wrong; the question's hint says what is allowed. Nothing here decides a
rule: the limits that depend on the table (gold, hand, the setup limit) are checked by the flow's
own readers, built on these.
"""

from __future__ import annotations

import re

from referee.games.got.state import SHADOWS_ENTRY_COST, CardCost, ChallengeResult, Plot

MAX_ICON = 20
"""Upper bound for a plot icon, a card icon or a card cost as typed: the source sets none; this
catches slips."""
MAX_STRENGTH = 99
"""Upper bound for a strength total as typed (the source sets none)."""
MAX_RENOWN = 20
"""Upper bound for Renown characters on one side, or power from card text, in one challenge."""
NONE_WORDS = ("none", "no", "-", "nothing")
MARK_MEANINGS = {
    "x": "x = of another House",
    "n": "n = neutral card",
    "l": "l = Limited",
    "a": "a = Set-up attachment",
    "i": "i = shows a gold or initiative icon (its values are asked next)",
    "s": "'s' alone = a card into shadows (2 gold)",
}
SMALL_NUMBER = re.compile(r"\d{1,2}")


def parse_plot(text: str) -> Plot:
    """'income initiative claim [name]', e.g. '5 0 1' or '4 2 1 A Noble Cause'."""
    words = text.replace(",", " ").split()
    numbers = words[:3]
    if len(numbers) < 3 or not all(SMALL_NUMBER.fullmatch(word) for word in numbers):
        raise ValueError("expected three numbers: income, initiative, claim")
    income, initiative, claim = (int(word) for word in numbers)
    if max(income, initiative, claim) > MAX_ICON:
        raise ValueError(f"a plot icon above {MAX_ICON}")
    return Plot(income, initiative, claim, " ".join(words[3:]))


def parse_costs(text: str, marks: str) -> tuple[CardCost, ...]:
    """Printed costs, each with optional marks from `marks`: '3 2x 1l 2i', 's', or 'none'."""
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
        cards.append(CardCost(cost, "x" in flags, "n" in flags, "l" in flags, "a" in flags, icons="i" in flags))
    return tuple(cards)


def describe_marks(marks: str) -> str:
    return "; ".join(MARK_MEANINGS[mark] for mark in marks)


def parse_icons(text: str) -> tuple[int, int]:
    """A card's printed gold icon and initiative icon: '1 0' (0 where it shows none)."""
    words = text.replace(",", " ").split()
    if len(words) != 2 or not all(SMALL_NUMBER.fullmatch(word) for word in words):
        raise ValueError("expected two whole numbers: the gold icon, then the initiative icon")
    gold, initiative = (int(word) for word in words)
    if max(gold, initiative) > MAX_ICON:
        raise ValueError(f"an icon above {MAX_ICON}")
    return gold, initiative


def parse_shadow_card(text: str) -> CardCost | None:
    """One card brought out of shadows: its shadow cost, marked 'i' if it shows icons ('3', '2i'),
    or 'none' when the player brings nothing out after all."""
    cards = parse_costs(text, "i")
    if len(cards) > 1:
        raise ValueError("expected the shadow cost of one card")
    return cards[0] if cards else None


def parse_challenge(text: str) -> ChallengeResult:
    """'attack defence [rN] [pN]': '5 3', '4 -' (nobody defended), '6 2 r1', '3 - r1 p1'."""
    words = text.lower().replace(",", " ").split()
    if len(words) < 2:
        raise ValueError("expected the attacking and the defending strength")
    attack_word, defence_word, *extras = words
    if not SMALL_NUMBER.fullmatch(attack_word):
        raise ValueError("the attacking strength is a whole number")
    if defence_word != "-" and not SMALL_NUMBER.fullmatch(defence_word):
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
    if len(words) != count or not all(SMALL_NUMBER.fullmatch(word) for word in words):
        raise ValueError(f"expected {count} whole numbers, one per player in the order given")
    return tuple(int(word) for word in words)
