"""The Blackwood session, from setup to the final score, as the table plays it.

Each function yields the questions for one part of the rulebook's sequence and applies the answers
to the Table. Only the driver sends answers in, and it has already validated them. What the cards
print (prices, rewards, reputation) is asked; everything that follows from it is worked out here.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from referee.asks import Choice, Confirm, Number, Parsed, Question
from referee.engine.game import Flow, Say
from referee.games.blackwood import rules
from referee.games.blackwood.scoring import Holdings, Rulings, WitchHoldings, score
from referee.games.blackwood.state import (
    EMPTY_CARD,
    EXPEDITIONS,
    FORAGE,
    FORAGE_CARDS,
    FOREST_COLUMNS,
    FOREST_STEP,
    FREE_CARD,
    LOAN_COINS,
    MISSING_INGREDIENT,
    MOVE_A_RIVAL,
    POTION_DISPLAY,
    PRINTED_VALUE_GUARD,
    PUPPETS_PER_WITCH,
    RIVAL_COMPENSATION,
    ROUNDS_PER_EXPEDITION,
    SECOND_PUPPET,
    SELL_COINS,
    SPELLS,
    STARTING_COINS,
    SWAP,
    VILLAGE_STEP,
    Spell,
    Table,
    Witch,
)
from referee.outcome import ScoreReport

Steps = Generator[Question, Any, None]

SELL, TRADE, BORROW, BREW, DONE, DISCARD, MORE = "sell", "trade", "borrow", "brew", "done", "discard", "more"


def flow(table: Table, say: Say) -> Flow:
    yield from set_up(table, say)
    notes: list[str] = []
    while True:
        table.round += 1
        yield from play_round(table, say)
        expedition_over = table.round == ROUNDS_PER_EXPEDITION
        if expedition_over:
            end_of_expedition(table, say)
        game_over = expedition_over and table.expedition == EXPEDITIONS
        if not game_over and no_potion_left(table):
            notes.append(end_early(table, say))
            game_over = True
        if game_over:
            return finish(table, say, notes)
        if expedition_over:
            table.expedition, table.round = table.expedition + 1, 0


# --- setup -------------------------------------------------------------------------------------


def set_up(table: Table, say: Say) -> Steps:
    table.step = "setup"
    witches = len(table.witches)
    say(
        f"Setup for {witches} witches: {len(table.forest)} forest rows of {FOREST_COLUMNS} cards, "
        f"{rules.spells_per_type(witches)} spell card(s) in each of the {len(SPELLS)} stacks, "
        f"{POTION_DISPLAY} potions face up, and {STARTING_COINS} coins and {PUPPETS_PER_WITCH} puppets for each witch. "
        "Forest rows are lettered from the round marker (A) and columns numbered from the village (1)."
    )
    name = yield Choice(
        "Who was in a forest most recently? She takes the cauldron",
        "setup",
        options=tuple(witch.name for witch in table.witches),
    )
    table.cauldron = table.seat(name)


# --- a round -----------------------------------------------------------------------------------


def play_round(table: Table, say: Say) -> Steps:
    holder = table.witches[table.cauldron].name
    say(f"Expedition {table.expedition}, round {table.round}: the marker is under column {table.round}; "
        f"{holder} holds the cauldron.")
    if table.rulings.get(rules.CAULDRON_TIMING) == "round-start":
        pass_cauldron(table, say, "starts this round")
    table.step = FOREST_STEP
    for witch in table.clockwise_from_cauldron():
        if witch.puppets_home == 0:
            say(f"{witch.name} has every puppet in the forest and waits for {VILLAGE_STEP}.")
            continue
        yield from exploration_turn(table, witch, say)
    if table.rulings.get(rules.CAULDRON_TIMING) == "before-return":
        pass_cauldron(table, say, "will start the next round")
    yield from return_to_village(table, say)
    end_of_round(table, say)


def pass_cauldron(table: Table, say: Say, starts: str) -> None:
    """The owner of the puppet farthest from the marker in its column takes the cauldron (#first-witch;
    when this happens is ruling cauldron-timing)."""
    column = table.round - 1
    owner = rules.first_witch(table.forest, column)
    if owner is None:
        holder = table.witches[table.cauldron].name
        say(f"No puppet in column {column + 1}: the cauldron stays with {holder} (ruling cauldron-timing).")
        return
    table.cauldron = table.seat(owner)
    say(f"{owner}'s puppet is the farthest from the marker in column {column + 1}: she takes the cauldron "
        f"and {starts} (ruling cauldron-timing).")


@dataclass(frozen=True)
class TurnAnswer:
    """One answer at a witch's turn: a placement or purchase, an additional action, or 'done'."""

    kind: str
    """'place', 'buy', 'discard', 'action' or 'done'."""
    cell: tuple[int, int] | None = None
    price: int = 0
    action: str = ""
    more: bool = False
    """She has more to do after this placement or purchase (the answer ended in 'more')."""


