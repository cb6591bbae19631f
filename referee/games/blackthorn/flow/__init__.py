"""The Council of Blackthorn session, from set-up to the final count, in the rulebook's order.

`play` walks set-up and the rounds; `final_count` runs the treason reveal and scores. Every question
goes through `ask`, so its answer arrives typed; a question whose text, options or bounds come from
state a correction can change is given as a builder, which the driver builds again after each
correction. Where the table carries out a card's text by hand, the flow waits at a table step
before it draws, scores control or checks the end of the turn. A faction card may be named when it
is played: a card the catalogue knows answers its printed questions itself (cards.py). From the
second version of the questions, a turn's Action and an Ally's text go through texts.py: told once
in one line, then carried out by the referee.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

from referee.asks import (
    Ask,
    Builder,
    Choice,
    Dice,
    Number,
    Question,
    TableStep,
    ask,
    choice,
    pick,
    table_step,
)
from referee.engine.cards import Card, ask_card, card_field, remember
from referee.engine.game import Flow, Say, Steps
from referee.games.blackthorn import rules
from referee.games.blackthorn.cards import (
    BUILDING_VALUE,
    CARD_LINE,
    CLASS,
    FACTION,
    FACTION_CARD,
    TRIGGER,
    ActedCard,
)
from referee.games.blackthorn.flow.texts import (
    WHISPERS,
    action_then_card_question,
    card_question,
    resolve_text,
    use_action,
)
from referee.games.blackthorn.rulings import (
    PASS_WITHOUT_TREASON,
    STARTING_ROLL_TOTAL,
    TRIGGER_AFTER_DICE,
    WHISPERS_ACTIVE_TIED,
    WHISPERS_ZERO_BUILDINGS,
)
from referee.games.blackthorn.scoring import MAX_CARD_POINTS, Holdings, final_holdings, reveal_order, score
from referee.games.blackthorn.state import (
    CHARACTERS,
    DIE_COLOURS,
    DIE_FACES,
    FACTIONS,
    HAND_SIZE,
    STARTING_INFLUENCE,
    STARTING_TREASON,
    TRACK,
    WHISPERS_ORDER,
    Building,
    Player,
    Table,
)

DICE_NAMES = tuple(f"{faction.capitalize()} ({DIE_COLOURS[faction]})" for faction in FACTIONS)
BLOCKS_FOR_GAME_OVER = 3


def play(table: Table, say: Say) -> Steps:
    """Set-up, then rounds until a round in which a turn ended with 3 blocked factions."""
    yield from set_up(table, say)
    while True:
        table.round += 1
        yield from play_round(table, say)
        if table.game_over_declared:
            return
        table.ring = (table.ring + 1) % len(table.players)
        say(f"End of round {table.round}: the ring passes to {table.players[table.ring].name}.")


# --- set-up ------------------------------------------------------------------------------------


def set_up(table: Table, say: Say) -> Steps:
    table.phase = "setup"
    yield from choose_ring_holder(table, say)
    yield from choose_characters(table, say)
    say(
        "Each player puts one of their four character tokens on the 0 level of every faction track. "
        f"Shuffle the 8 Whispers cards into the faction deck and deal {HAND_SIZE} cards to each player; "
        f"each player takes {STARTING_INFLUENCE} influence points from the bank and "
        f"{STARTING_TREASON} treason cards face down."
    )
    if table.ghost:
        say("Two players: the ghost takes four unused character tokens, each on level 0.")


def choose_ring_holder(table: Table, say: Say) -> Steps:
    if STARTING_ROLL_TOTAL.of(table.rulings) == "table-decides":
        holder = yield from ask(
            pick(
                "Who rolled highest and takes the Right Hand of the King (ruling starting-roll-total)?",
                "setup-ring-holder",
                [(player.name, player) for player in table.players],
            )
        )
        contenders = [holder]
    else:
        contenders = list(table.players)
    while len(contenders) > 1:
        rolls: dict[str, int] = {}
        for player in contenders:
            rolls[player.name] = yield from ask(
                Number(f"{player.name}: roll the four faction dice; total shown?", "setup-ring-holder", maximum=12)
            )
        top = max(rolls.values())
        contenders = [player for player in contenders if rolls[player.name] == top]
        if len(contenders) > 1:
            say(f"Tie at {top} between {names(contenders)}: they roll again (ruling starting-roll-total).")
    table.ring = table.players.index(contenders[0])
    say(f"{contenders[0].name} takes the Right Hand of the King and chooses a character first.")


def choose_characters(table: Table, say: Say) -> Steps:
    for player in table.turn_order():
        free = [character for character in CHARACTERS if character not in taken_characters(table)]
        if len(free) == 1:
            player.character = free[0]
            say(f"{player.name} takes the last character, {free[0]}.")
            continue
        player.character = yield from ask(choice(f"{player.name} chooses a character", "setup-characters", free))


def taken_characters(table: Table) -> set[str]:
    return {player.character for player in table.players if player.character}


# --- a round -----------------------------------------------------------------------------------


def play_round(table: Table, say: Say) -> Steps:
    ring_holder = table.players[table.ring]
    table.phase, table.active = "dice", ring_holder.name
    values = yield from ask(
        Dice(
            f"Round {table.round}: {ring_holder.name} rolls the faction dice. {', '.join(DICE_NAMES)}?",
            "round-dice",
            faces=DIE_FACES,
            names=tuple(faction.capitalize() for faction in FACTIONS),
        )
    )
    table.dice = dict(zip(FACTIONS, values, strict=True))
    for player in table.turn_order():
        yield from take_turn(table, player, say)
        check_game_over(table, say, player.name)
    if table.ghost:
        yield from ghost_turn(table, table.ghost, say)
        check_game_over(table, say, table.ghost.name)


def check_game_over(table: Table, say: Say, whose_turn: str) -> None:
    """At the end of every turn: 3 blocked factions declare the game over (the round is still finished)."""
    blocked = rules.table_blocked(table)
    if not table.game_over_declared and len(blocked) >= BLOCKS_FOR_GAME_OVER:
        table.game_over_declared, table.game_over_turn = True, whose_turn
        say(
            f"Game over declared: {len(blocked)} factions are blocked ({', '.join(blocked)}) at the end "
            f"of {whose_turn}'s turn. The round is finished, then the game ends."
        )


def take_turn(table: Table, player: Player, say: Say) -> Steps:
    table.active = player.name
    table.phase = "construction"
    finished = [building for building in player.buildings if not building.complete]
    for building in finished:
        building.complete = True
    if finished:
        say(
            f"{player.name}: {len(finished)} building(s) finish construction: turn them upright; "
            "their text now applies."
        )
    table.phase = "action"
    how = ("enter what it changes with 'adjust' before naming your card" if table.questions == 1 or player.hand == 0
           else "name it before your card ('NAME, CARD') or enter what it changes with 'adjust'")
    say(f"{player.name}: you may use one action of a completed building or your character now; {how}.")
    table.phase = "play"
    printed: Card | None = None
    if player.hand > 0:
        if table.questions == 1:
            printed = yield from ask_card(FACTION_CARD, "faction", card_question(player))
        else:
            printed = yield from ask(action_then_card_question(player))
            if isinstance(printed, ActedCard):
                yield from use_action(table, player, printed.action, say)
        card = yield from played(table, printed, player)
    else:  # nothing to ask about: the table step is where the action's corrections go
        yield from table_step(
            f"{player.name} has no card to play: enter what the action changed with 'adjust', then go on",
            "phase-play-card",
        )
        card = None
    if card is not None:
        player.hand = max(0, player.hand - 1)  # a card named after a correction emptied the hand was in it
    if card == WHISPERS:
        yield from resolve_whispers(table, player, say)
    elif card is not None and printed is not None:
        yield from play_faction_card(table, player, card, printed, say)
        yield from remember(printed)
    table.phase = "draw"
    draw(player, say)
    table.phase = "control"
    scored = rules.control_points(player, rules.comparison_pool(table))
    player.influence += sum(scored.values())
    if scored:
        parts = ", ".join(f"{what} {points}" for what, points in scored.items())
        say(f"{player.name} scores {sum(scored.values())} influence for control ({parts}).")
    else:
        say(f"{player.name} scores nothing for control.")


def draw(player: Player, say: Say) -> None:
    """Phase 4: an optional discard, then cards drawn until the hand holds 5. A hand already holding
    more (an Action gave cards) draws none and keeps them all: the draw never takes cards away, so
    only the discard can bring it down, and the table enters that one."""
    if player.hand <= HAND_SIZE:
        say(f"{player.name}: discard one card if you wish, then draw back to {HAND_SIZE}.")
        player.hand = HAND_SIZE
    else:
        say(
            f"{player.name} holds {player.hand} cards, more than {HAND_SIZE}, and draws none; a card discarded "
            f"now is entered with 'adjust {player.name} hand -1'."
        )




def played(table: Table, printed: Card, player: Player) -> Generator[Question, Any, str | None]:
    """What the answer to the card question plays: a named card is a faction card, its faction
    asked if the card does not tell it (from the second version of the questions, with all it
    prints in one line if the table likes); an ordinary answer is a faction, Whispers or no card."""
    if printed.name is not None and not printed.printed and table.questions > 1:
        fields = yield from ask(CARD_LINE)
        printed.printed.update(fields)
        printed.learned = True
        return fields["faction"]
    if printed.name is not None:
        return (yield from card_field(printed, "faction", FACTION))
    return (yield from card_field(printed, "faction", card_question(player)()))


def play_faction_card(table: Table, player: Player, faction: str, printed: Card, say: Say) -> Steps:
    assert table.dice is not None
    die = table.dice[faction]
    before = {name: player.points(name) for name in FACTIONS}
    if die == 0:
        yield from pass_treason(table, player, say)
        say(f"The {faction.capitalize()} die shows 0: no level, and the card's text triggers automatically.")
        yield from place_or_resolve(table, player, printed, say)
        return
    gained = rules.move_up(table, player, faction, die)
    say(describe_gain(player, faction, die, before[faction], gained))
    if die == 3:
        drawn = draw_treason(table, player, 2)
        say(
            f"The {faction.capitalize()} die shows 3: {player.name} draws {drawn} treason cards; the text "
            "does not resolve and the card is discarded."
        )
        return
    trigger = yield from card_field(printed, "trigger", TRIGGER)
    if trigger is not None:
        trigger_faction, needed = trigger
        use_before = TRIGGER_AFTER_DICE.of(table.rulings) == "before"
        value = before[trigger_faction] if use_before else player.points(trigger_faction)
        when = "before" if use_before else "after"
        if value < needed:
            say(
                f"Not triggered: {player.name} has {value} {trigger_faction.capitalize()} ({when} the dice "
                f"effect; ruling trigger-after-dice), needs {needed}. The card is discarded."
            )
            return
        say(f"Triggered: {player.name} has {value} {trigger_faction.capitalize()}, needs {needed}.")
    yield from place_or_resolve(table, player, printed, say)


def describe_gain(player: Player, faction: str, levels: int, before: int, gained: int) -> str:
    after = player.points(faction)
    text = f"{player.name} gains on {faction.capitalize()}: {before} -> {after}"
    if gained < TRACK[min(TRACK.index(before) + levels, len(TRACK) - 1)] - before:
        text += " (stopped at the top open level)"
    return text + "."


def place_or_resolve(table: Table, player: Player, printed: Card, say: Say) -> Steps:
    """A triggered card: an Ally's text is carried out by the table now (a table step, so that the
    draw, control and the end-of-turn check see what it changed); a Building goes into play.
    From the second version of the questions, an Ally whose text the catalogue knows is carried
    out by the referee, and the step takes the text's changes in one line."""
    is_building = yield from card_field(printed, "class", CLASS)
    if not is_building:
        if table.questions == 1:
            yield from table_step(
                "Resolve the ally's text now (enter what it changes with 'adjust'), then discard it",
                "buildings-vs-allies",
            )
        else:
            yield from resolve_text(table, player, printed, say)
        return
    value = yield from card_field(printed, "value", BUILDING_VALUE)
    if table.questions == 1:
        player.buildings.append(Building(value, complete=False))
    else:
        player.buildings.append(Building(value, False, printed.name, printed.printed.get("action")))
    say(
        f"{player.name} places the building under construction, turned 90 degrees clockwise "
        f"(worth {value} when complete)."
    )














