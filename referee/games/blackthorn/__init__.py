"""Council of Blackthorn: the guided session and the end-of-game scoring.

The referee asks the set-up rolls and characters, each round's dice and every card played (its
faction or Whispers, class, trigger and building value), and works out the dice effects, blocking,
Whispers checks, control scoring, the game-over declaration, the treason reveal, beheading and the
winner. Card texts and character abilities are carried out by the table, which tells the referee
what they changed (corrections, or one effect line); after a triggered Ally the referee waits at a
table step so that what follows sees them. From the second version of the questions, an Ally's
text and a Building's Action told once are kept in the card catalogue and carried out by the
referee from then on.

state.py holds the plain table, rules.py the pure rules on it, parse.py the readers of typed
answers, cards.py the printed cards and their questions, flow/ the session in the rulebook's order
(flow/texts.py: the texts and Actions of a turn), game.py the Game (correction fields, the end of
the game, views) and scoring.py the final count, also for `referee score`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.outcome import Scoring


def load_guided() -> Game[Any]:
    """The guided session (loaded when a session is played or replayed)."""
    from referee.games.blackthorn.game import GAME

    return GAME


def load_scoring() -> Scoring:
    """The scoring on its own (loaded by `referee score`, without the guided session)."""
    from referee.games.blackthorn.scoring import SCORING

    return SCORING
