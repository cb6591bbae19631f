"""3. Time Elapses and Forming a Time track: the top card resolved at the end of every turn, and a
new Time track formed together when the last one is gone, after which the Houses missing from it
take their preferred actions."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Parsed, Question, ask
from referee.engine.cards import ask_card, card_field, card_question, remember
from referee.engine.game import Say, Steps
from referee.games.serpents import rules
from referee.games.serpents.cards import (
    HOUSE_BOARD,
    INFLUENCE_CARD,
    board_name,
    changes_question,
    track_action_question,
)
from referee.games.serpents.flow.deck import draw, refill_court
from referee.games.serpents.flow.end import stop_if_over
from referee.games.serpents.rulings import MISSING_HOUSES, STARTING_CARDS, STRUGGLE_ATTRIBUTE, TIME_TRACK_ORDER
from referee.games.serpents.state import COURT_CARDS_TO_TRACK, Changes, Player, Table, TrackAction, TrackCard


def describe(table: Table, action: TrackAction) -> str:
    return rules.describe_action(action, STRUGGLE_ATTRIBUTE.of(table.rulings))


def order_note(table: Table) -> str:
    if TIME_TRACK_ORDER.of(table.rulings) == "first-placed-last":
        return "The top card is resolved first, so the first card placed is resolved last (ruling time-track-order)."
    return "The first card placed is resolved first (ruling time-track-order, overridden)."


def place_on_new_track(table: Table, card: TrackCard) -> None:
    """Cards are laid from the bottom up and the top one is resolved first (ruling time-track-order)."""
    if TIME_TRACK_ORDER.of(table.rulings) == "first-placed-last":
        table.track.insert(0, card)
    else:
        table.track.append(card)


def track_action(prompt: str, section: str) -> Generator[Question, Any, TrackAction]:
    """An Influence card's Time track action as it is turned; the table may name the card."""
    question = track_action_question(prompt, section)
    card = yield from ask_card(INFLUENCE_CARD, "time track", question)
    action = yield from card_field(card, "time track", question)
    yield from remember(card)
    return action


def leave_track(table: Table, card: TrackCard, say: Say) -> None:
    """A Time track card resolved or removed: Influence cards go to the discard pile."""
    if card.origin == "influence":
        table.discard += 1
    elif card.origin == "starting":
        if STARTING_CARDS.of(table.rulings) == "discard-pile":
            table.discard += 1
            table.extra_cards += 1
            say("The Starting Time track card joins the Influence discard pile (ruling starting-cards, overridden).")
        else:
            say("The Starting Time track card is set aside; it is not an Influence card (ruling starting-cards).")
    else:
        say(f"The {card.origin.capitalize()} card leaves the game.")


def time_elapses(table: Table, say: Say) -> Steps:
    table.phase = "time"
    if not table.track:
        yield from form_time_track(table, say)
    card = table.track.pop(0)
    changes = rules.track_changes(
        card.action, table.houses, table.guilds, table.guild_effects, STRUGGLE_ATTRIBUTE.of(table.rulings)
    )
    say(f"Time elapses: {describe(table, card.action)}.")
    if card.action.kind == "struggle":
        changed = STRUGGLE_ATTRIBUTE.of(table.rulings).capitalize()
        say(f"The Struggle card changes {changed} (ruling struggle-attribute).")
    moved = rules.apply_changes(table.houses, changes)
    for line in moved:
        say(line + ".")
    if not moved and card.action.kind != "nothing":
        say("Nothing changes.")
    leave_track(table, card, say)
    stop_if_over(table, say, "the Time track card")
    if not table.track:
        yield from form_time_track(table, say)


def form_time_track(table: Table, say: Say) -> Steps:
    table.phase = "new time track"
    say("The Time track is empty: form a new one. Each player draws a card, then adds one face down.")
    for player in table.turn_order():

        def receive(player: Player = player) -> None:
            player.hand += 1

        yield from draw(table, say, receive)
        if player.hand:
            player.hand -= 1
            table.pile += 1

    def to_pile() -> None:
        table.pile += 1

    if table.solo:
        say("The Serpentess adds the top card of the Influence deck.")
        yield from draw(table, say, to_pile)
    from_court = min(COURT_CARDS_TO_TRACK, table.court)
    table.court -= from_court
    table.pile += from_court
    yield from draw(table, say, to_pile)
    yield from refill_court(table, say)
    total = table.pile
    say(f"Add Court cards 1 and 2 and the deck's top card: shuffle the {total} cards and turn them one by one.")
    say(order_note(table))
    placed: list[TrackCard] = []
    for number in range(1, total + 1):
        prompt = f"New Time track, card {number} of {total}: its Time track action?"
        action = yield from track_action(prompt, "forming-a-time-track")
        table.pile -= 1
        card = TrackCard(action)
        if rules.keeps_place_on_new_track(placed, card):
            placed.append(card)
            place_on_new_track(table, card)
        else:
            table.discard += 1
            say(f"House {str(action.house).capitalize()} is already on the new Time track: discard this card.")
    yield from missing_houses_act(table, say)
    table.phase = "time"


def preferred_action_question(house: str) -> Parsed[Changes]:
    return changes_question(
        f"House {house.capitalize()} is not on the new Time track: its preferred action, as printed on its board?",
        "forming-a-time-track",
    )


def preferred_action(table: Table, house: str) -> Generator[Question, Any, Changes]:
    """A House's preferred action, read off its board the first time it is needed (a board the
    catalogue knows is accepted with Enter)."""
    changes = table.preferred_actions.get(house)
    if changes is None:
        question = preferred_action_question(house)
        board = yield from ask(lambda: card_question(HOUSE_BOARD, "preferred", question, name=board_name(house)))
        changes = yield from card_field(board, "preferred", question)
        yield from remember(board)
        table.preferred_actions[house] = changes
    return changes


def take_preferred_action(table: Table, house: str, changes: Changes, say: Say) -> None:
    say(
        f"House {house.capitalize()} is not on the Time track and takes its preferred action "
        f"({rules.describe_changes(changes)})."
    )
    for line in rules.apply_changes(table.houses, {house: dict(changes)}):
        say(line + ".")


def missing_houses_act(table: Table, say: Say) -> Steps:
    """Step IV: every House missing from the new Time track acts, and then the end is checked
    (ruling missing-houses; overridden, each House's action is checked before the next one acts)."""
    missing = rules.absent_houses(table.track)
    if MISSING_HOUSES.of(table.rulings) == "one-by-one":
        if len(missing) > 1:
            say("The missing Houses act one by one, each checked for the end (ruling missing-houses, overridden).")
        for house in missing:
            changes = yield from preferred_action(table, house)
            take_preferred_action(table, house, changes, say)
            stop_if_over(table, say, f"House {house.capitalize()}'s preferred action")
        return
    actions: dict[str, Changes] = {}
    for house in missing:  # every question first: no House acts until all have been read
        actions[house] = yield from preferred_action(table, house)
    if len(missing) > 1:
        say("Every missing House acts before the end is checked (ruling missing-houses).")
    for house, changes in actions.items():
        take_preferred_action(table, house, changes, say)
    if missing:
        names = " and ".join(f"House {house.capitalize()}" for house in missing)
        after = f"the preferred actions of {names}" if len(missing) > 1 else f"{names}'s preferred action"
        stop_if_over(table, say, after)