def pass_treason(table: Table, player: Player, say: Say) -> Steps:
    """A 0 die: an opponent takes one of the active player's treason cards at random."""
    opponents = [other for other in table.players if other is not player]
    pass_none = PASS_WITHOUT_TREASON.of(table.rulings) == "pass-none"
    if player.treason_cards == 0 and pass_none:
        say(f"{player.name} holds no treason card, so none is passed (ruling pass-without-treason).")
        return
    if len(opponents) == 1:
        target = opponents[0]
    else:
        target = yield from ask(treason_target_question(player, opponents))
    if player.treason_cards > 0:
        player.treason_cards -= 1
        target.treason_cards += 1
        say(f"{target.name} takes a random treason card from {player.name}, face down.")
    elif pass_none:  # a correction at the question took the last card
        say(f"{player.name} holds no treason card, so none is passed (ruling pass-without-treason).")
    else:
        drawn = draw_treason(table, target, 1)
        say(f"{player.name} holds no treason card: {target.name} draws {drawn} from the deck instead "
            "(ruling pass-without-treason).")


def treason_target_question(player: Player, opponents: Sequence[Player]) -> Builder[Player]:
    def build() -> Choice[Player]:
        what = "a random treason card" if player.treason_cards else "no treason card (one from the deck)"
        return pick(
            f"{player.name} passes {what} to which opponent?",
            "dice-effect",
            [(other.name, other) for other in opponents],
        )

    return build


