"""The Influence deck and The Court (1. Acquire an Influence Card): drawing, refilling The Court,
reshuffling the discard pile, and the Keeper of Balance's win on an empty deck."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from referee.asks import Question, ask
from referee.engine.game import GameOver, Say, Steps
from referee.games.serpents import rules
from referee.games.serpents.flow.end import keeper_question
from referee.games.serpents.state import COURT_SPACES, Table


def draw(table: Table, say: Say, receive: Callable[[], None]) -> Generator[Question, Any, bool]:
    """Take the top card of the Influence deck; `receive` puts it where it goes. An emptied deck is the
    Keeper of Balance's moment (solo and the 3-player variant), else the discard pile is reshuffled."""
    if table.deck == 0:
        reshuffle(table, say)
    if table.deck == 0:
        say("No card can be drawn: the Influence deck and the discard pile are empty (ruling empty-deck-and-discard).")
        return False
    table.deck -= 1
    receive()
    if table.deck == 0:
        yield from deck_ran_out(table, say)
    return True


def deck_ran_out(table: Table, say: Say) -> Steps:
    if table.solo:
        table.keeper, table.ended_by = table.players[0].name, "deck"
        say(f"The Influence deck is empty: {table.keeper}, the Keeper of Balance, wins at once.")
        raise GameOver(rules.termination(table))
    if table.keeper_possible:
        names = [player.name for player in table.players]
        prompt = "The Influence deck is empty. Who reveals the Keeper of Balance?"
        who = yield from ask(keeper_question(prompt, "keeper-of-balance", names))
        if who is not None:
            table.keeper, table.ended_by = who, "deck"
            say(f"{who} reveals the Keeper of Balance: the Influence deck ran out, so {who} wins at once.")
            raise GameOver(rules.termination(table))
        table.keeper_possible = False
        say("Nobody reveals the Keeper of Balance: it was the Ambition card left undealt.")
    reshuffle(table, say)


def reshuffle(table: Table, say: Say) -> None:
    if table.discard:
        table.deck, table.discard = table.discard, 0
        say(f"The Influence deck is empty: shuffle the discard pile ({table.deck} cards) into a new deck.")


def refill_court(table: Table, say: Say) -> Steps:
    """Turn up cards onto The Court's empty spaces while a card can be drawn: a space left empty
    because nothing could be drawn is filled at the next refill (ruling empty-deck-and-discard)."""

    def receive() -> None:
        table.court += 1

    while table.court < COURT_SPACES:
        if not (yield from draw(table, say, receive)):
            return


def fill_empty_spaces(table: Table, say: Say) -> Steps:
    """Before a card is taken from The Court: spaces left empty while nothing could be drawn are
    filled once a card can be drawn again (ruling empty-deck-and-discard), so a turn never finds
    The Court short while the deck or the discards hold a card."""
    if table.court < COURT_SPACES and table.deck + table.discard:
        say("The Court has empty spaces and a card can be drawn again: fill them (ruling empty-deck-and-discard).")
        yield from refill_court(table, say)
