"""Readers of the table's free-form answers in a Blackwood session (for Parsed questions).

A witch's turn is one question whose answer may be a card of the forest ('B2'), the printed price
of the card under her returning puppet ('3') or 'discard', an additional action by name ('brew',
'sell', a spell) or 'done'. The readers check an answer against what the turn allows at that
moment and raise ValueError (which the question turns into a refusal saying what is allowed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.games.blackwood import rules
from referee.games.blackwood.state import FOREST_COLUMNS, PRINTED_VALUE_GUARD

SELL, TRADE, BORROW, BREW = "sell", "trade", "borrow", "brew"
"""The additional actions that are not spells; spells are named by their kind."""
DONE, DISCARD, MORE, NONE = "done", "discard", "more", "none"


@dataclass(frozen=True)
class TurnAnswer:
    """One answer at a witch's turn: a placement or purchase, an additional action, or 'done'."""

    kind: str
    """'place', 'buy', 'discard', 'action' or 'done'."""
    cell: tuple[int, int] | None = None
    price: int = 0
    action: str = ""
    more: bool = False
    """The answer ended in 'more': she keeps her turn open after this placement or discard."""


@dataclass(frozen=True)
class TurnOptions:
    """What a witch may answer at this moment of her turn."""

    cells: frozenset[tuple[int, int]]
    """Cards she may put a puppet on (empty when she places none now)."""
    max_price: int | None
    """The most she can pay for the card under her returning puppet (None: no purchase now)."""
    actions: tuple[str, ...]
    done: bool
    """Whether she may end her turn."""


def parse_cell(text: str, rows: int) -> tuple[int, int] | None:
    """A cell label such as 'b3' as (row, column), or None when it names no cell of this forest."""
    text = text.strip().upper()
    if len(text) != 2 or not text[0].isalpha() or not text[1].isdecimal():
        return None
    row, column = ord(text[0]) - ord("A"), int(text[1]) - 1
    if 0 <= row < rows and 0 <= column < FOREST_COLUMNS:
        return row, column
    return None


def read_turn_answer(text: str, rows: int, options: TurnOptions) -> TurnAnswer:
    words = text.lower().split()
    more = len(words) == 2 and words[1] in (MORE, "+")
    if more:
        words = words[:1]
    if len(words) == 1 and len(words[0]) > 1 and words[0].endswith("+"):
        words, more = [words[0][:-1]], True
    if len(words) != 1:
        raise ValueError("one answer at a time")
    word = words[0]
    if not more and word in options.actions:
        return TurnAnswer("action", action=word)
    if not more and word == DONE:
        if not options.done:
            raise ValueError("she cannot end her turn yet")
        return TurnAnswer("done")
    if options.cells:
        cell = parse_cell(word, rows)
        if cell is not None:
            if cell not in options.cells:
                raise ValueError(f"{word.upper()} is not a card without a puppet")
            return TurnAnswer("place", cell=cell, more=more)
    if options.max_price is not None:
        if word == DISCARD:
            return TurnAnswer("discard", more=more)
        if word.isdecimal():
            price = int(word)
            if price > options.max_price:
                raise ValueError(f"she can pay at most {options.max_price}")
            return TurnAnswer("buy", price=price, more=more)
    raise ValueError("not an answer for this moment")


def turn_examples(options: TurnOptions) -> tuple[str, ...]:
    cells = sorted(options.cells)
    examples = [rules.cell_label(*cell) for cell in cells]
    examples += [f"{rules.cell_label(*cell)} {MORE}" for cell in cells[:2]]
    if options.max_price is not None:
        examples += [str(price) for price in range(0, min(options.max_price, 5) + 1)]
        examples += [DISCARD, f"{DISCARD} {MORE}"]
    examples += list(options.actions)
    if options.done:
        examples.append(DONE)
    return tuple(examples)


def turn_hint(options: TurnOptions) -> str:
    parts = []
    if options.cells:
        parts.append("a card without a puppet (e.g. " + rules.cell_label(*min(options.cells)) + ")")
        parts.append(f"add ' {MORE}' to keep the turn open after placing")
    if options.max_price is not None:
        parts.append(f"the printed price to buy it (0 to {options.max_price}) or '{DISCARD}'")
        parts.append(f"'{DISCARD} {MORE}' keeps the turn open after discarding")
    if options.actions:
        parts.append("an additional action: " + ", ".join(options.actions))
    if options.done:
        parts.append(f"'{DONE}'")
    return "; ".join(parts)


def read_cards_used(text: str, held: Sequence[int], none_allowed: bool) -> list[int]:
    """The printed prices of the forest cards she discards for a potion, each one she holds."""
    words = text.lower().replace(",", " ").split()
    if words == [NONE]:
        if not none_allowed:
            raise ValueError("this potion needs at least one more of her forest cards")
        return []
    if not words or not all(word.isdecimal() for word in words):
        raise ValueError("give the prices of the cards, e.g. '2 3'")
    prices = [int(word) for word in words]
    left = list(held)
    for price in prices:
        if price not in left:
            raise ValueError(f"she has no other forest card priced {price} (she has {describe_cards(held)})")
        left.remove(price)
    return prices


def cards_used_examples(held: Sequence[int], none_allowed: bool) -> tuple[str, ...]:
    examples = [str(price) for price in sorted(set(held))]
    if len(held) > 1:
        examples.append(" ".join(str(price) for price in held))
    if none_allowed:
        examples.append(NONE)
    return tuple(examples)


def describe_cards(prices: Sequence[int]) -> str:
    return " ".join(str(price) for price in prices) or "no cards"


def most_foraged_price(coins: int) -> int:
    """The highest printed price whose half (rounded down) she can pay."""
    return min(PRINTED_VALUE_GUARD, 2 * coins + 1)


def read_foraged_price(text: str, coins: int) -> int | None:
    """The printed price of the foraged card she buys at half price, or None for none."""
    if text.lower() in (NONE, "no"):
        return None
    most = most_foraged_price(coins)
    if not text.isdecimal() or int(text) > most:
        raise ValueError(f"a printed price she can pay half of (0 to {most}), or '{NONE}'")
    return int(text)