draw_treason = rules.draw_treason


# --- Whispers ----------------------------------------------------------------------------------


def resolve_whispers(table: Table, active: Player, say: Say) -> Steps:
    if rules.whispers_gain_factions(table, active):
        faction = yield from ask(whispers_gain_question(table, active))
        before = active.points(faction)
        gained = rules.move_up(table, active, faction, 1)
        say(describe_gain(active, faction, 1, before, gained))
    else:
        say(f"Whispers: {active.name} cannot gain a level anywhere (ruling whispers-gain-capped).")
    yield from whispers_checks(table, active, say, tied_all_draw=False)


def whispers_gain_question(table: Table, active: Player) -> Builder[str]:
    def build() -> Choice[str]:
        offered = rules.whispers_gain_factions(table, active) or FACTIONS
        full = [faction.capitalize() for faction in offered if not rules.can_gain(table, active, faction)]
        lost = f" ({', '.join(full)}: at its limit, the level is lost; ruling whispers-gain-capped)" if full else ""
        return choice(f"Whispers: {active.name} gains one level in which faction?{lost}", "whispers", offered)

    return build


Measure = Callable[[Player], int]


def faction_measure(faction: str) -> Measure:
    return lambda player: player.points(faction)


def building_measure(player: Player) -> int:
    return player.building_count()


