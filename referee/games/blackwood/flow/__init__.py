"""The Blackwood session, from setup to the final score, as the table plays it.

Each module yields the questions of one part of the rulebook, in its order: `setup` (Setup),
`rounds` (Course of Play: the first witch and the end of the round), `exploration` (Forest
Exploration), `village` (Return to the Village and buying ingredients), `turn` (the question of a
witch's turn, shared by both steps), `actions` (Additional Actions), `spells` (Spell Descriptions)
and `ending` (End of the Expedition, End of the Game and the score); `wording` words the amounts
the table is told. Only the driver sends answers
in, already validated. What the cards print (prices, rewards, reputation) is asked; everything that
follows from it is worked out here.

Blackwood's game ends only as a round ends (#end-of-game, ruling potions-run-out), so the flow
checks it there and stops; no entry in the middle of a round can end the game.
"""

from __future__ import annotations

from referee.engine.game import Flow, Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.flow.ending import end_early, end_of_expedition, finish
from referee.games.blackwood.flow.rounds import play_round
from referee.games.blackwood.flow.setup import set_up
from referee.games.blackwood.state import ROUNDS_PER_EXPEDITION, Table


def play(table: Table, say: Say) -> Steps:
    """Setup, then rounds of 5 per expedition until the game ends with a round."""
    yield from set_up(table, say)
    while True:
        table.round += 1
        yield from play_round(table, say)
        expedition_over = table.round == ROUNDS_PER_EXPEDITION
        if expedition_over:
            end_of_expedition(table, say)
        ending = rules.game_end(table)
        if ending is not None:
            if ending.code != rules.EXPEDITIONS_OVER:
                end_early(table, say)
            return
        if expedition_over:
            table.expedition, table.round = table.expedition + 1, 0


def final_count(table: Table, say: Say) -> Flow:
    """The score: nothing is hidden in Blackwood, so nothing more is asked."""
    yield from ()
    return finish(table, say)
