"""The Cutthroat Kingdoms session as the table plays it, one module per part of the rulebook in its
order: setup, the resource phase, the action phase (attacks and conquests in their own modules),
the event phase with the special events, and the final count.

Each part yields the questions for its step and applies the answers to the Kingdom; the driver has
validated them. Deals, card texts and most lord/lady abilities stay with the table: what they change
is entered as corrections, at any question or at the table steps the flow stops at.
"""

from __future__ import annotations

from referee.engine.game import Say, Steps
from referee.games.cutthroat.flow.actions import action_phase
from referee.games.cutthroat.flow.events import event_phase
from referee.games.cutthroat.flow.final import final_count
from referee.games.cutthroat.flow.resources import resource_phase
from referee.games.cutthroat.flow.setup import set_up
from referee.games.cutthroat.state import Kingdom, Player, TurnRecord

__all__ = ["final_count", "play"]


def play(kingdom: Kingdom, say: Say) -> Steps:
    """Setup, then one turn per event card until the Royal Feast has resolved."""
    yield from set_up(kingdom, say)
    while kingdom.events_drawn < kingdom.events_total:
        seat = (kingdom.starting_seat + kingdom.turn_number) % len(kingdom.players)
        kingdom.turn_number += 1
        yield from take_turn(kingdom, kingdom.players[seat], say)


def take_turn(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    kingdom.turn = TurnRecord()
    kingdom.active = player.name
    kingdom.phase = "resources"
    yield from resource_phase(kingdom, player, say)
    kingdom.phase = "actions"
    yield from action_phase(kingdom, player, say)
    kingdom.phase = "event"
    yield from event_phase(kingdom, player, say)