def whispers_checks(table: Table, active: Player, say: Say, tied_all_draw: bool) -> Steps:
    """Steps 2 and 3 of Whispers: one treason card per faction leader (Noble, Legion, Peasant, Guild),
    then one for the building leader. Each check reads the table when it comes, so a correction at an
    earlier tie question counts in the later checks."""
    checks: list[tuple[str, Measure, bool]] = [
        (faction.capitalize(), faction_measure(faction), False) for faction in WHISPERS_ORDER
    ]
    checks.append(("buildings", building_measure, True))
    for label, measure, of_buildings in checks:
        candidates = whispers_draws(table, active, measure, of_buildings)
        if not candidates:
            say(f"Whispers, {label}: nobody draws ({why_nobody(table, active, measure, of_buildings)}).")
            continue
        drawers: Sequence[Player]
        if tied_all_draw or len(candidates) == 1:
            drawers = candidates
        else:
            chosen = yield from ask(whispers_tie_question(table, active, label, measure, of_buildings))
            # None: a correction ended the tie and the table confirmed the step that said who draws now
            drawers = [chosen] if chosen is not None else whispers_draws(table, active, measure, of_buildings)
            if not drawers:
                say(f"Whispers, {label}: nobody draws ({why_nobody(table, active, measure, of_buildings)}).")
                continue
        for player in drawers:
            draw_treason(table, player, 1)
        nothing_built = all(measure(drawer) == 0 for drawer in drawers)
        at_zero = " (nobody has one: ruling whispers-zero-buildings)" if nothing_built else ""
        say(f"Whispers, {label}: {names(drawers)} draw(s) a treason card{at_zero}.")


def whispers_draws(table: Table, active: Player, measure: Measure, of_buildings: bool) -> tuple[Player, ...]:
    """Who may draw for one check, with the table's rulings."""
    values = [(player, measure(player)) for player in rules.whispers_pool(table, active)]
    tie_blocks = active.is_ghost or WHISPERS_ACTIVE_TIED.of(table.rulings) == "nobody"
    zero_draws = of_buildings and WHISPERS_ZERO_BUILDINGS.of(table.rulings) == "choose-among-tied"
    return rules.whispers_candidates(active, values, tie_blocks, zero_draws)


