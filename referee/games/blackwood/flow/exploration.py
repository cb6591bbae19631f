"""Forest Exploration (#forest-exploration): each witch in turn places a puppet on a card.

Her turn ends with the placement unless she adds ' more': whatever she could do after placing
(sell, trade, borrow, a spell) she may do before it at the same question, so nothing is lost."""

from __future__ import annotations

from referee.asks import Builder, ask
from referee.engine.game import Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.flow.actions import open_actions, take_action
from referee.games.blackwood.flow.turn import turn_question
from referee.games.blackwood.flow.wording import coins
from referee.games.blackwood.parse import TurnAnswer, TurnOptions
from referee.games.blackwood.state import FOREST_STEP, Table, Turn, Witch


def forest_options(table: Table, witch: Witch, turn: Turn) -> TurnOptions:
    free = frozenset(rules.free_cells(table.forest))
    can_place = turn.to_place > 0 and witch.puppets_home > 0 and bool(free)
    return TurnOptions(free if can_place else frozenset(), None, open_actions(table, witch, turn), not can_place)


def forest_question(table: Table, witch: Witch, turn: Turn) -> Builder[TurnAnswer]:
    def prompt(options: TurnOptions) -> str:
        what = "places a puppet: on which card?" if options.cells else "has placed: anything more, or done?"
        return f"{witch.name} {what} ({coins(witch.coins)})"

    return turn_question(table, witch, "forest-exploration", prompt, lambda: forest_options(table, witch, turn))


def exploration_turn(table: Table, witch: Witch, say: Say) -> Steps:
    table.active = witch.name
    turn = Turn(FOREST_STEP, to_place=1)
    keep_open = True
    while True:
        options = forest_options(table, witch, turn)
        if not options.cells and (not keep_open or not options.actions):
            if turn.to_place > 0 and witch.puppets_home > 0:
                say(f"{witch.name} finds no card without a puppet and places none.")
            return
        answer = yield from ask(forest_question(table, witch, turn))
        if answer.kind == "done":
            return
        if answer.kind == "action":
            yield from take_action(table, witch, turn, answer.action, say)
            continue
        assert answer.cell is not None
        row, column = answer.cell
        table.forest[row][column] = witch.name
        witch.puppets_home -= 1
        turn.to_place -= 1
        keep_open = answer.more
        where = "in the marker's column" if column == table.round - 1 else f"column {column + 1}"
        say(f"{witch.name} puts a puppet on {rules.cell_label(row, column)} ({where}).")
