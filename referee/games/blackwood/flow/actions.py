"""Additional Actions (#additional-actions): brewing, trading potions for a spell, selling a
potion, casting a spell and borrowing from Fagus Beech, on the witch's own turn.

Only actions that can change something are offered: a potion needs one on display and an
ingredient to make it from (#brew-potion), and a spell is offered while it can still do what it
says (see spell_fits)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Parsed, Question, ask, pick
from referee.engine.cards import ask_card, card_field, remember
from referee.engine.game import Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.cards import POTION_CARD, reputation_question, reward_question
from referee.games.blackwood.flow.spells import cast
from referee.games.blackwood.flow.wording import coins, supply_note
from referee.games.blackwood.parse import (
    BORROW,
    BREW,
    NONE,
    SELL,
    TRADE,
    cards_used_examples,
    describe_cards,
    read_cards_used,
)
from referee.games.blackwood.rulings import FOREST_DECK, SECOND_PUPPET_TWICE
from referee.games.blackwood.scoring import FAGUS_TOKENS_IN_BOX
from referee.games.blackwood.state import (
    FORAGE,
    FREE_CARD,
    LOAN_ALLOWED_AT_MOST,
    LOAN_COINS,
    MISSING_INGREDIENT,
    MOVE_A_RIVAL,
    SECOND_PUPPET,
    SELL_COINS,
    SWAP,
    VILLAGE_STEP,
    Spell,
    Table,
    Turn,
    Witch,
)


def open_actions(table: Table, witch: Witch, turn: Turn) -> tuple[str, ...]:
    """The additional actions she can take right now, spells by name."""
    actions: list[str] = []
    if turn.step == VILLAGE_STEP and may_brew(table, witch, turn):
        actions.append(BREW)
    if witch.potions_kept > 0:
        actions.append(SELL)
    if rules.may_trade(table, witch):
        actions.append(TRADE)
    if rules.may_borrow(table, witch):
        actions.append(BORROW)
    actions += [kind for kind in rules.ready_spells(witch, turn.step) if spell_fits(table, witch, turn, kind)]
    return tuple(actions)


def may_brew(table: Table, witch: Witch, turn: Turn) -> bool:
    """A potion on display, and a forest card to discard for it or an ingredient left over from
    this turn's brewing (rules.ingredients_left)."""
    return table.potion_display > 0 and (bool(witch.forest_cards) or rules.ingredients_left(turn) > 0)


def spell_fits(table: Table, witch: Witch, turn: Turn, kind: str) -> bool:
    """Whether casting the spell now can change anything the rules allow. Each face-up copy may be
    cast in the same turn (#use-spell)."""
    free = rules.free_cells(table.forest)
    if kind == SECOND_PUPPET:
        if turn.second_puppets and SECOND_PUPPET_TWICE.of(table.rulings) == "once-a-turn":
            return False
        return witch.puppets_home > turn.to_place and len(free) > turn.to_place
    if kind == SWAP:
        return len(free) >= 2
    if kind == FORAGE:
        reshuffle = FOREST_DECK.of(table.rulings) == "reshuffle"
        return table.forest_deck + (table.forest_discard if reshuffle else 0) > 0
    if kind == FREE_CARD:
        return not turn.decided and not turn.free_card  # one card comes back with the puppet
    if kind == MISSING_INGREDIENT:
        return table.potion_display > 0
    if kind == MOVE_A_RIVAL:
        rivals = [cell for cell in rules.puppet_cells(table.forest) if table.forest[cell[0]][cell[1]] != witch.name]
        return bool(rivals) and bool(free)
    return False


def take_action(table: Table, witch: Witch, turn: Turn, action: str, say: Say) -> Steps:
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
            + supply_note(paid, LOAN_COINS) + tokens_note(table))
    else:
        rules.use_spell(witch, action)
        yield from cast(table, witch, turn, action, say)


def loan_note(table: Table, witch: Witch) -> str:
    """Why a witch with 2 coins or fewer is offered no loan: the tokens are out (ruling fagus-tokens)."""
    if witch.coins <= LOAN_ALLOWED_AT_MOST and not rules.may_borrow(table, witch):
        return f" [no loan: all {FAGUS_TOKENS_IN_BOX} Fagus Beech tokens are out, ruling fagus-tokens]"
    return ""