def whispers_tie_question(
    table: Table, active: Player, label: str, measure: Measure, of_buildings: bool
) -> Builder[Player | None]:
    """The active player's pick among the tied. A correction that ends the tie turns it into a table
    step that says who now draws (or that nobody does): there is nothing left to pick."""

    def build() -> Ask[Any]:
        drawing = whispers_draws(table, active, measure, of_buildings)
        if len(drawing) < 2:
            outcome = (
                f"{drawing[0].name} draws a treason card"
                if drawing
                else f"nobody draws ({why_nobody(table, active, measure, of_buildings)})"
            )
            return TableStep(f"Whispers, {label}: no longer a tie, {outcome}; Enter to go on", "whispers")
        at_zero = of_buildings and all(measure(player) == 0 for player in drawing)
        ruling = " (nobody has one: ruling whispers-zero-buildings)" if at_zero else ""
        return pick(
            f"Whispers, {label}: tie for the most{ruling}. {active.name} chooses who draws",
            "whispers",
            [(player.name, player) for player in drawing],
        )

    return build


def why_nobody(table: Table, active: Player, measure: Measure, of_buildings: bool) -> str:
    top = rules.leaders([(player, measure(player)) for player in rules.whispers_pool(table, active)])
    if top.value == 0:
        return "nobody has a building (ruling whispers-zero-buildings)" if of_buildings else "all at 0"
    if active in top.players:
        governing = "ghost-whispers-treason" if active.is_ghost else "whispers-active-tied"
        tied = f" (tied: ruling {governing})" if len(top.players) > 1 else ""
        return f"{active.name} has the highest{tied}"
    return "only the ghost has the highest (ruling ghost-in-comparisons)"


# --- the ghost (two players) ---------------------------------------------------------------------


def ghost_turn(table: Table, ghost: Player, say: Say) -> Steps:
    table.active, table.phase = ghost.name, "ghost"
    card = yield from ask(
        pick(
            "The ghost's turn: draw a faction card. Which kind is it?",
            "ghost-turn",
            [*((faction, faction) for faction in FACTIONS), ("whispers", WHISPERS)],
        )
    )
    assert table.dice is not None
    if card == WHISPERS:
        for faction in FACTIONS:
            rules.move_up(table, ghost, faction, 1)
        say("The ghost gains one level in each faction it can (ruling ghost-whispers-treason).")
        yield from whispers_checks(table, ghost, say, tied_all_draw=True)
    elif table.dice[card] == 0:
        for player in table.players:
            draw_treason(table, player, 1)
        say(f"The {card.capitalize()} die shows 0: each live player draws a treason card.")
    else:
        before = ghost.points(card)
        gained = rules.move_up(table, ghost, card, table.dice[card])
        say(describe_gain(ghost, card, table.dice[card], before, gained))
    say("The ghost's card is discarded; its text never applies.")


# --- the end -----------------------------------------------------------------------------------


def final_count(table: Table, say: Say) -> Flow:
    """Treason revealed from the lowest influence up, then beheading and the winner."""
    table.phase, table.active = "final", None
    order = table.turn_order()
    treason: dict[str, int] = {}
    for entry in reveal_order([final_holdings(player) for player in order]):
        player = table.player(entry.name)
        if player.treason_cards == 0:
            treason[player.name] = 0
            say(f"{player.name} has no treason cards: 0 treason points.")
            continue
        treason[player.name] = yield from ask(reveal_question(player))
    table.finished = True
    return score(Holdings(tuple(final_holdings(player, treason[player.name]) for player in order)))


def reveal_question(player: Player) -> Builder[int]:
    """Bounded by the cards held, which a correction at the reveal may change."""

    def build() -> Number:
        return Number(
            f"{player.name} ({final_holdings(player).influence()} influence) reveals {player.treason_cards} "
            "treason cards. Total treason points?",
            "treason-reveal",
            maximum=MAX_CARD_POINTS * player.treason_cards,
        )

    return build


def names(players: Sequence[Player]) -> str:
    return ", ".join(player.name for player in players)
