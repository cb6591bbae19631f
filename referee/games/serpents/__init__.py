"""Council of Serpents: a guided session and the end-of-game count.

The guided session (game.py, flow/) walks the table through setup, every turn, Wars, the Time track
and solo play against the Serpentess, asking only what a card or board shows; it moves the Houses'
markers, keeps count of the Influence cards, and ends the game the moment a House Triumphs or
Collapses or the Keeper of Balance wins on an empty deck. The count (scoring.py) says which Houses
ended and whose Ambitions came true. state.py holds the plain table, rules.py the rules on it,
parse.py the readers of typed answers, houses.py and ambitions.py the Houses and Ambition cards,
rulings.py the count's rulings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.outcome import Scoring


def load_guided() -> Game[Any]:
    """The guided session (loaded when a session is played or replayed)."""
    from referee.games.serpents.game import GAME

    return GAME


def load_scoring() -> Scoring:
    """The scoring on its own (loaded by `referee score`, without the guided session)."""
    from referee.games.serpents.scoring import SCORING

    return SCORING
