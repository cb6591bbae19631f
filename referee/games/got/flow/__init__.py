"""A Game of Thrones (1st edition) session, from setup to the winner at 15 power, as the table plays it.

Each module yields the questions of one part of the rulebook and applies the answers to the Table,
in the rulebook's order: setup.py (setup, melee installation), cards.py (the icons of cards put into
play), plot.py, marshalling.py (draw and marshalling), challenges.py, dominance.py (dominance,
standing, taxation), power.py (the win at 15), melee.py (titles, support, opposition, title powers)
and shadows.py (cards out of shadows at the start of each phase). Only the driver sends answers in,
validated already. The game ends the moment a player has 15 power: where the referee adds the power
itself, `gain_power` raises GameOver there; after an answer or a correction, the game's end check
does (game.py). Either way play unwinds to `final_count`.
"""

from __future__ import annotations

from referee.engine.game import Flow, Say, Steps
from referee.games.got import rules
from referee.games.got.flow.challenges import challenges_phase
from referee.games.got.flow.dominance import dominance_phase, standing_phase, taxation_phase
from referee.games.got.flow.marshalling import draw_phase, marshalling_phase
from referee.games.got.flow.plot import plot_phase
from referee.games.got.flow.setup import set_up
from referee.games.got.rulings import RANKS_BELOW_WINNER, SIMULTANEOUS_FIFTEEN
from referee.games.got.scoring import Holdings, PlayerPower, score
from referee.games.got.state import Table


def play(table: Table, say: Say) -> Steps:
    yield from set_up(table, say)
    while True:
        table.round += 1
        yield from play_round(table, say)


def play_round(table: Table, say: Say) -> Steps:
    """The seven phases of #round, always in this order."""
    yield from plot_phase(table, say)
    yield from draw_phase(table, say)
    yield from marshalling_phase(table, say)
    yield from challenges_phase(table, say)
    yield from dominance_phase(table, say)
    yield from standing_phase(table, say)
    yield from taxation_phase(table, say)


def final_count(table: Table, say: Say) -> Flow:
    table.phase, table.active, table.finished = "final", None, True
    table.won = bool(rules.players_at_fifteen(table.players))
    yield from ()
    return score(
        Holdings(
            tuple(PlayerPower(player.name, player.house_power, player.card_power) for player in table.players),
            table.first_to_fifteen,
            SIMULTANEOUS_FIFTEEN.of(table.rulings),
            RANKS_BELOW_WINNER.of(table.rulings),
        )
    )
