"""The printed cards of Council of Serpents the table can name, and the questions that read them.

- An Influence card prints where it is played (its type and its House or pair of Houses), the
  upper effect a first Conflict card has, what a War it starts is fought for, and the Time track
  action on its left edge. The table may name it where it is played or turned for a Time track.
- A Guild card, named where it is played, prints its upper and its lower effect.
- An Intrigue card, named when a War reveals it, prints its effect in a War.
- A House board prints the House's starting values and its preferred action.

The flow asks every one of these with the questions made here, which also check a card typed
into the catalogue or imported into it, so the bounds of a printed field live in one place. The
catalogue ships empty (engine/cards.py); the effects the source prints itself stay in rules.py.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.asks import Choice, Parsed, pick
from referee.engine.cards import CardKind
from referee.games.serpents import parse
from referee.games.serpents.houses import HOUSES
from referee.games.serpents.parse import PlayChoice
from referee.games.serpents.state import (
    PAIRS,
    Card,
    Changes,
    HouseChanges,
    IntrigueEffect,
    Play,
    TrackAction,
    pair_title,
)

CONFLICT_ATTRIBUTES = ("wealth", "popularity")
"""What a first Conflict card changes, and what a War is fought for."""


def play_options(at_war: Callable[[tuple[str, str]], bool]) -> list[tuple[str, Play]]:
    """Every card and place a play can take: the kind of card and the House or pair of Houses;
    `at_war` marks the pairs where a Conflict card is already (a second one starts a War)."""
    options = []
    for pair in PAIRS:
        war = " (War)" if at_war(pair) else ""
        options.append((f"conflict {pair_title(pair)}{war}", Play(Card.CONFLICT, pair)))
    options += [(f"intrigue at {house.capitalize()}", Play(Card.INTRIGUE, (house,))) for house in HOUSES]
    options += [(f"peace {pair_title(pair)}", Play(Card.PEACE, pair)) for pair in PAIRS]
    options += [(f"trade {pair_title(pair)}", Play(Card.TRADE, pair)) for pair in PAIRS]
    options += [(card.value, Play(card)) for card in (Card.GUILD, Card.CHANGE_OF_PLANS, Card.THRIVING_GUILDS)]
    return options


def play_question(prompt: str, section: str, at_war: Callable[[tuple[str, str]], bool]) -> PlayChoice[Play]:
    options = play_options(at_war)
    return PlayChoice(prompt, section, options=tuple(label for label, _ in options),
                      values=tuple(play for _, play in options))


def upper_effect_question(prompt: str, houses: tuple[str, ...], examples: tuple[str, ...]) -> Parsed[HouseChanges]:
    """A first Conflict card's upper effect, for the Houses it is played between."""
    first, *rest = houses
    return Parsed(
        prompt,
        "conflict-cards",
        parser=lambda text: parse.parse_house_changes(text, houses, CONFLICT_ATTRIBUTES),
        hint=f"each House and its Wealth or Popularity change, e.g. '{first} wealth -1 {rest[0]} wealth +1'",
        examples=examples,
        formatter=parse.format_house_changes,
    )


def war_question(prompt: str) -> Choice[str]:
    return pick(prompt, "conflict-cards", [(attribute, attribute) for attribute in CONFLICT_ATTRIBUTES])


def track_action_question(prompt: str, section: str) -> Parsed[TrackAction]:
    return Parsed(prompt, section, parser=parse.parse_track_action, hint=parse.TRACK_HINT,
                  examples=parse.TRACK_EXAMPLES, formatter=parse.format_track_action)


def changes_question(prompt: str, section: str, examples: tuple[str, ...] = parse.CHANGES_EXAMPLES) -> Parsed[Changes]:
    """One House's changes: a Guild effect or a preferred action."""
    return Parsed(prompt, section, parser=parse.parse_changes, hint=parse.CHANGES_HINT, examples=examples,
                  formatter=parse.format_changes)


def intrigue_effect_question(prompt: str) -> Parsed[IntrigueEffect]:
    return Parsed(prompt, "intrigue-cards", parser=parse.parse_intrigue_effect, hint=parse.INTRIGUE_EFFECT_HINT,
                  examples=parse.INTRIGUE_EFFECT_EXAMPLES, formatter=parse.format_intrigue_effect)


def start_question(prompt: str) -> Parsed[tuple[int, int, int]]:
    return Parsed(prompt, "setup", parser=parse.parse_start_values, hint=parse.START_HINT,
                  examples=parse.START_EXAMPLES, formatter=parse.format_start_values)


INFLUENCE_CARD = CardKind(
    "influence",
    "Influence card",
    (
        ("play", play_question("Where is the card played?", "play-influence", lambda pair: False)),
        ("upper", upper_effect_question("A first Conflict card's upper effect?", HOUSES,
                                        ("clay wealth -1 jane wealth +1", "jane popularity -1 rowel popularity -1"))),
        ("war", war_question("A War it starts is fought for?")),
        ("time track", track_action_question("Its Time track action?", "forming-a-time-track")),
    ),
)
GUILD_CARD = CardKind(
    "guild",
    "Guild card",
    (
        ("upper", changes_question("Its upper effect?", "guild-cards", parse.GUILD_UPPER_EXAMPLES)),
        ("lower", changes_question("Its lower effect?", "guild-cards", parse.GUILD_LOWER_EXAMPLES)),
    ),
)
INTRIGUE_CARD = CardKind("intrigue", "Intrigue card", (("effect", intrigue_effect_question("Its War effect?")),))
HOUSE_BOARD = CardKind(
    "house",
    "House board",
    (
        ("start", start_question("Its starting Wealth Popularity Strength?")),
        ("preferred", changes_question("Its preferred action?", "forming-a-time-track")),
    ),
)
KINDS = (INFLUENCE_CARD, GUILD_CARD, INTRIGUE_CARD, HOUSE_BOARD)


def board_name(house: str) -> str:
    """A House board's printed name: 'Clay'."""
    return house.capitalize()
