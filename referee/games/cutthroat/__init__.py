"""Cutthroat Kingdoms: a guided session and the end-of-game score.

The guided session (game.py, flow/) walks the table through setup and every turn: it asks what the
cards and the table decided, applies the rules it knows (resources, purchases, attacks and
conquests, Stonehold and the known territories, the lords' and ladies' abilities, the special
events, the Royal Feast), waits at table steps for what the table carries out by hand, and scores
the final count. Deals and card texts stay with the table, entered as corrections or payments.
Modules: state (the plain kingdom), rules (pure rules on it), parse (answer readers), flow (the
questions, by rulebook part), game (corrections, views, the end), scoring and gems (the score,
also used by `referee score`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.outcome import Scoring


def load_guided() -> Game[Any]:
    """The guided session (loaded when a session is played or replayed)."""
    from referee.games.cutthroat.game import GAME

    return GAME


def load_scoring() -> Scoring:
    """The scoring on its own (loaded by `referee score`, without the guided session)."""
    from referee.games.cutthroat.scoring import SCORING

    return SCORING