def tokens_note(table: Table) -> str:
    """Said when a loan goes past the 10 tokens of the box (ruling fagus-tokens set to unlimited)."""
    left = rules.fagus_tokens_left(table)
    held = sum(witch.fagus_tokens for witch in table.witches)
    if left is None and held > FAGUS_TOKENS_IN_BOX:
        return f" The box's {FAGUS_TOKENS_IN_BOX} tokens are all out: use a stand-in (ruling fagus-tokens)."
    return ""


# --- brewing ---------------------------------------------------------------------------------------


def brew(table: Table, witch: Witch, turn: Turn, say: Say) -> Steps:
    potion = yield from ask_card(POTION_CARD, "reward", reward_question(witch.name))
    reward = yield from card_field(potion, "reward", reward_question(witch.name))
    reputation = yield from card_field(potion, "reputation", reputation_question(witch.name))
    yield from remember(potion)
    if not may_brew(table, witch, turn):  # a correction at one of these questions took away what she needed
        say("After the correction there is no potion on display or nothing to brew it from: nothing is brewed.")
        return
    used = yield from cards_for_potion(witch, turn, say)
    if table.potion_display == 0:  # a correction entered at that question emptied the display
        say("The potion display is empty after the correction: nothing is brewed.")
        return
    for price in used:
        witch.forest_cards.remove(price)
    table.forest_discard += len(used)
    turn.cards_spent += len(used)
    turn.brews += 1
    table.potion_display -= 1
    witch.potions_kept += 1
    witch.potion_reputation += reputation
    paid = rules.pay_from_supply(table, witch, reward)
    cards = f"discarding {len(used)} forest card(s)" if used else "with ingredients already set aside this turn"
    say(f"{witch.name} brews a potion worth {reputation} reputation, {cards}; +{paid} coins."
        + supply_note(paid, reward))


def cards_for_potion(witch: Witch, turn: Turn, say: Say) -> Generator[Question, Any, list[int]]:
    """Which of her forest cards (by printed price) she discards for the potion; asked only when
    more than one answer is possible."""
    none_allowed = rules.ingredients_left(turn) > 0
    held = witch.forest_cards
    if not held:
        return []  # may_brew: what is left of this turn's ingredients makes it
    if len(held) == 1 and not none_allowed:
        say(f"{witch.name} discards her one forest card (price {held[0]}) for it.")
        return [held[0]]
    used = yield from ask(cards_question(witch, turn))
    return used


def cards_question(witch: Witch, turn: Turn) -> Builder[list[int]]:
    def build() -> Parsed[list[int]]:
        held = list(witch.forest_cards)
        none_allowed = rules.ingredients_left(turn) > 0
        if not held and not none_allowed:
            raise ValueError(f"{witch.name} has no forest card left to brew from")
        left_over = f"; or '{NONE}' if this turn's discarded cards still hold its ingredients" if none_allowed else ""
        return Parsed(
            f"{witch.name}: which forest cards does she discard for it (their prices)?",
            "brew-potion",
            parser=lambda text: read_cards_used(text, held, none_allowed),
            hint=f"the printed prices of the forest cards she discards, from: {describe_cards(held)}{left_over}",
            examples=cards_used_examples(held, none_allowed),
        )

    return build


# --- trading potions for a spell -------------------------------------------------------------------


def trade(table: Table, witch: Witch, say: Say) -> Steps:
    offer = rules.spells_on_offer(table)
    kind = offer[0] if len(offer) == 1 else (yield from ask(spell_question(table, witch)))
    if not rules.may_trade(table, witch) or kind not in rules.spells_on_offer(table):
        say(f"After the correction {witch.name} can no longer pay for the {kind} spell: no trade.")
        return
    cost = rules.spell_cost(witch)
    witch.coins -= cost
    witch.potions_kept -= 2
    witch.potions_traded += 2
    witch.spells.append(Spell(kind))
    say(
        f"{witch.name} takes the {kind} spell for {coins(cost)}: turn two potions of the colours on the "
        "card to their spell side (their reputation stays)."
    )


def spell_question(table: Table, witch: Witch) -> Builder[str]:
    return lambda: pick(
        f"{witch.name} trades two potions and {coins(rules.spell_cost(witch))} with Tapimoke: which spell?",
        "exchange-for-spell",
        [(kind, kind) for kind in rules.spells_on_offer(table)],
    )
