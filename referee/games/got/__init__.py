"""A Game of Thrones: The Card Game (1st edition): the guided session and the end-of-game count.

The guided session (game.py, flow/) walks the table through setup and every round: it asks the
plots, the cards played with their costs and icons, the challenges and the dominance strengths,
and works out gold, initiative, claims, power, titles and shadows; card texts stay with the table,
as table steps and corrections. It stops the moment a player has 15 power. scoring.py counts the
power at the end of a game on its own (`referee score got-lcg-1e`). state.py holds the plain state,
rules.py the rules as plain functions, parse.py the readers of the table's answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.outcome import Scoring


def load_guided() -> Game[Any]:
    """The guided session (loaded when a session is played or replayed)."""
    from referee.games.got.game import GAME

    return GAME


def load_scoring() -> Scoring:
    """The scoring on its own (loaded by `referee score`, without the guided session)."""
    from referee.games.got.scoring import SCORING

    return SCORING