@dataclass(frozen=True)
class TurnOptions:
    """What a witch may answer at this moment of her turn."""

    cells: frozenset[tuple[int, int]]
    """Cards she may put a puppet on (empty when she places none now)."""
    max_price: int | None
    """The most she can pay for the card under her returning puppet (None: no purchase now)."""
    actions: tuple[str, ...]
    done: bool
    """Whether she may end her turn."""


@dataclass
class TurnState:
    """What a witch's current turn allows: puppets still to place, spells in effect, brewing."""

    step: str
    to_place: int = 0
    decided: bool = False
    """Return to the Village: whether she has bought or discarded the card under her puppet."""
    free_card: bool = False
    brewed: bool = False
    missing_ingredient: bool = False


def read_turn_answer(text: str, rows: int, options: TurnOptions) -> TurnAnswer:
    words = text.lower().split()
    more = len(words) == 2 and words[1] in (MORE, "+")
    if more:
        words = words[:1]
    if len(words) == 1 and len(words[0]) > 1 and words[0].endswith("+"):
        words, more = [words[0][:-1]], True
    if len(words) != 1:
        raise ValueError("one answer at a time")
    word = words[0]
    if not more and word in options.actions:
        return TurnAnswer("action", action=word)
    if not more and word == DONE:
        if not options.done:
            raise ValueError("she cannot end her turn yet")
        return TurnAnswer("done")
    if options.cells:
        cell = rules.parse_cell(word, rows)
        if cell is not None:
            if cell not in options.cells:
                raise ValueError(f"{word.upper()} is not a card without a puppet")
            return TurnAnswer("place", cell=cell, more=more)
    if options.max_price is not None:
        if word == DISCARD:
            return TurnAnswer("discard", more=more)
        if word.isdecimal():
            price = int(word)
            if price > options.max_price:
                raise ValueError(f"she can pay at most {options.max_price}")
            return TurnAnswer("buy", price=price, more=more)
    raise ValueError("not an answer for this moment")


def turn_examples(options: TurnOptions) -> tuple[str, ...]:
    cells = sorted(options.cells)
    examples = [rules.cell_label(*cell) for cell in cells]
    examples += [f"{rules.cell_label(*cell)} {MORE}" for cell in cells[:2]]
    if options.max_price is not None:
        examples += [str(price) for price in range(1, min(options.max_price, 5) + 1)]
        examples += [DISCARD, f"{DISCARD} {MORE}", f"{min(options.max_price, 1)} {MORE}"]
    examples += list(options.actions)
    if options.done:
        examples.append(DONE)
    return tuple(examples)


