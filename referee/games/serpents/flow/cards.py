"""2. Play an Influence Card: Conflict, Intrigue, Agreement, Guild and Planning cards, each where it
is played. Each returns what was resolved, for the end check that follows every card."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Choice, Parsed, Question, ask, pick
from referee.engine.cards import Card as PrintedCard
from referee.engine.cards import card_field, card_question, remember
from referee.engine.game import Say
from referee.games.serpents import cards, parse, rules
from referee.games.serpents.cards import GUILD_CARD
from referee.games.serpents.flow.deck import refill_court
from referee.games.serpents.flow.time_track import describe, form_time_track, leave_track, track_action
from referee.games.serpents.flow.war import apply, resolve_war
from referee.games.serpents.houses import HOUSES
from referee.games.serpents.rulings import CHANGE_OF_PLANS_LAST_CARD, PEACE_CHOICE
from referee.games.serpents.state import (
    TRADE_AGREEMENT_WEALTH,
    Changes,
    GuildEffect,
    HouseChanges,
    PeaceChoice,
    Play,
    Table,
    TrackAction,
    TrackCard,
    pair_key,
    pair_title,
)

Resolved = Generator[Question, Any, str]
"""A card's resolution; it returns what was resolved ('the Trade Agreement')."""
Changed = Generator[Question, Any, Changes]


def pair_of(play: Play) -> tuple[str, str]:
    first, second = play.houses
    return first, second


# --- Conflict cards ------------------------------------------------------------------------------


def upper_effect_question(pair: tuple[str, str]) -> Parsed[HouseChanges]:
    first, second = pair
    houses = " and ".join(f"House {house.capitalize()}" for house in pair)
    return cards.upper_effect_question(
        f"A Conflict begins between {houses}: its upper effect?",
        pair,
        (f"{first} wealth -1 {second} wealth +1", "both popularity -1", f"{second} popularity +2"),
    )


def play_conflict(table: Table, play: Play, printed: PrintedCard, say: Say) -> Resolved:
    """A Conflict card: its upper effect, or the War a second card starts, read from the card
    where the table named it and remembered once asked."""
    pair = pair_of(play)
    key = pair_key(pair)
    table.playing -= 1
    table.conflicts[key] += 1
    table.phase = "conflict"
    if table.conflicts[key] == 1:
        changes = yield from card_field(printed, "upper", upper_effect_question(pair))
        yield from remember(printed)
        apply(table, changes, say)
        return "the Conflict card"
    table.phase = "war"
    houses = " and ".join(f"House {house.capitalize()}" for house in pair)
    prize = yield from card_field(printed, "war", cards.war_question(
        f"The Conflict between {houses} becomes a War. Fought for?"))
    yield from remember(printed)
    yield from resolve_war(table, pair, prize, say)
    return "the War"


# --- Intrigue cards ------------------------------------------------------------------------------


def play_intrigue(table: Table, play: Play, say: Say) -> Resolved:
    (house,) = play.houses
    table.playing -= 1
    table.intrigue[house] += 1
    say(f"An Intrigue card lies face down at House {house.capitalize()} until a War or a Peace reveals it.")
    return "the Intrigue card"
    yield  # a generator like the other plays


# --- Agreement cards -----------------------------------------------------------------------------


def peace_options(table: Table, pair: tuple[str, str]) -> list[PeaceChoice]:
    """The choices that remove a card (both, under ruling peace-choice overridden to always-ask)."""
    always = PEACE_CHOICE.of(table.rulings) == "always-ask"
    options = []
    if table.conflicts[pair_key(pair)] or always:
        options.append(PeaceChoice.CONFLICT)
    if table.intrigue[pair[0]] + table.intrigue[pair[1]] or always:
        options.append(PeaceChoice.INTRIGUE)
    return options


def peace_question(table: Table, pair: tuple[str, str]) -> Builder[PeaceChoice]:
    """A builder: a correction may discard the Intrigue cards while this is asked."""

    def build() -> Choice[PeaceChoice]:
        options = peace_options(table, pair) or list(PeaceChoice)
        return pick("Peace Agreement: which?", "agreement-cards", [(option.value, option) for option in options])

    return build


def play_peace(table: Table, play: Play, say: Say) -> Resolved:
    pair = pair_of(play)
    key = pair_key(pair)
    table.playing -= 1
    table.discard += 1
    options = peace_options(table, pair)
    if not options:
        say("Peace Agreement: no Conflict or Intrigue card there, so it has no effect.")
        return "the Peace Agreement"
    if len(options) == 1:
        chosen = options[0]
        say(f"Peace Agreement: only one choice removes anything, so {chosen.value} (ruling peace-choice).")
    else:
        chosen = yield from ask(peace_question(table, pair))
    if chosen is PeaceChoice.CONFLICT:
        if table.conflicts[key]:
            table.conflicts[key] -= 1
            table.discard += 1
            say(f"The Conflict between {pair_title(pair)} is discarded.")
        else:
            say("There is no Conflict card there: no effect.")
        return "the Peace Agreement"
    removed = table.intrigue[pair[0]] + table.intrigue[pair[1]]
    table.intrigue[pair[0]] = table.intrigue[pair[1]] = 0
    table.discard += removed
    say(
        f"Reveal and discard the {removed} Intrigue card(s) at House {pair[0].capitalize()} "
        f"and House {pair[1].capitalize()}."
    )
    return "the Peace Agreement"


