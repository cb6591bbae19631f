"""Blackwood: witches brew potions for a seat on the Council.

The referee guides a whole session: it lays out the setup, runs the rounds of each expedition
(who places a puppet, which puppets come back and in what order, the cauldron, the refills), asks
what the cards print (prices, rewards, reputation) and applies purchases, brewing, sales, spells,
loans and the half-price sale at each expedition's end; it ends the game and scores it. It also
scores a game on its own from each witch's holdings (`scoring`).

Modules: `state` (the table), `rules` (pure rules on it), `parse` (readers of typed answers),
`flow` (the session, by rulebook part), `game` (corrections, the end, invariants, views) and
`scoring` (the final score and the tie-breaks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.outcome import Scoring


def load_guided() -> Game[Any]:
    """The guided session (loaded when a session is played or replayed)."""
    from referee.games.blackwood.game import GAME

    return GAME


def load_scoring() -> Scoring:
    """The scoring on its own (loaded by `referee score`, without the guided session)."""
    from referee.games.blackwood.scoring import SCORING

    return SCORING
