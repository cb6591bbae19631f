"""The Council of Blackthorn session, from set-up to the final count, as the table plays it.

Each function yields the questions for one part of the rulebook's sequence and applies the
answers to the Table. Only the driver sends answers in, and it has already validated them.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from referee.asks import Choice, Dice, Number, Parsed, Question
from referee.engine.game import Flow, Say
from referee.games.blackthorn import rules
from referee.games.blackthorn.scoring import MAX_CARD_POINTS, FinalHoldings, Holdings, reveal_order, score
from referee.games.blackthorn.state import (
    CHARACTERS,
    DIE_FACES,
    FACTIONS,
    HAND_SIZE,
    STARTING_INFLUENCE,
    STARTING_TREASON,
    TRACK,
    TREASON_DECK,
    WHISPERS_ORDER,
    Building,
    Player,
    Table,
)
from referee.outcome import ScoreReport

Steps = Generator[Question, Any, None]
CARD_KINDS = (*FACTIONS, "whispers", "no card")


def flow(table: Table, say: Say) -> Flow:
    yield from set_up(table, say)
    while True:
        table.round += 1
        yield from play_round(table, say)
        if table.game_over_declared:
            break
        table.ring = (table.ring + 1) % len(table.players)
        say(f"End of round {table.round}: the ring passes to {table.players[table.ring].name}.")
    return (yield from final_count(table, say))


# --- set-up ------------------------------------------------------------------------------------


def set_up(table: Table, say: Say) -> Steps:
    table.phase = "setup"
    yield from choose_ring_holder(table, say)
    yield from choose_characters(table, say)
    say(
        f"Shuffle the 8 Whispers cards into the faction deck and deal {HAND_SIZE} cards to each player; "
        f"each player takes {STARTING_INFLUENCE} influence points from the bank and "
        f"{STARTING_TREASON} treason cards face down."
    )
    if table.ghost:
        say("Two players: the ghost takes four unused character tokens, each on level 0.")


def choose_ring_holder(table: Table, say: Say) -> Steps:
    contenders = list(table.players)
    while True:
        rolls: dict[str, int] = {}
        for player in contenders:
            rolls[player.name] = yield Number(
                f"{player.name}: roll the four faction dice; total shown?", "setup-ring-holder", maximum=12
            )
        top = max(rolls.values())
        contenders = [player for player in contenders if rolls[player.name] == top]
        if len(contenders) == 1:
            break
        say(f"Tie at {top} between {names(contenders)}: they roll again (ruling starting-roll-total).")
    table.ring = table.players.index(contenders[0])
    say(f"{contenders[0].name} takes the Right Hand of the King and chooses a character first.")


def choose_characters(table: Table, say: Say) -> Steps:
    for player in table.turn_order():
        free = tuple(character for character in CHARACTERS if character not in taken_characters(table))
        if len(free) == 1:
            player.character = free[0]
            say(f"{player.name} takes the last character, {free[0]}.")
            continue
        player.character = yield Choice(f"{player.name} chooses a character", "setup-characters", options=free)


def taken_characters(table: Table) -> set[str]:
    return {player.character for player in table.players if player.character}


# --- a round -----------------------------------------------------------------------------------


def play_round(table: Table, say: Say) -> Steps:
    ring_holder = table.players[table.ring]
    table.phase, table.active = "dice", ring_holder.name
    values = yield Dice(
        f"Round {table.round}: {ring_holder.name} rolls the faction dice. Noble Guild Legion Peasant?",
        "round-dice",
        faces=DIE_FACES,
        names=tuple(faction.capitalize() for faction in FACTIONS),
    )
    table.dice = dict(zip(FACTIONS, values, strict=True))
    for player in table.turn_order():
        yield from take_turn(table, player, say)
        check_game_over(table, say, player.name)
    if table.ghost:
        yield from ghost_turn(table, table.ghost, say)
        check_game_over(table, say, table.ghost.name)


def check_game_over(table: Table, say: Say, whose_turn: str) -> None:
    blocked = rules.table_blocked(table)
    if not table.game_over_declared and len(blocked) >= 3:
        table.game_over_declared = True
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
        say(f"{player.name}: {len(finished)} building(s) finish construction; their text now applies.")
    table.phase = "action"
    say(f"{player.name}: you may use one action of a completed building or your character now.")
    table.phase = "play"
    if player.hand > 0:
        card = yield Choice(f"{player.name} plays which card?", "phase-play-card", options=CARD_KINDS)
        if card != "no card":
            player.hand -= 1
        if card in FACTIONS:
            yield from play_faction_card(table, player, card, say)
        elif card == "whispers":
            yield from resolve_whispers(table, player, say)
    else:
        say(f"{player.name} has no card to play.")
    table.phase = "draw"
    say(f"{player.name}: discard one card if you wish, then draw back to {HAND_SIZE}.")
    player.hand = HAND_SIZE
    table.phase = "control"
    scored = rules.control_points(player, rules.comparison_pool(table))
    player.influence += sum(scored.values())
    if scored:
        parts = ", ".join(f"{what} {points}" for what, points in scored.items())
        say(f"{player.name} scores {sum(scored.values())} influence for control ({parts}).")
    else:
        say(f"{player.name} scores nothing for control.")


def play_faction_card(table: Table, player: Player, faction: str, say: Say) -> Steps:
    assert table.dice is not None
    die = table.dice[faction]
    before = {name: player.points(name) for name in FACTIONS}
    if die == 0:
        yield from pass_treason(table, player, say)
        say(f"The {faction.capitalize()} die shows 0: no level, and the card's text triggers automatically.")
        yield from place_or_resolve(player, say)
        return
    gained = rules.move_up(table, player, faction, die)
    moved = describe_gain(player, faction, die, before[faction], gained)
    say(moved)
    if die == 3:
        drawn = draw_treason(table, player, 2)
        say(
            f"The {faction.capitalize()} die shows 3: {player.name} draws {drawn} treason cards; the text "
            "does not resolve and the card is discarded."
        )
        return
    trigger = yield Parsed(
        "Trigger printed on the card (faction and value, e.g. 'guild 5'), or 'none'",
        "trigger",
        parser=parse_trigger,
        hint="a faction (noble, guild, legion, peasant) and a value from 0 to 13, or 'none'",
        examples=("noble 3", "guild 5", "legion 7", "peasant 4", "none"),
    )
    if trigger is not None:
        trigger_faction, needed = trigger
        use_before = table.rulings.get("trigger-after-dice") == "before"
        value = before[trigger_faction] if use_before else player.points(trigger_faction)
        when = "before" if use_before else "after"
        if value < needed:
            say(
                f"Not triggered: {player.name} has {value} {trigger_faction.capitalize()} ({when} the dice "
                f"effect; ruling trigger-after-dice), needs {needed}. The card is discarded."
            )
            return
        say(f"Triggered: {player.name} has {value} {trigger_faction.capitalize()}, needs {needed}.")
    yield from place_or_resolve(player, say)


def describe_gain(player: Player, faction: str, levels: int, before: int, gained: int) -> str:
    after = player.points(faction)
    text = f"{player.name} gains on {faction.capitalize()}: {before} -> {after}"
    if gained < TRACK[min(TRACK.index(before) + levels, len(TRACK) - 1)] - before:
        text += " (stopped at the top open level)"
    return text + "."


def parse_trigger(text: str) -> tuple[str, int] | None:
    words = text.lower().replace(":", " ").split()
    if words in (["none"], ["no"], ["-"]):
        return None
    if len(words) == 1:  # 'g5' or 'guild5'
        head = words[0].rstrip("0123456789")
        words = [head, words[0][len(head) :]] if head and head != words[0] else words
    if len(words) != 2 or not words[1].isdecimal():
        raise ValueError("not a faction and a value")
    factions = [faction for faction in FACTIONS if faction.startswith(words[0])]
    if len(factions) != 1:
        raise ValueError(f"no such faction {words[0]!r}")
    needed = int(words[1])
    if needed > TRACK[-1]:
        raise ValueError("trigger value above 13")
    return factions[0], needed


def place_or_resolve(player: Player, say: Say) -> Steps:
    kind = yield Choice("Is the card an Ally or a Building?", "buildings-vs-allies", options=("ally", "building"))
    if kind == "ally":
        say("Resolve the ally's text now (enter 'adjust' for what it changes), then discard it.")
        return
    value = yield Number("Building value printed on the card", "building-value", maximum=99)
    player.buildings.append(Building(value, complete=False))
    say(f"{player.name} places the building under construction (worth {value} when complete).")


def pass_treason(table: Table, player: Player, say: Say) -> Steps:
    opponents = [other for other in table.players if other is not player]
    from_deck = player.treason_cards == 0
    if from_deck and table.rulings.get("pass-without-treason") == "pass-none":
        say(f"{player.name} holds no treason card, so none is passed (ruling pass-without-treason).")
        return
    if len(opponents) == 1:
        target = opponents[0]
    else:
        name = yield Choice(
            f"{player.name} passes a random treason card to which opponent?",
            "dice-effect",
            options=tuple(other.name for other in opponents),
        )
        target = table.player(name)
    if from_deck:
        drawn = draw_treason(table, target, 1)
        say(f"{player.name} holds no treason card: {target.name} draws {drawn} from the deck instead "
            "(ruling pass-without-treason).")
        return
    player.treason_cards -= 1
    target.treason_cards += 1
    say(f"{target.name} takes a random treason card from {player.name}, face down.")


def draw_treason(table: Table, player: Player, count: int) -> int:
    """Draw from the treason deck; the deck is reshuffled from discards, but 96 cards exist in all."""
    held = sum(other.treason_cards for other in table.players)
    drawn = max(0, min(count, TREASON_DECK - held))
    player.treason_cards += drawn
    return drawn


# --- Whispers ----------------------------------------------------------------------------------


def resolve_whispers(table: Table, active: Player, say: Say) -> Steps:
    open_factions = tuple(
        faction
        for faction in FACTIONS
        if rules.can_gain(table, active, faction)
    )
    if open_factions:
        faction = yield Choice(
            f"Whispers: {active.name} gains one level in which faction?", "whispers", options=open_factions
        )
        before = active.points(faction)
        gained = rules.move_up(table, active, faction, 1)
        say(describe_gain(active, faction, 1, before, gained))
    else:
        say(f"Whispers: {active.name} cannot gain a level anywhere (ruling whispers-gain-capped).")
    yield from whispers_checks(table, active, say, tied_all_draw=False)


def whispers_checks(table: Table, active: Player, say: Say, tied_all_draw: bool) -> Steps:
    """Steps 2 and 3 of Whispers: one treason card per faction leader, then per building leader."""
    tie_blocks = table.rulings.get("whispers-active-tied", "nobody") == "nobody"
    pool = rules.comparison_pool(table)
    checks: list[tuple[str, list[tuple[Player, int]]]] = [
        (faction.capitalize(), [(player, player.points(faction)) for player in pool])
        for faction in WHISPERS_ORDER
    ]
    checks.append(("buildings", [(player, player.building_count()) for player in pool]))
    for label, values in checks:
        candidates = rules.whispers_candidates(active, values, tie_blocks)
        if not candidates:
            say(f"Whispers, {label}: nobody draws ({why_nobody(active, values, label)}).")
            continue
        if tied_all_draw or len(candidates) == 1:
            drawers: Sequence[Player] = candidates
        else:
            name = yield Choice(
                f"Whispers, {label}: tie for the most. {active.name} chooses who draws",
                "whispers",
                options=tuple(player.name for player in candidates),
            )
            drawers = [table.player(name)]
        for player in drawers:
            draw_treason(table, player, 1)
        say(f"Whispers, {label}: {names(drawers)} draw(s) a treason card.")


def why_nobody(active: Player, values: Sequence[tuple[Player, int]], label: str) -> str:
    top = rules.leaders(values)
    if top.value == 0:
        return "nobody has a building (ruling whispers-zero-buildings)" if label == "buildings" else "all at 0"
    if active in top.players:
        tied = " (tied: ruling whispers-active-tied)" if len(top.players) > 1 else ""
        return f"{active.name} has the highest{tied}"
    return "only the ghost has the highest (ruling ghost-in-comparisons)"


# --- the ghost (two players) ---------------------------------------------------------------------


def ghost_turn(table: Table, ghost: Player, say: Say) -> Steps:
    assert table.dice is not None
    table.active, table.phase = ghost.name, "ghost"
    card = yield Choice(
        "The ghost's turn: draw a faction card. Which kind is it?",
        "ghost-turn",
        options=(*FACTIONS, "whispers"),
    )
    if card == "whispers":
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


def final_count(table: Table, say: Say) -> Generator[Question, Any, ScoreReport]:
    table.phase, table.active = "final", None
    order = table.turn_order()
    provisional = [holdings(player, 0) for player in order]
    treason: dict[str, int] = {}
    for entry in reveal_order(provisional):
        player = table.player(entry.name)
        if player.treason_cards == 0:
            treason[player.name] = 0
            say(f"{player.name} has no treason cards: 0 treason points.")
            continue
        treason[player.name] = yield Number(
            f"{player.name} ({entry.influence()} influence) reveals {player.treason_cards} treason cards. "
            "Total treason points?",
            "treason-reveal",
            maximum=MAX_CARD_POINTS * player.treason_cards,
        )
    table.finished = True
    return score(Holdings(tuple(holdings(player, treason[player.name]) for player in order)))


def holdings(player: Player, treason: int) -> FinalHoldings:
    return FinalHoldings(
        player.name,
        {faction: player.points(faction) for faction in FACTIONS},
        player.influence,
        tuple(building.value for building in player.buildings if building.complete),
        sum(1 for building in player.buildings if not building.complete),
        treason,
    )


def names(players: Sequence[Player]) -> str:
    return ", ".join(player.name for player in players)
