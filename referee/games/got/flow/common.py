"""What every part of the A Game of Thrones flow shares: the generator types and the 'nobody' option."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from referee.asks import Question
from referee.games.got.state import Player

T = TypeVar("T")
Asking = Generator[Question, Any, T]
"""A part of the flow that asks and then returns a value (the answers come typed through `ask`)."""

NOBODY_LABELS = ("nobody", "no one", "(nobody)")


def nobody_label(players: Sequence[Player]) -> str:
    """The label of the 'nobody' option beside these players' names: a player may be named Nobody,
    and must still be chosen by name."""
    names = {player.name.lower() for player in players}
    return next(label for label in NOBODY_LABELS if label not in names)