def turn_hint(options: TurnOptions) -> str:
    parts = []
    if options.cells:
        parts.append("a card without a puppet (e.g. " + rules.cell_label(*min(options.cells)) + ")")
    if options.max_price is not None:
        parts.append(f"the printed price to buy it (0 to {options.max_price}) or 'discard'")
    if options.cells or options.max_price is not None:
        parts.append(f"add ' {MORE}' to keep the turn open for actions")
    if options.actions:
        parts.append("an additional action: " + ", ".join(options.actions))
    if options.done:
        parts.append(f"'{DONE}'")
    return "; ".join(parts)


def ask_turn(
    table: Table, prompt: str, section: str, now: TurnOptions, current: Callable[[], TurnOptions]
) -> Generator[Question, Any, TurnAnswer]:
    """Ask for the witch's next move, offering `now`. The answer is checked against `current()` at
    the moment it is given, so a correction entered at this prompt (coins, potions, spells) counts."""
    rows = len(table.forest)
    if now.actions:
        prompt += f" [actions: {', '.join(now.actions)}]"
    answer: TurnAnswer = yield Parsed(
        prompt,
        section,
        parser=lambda text: read_turn_answer(text, rows, current()),
        hint=turn_hint(now),
        examples=turn_examples(now),
    )
    return answer


# --- Forest Exploration ------------------------------------------------------------------------


def forest_options(table: Table, witch: Witch, turn: TurnState) -> TurnOptions:
    free = frozenset(rules.free_cells(table.forest))
    can_place = turn.to_place > 0 and witch.puppets_home > 0 and bool(free)
    return TurnOptions(free if can_place else frozenset(), None, open_actions(table, witch, turn), not can_place)


def exploration_turn(table: Table, witch: Witch, say: Say) -> Steps:
    table.active = witch.name
    turn = TurnState(FOREST_STEP, to_place=1)
    keep_open = True
    while True:
        options = forest_options(table, witch, turn)
        if not options.cells and (not keep_open or not options.actions):
            if turn.to_place > 0 and witch.puppets_home > 0:
                say(f"{witch.name} finds no card without a puppet and places none.")
            return
        what = "places a puppet: on which card?" if options.cells else "has placed: anything more, or done?"
        answer = yield from ask_turn(
            table,
            f"{witch.name} {what} ({witch.coins} coins)",
            "forest-exploration",
            options,
            lambda: forest_options(table, witch, turn),
        )
        if answer.kind == "done":
            return
        if answer.kind == "action":
            yield from take_action(table, witch, turn, answer.action, say)
            continue
        assert answer.cell is not None
        row, column = answer.cell
        table.forest[row][column] = witch.name
        witch.puppets_home -= 1
        turn.to_place -= 1
        keep_open = answer.more
        where = "in the marker's column" if column == table.round - 1 else f"column {column + 1}"
        say(f"{witch.name} puts a puppet on {rules.cell_label(row, column)} ({where}).")


# --- Return to the Village ---------------------------------------------------------------------


def return_to_village(table: Table, say: Say) -> Steps:
    table.step = VILLAGE_STEP
    column = table.round - 1
    returned: set[str] = set()
    while (row := rules.next_returning(table.forest, column)) is not None:
        owner = table.forest[row][column]
        assert owner
        witch = table.witch(owner)
        returned.add(witch.name)
        yield from village_turn(table, witch, row, column, say)
    idle = [witch.name for witch in table.witches if witch.name not in returned]
    if idle:
        say(f"No puppet comes back for {', '.join(idle)}: no turn in {VILLAGE_STEP} this round.")


def village_options(table: Table, witch: Witch, turn: TurnState) -> TurnOptions:
    actions = open_actions(table, witch, turn)
    if turn.decided:
        return TurnOptions(frozenset(), None, actions, True)
    return TurnOptions(frozenset(), PRINTED_VALUE_GUARD if turn.free_card else witch.coins, actions, False)


