"""The Council of Serpents session, from setup to the reveal of the Ambitions, as the table plays it.

Each function yields the questions for one part of the rulebook's turn and applies the answers to
the Table. The referee asks only what it cannot see or work out: what a card shows and where it was
played. Attribute changes, Wars, the Time track, the deck and the end of the game it works out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Sequence
from functools import partial
from typing import Any

from referee.asks import Ask, Choice, Confirm, Parsed, Question
from referee.engine.game import Flow, Say
from referee.engine.game import GameOver as EngineGameOver
from referee.games.serpents import rules
from referee.games.serpents.ambitions import AMBITIONS, ambition_title, house_ambitions_held
from referee.games.serpents.houses import ATTRIBUTES, HOUSES, House
from referee.games.serpents.rulings import Rulings
from referee.games.serpents.scoring import Holdings, PlayerAmbitions, score
from referee.games.serpents.state import (
    COURT_CARDS_TO_TRACK,
    DIFFICULTIES,
    INTRIGUE_CARDS,
    PAIRS,
    SOLO_NAME,
    STARTING_HAND,
    STARTING_TRACK_CARDS,
    TRADE_AGREEMENT_WEALTH,
    GuildEffect,
    Player,
    Table,
    TrackAction,
    TrackCard,
    pair_key,
    pair_title,
)
from referee.outcome import ScoreReport

Steps = Generator[Question, Any, None]
NOBODY = "nobody"
OPTION_B = "option B: discard it, play the deck's top card"
GUILD = "guild"
CONFLICT_ATTRIBUTES = ("wealth", "popularity")
"""What a first Conflict card changes, and what a War is fought for."""
CHANGE_OF_PLANS = "change of plans"
THRIVING_GUILDS = "thriving guilds"

START_EXAMPLES = ("5 5 4", "3 6 9", "7 4 5", "6 6 6", "4 8 3", "9 2 7", "2 10 5", "5 3 9")
TRACK_EXAMPLES = (
    "clay wealth -1 strength +2",
    "jane popularity -1 wealth +2",
    "rowel strength -1 popularity +2",
    "clay popularity +1",
    "nothing",
    "most popularity -1",
    "least popularity +1",
)
TRACK_HINT = (
    "a House and its changes ('jane popularity -1 wealth +2'), 'nothing', 'most popularity -1' or "
    "'least popularity +1' (the House(s) with the most or least Popularity), or 'guilds'"
)
CHANGES_EXAMPLES = ("wealth -1 strength +2", "popularity -1 wealth +2", "strength -1 popularity +2")
CHANGES_HINT = "attributes and signed amounts, e.g. 'wealth -1 strength +2' (w, p, s for short)"
GUILD_UPPER_EXAMPLES = ("strength +2 wealth -1", "wealth +2 popularity -1", "popularity +2 strength -1")
GUILD_LOWER_EXAMPLES = ("strength -2", "wealth -1", "popularity -2")
INTRIGUE_EFFECT_EXAMPLES = (
    "own wealth -1 other strength -2",
    "other strength -1",
    "own strength +2",
    "own keeps strength",
    "none",
)
INTRIGUE_EFFECT_HINT = (
    "'own <changes>' for the card's House and 'other <changes>' for the opposing House, "
    "'own keeps strength' if it skips the halving, or 'none'"
)


class GameOver(EngineGameOver):
    """Raised inside the flow the moment the game ends; the flow then goes to the reveal."""


def flow(table: Table, say: Say) -> Flow:
    try:
        yield from set_up(table, say)
        while True:
            if table.solo:
                yield from serpentess_turn(table, say)
            for player in table.turn_order():
                yield from player_turn(table, player, say)
    except EngineGameOver:  # the flow's own GameOver, or the driver's after a correction ended the game
        if table.ended_by is None:
            with contextlib.suppress(GameOver):
                check_end(table, say, after="the correction")
    return (yield from final_count(table, say))


def ask(table: Table, say: Say, question: Ask[Any]) -> Generator[Question, Any, Any]:
    """Ask during play. A correction that puts a marker on a symbol ends the game at once (the driver
    throws GameOver in, see Game.ended_by_correction); the check after the answer is a safety net."""
    value = yield question
    check_end(table, say, after="the correction")
    return value


def check_end(table: Table, say: Say, after: str) -> None:
    """Triumph and Collapse are checked after each card is resolved and after a War's step I."""
    ended = table.ended_houses()
    if not ended:
        return
    table.ended_by = "house"
    for house in ended:
        values = table.houses[house]
        fates = []
        if any(value > 12 for value in values.values()):
            fates.append("Triumphs")
        if any(value < 1 for value in values.values()):
            fates.append("Collapses")
        say(f"After {after}, House {house.capitalize()} {' and '.join(fates)}: the game ends at once.")
    raise GameOver


