"""Player Turn: 1. acquire an Influence card, 2. play one (where, and its effect), 3. time elapses.
After every card the end is checked before the Time track moves on."""

from __future__ import annotations

from collections.abc import Callable

from referee.asks import Builder
from referee.engine.cards import Card as PrintedCard
from referee.engine.cards import ask_card, card_field, remember
from referee.engine.game import Say, Steps
from referee.games.serpents import cards
from referee.games.serpents.cards import INFLUENCE_CARD
from referee.games.serpents.flow.cards import (
    Resolved,
    play_change_of_plans,
    play_conflict,
    play_guild,
    play_intrigue,
    play_peace,
    play_thriving_guilds,
    play_trade,
)
from referee.games.serpents.flow.deck import fill_empty_spaces, refill_court
from referee.games.serpents.flow.end import stop_if_over
from referee.games.serpents.flow.time_track import time_elapses
from referee.games.serpents.state import Card, Play, Player, Table, pair_key

PLAY = dict(INFLUENCE_CARD.fields)["play"]
"""Where a named card is played, when the card does not tell: any place, as printed."""

PLAYS: dict[Card, Callable[[Table, Play, Say], Resolved]] = {
    # a Conflict card reads its printed effects from the card (resolve_play)
    Card.INTRIGUE: play_intrigue,
    Card.PEACE: play_peace,
    Card.TRADE: play_trade,
    Card.GUILD: play_guild,
    Card.CHANGE_OF_PLANS: play_change_of_plans,
    Card.THRIVING_GUILDS: play_thriving_guilds,
}


def play_options(table: Table) -> list[tuple[str, Play]]:
    """Every card and place a play can take, a pair with a Conflict card marked (War)."""
    return cards.play_options(lambda pair: bool(table.conflicts[pair_key(pair)]))


def play_question(table: Table, prompt: str) -> Builder[Play]:
    return lambda: cards.play_question(prompt, "play-influence", lambda pair: bool(table.conflicts[pair_key(pair)]))


def resolve_play(table: Table, play: Play, say: Say, printed: PrintedCard | None = None) -> Steps:
    """The card's effect, then the end check the rulebook makes after every card. A Conflict card
    reads its printed effects from the card where the table named it (else they are asked)."""
    if play.card is Card.CONFLICT:
        resolved = yield from play_conflict(table, play, printed or PrintedCard(INFLUENCE_CARD.id, None), say)
    else:
        resolved = yield from PLAYS[play.card](table, play, say)
    stop_if_over(table, say, resolved)


def player_turn(table: Table, player: Player, say: Say) -> Steps:
    table.turn += 1
    table.active = player.name
    table.phase = "acquire"
    yield from fill_empty_spaces(table, say)
    if table.court:
        table.court -= 1
        player.hand += 1
        say(f"{player.name}: take one Court card into your hand; slide the others left and turn up a new one.")
        yield from refill_court(table, say)
    else:
        say(f"{player.name}: The Court is empty, so there is nothing to acquire (ruling empty-deck-and-discard).")
    table.phase = "play"
    if player.hand:
        question = play_question(table, f"{player.name} plays which Influence card, and where?")
        printed = yield from ask_card(INFLUENCE_CARD, "play", question)
        play = yield from card_field(printed, "play", question if printed.name is None else PLAY)
        yield from remember(printed)
        player.hand -= 1
        table.playing += 1
        yield from resolve_play(table, play, say, printed)
    else:
        say(f"{player.name} has no Influence card to play.")
    yield from time_elapses(table, say)