def village_turn(table: Table, witch: Witch, row: int, column: int, say: Say) -> Steps:
    table.active = witch.name
    turn = TurnState(VILLAGE_STEP)
    label = rules.cell_label(row, column)
    keep_open = True
    while True:
        options = village_options(table, witch, turn)
        if turn.decided and (not keep_open or not options.actions):
            return
        if turn.decided:
            prompt = f"{witch.name}, anything more this turn, or done? ({witch.coins} coins)"
        else:
            cost = "free with her spell" if turn.free_card else f"she has {witch.coins} coins"
            prompt = f"{witch.name}'s puppet returns from {label}: price to buy the card ({cost}), or discard"
        answer = yield from ask_turn(
            table, prompt, "return-to-village", options, lambda: village_options(table, witch, turn)
        )
        if answer.kind == "done":
            return
        if answer.kind == "action":
            yield from take_action(table, witch, turn, answer.action, say)
            continue
        turn.decided, keep_open = True, answer.more
        if answer.kind == "buy":
            paid = 0 if turn.free_card else answer.price
            witch.coins -= paid
            witch.forest_cards.append(answer.price)
            how = "free (spell)" if turn.free_card else f"for {paid}"
            say(f"{witch.name} buys the card on {label} {how}; the row slides toward the village.")
        else:
            table.forest_discard += 1
            say(f"The card on {label} is discarded; the row slides toward the village.")
        turn.free_card = False
        rules.take_card(table.forest, row, column)
        witch.puppets_home += 1


# --- additional actions ------------------------------------------------------------------------


def open_actions(table: Table, witch: Witch, turn: TurnState) -> tuple[str, ...]:
    """The additional actions she can take right now, spells by name (#additional-actions)."""
    actions: list[str] = []
    if turn.step == VILLAGE_STEP and table.potion_display > 0 and (
        witch.forest_cards or turn.brewed or turn.missing_ingredient
    ):
        actions.append(BREW)
    if witch.potions_kept > 0:
        actions.append(SELL)
    if rules.may_trade(table, witch):
        actions.append(TRADE)
    if rules.may_borrow(table, witch):
        actions.append(BORROW)
    actions += [kind for kind in rules.ready_spells(witch, turn.step) if spell_fits(table, witch, turn, kind)]
    return tuple(actions)


def spell_fits(table: Table, witch: Witch, turn: TurnState, kind: str) -> bool:
    """Whether casting the spell now can change anything the rules allow."""
    free = rules.free_cells(table.forest)
    if kind == SECOND_PUPPET:
        return witch.puppets_home > turn.to_place and len(free) > turn.to_place
    if kind == SWAP:
        return len(free) >= 2
    if kind == FORAGE:
        reshuffle = table.rulings.get(rules.FOREST_DECK) == "reshuffle"
        return table.forest_deck + (table.forest_discard if reshuffle else 0) > 0
    if kind == FREE_CARD:
        return not turn.decided and not turn.free_card
    if kind == MISSING_INGREDIENT:
        return table.potion_display > 0 and not turn.missing_ingredient
    if kind == MOVE_A_RIVAL:
        rivals = [cell for cell in rules.puppet_cells(table.forest) if table.forest[cell[0]][cell[1]] != witch.name]
        return bool(rivals) and bool(free)
    return False


def take_action(table: Table, witch: Witch, turn: TurnState, action: str, say: Say) -> Steps:
    if action == BREW:
        yield from brew(table, witch, turn, say)
    elif action == SELL:
        witch.potions_kept -= 1
        witch.potions_sold += 1
        paid = rules.pay_from_supply(table, witch, SELL_COINS)
        say(f"{witch.name} sells a potion: turn it to its coin side; +{paid} coins, 2 reputation less."
            + supply_note(paid, SELL_COINS))
    elif action == TRADE:
        yield from trade(table, witch, say)
    elif action == BORROW:
        witch.fagus_tokens += 1
        paid = rules.pay_from_supply(table, witch, LOAN_COINS)
        say(f"{witch.name} borrows from Fagus Beech: +{paid} coins and a Fagus Beech token (-5 at the end)."
            + supply_note(paid, LOAN_COINS))
    else:
        rules.use_spell(witch, action)
        yield from cast(table, witch, turn, action, say)