def say_lines(say: Say, lines: Sequence[str], nothing: str = "") -> None:
    for line in lines:
        say(line + ".")
    if not lines and nothing:
        say(nothing)


# --- setup ---------------------------------------------------------------------------------------


def set_up(table: Table, say: Say) -> Steps:
    table.phase = "setup"
    if table.solo:
        level = yield Choice("Solo: which difficulty?", "solo-setup", options=tuple(DIFFICULTIES))
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
    else:
        if len(table.players) == 3:
            table.keeper_variant = yield Confirm(
                "Play the Keeper of Balance variant (shuffled in with the Ambition cards)?", "keeper-of-balance"
            )
            table.keeper_possible = table.keeper_variant
        names = tuple(player.name for player in table.players)
        first = yield Choice("Who starts (most recent visit to a castle)?", "setup", options=names)
        table.first = names.index(first)
    for house in HOUSES:
        values = yield Parsed(
            f"House {house.capitalize()}: starting Wealth Popularity Strength, as marked on its board",
            "setup",
            parser=rules.parse_start_values,
            hint="three numbers from 1 to 12 in the order Wealth Popularity Strength, e.g. '5 5 4'",
            examples=START_EXAMPLES,
        )
        table.houses[house] = dict(zip(ATTRIBUTES, values, strict=True))
    say(f"Shuffle the {STARTING_TRACK_CARDS} Starting Time track cards and place them from the bottom up.")
    for number in range(1, STARTING_TRACK_CARDS + 1):
        action = yield Parsed(
            f"Starting Time track card {number} of {STARTING_TRACK_CARDS} ({placement_words(table, number)}): "
            "its action?",
            "setup",
            parser=rules.parse_track_action,
            hint=TRACK_HINT,
            examples=TRACK_EXAMPLES,
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


def placement_words(table: Table, number: int) -> str:
    if number == 1:
        return "placed first, at the bottom"
    return f"placed next, above card {number - 1}"


def order_note(table: Table) -> str:
    if table.rulings["time-track-order"] == "first-placed-last":
        return "The top card is resolved first, so the first card placed is resolved last (ruling time-track-order)."
    return "The first card placed is resolved first (ruling time-track-order, overridden)."


def place_on_new_track(table: Table, card: TrackCard) -> None:
    """Cards are laid from the bottom up and the top one is resolved first (ruling time-track-order)."""
    if table.rulings["time-track-order"] == "first-placed-last":
        table.track.insert(0, card)
    else:
        table.track.append(card)


# --- the Influence deck --------------------------------------------------------------------------


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
        raise GameOver
    if table.keeper_possible:
        names = tuple(player.name for player in table.players)
        who = yield Choice(
            "The Influence deck is empty. Who reveals the Keeper of Balance?",
            "keeper-of-balance",
            options=(NOBODY, *names),
        )
        if who != NOBODY:
            table.keeper, table.ended_by = who, "deck"
            say(f"{who} reveals the Keeper of Balance: the Influence deck ran out, so {who} wins at once.")
            raise GameOver
        table.keeper_possible = False
        say("Nobody reveals the Keeper of Balance: it was the Ambition card left undealt.")
    reshuffle(table, say)


def reshuffle(table: Table, say: Say) -> None:
    if table.discard:
        table.deck, table.discard = table.discard, 0
        say(f"The Influence deck is empty: shuffle the discard pile ({table.deck} cards) into a new deck.")


def refill_court(table: Table, say: Say) -> Steps:
    def receive() -> None:
        table.court += 1

    yield from draw(table, say, receive)


def leave_track(table: Table, card: TrackCard, say: Say) -> None:
    """A Time track card resolved or removed: Influence cards go to the discard pile."""
    if card.origin == "influence":
        table.discard += 1
    elif card.origin == "starting":
        if table.rulings["starting-cards"] == "discard-pile":
            table.discard += 1
            table.extra_cards += 1
            say("The Starting Time track card joins the Influence discard pile (ruling starting-cards, overridden).")
        else:
            say("The Starting Time track card is set aside; it is not an Influence card (ruling starting-cards).")
    else:
        say(f"The {card.origin.capitalize()} card leaves the game.")


# --- a player's turn -----------------------------------------------------------------------------


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
        choice = yield from ask(
            table,
            say,
            Choice(
                f"{player.name} plays which Influence card, and where?", "play-influence", options=play_options(table)
            ),
        )
        player.hand -= 1
        table.playing += 1
        yield from resolve_play(table, choice, say)
    else:
        say(f"{player.name} has no Influence card to play.")
    yield from time_elapses(table, say)


def play_options(table: Table) -> tuple[str, ...]:
    """Every card and place a play can take: the kind of card and the House or pair of Houses."""
    options = []
    for pair in PAIRS:
        war = " (War)" if table.conflicts[pair_key(pair)] else ""
        options.append(f"conflict {pair_title(pair)}{war}")
    options += [f"intrigue at {house.capitalize()}" for house in HOUSES]
    options += [f"peace {pair_title(pair)}" for pair in PAIRS]
    options += [f"trade {pair_title(pair)}" for pair in PAIRS]
    return (*options, GUILD, CHANGE_OF_PLANS, THRIVING_GUILDS)


def read_play(choice: str) -> tuple[str, tuple[str, ...]]:
    """'conflict Clay-Jane (War)' -> ('conflict', ('clay', 'jane')); 'intrigue at Rowel' -> ('intrigue', ('rowel',))."""
    words = choice.lower().replace(" (war)", "").split()
    if choice in (GUILD, CHANGE_OF_PLANS, THRIVING_GUILDS):
        return choice, ()
    place = words[-1].split("-")
    return words[0], tuple(place)


def resolve_play(table: Table, choice: str, say: Say) -> Steps:
    kind, place = read_play(choice)
    if kind == "conflict":
        yield from play_conflict(table, (place[0], place[1]), say)
    elif kind == "intrigue":
        table.playing -= 1
        table.intrigue[place[0]] += 1
        say(f"An Intrigue card lies face down at House {place[0].capitalize()} until a War or a Peace reveals it.")
    elif kind == "peace":
        yield from play_peace(table, (place[0], place[1]), say)
    elif kind == "trade":
        play_trade(table, (place[0], place[1]), say)
    elif kind == GUILD:
        yield from play_guild(table, say)
    elif kind == CHANGE_OF_PLANS:
        yield from play_change_of_plans(table, say)
    else:
        table.playing -= 1
        table.track.append(TrackCard(TrackAction("guilds")))
        say("Thriving Guilds goes to the end of the Time track: when resolved, every Guild in play acts at once.")


def play_conflict(table: Table, pair: tuple[str, str], say: Say) -> Steps:
    key = pair_key(pair)
    houses = " and ".join(f"House {house.capitalize()}" for house in pair)
    table.playing -= 1
    table.conflicts[key] += 1
    table.phase = "conflict"
    if table.conflicts[key] == 1:
        first, second = pair
        changes = yield from ask(
            table,
            say,
            Parsed(
                f"A Conflict begins between {houses}: its upper effect?",
                "conflict-cards",
                parser=lambda text: rules.parse_house_changes(text, pair, CONFLICT_ATTRIBUTES),
                hint=f"each House and its Wealth or Popularity change, e.g. '{first} wealth -1 {second} wealth +1'",
                examples=(f"{first} wealth -1 {second} wealth +1", "both popularity -1", f"{second} popularity +2"),
            ),
        )
        say_lines(say, rules.apply_changes(table.houses, changes))
        check_end(table, say, "the Conflict card")
        return
    table.phase = "war"
    prize = yield from ask(
        table,
        say,
        Choice(
            f"The Conflict between {houses} becomes a War. Fought for?",
            "conflict-cards",
            options=CONFLICT_ATTRIBUTES,
        ),
    )
    yield from resolve_war(table, pair, prize, say)


def play_peace(table: Table, pair: tuple[str, str], say: Say) -> Steps:
    key = pair_key(pair)
    table.playing -= 1
    table.discard += 1
    choices = []
    if table.conflicts[key] or table.rulings["peace-choice"] == "always-ask":
        choices.append("discard the Conflict card")
    if table.intrigue[pair[0]] + table.intrigue[pair[1]] or table.rulings["peace-choice"] == "always-ask":
        choices.append("discard the Intrigue cards")
    if not choices:
        say("Peace Agreement: no Conflict or Intrigue card there, so it has no effect.")
        return
    if len(choices) == 1:
        choice = choices[0]
        say(
            f"Peace Agreement: only one choice removes anything, so {choice[0].lower() + choice[1:]} "
            "(ruling peace-choice)."
        )
    else:
        choice = yield from ask(
            table, say, Choice("Peace Agreement: which?", "agreement-cards", options=tuple(choices))
        )
    if choice == "discard the Conflict card":
        if table.conflicts[key]:
            table.conflicts[key] -= 1
            table.discard += 1
            say(f"The Conflict between {pair_title(pair)} is discarded.")
        else:
            say("There is no Conflict card there: no effect.")
        return
    removed = table.intrigue[pair[0]] + table.intrigue[pair[1]]
    table.intrigue[pair[0]] = table.intrigue[pair[1]] = 0
    table.discard += removed
    say(
        f"Reveal and discard the {removed} Intrigue card(s) at House {pair[0].capitalize()} "
        f"and House {pair[1].capitalize()}."
    )


def play_trade(table: Table, pair: tuple[str, str], say: Say) -> None:
    key = pair_key(pair)
    table.playing -= 1
    table.discard += 1
    if table.conflicts[key]:
        table.conflicts[key] -= 1
        table.discard += 1
        say(f"Trade Agreement: the Conflict between {pair_title(pair)} is discarded.")
    changes = {house: {"wealth": TRADE_AGREEMENT_WEALTH} for house in pair}
    say_lines(say, rules.apply_changes(table.houses, changes))
    check_end(table, say, "the Trade Agreement")


def play_guild(table: Table, say: Say) -> Steps:
    table.phase = "guild"

    def read_guild_play(text: str) -> tuple[str, str]:
        words = text.split()
        house = rules.match_word(words[-1].lower(), HOUSES) if len(words) > 1 else None
        if house is None:
            raise rules.CardTextError("name the Guild and then the House, e.g. 'Savage Clans at Jane'")
        name_words = words[:-2] if words[-2].lower() == "at" else words[:-1]
        name = rules.parse_guild_name(" ".join(name_words), [*table.guild_effects, *rules.EXAMPLE_GUILDS])
        if table.guilds.get(name) == house:
            raise rules.CardTextError(f"{name} already supports House {house.capitalize()}: play it at another House")
        return name, house

    examples = tuple(
        f"{name} at {house.capitalize()}"
        for name in rules.EXAMPLE_GUILDS
        for house in HOUSES
        if table.guilds.get(name) != house
    )
    name, house = yield from ask(
        table,
        say,
        Parsed(
            "Guild: its name as printed, and the House it is played at?",
            "guild-cards",
            parser=read_guild_play,
            hint="'<Guild name> at <House>', e.g. 'Savage Clans at Jane'; a Guild in play goes to another House",
            examples=examples,
        ),
    )
    effect = table.guild_effects.get(name)
    if effect is None:
        upper = yield from ask(
            table,
            say,
            Parsed(
                f"{name}: its upper effect as printed (what the House gains and pays)?",
                "guild-cards",
                parser=rules.parse_changes,
                hint=CHANGES_HINT,
                examples=GUILD_UPPER_EXAMPLES,
            ),
        )
        effect = table.guild_effects[name] = GuildEffect(upper)
    old_house = table.guilds.get(name)
    if old_house is not None and effect.lower is None:
        effect.lower = yield from ask(
            table,
            say,
            Parsed(
                f"{name}: its lower effect as printed (what a House suffers on losing it)?",
                "guild-cards",
                parser=rules.parse_changes,
                hint=CHANGES_HINT,
                examples=GUILD_LOWER_EXAMPLES,
            ),
        )
    if old_house is not None and effect.lower is not None:
        del table.guilds[name]
        table.discard += 1
        say(
            f"{name} leaves House {old_house.capitalize()}: its card is discarded "
            f"({rules.describe_changes(effect.lower)})."
        )
        say_lines(say, rules.apply_changes(table.houses, {old_house: dict(effect.lower)}))
    table.playing -= 1
    table.guilds[name] = house
    say(f"{name} supports House {house.capitalize()} ({rules.describe_changes(effect.upper)}).")
    say_lines(say, rules.apply_changes(table.houses, {house: dict(effect.upper)}))
    check_end(table, say, "the Guild card")


def play_change_of_plans(table: Table, say: Say) -> Steps:
    table.phase = "planning"
    table.playing -= 1
    table.discard += 1
    if len(table.track) > 1:
        labels = track_labels(table)
        chosen = yield from ask(
            table, say, Choice("Change of Plans: which Time track card is discarded?", "planning-cards", options=labels)
        )
        index = labels.index(chosen)
    else:
        index = 0
    action: TrackAction | None = None
    if table.court:
        action = yield from ask(
            table,
            say,
            Parsed(
                "Change of Plans: which Court card goes to the end of the Time track? Its Time track action?",
                "planning-cards",
                parser=rules.parse_track_action,
                hint=TRACK_HINT,
                examples=TRACK_EXAMPLES,
            ),
        )
    removed = table.track.pop(index)
    say(f"Change of Plans: '{describe(table, removed.action)}' leaves the Time track.")
    leave_track(table, removed, say)
    if action is not None:
        table.court -= 1
        table.track.append(TrackCard(action))
        say(f"'{rules.describe_action(action)}' joins the end of the Time track; refill The Court.")
        yield from refill_court(table, say)
    if not table.track:
        yield from form_time_track(table, say)


def track_labels(table: Table) -> tuple[str, ...]:
    return tuple(f"{number}. {describe(table, card.action)}" for number, card in enumerate(table.track, 1))


def describe(table: Table, action: TrackAction) -> str:
    return rules.describe_action(action, table.rulings["struggle-attribute"])


# --- War -----------------------------------------------------------------------------------------


def intrigue_examples(count: int) -> tuple[str, ...]:
    names = list(INTRIGUE_CARDS)
    same = tuple(", ".join([name] * count) for name in names)
    mixed = tuple(
        ", ".join(names[(start + index) % len(names)] for index in range(count)) for start in range(len(names))
    )
    return same + mixed


def resolve_war(table: Table, pair: tuple[str, str], prize: str, say: Say) -> Steps:
    table.phase = "war"
    first, second = pair
    opponent = {first: second, second: first}
    say(f"War between House {first.capitalize()} and House {second.capitalize()} for {prize.capitalize()}.")
    revealed: list[tuple[str, str]] = []
    for house in pair:
        count = table.intrigue[house]
        if not count:
            continue
        names = yield from ask(
            table,
            say,
            Parsed(
                f"Step I: reveal the {count} Intrigue card(s) at House {house.capitalize()}. Which? (comma-separated)",
                "intrigue-cards",
                parser=partial(rules.parse_intrigue_names, count=count),
                hint=f"{count} of {', '.join(INTRIGUE_CARDS)}, separated by commas",
                examples=intrigue_examples(count),
            ),
        )
        revealed += [(house, name) for name in names]
    for _, name in revealed:
        if name not in table.intrigue_effects:
            table.intrigue_effects[name] = yield from ask(
                table,
                say,
                Parsed(
                    f"{name}: its War effect as printed?",
                    "intrigue-cards",
                    parser=rules.parse_intrigue_effect,
                    hint=INTRIGUE_EFFECT_HINT,
                    examples=INTRIGUE_EFFECT_EXAMPLES,
                ),
            )

    def step_changes(step: int) -> rules.HouseChanges:
        return rules.combine(
            *(
                rules.intrigue_changes(table.intrigue_effects[name], house, opponent[house])
                for house, name in revealed
                if INTRIGUE_CARDS[name] == step
            )
        )

    for house, name in revealed:
        say(f"{name} at House {house.capitalize()}: {rules.describe_intrigue(table.intrigue_effects[name])}.")
    say_lines(say, rules.apply_changes(table.houses, step_changes(1)))
    check_end(table, say, "step I of the War")
    say_lines(say, rules.apply_changes(table.houses, step_changes(2)))
    winner, loser, amount = rules.war_spoils(table.houses, first, second, prize)
    if winner:
        table.houses[loser][prize] -= amount
        table.houses[winner][prize] = rules.clamp(table.houses[winner][prize] + amount)
        say(
            f"Step II: House {winner.capitalize()} is stronger and takes {amount} {prize.capitalize()} from "
            f"House {loser.capitalize()} ({prize.capitalize()} {table.houses[winner][prize]} and "
            f"{table.houses[loser][prize]})."
        )
    else:
        say("Step II: equal Strength, so neither House wins the War.")
    after_losses = table.rulings["intrigue-effects"] == "after-losses"
    healing = step_changes(3)
    if healing and not after_losses:
        say("Step III cards act before the halving (ruling intrigue-effects, overridden).")
        say_lines(say, rules.apply_changes(table.houses, healing))
    keepers = {house for house, name in revealed if table.intrigue_effects[name].keeps_strength}
    halved = []
    for house in pair:
        if house in keepers:
            halved.append(f"House {house.capitalize()} keeps its Strength {table.houses[house]['strength']}")
            continue
        before = table.houses[house]["strength"]
        table.houses[house]["strength"] = rules.strength_after_losses(before)
        halved.append(f"House {house.capitalize()} Strength {before} -> {table.houses[house]['strength']}")
    say("Step III: " + "; ".join(halved) + ".")
    if healing and after_losses:
        say("Step III cards act after the halving (ruling intrigue-effects).")
        say_lines(say, rules.apply_changes(table.houses, healing))
    key = pair_key(pair)
    cards = table.conflicts[key] + table.intrigue[first] + table.intrigue[second]
    table.discard += cards
    table.conflicts[key] = table.intrigue[first] = table.intrigue[second] = 0
    say(f"Step IV: the War ends; discard its {cards} Conflict and Intrigue cards.")
    check_end(table, say, "the War")


# --- the Time track ------------------------------------------------------------------------------


def time_elapses(table: Table, say: Say) -> Steps:
    table.phase = "time"
    if not table.track:
        yield from form_time_track(table, say)
    card = table.track.pop(0)
    changes = rules.track_changes(
        card.action, table.houses, table.guilds, table.guild_effects, table.rulings["struggle-attribute"]
    )
    say(f"Time elapses: {describe(table, card.action)}.")
    if card.action.kind == "struggle":
        say(
            f"The Struggle card changes {table.rulings['struggle-attribute'].capitalize()} (ruling struggle-attribute)."
        )
    say_lines(
        say, rules.apply_changes(table.houses, changes), "" if card.action.kind == "nothing" else "Nothing changes."
    )
    leave_track(table, card, say)
    check_end(table, say, "the Time track card")
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
    for _ in range(from_court):
        yield from refill_court(table, say)
    total = table.pile
    say(f"Add Court cards 1 and 2 and the deck's top card: shuffle the {total} cards and turn them one by one.")
    say(order_note(table))
    placed: list[TrackCard] = []
    for number in range(1, total + 1):
        action = yield from ask(
            table,
            say,
            Parsed(
                f"New Time track, card {number} of {total}: its Time track action?",
                "forming-a-time-track",
                parser=rules.parse_track_action,
                hint=TRACK_HINT,
                examples=TRACK_EXAMPLES,
            ),
        )
        table.pile -= 1
        card = TrackCard(action)
        if rules.keeps_place_on_new_track(placed, card):
            placed.append(card)
            place_on_new_track(table, card)
        else:
            table.discard += 1
            say(f"House {str(action.house).capitalize()} is already on the new Time track: discard this card.")
    for house in rules.absent_houses(table.track):
        changes = table.preferred_actions.get(house)
        if changes is None:
            changes = yield from ask(
                table,
                say,
                Parsed(
                    f"House {house.capitalize()} is not on the new Time track: its preferred action, as printed on "
                    "its board?",
                    "forming-a-time-track",
                    parser=rules.parse_changes,
                    hint=CHANGES_HINT,
                    examples=CHANGES_EXAMPLES,
                ),
            )
            table.preferred_actions[house] = changes
        say(
            f"House {house.capitalize()} is not on the Time track and takes its preferred action "
            f"({rules.describe_changes(changes)})."
        )
        say_lines(say, rules.apply_changes(table.houses, {house: dict(changes)}))
        check_end(table, say, f"House {house.capitalize()}'s preferred action")
    table.phase = "time"


# --- the Serpentess (solo) -----------------------------------------------------------------------


def serpentess_turn(table: Table, say: Say) -> Steps:
    table.turn += 1
    table.active = SOLO_NAME
    table.phase = "serpentess"
    shown = ""
    while True:
        options = [str(space) for space in range(1, table.court + 1)]
        options += ["windfall"] if table.windfall_left else []
        options += ["struggle"] if table.struggle_left else []
        if not options:
            break
        shown = yield from ask(
            table,
            say,
            Choice(
                "The Serpentess turns over her top card. What does it show?", "serpentess-turn", options=tuple(options)
            ),
        )
        if shown not in ("windfall", "struggle"):
            break
        if shown == "windfall":
            table.windfall_left -= 1
        else:
            table.struggle_left -= 1
        table.track.append(TrackCard(TrackAction(shown), shown))
        say(f"The {shown.capitalize()} card goes to the end of the Time track; turn over another Serpentess card.")
        # Her numbered cards are not tracked: a reshuffle of her deck never brings these two kinds back.
        shown = ""
    if shown:
        yield from serpentess_play(table, int(shown), say)
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
        choice = yield from ask(table, say, Choice(prompt, "serpentess-turn", options=(*play_options(table), OPTION_B)))
        if choice != OPTION_B:
            break
        table.playing -= 1
        table.discard += 1

        def receive() -> None:
            table.playing += 1

        if not (yield from draw(table, say, receive)):
            return
        say("Option B: she discards that card and plays the top card of the Influence deck.")
        prompt = "Where does the Serpentess reference put the deck's top card?"
    yield from resolve_play(table, choice, say)


# --- the end -------------------------------------------------------------------------------------


def final_count(table: Table, say: Say) -> Generator[Question, Any, ScoreReport]:
    table.phase, table.active = "final", None
    order = table.turn_order()
    keeper = table.players[0].name if table.solo else table.keeper
    players: list[PlayerAmbitions] = []
    if table.solo or table.ended_by == "deck":
        players = [PlayerAmbitions(player.name, ()) for player in order]
    else:
        if table.keeper_possible:
            who = yield Choice(
                "Who holds the Keeper of Balance?", "keeper-of-balance", options=(NOBODY, *(p.name for p in order))
            )
            keeper = None if who == NOBODY else str(who)
        players = yield from reveal_ambitions(table, order, keeper, say)
    houses = tuple(House(house, **table.houses[house]) for house in HOUSES)
    choice = table.rulings["triumph-and-collapse"]
    rulings = Rulings(triumph_and_collapse=choice, overridden=("triumph-and-collapse",) if choice != "both" else ())
    table.keeper = keeper
    table.finished = True
    return score(Holdings(houses, tuple(players), keeper, rulings))


def reveal_ambitions(
    table: Table, order: Sequence[Player], keeper: str | None, say: Say
) -> Generator[Question, Any, list[PlayerAmbitions]]:
    """Everyone shows their Ambition cards; once every card is dealt, the last player's are known."""
    counts = [house_ambitions_held(len(order), player.name == keeper) for player in order]
    everything_dealt = sum(counts) == len(AMBITIONS)
    remaining = list(AMBITIONS)
    result = []
    for seat, (player, count) in enumerate(zip(order, counts, strict=True)):
        if everything_dealt and seat == len(order) - 1:
            held = list(remaining)
            say(f"{player.name} holds the last Ambition cards: {', '.join(ambition_title(card) for card in held)}.")
        else:
            held = []
            for number in range(1, count + 1):
                if player.name == keeper:
                    prompt = f"{player.name}: the Ambition card beside the Keeper of Balance (it is ignored)"
                else:
                    prompt = f"{player.name}: Ambition card {number} of {count}"
                card = yield Choice(prompt, "ambitions", options=tuple(remaining))
                held.append(str(card))
                remaining.remove(str(card))
        result.append(PlayerAmbitions(player.name, tuple(held)))
    return result
