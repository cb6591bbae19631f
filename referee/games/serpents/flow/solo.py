"""Solo Mode: the Serpentess' turn (her card chooses a Court card, her reference places it), and the
Windfall and Struggle cards she turns up, which go to the end of the Time track."""

from __future__ import annotations

from referee.asks import Builder, Choice, ask, pick
from referee.engine.game import Say, Steps
from referee.games.serpents.flow.deck import draw, fill_empty_spaces, refill_court
from referee.games.serpents.flow.time_track import time_elapses
from referee.games.serpents.flow.turn import play_options, resolve_play
from referee.games.serpents.parse import PlayChoice
from referee.games.serpents.state import SOLO_NAME, Play, Table, TrackAction, TrackCard

OPTION_B = "option B: discard it, play the deck's top card"
SOLO_CARDS = ("windfall", "struggle")
"""Cards of the Serpentess deck that are not numbered: they go to the end of the Time track."""


def shown_question(table: Table) -> Choice[int | str]:
    """What her top card shows: a Court space with a card on it, or a Windfall or Struggle card
    while some are left in her deck."""
    options: list[tuple[str, int | str]] = [(str(space), space) for space in range(1, table.court + 1)]
    options += [("windfall", "windfall")] if table.windfall_left else []
    options += [("struggle", "struggle")] if table.struggle_left else []
    return pick("The Serpentess turns over her top card. What does it show?", "serpentess-turn", options)


def placement_question(table: Table, prompt: str) -> Builder[Play | None]:
    """Where her reference puts the card, or Option B (None)."""

    def build() -> PlayChoice[Play | None]:
        options: list[tuple[str, Play | None]] = [*play_options(table), (OPTION_B, None)]
        return PlayChoice(
            prompt,
            "serpentess-turn",
            options=tuple(label for label, _ in options),
            values=tuple(play for _, play in options),
        )

    return build


def serpentess_turn(table: Table, say: Say) -> Steps:
    table.turn += 1
    table.active = SOLO_NAME
    table.phase = "serpentess"
    yield from fill_empty_spaces(table, say)
    space: int | None = None
    while table.court or table.windfall_left or table.struggle_left:
        shown = yield from ask(shown_question(table))
        if isinstance(shown, int):
            space = shown
            break
        if shown == "windfall":
            table.windfall_left -= 1
        else:
            table.struggle_left -= 1
        table.track.append(TrackCard(TrackAction(shown), shown))
        say(f"The {shown.capitalize()} card goes to the end of the Time track; turn over another Serpentess card.")
        # Her numbered cards are not tracked: a reshuffle of her deck never brings these two kinds back.
    if space is not None:
        yield from serpentess_play(table, space, say)
    else:
        say("The Court is empty: the Serpentess has no card to play.")
    yield from time_elapses(table, say)


def serpentess_play(table: Table, space: int, say: Say) -> Steps:
    table.court -= 1
    table.playing += 1
    say(
        f"The Serpentess plays Court card {space}; refill The Court (ruling serpentess-court-refill). If her card "
        "says so, reshuffle her deck after this turn, without the turned Windfall and Struggle cards."
    )
    yield from refill_court(table, say)
    prompt = f"Where does the Serpentess reference put Court card {space}?"
    while True:
        play = yield from ask(placement_question(table, prompt))
        if play is not None:
            break
        table.playing -= 1
        table.discard += 1

        def receive() -> None:
            table.playing += 1

        if not (yield from draw(table, say, receive)):
            return
        say("Option B: she discards that card and plays the top card of the Influence deck.")
        prompt = "Where does the Serpentess reference put the deck's top card?"
    yield from resolve_play(table, play, say)
