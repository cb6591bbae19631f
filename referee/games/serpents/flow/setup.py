"""Setup (and Solo Setup): the difficulty or the Keeper of Balance variant, the first player, the
Houses' starting values and the Starting Time track cards, as the table reads them off the boards."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Confirm, Question, ask, choice, pick
from referee.engine.cards import card_field, card_question, remember
from referee.engine.game import Say, Steps
from referee.games.serpents.cards import HOUSE_BOARD, board_name, start_question, track_action_question
from referee.games.serpents.flow.time_track import order_note, place_on_new_track, preferred_action_question
from referee.games.serpents.houses import ATTRIBUTES, HOUSES
from referee.games.serpents.state import DIFFICULTIES, STARTING_HAND, STARTING_TRACK_CARDS, Table, TrackCard


def choose_difficulty(table: Table, say: Say) -> Steps:
    level = yield from ask(choice("Solo: which difficulty?", "solo-setup", DIFFICULTIES))
    numbers = DIFFICULTIES[level]
    table.difficulty = level
    table.removed = numbers["removed"]
    table.deck -= numbers["removed"]
    table.windfall_left, table.struggle_left = numbers["windfall"], numbers["struggle"]
    table.keeper_possible = True
    say(
        f"{level}: remove {numbers['removed']} random Influence cards from the game; shuffle "
        f"{numbers['windfall']} Windfall and {numbers['struggle']} Struggle cards into the 12 Serpentess cards. "
        "Put a Tiebreaker card at each House."
    )


def choose_variant_and_first_player(table: Table) -> Steps:
    if len(table.players) == 3:
        table.keeper_variant = yield from ask(
            Confirm("Play the Keeper of Balance variant (shuffled in with the Ambition cards)?", "keeper-of-balance")
        )
        table.keeper_possible = table.keeper_variant
    table.first = yield from ask(
        pick(
            "Who starts (most recent visit to a castle)?",
            "setup",
            [(player.name, seat) for seat, player in enumerate(table.players)],
        )
    )


def placement_words(number: int) -> str:
    if number == 1:
        return "placed first, at the bottom"
    return f"placed next, above card {number - 1}"


def house_board(table: Table, house: str) -> Generator[Question, Any, tuple[int, int, int]]:
    """A House's starting values as marked on its board; a board the catalogue knows is accepted
    with Enter, and gives the House's preferred action too."""
    question = start_question(
        f"House {house.capitalize()}: starting Wealth Popularity Strength, as marked on its board"
    )
    board = yield from ask(lambda: card_question(HOUSE_BOARD, "start", question, name=board_name(house)))
    values = yield from card_field(board, "start", question)
    if "preferred" in board.printed:
        table.preferred_actions[house] = yield from card_field(board, "preferred", preferred_action_question(house))
    yield from remember(board)
    return values


def set_up(table: Table, say: Say) -> Steps:
    table.phase = "setup"
    if table.solo:
        yield from choose_difficulty(table, say)
    else:
        yield from choose_variant_and_first_player(table)
    for house in HOUSES:
        values = yield from house_board(table, house)
        table.houses[house] = dict(zip(ATTRIBUTES, values, strict=True))
    say(f"Shuffle the {STARTING_TRACK_CARDS} Starting Time track cards and place them from the bottom up.")
    for number in range(1, STARTING_TRACK_CARDS + 1):
        action = yield from ask(
            track_action_question(
                f"Starting Time track card {number} of {STARTING_TRACK_CARDS} ({placement_words(number)}): "
                "its action?",
                "setup",
            )
        )
        place_on_new_track(table, TrackCard(action, "starting"))
    say(order_note(table))
    dealt = "1 Ambition card" if len(table.players) == 4 else "2 Ambition cards"
    if table.solo:
        say(
            f"Turn 4 Influence cards face up on The Court; take {STARTING_HAND} Influence cards and the "
            "Keeper of Balance. The Serpentess takes the other Ambition cards and plays first."
        )
    else:
        say(
            f"Turn 4 Influence cards face up on The Court. Each player takes {STARTING_HAND} Influence cards "
            f"and {dealt}, kept hidden. {table.turn_order()[0].name} starts."
        )
    if len(table.players) == 4:
        order = table.turn_order()
        say(f"Teams: {order[0].name} + {order[2].name} against {order[1].name} + {order[3].name}.")
