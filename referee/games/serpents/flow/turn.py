"""Player Turn: 1. acquire an Influence card, 2. play one (where, and its effect), 3. time elapses.
After every card the end is checked before the Time track moves on."""

from __future__ import annotations

from collections.abc import Callable

from referee.asks import Builder, ask
from referee.engine.game import Say, Steps
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
from referee.games.serpents.flow.deck import refill_court
from referee.games.serpents.flow.end import stop_if_over
from referee.games.serpents.flow.time_track import time_elapses
from referee.games.serpents.houses import HOUSES
from referee.games.serpents.parse import PlayChoice
from referee.games.serpents.state import PAIRS, Card, Play, Player, Table, pair_key, pair_title

PLAYS: dict[Card, Callable[[Table, Play, Say], Resolved]] = {
    Card.CONFLICT: play_conflict,
    Card.INTRIGUE: play_intrigue,
    Card.PEACE: play_peace,
    Card.TRADE: play_trade,
    Card.GUILD: play_guild,
    Card.CHANGE_OF_PLANS: play_change_of_plans,
    Card.THRIVING_GUILDS: play_thriving_guilds,
}


def play_options(table: Table) -> list[tuple[str, Play]]:
    """Every card and place a play can take: the kind of card and the House or pair of Houses."""
    options = []
    for pair in PAIRS:
        war = " (War)" if table.conflicts[pair_key(pair)] else ""
        options.append((f"conflict {pair_title(pair)}{war}", Play(Card.CONFLICT, pair)))
    options += [(f"intrigue at {house.capitalize()}", Play(Card.INTRIGUE, (house,))) for house in HOUSES]
    options += [(f"peace {pair_title(pair)}", Play(Card.PEACE, pair)) for pair in PAIRS]
    options += [(f"trade {pair_title(pair)}", Play(Card.TRADE, pair)) for pair in PAIRS]
    options += [(card.value, Play(card)) for card in (Card.GUILD, Card.CHANGE_OF_PLANS, Card.THRIVING_GUILDS)]
    return options


def play_question(table: Table, prompt: str) -> Builder[Play]:
    def build() -> PlayChoice[Play]:
        options = play_options(table)
        return PlayChoice(
            prompt,
            "play-influence",
            options=tuple(label for label, _ in options),
            values=tuple(play for _, play in options),
        )

    return build


def resolve_play(table: Table, play: Play, say: Say) -> Steps:
    """The card's effect, then the end check the rulebook makes after every card."""
    resolved = yield from PLAYS[play.card](table, play, say)
    stop_if_over(table, say, resolved)


def player_turn(table: Table, player: Player, say: Say) -> Steps:
    table.turn += 1
    table.active = player.name
    table.phase = "acquire"
    if table.court:
        table.court -= 1
        player.hand += 1
        say(f"{player.name}: take one Court card into your hand; slide the others left and turn up a new one.")
        yield from refill_court(table, say)
    else:
        say(f"{player.name}: The Court is empty, so there is nothing to acquire (ruling empty-deck-and-discard).")
    table.phase = "play"
    if player.hand:
        play = yield from ask(play_question(table, f"{player.name} plays which Influence card, and where?"))
        player.hand -= 1
        table.playing += 1
        yield from resolve_play(table, play, say)
    else:
        say(f"{player.name} has no Influence card to play.")
    yield from time_elapses(table, say)