def supply_note(paid: int, owed: int) -> str:
    if paid == owed:
        return ""
    return f" The supply held only {paid} of the {owed} coins (ruling coin-supply)."


def brew(table: Table, witch: Witch, turn: TurnState, say: Say) -> Steps:
    reward = yield Number(
        f"{witch.name} brews a potion from the display: coin reward printed on it?",
        "brew-potion",
        maximum=PRINTED_VALUE_GUARD,
    )
    reputation = yield Number(
        f"{witch.name}: reputation printed on that potion?", "potion-cards", maximum=PRINTED_VALUE_GUARD
    )
    used = yield from ask_cards_used(witch, turn)
    if table.potion_display == 0:  # a correction entered at one of these questions emptied it
        say("The potion display is empty after the correction: nothing is brewed.")
        return
    for price in used:
        witch.forest_cards.remove(price)
    table.forest_discard += len(used)
    table.potion_display -= 1
    witch.potions_kept += 1
    witch.potion_reputation += reputation
    turn.brewed = True
    paid = rules.pay_from_supply(table, witch, reward)
    cards = f"discarding {len(used)} forest card(s)" if used else "with ingredients already set aside this turn"
    say(f"{witch.name} brews a potion worth {reputation} reputation, {cards}; +{paid} coins."
        + supply_note(paid, reward))


def ask_cards_used(witch: Witch, turn: TurnState) -> Generator[Question, Any, list[int]]:
    """Which of her forest cards (by printed price) she discards for the potion."""
    none_allowed = turn.brewed or turn.missing_ingredient

    def parse(text: str) -> list[int]:
        words = text.lower().replace(",", " ").split()
        if words == ["none"]:
            if not none_allowed:
                raise ValueError("a potion needs at least one of her forest cards")
            return []
        if not words or not all(word.isdecimal() for word in words):
            raise ValueError("give the prices of the cards, e.g. '2 3'")
        prices = [int(word) for word in words]
        held = list(witch.forest_cards)
        for price in prices:
            if price not in held:
                raise ValueError(f"she has no other forest card priced {price} (she has {describe_cards(witch)})")
            held.remove(price)
        return prices

    examples = [str(price) for price in sorted(set(witch.forest_cards))]
    if len(witch.forest_cards) > 1:
        examples.append(" ".join(str(price) for price in witch.forest_cards))
    if none_allowed:
        examples.append("none")
    hint = f"the printed prices of the forest cards she discards, from: {describe_cards(witch)}"
    used: list[int] = yield Parsed(
        f"{witch.name}: which forest cards does she discard for it (their prices)?",
        "brew-potion",
        parser=parse,
        hint=hint + ("; or 'none' if the ingredients are already set aside" if none_allowed else ""),
        examples=tuple(examples),
    )
    return used


def describe_cards(witch: Witch) -> str:
    return " ".join(str(price) for price in witch.forest_cards) or "no cards"


def trade(table: Table, witch: Witch, say: Say) -> Steps:
    offer = rules.spells_on_offer(table)
    cost = rules.spell_cost(witch)
    if len(offer) == 1:
        kind = offer[0]
    else:
        kind = yield Choice(
            f"{witch.name} trades two potions and {cost} coins with Tapimoke: which spell?",
            "exchange-for-spell",
            options=offer,
        )
    if not rules.may_trade(table, witch) or kind not in rules.spells_on_offer(table):
        say(f"After the correction {witch.name} can no longer pay for the {kind} spell: no trade.")
        return
    witch.coins -= cost
    witch.potions_kept -= 2
    witch.potions_traded += 2
    witch.spells.append(Spell(kind))
    say(
        f"{witch.name} takes the {kind} spell for {cost} coins: turn two potions of the colours on the "
        "card to their spell side (their reputation stays)."
    )