def play_trade(table: Table, play: Play, say: Say) -> Resolved:
    pair = pair_of(play)
    key = pair_key(pair)
    table.playing -= 1
    table.discard += 1
    if table.conflicts[key]:
        table.conflicts[key] -= 1
        table.discard += 1
        say(f"Trade Agreement: the Conflict between {pair_title(pair)} is discarded.")
    apply(table, {house: {"wealth": TRADE_AGREEMENT_WEALTH} for house in pair}, say)
    return "the Trade Agreement"
    yield  # a generator like the other plays


# --- Guild cards ---------------------------------------------------------------------------------


def guild_play_question(table: Table) -> Parsed[tuple[str, str]]:
    known = [*table.guild_effects, *rules.EXAMPLE_GUILDS]

    def read(text: str) -> tuple[str, str]:
        name, house = parse.parse_guild_play(text, known)
        if table.guilds.get(name) == house:
            raise parse.CardTextError(f"{name} already supports House {house.capitalize()}: play it at another House")
        return name, house

    examples = tuple(
        f"{name} at {house.capitalize()}"
        for name in rules.EXAMPLE_GUILDS
        for house in HOUSES
        if table.guilds.get(name) != house
    )
    return Parsed(
        "Guild: its name as printed, and the House it is played at?",
        "guild-cards",
        parser=read,
        hint=parse.GUILD_PLAY_HINT,
        examples=examples,
    )


def guild_effect(table: Table, name: str, which: str, prompt: str, examples: tuple[str, ...]) -> Changed:
    """A Guild's upper or lower effect, read off its card the first time this game needs it: a
    Guild the catalogue knows is accepted with Enter, and what is read is remembered."""
    question = cards.changes_question(prompt, "guild-cards", examples)
    card = yield from ask(lambda: card_question(GUILD_CARD, which, question, name=name))
    changes = yield from card_field(card, which, question)
    effect = table.guild_effects.setdefault(name, GuildEffect(changes))
    if "lower" in card.printed and effect.lower is None:
        effect.lower = yield from card_field(card, "lower", cards.changes_question(prompt, "guild-cards"))
    yield from remember(card)
    return changes


def play_guild(table: Table, play: Play, say: Say) -> Resolved:
    table.phase = "guild"
    name, house = yield from ask(guild_play_question(table))
    effect = table.guild_effects.get(name)
    if effect is None:
        yield from guild_effect(table, name, "upper", f"{name}: its upper effect as printed (what the House gains "
                                "and pays)?", parse.GUILD_UPPER_EXAMPLES)
        effect = table.guild_effects[name]
    old_house = table.guilds.get(name)
    if old_house is not None and effect.lower is None:
        effect.lower = yield from guild_effect(table, name, "lower", f"{name}: its lower effect as printed (what a "
                                               "House suffers on losing it)?", parse.GUILD_LOWER_EXAMPLES)
    if old_house is not None and effect.lower is not None:
        del table.guilds[name]
        table.discard += 1
        say(
            f"{name} leaves House {old_house.capitalize()}: its card is discarded "
            f"({rules.describe_changes(effect.lower)})."
        )
        apply(table, {old_house: dict(effect.lower)}, say)
    table.playing -= 1
    table.guilds[name] = house
    say(f"{name} supports House {house.capitalize()} ({rules.describe_changes(effect.upper)}).")
    apply(table, {house: dict(effect.upper)}, say)
    return "the Guild card"


# --- Planning cards ------------------------------------------------------------------------------


def play_change_of_plans(table: Table, play: Play, say: Say) -> Resolved:
    """Discard a Time track card, put a Court card last on the track, refill The Court. When the
    card discarded is the track's last, ruling change-of-plans-last-card says which track the Court
    card joins: the one being resolved (it then holds it alone), or a new one formed at once."""
    table.phase = "planning"
    table.playing -= 1
    table.discard += 1
    index = 0
    if len(table.track) > 1:
        index = yield from ask(
            pick(
                "Change of Plans: which Time track card is discarded?",
                "planning-cards",
                [
                    (f"{number}. {describe(table, card.action)}", number - 1)
                    for number, card in enumerate(table.track, 1)
                ],
            )
        )
    last_card = len(table.track) == 1
    form_first = last_card and CHANGE_OF_PLANS_LAST_CARD.of(table.rulings) == "form-at-once"
    action: TrackAction | None = None
    if table.court and not form_first:
        action = yield from court_card_action()
    removed = table.track.pop(index)
    say(f"Change of Plans: '{describe(table, removed.action)}' leaves the Time track.")
    leave_track(table, removed, say)
    if form_first:
        say(
            "Change of Plans took the Time track's last card: the new Time track is formed at once, and the "
            "Court card goes last on it (ruling change-of-plans-last-card, overridden)."
        )
        yield from form_time_track(table, say)
        if table.court:
            action = yield from court_card_action()
    if action is not None:
        table.court -= 1
        table.track.append(TrackCard(action))
        alone = (
            ", which it now holds alone (ruling change-of-plans-last-card)"
            if last_card and len(table.track) == 1
            else ""
        )
        say(f"'{rules.describe_action(action)}' joins the end of the Time track{alone}; refill The Court.")
        yield from refill_court(table, say)
    if not table.track:
        yield from form_time_track(table, say)
    return "the Change of Plans"


def court_card_action() -> Generator[Question, Any, TrackAction]:
    return (yield from track_action(
        "Change of Plans: which Court card goes to the end of the Time track? Its Time track action?",
        "planning-cards",
    ))


def play_thriving_guilds(table: Table, play: Play, say: Say) -> Resolved:
    table.playing -= 1
    table.track.append(TrackCard(TrackAction("guilds")))
    say("Thriving Guilds goes to the end of the Time track: when resolved, every Guild in play acts at once.")
    return "the Thriving Guilds card"
    yield  # a generator like the other plays
