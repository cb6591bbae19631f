"""What every part of the A Game of Thrones flow shares: the generator types and the labels of options
that stand for players, nobody, or no more challenges."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from referee.asks import CONFIRMATIONS, Question
from referee.games.got.state import Player

T = TypeVar("T")
Asking = Generator[Question, Any, T]
"""A part of the flow that asks and then returns a value (the answers come typed through `ask`)."""

NOBODY_LABELS = ("nobody", "no one", "(nobody)")
DONE_CHALLENGING = "done (no more challenges)"
"""The label of 'no more challenges' in the challenge question: typing 'done' picks it, and the log
keeps a label that, replayed after a table step, cannot pass for the step's confirmation."""


def nobody_label(players: Sequence[Player]) -> str:
    """The label of the 'nobody' option beside these players' names: a player may be named Nobody,
    and must still be chosen by name."""
    names = {player_label(player).lower() for player in players}
    spare = (f"(nobody {number})" for number in range(2, len(names) + 3))
    return next(label for label in (*NOBODY_LABELS, *spare) if label not in names)


def player_label(player: Player) -> str:
    """A player's option label: the name, unless it reads as a table step's confirmation ('Done',
    'Ok', 'Next'); such a name gets a suffix so that the log replays it as the player (typing the
    name still picks them)."""
    return f"{player.name} (player)" if player.name.lower() in CONFIRMATIONS else player.name


def player_options(players: Sequence[Player]) -> list[tuple[str, Player]]:
    return [(player_label(player), player) for player in players]