def cast(table: Table, witch: Witch, turn: TurnState, kind: str, say: Say) -> Steps:
    if kind == SECOND_PUPPET:
        turn.to_place += 1
        say(f"{witch.name} casts {kind}: she places one more puppet this turn.")
    elif kind == SWAP:
        say(f"{witch.name} casts {kind}: swap two forest cards without puppets.")
    elif kind == FREE_CARD:
        turn.free_card = True
        say(f"{witch.name} casts {kind}: the card under her returning puppet costs her nothing.")
    elif kind == MISSING_INGREDIENT:
        turn.missing_ingredient = True
        say(f"{witch.name} casts {kind}: one potion she brews may lack one ingredient.")
    elif kind == FORAGE:
        yield from forage(table, witch, say)
    elif kind == MOVE_A_RIVAL:
        yield from move_a_rival(table, witch, turn, say)


def forage(table: Table, witch: Witch, say: Say) -> Steps:
    drawn, reshuffled = rules.draw_forest_cards(table, FORAGE_CARDS)
    table.foraged = drawn
    if reshuffled:
        say("The forest deck ran short: shuffle the discards into a new deck (ruling forest-deck).")
    most = min(PRINTED_VALUE_GUARD, 2 * witch.coins + 1)

    def parse(text: str) -> int | None:
        if text.lower() in ("none", "no"):
            return None
        if not text.isdecimal() or int(text) // 2 > witch.coins or int(text) > PRINTED_VALUE_GUARD:
            raise ValueError(f"a printed price she can pay half of (0 to {most}), or 'none'")
        return int(text)

    price: int | None = yield Parsed(
        f"{witch.name} casts forage and draws {drawn} forest card(s): printed price of the one she buys "
        "at half price, or 'none'",
        "spells",
        parser=parse,
        hint=f"a printed price from 0 to {most}, or 'none'",
        examples=("none", *(str(value) for value in range(0, min(most, 6) + 1))),
    )
    kept = 0
    if price is not None:
        witch.coins -= price // 2
        witch.forest_cards.append(price)
        kept = 1
        say(f"{witch.name} buys it for {price // 2} coins (half of {price}, rounded down).")
    table.forest_discard += drawn - kept
    table.foraged = 0
    say(f"The other {drawn - kept} drawn card(s) are discarded.")


def move_a_rival(table: Table, witch: Witch, turn: TurnState, say: Say) -> Steps:
    rivals = {
        f"{rules.cell_label(row, column)} {table.forest[row][column]}": (row, column)
        for row, column in rules.puppet_cells(table.forest)
        if table.forest[row][column] != witch.name
    }
    picked = yield Choice(f"{witch.name} casts {MOVE_A_RIVAL}: which rival puppet moves?", "spells",
                          options=tuple(rivals))
    row, column = rivals[picked]
    rival = table.witch(str(table.forest[row][column]))
    destinations = {rules.cell_label(*cell): cell for cell in rules.free_cells(table.forest)}
    target = yield Choice(f"{rival.name}'s puppet moves from {rules.cell_label(row, column)} to which card?",
                          "spells", options=tuple(destinations))
    new_row, new_column = destinations[target]
    table.forest[new_row][new_column] = rival.name
    table.forest[row][column] = EMPTY_CARD
    paid = rules.pay_from_supply(table, rival, RIVAL_COMPENSATION)
    say(f"{rival.name}'s puppet moves to {target}; she takes {paid} coins." + supply_note(paid, RIVAL_COMPENSATION))
    vacated = rules.cell_label(row, column)
    if table.rulings.get(rules.RIVAL_SPOT) == "extra" and witch.puppets_home > turn.to_place:
        if (yield Confirm(f"Does {witch.name} put a puppet on {vacated} now (ruling rival-spot)?", "spells")):
            table.forest[row][column] = witch.name
            witch.puppets_home -= 1
            say(f"{witch.name} puts a puppet on {vacated}, besides her own placement (ruling rival-spot).")
    elif turn.to_place > 0 and witch.puppets_home > 0:
        say(f"{vacated} is free: {witch.name} may place her puppet for this turn there (ruling rival-spot).")


