"""The Council of Serpents session as the table plays it, one module per part of the rulebook, in
its order: setup, the player turn (deck, cards, War), the Time track, the end, and solo mode.

The referee asks only what it cannot see or work out: what a card shows and where it was played.
Attribute changes, Wars, the Time track, the deck and the end of the game it works out. Play goes
on turn after turn until a House Triumphs or Collapses or the Keeper of Balance wins on an empty
Influence deck; then the final count reveals the Ambitions.
"""

from __future__ import annotations

from referee.engine.game import Say, Steps
from referee.games.serpents.flow.end import final_count
from referee.games.serpents.flow.setup import set_up
from referee.games.serpents.flow.solo import serpentess_turn
from referee.games.serpents.flow.turn import player_turn
from referee.games.serpents.state import Table

__all__ = ["final_count", "play"]


def play(table: Table, say: Say) -> Steps:
    """Setup, then turns in clockwise order (the Serpentess first in solo) until the game ends."""
    yield from set_up(table, say)
    while True:
        if table.solo:
            yield from serpentess_turn(table, say)
        for player in table.turn_order():
            yield from player_turn(table, player, say)