# --- the end of a round, of an expedition, of the game -----------------------------------------


def end_of_round(table: Table, say: Say) -> None:
    table.step, table.active = "end of round", None
    wanted = rules.gaps(table.forest)
    drawn, reshuffled = rules.draw_forest_cards(table, wanted)
    if reshuffled:
        say("The forest deck ran short: shuffle the discards into a new deck (ruling forest-deck).")
    rules.deal_into_gaps(table.forest, drawn)
    added = rules.refill_display(table)
    short = f" ({wanted - drawn} gap(s) stay empty: no forest card left, ruling forest-deck)" if drawn < wanted else ""
    say(f"End of round {table.round}: deal {drawn} forest card(s) into the gaps{short}; add {added} potion(s) "
        f"to the display ({table.potion_display} face up, {table.potion_deck} in the deck).")


def no_potion_left(table: Table) -> bool:
    return rules.potions_exhausted(table) or table.end_declared


def end_early(table: Table, say: Say) -> str:
    why = "the table declared that no potion left can be brewed" if table.end_declared else (
        "no potion card is left to brew")
    note = f"The game ends after expedition {table.expedition}, round {table.round}: {why} (ruling potions-run-out)."
    if table.round < ROUNDS_PER_EXPEDITION:
        if table.rulings.get(rules.POTIONS_RUN_OUT) == "sell-leftovers":
            sell_leftovers(table, say)
            note += " Leftover forest cards were sold at half price."
        else:
            note += " Leftover forest cards are not sold: that belongs to an expedition's end."
    say(note)
    return note


def end_of_expedition(table: Table, say: Say) -> None:
    table.step, table.active = "end of expedition", None
    sell_leftovers(table, say)
    restored = rules.restore_spells(table)
    if restored:
        say(f"Turn the {restored} used spell(s) face up again.")
    if table.expedition < EXPEDITIONS:
        say(f"Expedition {table.expedition} is over: move the expedition marker on and the round marker back "
            "to column 1. Puppets in the forest stay where they are.")


def sell_leftovers(table: Table, say: Say) -> None:
    for witch in table.witches:
        if not witch.forest_cards:
            continue
        owed = rules.compensation(witch)
        paid = rules.pay_from_supply(table, witch, owed)
        say(f"{witch.name} sells her {len(witch.forest_cards)} leftover forest card(s) (prices "
            f"{describe_cards(witch)}) for half: +{paid} coins." + supply_note(paid, owed))
        table.forest_discard += len(witch.forest_cards)
        witch.forest_cards.clear()


def finish(table: Table, say: Say, notes: list[str]) -> ScoreReport:
    table.step, table.active, table.finished = "final score", None, True
    rulings = Rulings(
        final_tie=table.rulings.get("final-tie", "share"),
        coin_supply=table.rulings.get("coin-supply", "limited"),
    )
    holdings = Holdings(
        tuple(
            WitchHoldings(witch.name, witch.reputation, witch.coins, witch.fagus_tokens, witch.potions_brewed)
            for witch in table.witches
        ),
        rulings,
    )
    report = score(holdings)
    report.notes[:0] = notes
    sold = [witch for witch in table.witches if witch.potions_sold]
    if sold:
        report.notes.append(
            "Reputation counts each sold potion 2 below its front: "
            + ", ".join(f"{witch.name} {witch.potions_sold} sold" for witch in sold) + "."
        )
    say("The game is over: reputation, 1 point per 3 coins, -5 per Fagus Beech token.")
    return report
