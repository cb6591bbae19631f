"""Blackwood as a guided game: state creation, corrections, the end, invariants and views."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.corrections import GAME as OF_THE_GAME
from referee.engine.corrections import Action, Counter, Field
from referee.engine.game import Game, Header, PublicView, Setup
from referee.errors import InvalidAdjustment
from referee.games.blackwood import cards, flow, rules, scoring
from referee.games.blackwood.rulings import RULINGS
from referee.games.blackwood.scoring import COIN_VALUE_IN_BOX, FAGUS_TOKENS_IN_BOX
from referee.games.blackwood.state import (
    EXPEDITIONS,
    FOREST_CARDS,
    FOREST_COLUMNS,
    FOREST_ROWS,
    POTION_CARDS,
    POTION_DISPLAY,
    PRINTED_VALUE_GUARD,
    PUPPETS_PER_WITCH,
    ROUNDS_PER_EXPEDITION,
    SPELLS,
    Spell,
    Table,
    Witch,
)
from referee.outcome import Termination

RESERVED_NAMES = ("display", "end")
"""Corrections that name no witch ('adjust display =5', 'adjust end'): no witch may be named so."""
REPUTATION_BOUND = PRINTED_VALUE_GUARD * POTION_CARDS
"""No 40 potion cards can show more reputation than this: a bound against slips of the keyboard."""


# --- corrections -----------------------------------------------------------------------------------


def set_coins(table: Table, who: str, value: int) -> None:
    witch = table.witch(who)
    left = rules.supply_coins(table)
    if left is not None and value - witch.coins > left:
        raise InvalidAdjustment(f"the supply holds only {left} coins (ruling coin-supply)")
    witch.coins = value


def set_fagus(table: Table, who: str, value: int) -> None:
    witch = table.witch(who)
    left = rules.fagus_tokens_left(table)
    if left is not None and value - witch.fagus_tokens > left:
        raise InvalidAdjustment(f"only {FAGUS_TOKENS_IN_BOX} Fagus Beech tokens exist (ruling fagus-tokens)")
    witch.fagus_tokens = value


def set_reputation(table: Table, who: str, value: int) -> None:
    table.witch(who).potion_reputation = value


def potion_counter(pile: str) -> Counter[Table]:
    """Her potion cards lying kept, sold or traded: a change takes cards from the potion deck or
    puts them back."""
    attribute = f"potions_{pile}"

    def read(table: Table, who: str) -> int:
        value: int = getattr(table.witch(who), attribute)
        return value

    def write(table: Table, who: str, value: int) -> None:
        added = value - read(table, who)
        if added > table.potion_deck:
            raise InvalidAdjustment(f"only {table.potion_deck} potion card(s) left in the potion deck")
        table.potion_deck -= added
        setattr(table.witch(who), attribute, value)

    return Counter(pile, read, write, about=f"her potion cards lying {pile}")


def set_display(table: Table, who: str, value: int) -> None:
    added = value - table.potion_display
    if added > table.potion_deck:
        raise InvalidAdjustment(f"only {table.potion_deck} potion card(s) left in the potion deck")
    table.potion_deck -= added
    table.potion_display = value


def signed_word(rest: str, what: str) -> tuple[str, str]:
    """'+3', '- swap': the sign and the word after it."""
    text = rest.strip()
    if not text or text[0] not in "+-" or not text[1:].strip():
        raise InvalidAdjustment(f"write +{what} to add one or -{what} to take one away")
    return text[0], text[1:].strip().lower()


def adjust_card(table: Table, who: str, rest: str) -> str:
    """A forest card in front of her: +PRICE takes one from the deck, -PRICE discards one."""
    witch = table.witch(who)
    sign, word = signed_word(rest, "PRICE")
    if not word.isdecimal() or int(word) > PRINTED_VALUE_GUARD:
        raise InvalidAdjustment(f"a forest card's printed price is a number from 0 to {PRINTED_VALUE_GUARD}")
    price = int(word)
    if sign == "-":
        if price not in witch.forest_cards:
            raise InvalidAdjustment(f"{witch.name} has no forest card priced {price}")
        witch.forest_cards.remove(price)
        table.forest_discard += 1
        return f"{witch.name} discards a forest card priced {price}"
    if table.forest_deck == 0:
        raise InvalidAdjustment("the forest deck is empty")
    table.forest_deck -= 1
    witch.forest_cards.append(price)
    return f"{witch.name} takes a forest card priced {price} from the deck"


def adjust_spell(table: Table, who: str, rest: str) -> str:
    """A spell card: +KIND takes one from its stack, -KIND returns one."""
    witch = table.witch(who)
    sign, kind = signed_word(rest, "KIND")
    if kind not in SPELLS:
        raise InvalidAdjustment(f"unknown spell {kind!r}; spells: {', '.join(SPELLS)}")
    if sign == "+":
        if rules.spells_left(table, kind) <= 0:
            raise InvalidAdjustment(f"no {kind} spell card is left in its stack")
        witch.spells.append(Spell(kind))
        return f"{witch.name} takes a {kind} spell"
    held = [spell for spell in witch.spells if spell.kind == kind]
    if not held:
        raise InvalidAdjustment(f"{witch.name} has no {kind} spell")
    witch.spells.remove(held[-1])
    return f"{witch.name} returns a {kind} spell to its stack"


def declare_end(table: Table, who: str, rest: str) -> str:
    """'end': the table agrees no potion left can be brewed (#ruling-potions-run-out); 'end cancel'
    takes it back."""
    word = rest.strip().lower()
    if word not in ("", "cancel"):
        raise InvalidAdjustment("write 'end' (no potion left can be brewed) or 'end cancel'")
    table.end_declared = word == ""
    if table.end_declared:
        return "the table declares no potion left can be brewed: the game ends with this round"
    return "the declaration that no potion can be brewed is withdrawn"


FIELDS: tuple[Field[Table], ...] = (
    Counter("coins", lambda table, who: table.witch(who).coins, set_coins, about="the coin value she holds"),
    Counter("fagus", lambda table, who: table.witch(who).fagus_tokens, set_fagus, about="her Fagus Beech tokens"),
    Counter(
        "reputation",
        lambda table, who: table.witch(who).potion_reputation,
        set_reputation,
        lambda table, who: (-REPUTATION_BOUND, REPUTATION_BOUND),
        about="the reputation printed on the fronts of her potion cards",
    ),
    potion_counter("kept"),
    potion_counter("sold"),
    potion_counter("traded"),
    Action("card", adjust_card, form="+PRICE|-PRICE", about="a forest card in front of her"),
    Action("spell", adjust_spell, form="+KIND|-KIND", about="a spell card of hers"),
    Counter(
        "display",
        lambda table, who: table.potion_display,
        set_display,
        lambda table, who: (0, POTION_DISPLAY),
        kind=OF_THE_GAME,
        about="the potion cards face up above the village",
    ),
    Action("end", declare_end, form="[cancel]", kind=OF_THE_GAME, about="no potion left can be brewed"),
)


class Blackwood(Game[Table]):
    id = "blackwood"
    rulebook = "blackwood"
    reserved_names = RESERVED_NAMES
    player_noun = "witch"
    rulings = RULINGS
    printed_cards = cards.KINDS
    short_headers = {"Puppets home": "Pup.", "Forest cards": "Forest", "Potions kept/sold/traded": "Pot. k/s/t",
                     "Reputation": "Rep.", **scoring.SHORT_PARTS}
    correction_example = "Ann coins =1 ; she paid a card the referee did not see"
    play = staticmethod(flow.play)
    final_count = staticmethod(flow.final_count)

    def initial_state(self, setup: Setup) -> Table:
        forest = rules.new_forest(len(setup.players))
        return Table(
            [Witch(name) for name in setup.players],
            setup.rulings,
            forest,
            forest_deck=FOREST_CARDS - rules.cards_in_forest(forest),
        )

    def termination(self, state: Table) -> Termination | None:
        """Blackwood ends only as a round ends, so the flow stops there; this says which end it was."""
        return rules.game_end(state)

    def player_names(self, state: Table) -> Sequence[str]:
        return [witch.name for witch in state.witches]

    def correction_fields(self) -> Sequence[Field[Table]]:
        return FIELDS

    # --- checks and views ------------------------------------------------------------------------

    def invariant_errors(self, state: Table) -> list[str]:
        errors: list[str] = []
        names = {witch.name for witch in state.witches}
        if len(state.forest) != FOREST_ROWS.get(len(state.witches), -1):
            errors.append(f"the forest has {len(state.forest)} rows")
        errors += [f"a forest row has {len(row)} cells" for row in state.forest if len(row) != FOREST_COLUMNS]
        in_forest = rules.puppets_by_witch(state.forest)
        errors += [f"unknown puppet {name!r} in the forest" for name in sorted(set(in_forest) - names)]
        for witch in state.witches:
            counts = (witch.coins, witch.fagus_tokens, witch.potions_kept, witch.potions_sold, witch.potions_traded)
            if min(counts) < 0 or witch.puppets_home < 0:
                errors.append(f"{witch.name} has a negative count")
            out = in_forest[witch.name]
            if witch.puppets_home + out != PUPPETS_PER_WITCH:
                errors.append(f"{witch.name} has {witch.puppets_home} puppets home and {out} in the forest")
            if any(not 0 <= price <= PRINTED_VALUE_GUARD for price in witch.forest_cards):
                errors.append(f"{witch.name} holds a forest card with an impossible price")
            if witch.potions_brewed == 0 and witch.potion_reputation != 0:
                errors.append(f"{witch.name} has reputation without potion cards")
            if any(spell.kind not in SPELLS for spell in witch.spells):
                errors.append(f"{witch.name} holds an unknown spell")
        tokens_left = rules.fagus_tokens_left(state)
        if tokens_left is not None and tokens_left < 0:
            errors.append(f"more than {FAGUS_TOKENS_IN_BOX} Fagus Beech tokens held (ruling fagus-tokens)")
        supply = rules.supply_coins(state)
        if supply is not None and supply < 0:
            errors.append(f"more than {COIN_VALUE_IN_BOX} in coins held (ruling coin-supply)")
        if not 0 <= state.potion_display <= POTION_DISPLAY or state.potion_deck < 0:
            errors.append(f"potion display {state.potion_display}, deck {state.potion_deck}")
        if rules.potions_in_game(state) != POTION_CARDS:
            errors.append(f"{rules.potions_in_game(state)} potion cards accounted for, not {POTION_CARDS}")
        if state.forest_deck < 0 or state.forest_discard < 0:
            errors.append(f"forest deck {state.forest_deck}, discard {state.forest_discard}")
        if rules.forest_cards_accounted(state) != FOREST_CARDS:
            errors.append(f"{rules.forest_cards_accounted(state)} forest cards accounted for, not {FOREST_CARDS}")
        held, stack = rules.spells_held(state), rules.spells_per_type(len(state.witches))
        errors += [f"more {kind} spells held than the stack had" for kind in SPELLS if held[kind] > stack]
        if not 1 <= state.expedition <= EXPEDITIONS or not 0 <= state.round <= ROUNDS_PER_EXPEDITION:
            errors.append(f"expedition {state.expedition}, round {state.round} is outside the game")
        if not 0 <= state.cauldron < len(state.witches):
            errors.append("the cauldron is at no seat")
        return errors

    def header(self, state: Table) -> Header:
        progress = None
        if state.round:
            progress = f"expedition {state.expedition} of {EXPEDITIONS}, round {state.round} of {ROUNDS_PER_EXPEDITION}"
        return Header(state.rounds_played or None, state.active, state.step, state.active, progress)

    def public_view(self, state: Table) -> PublicView:
        columns = ["Player", "Coins", "Puppets home", "Forest cards", "Potions kept/sold/traded",
                   "Reputation", "Spells", "Fagus"]
        rows = []
        for seat, witch in enumerate(state.witches):
            spells = ", ".join(spell.kind + (" (used)" if spell.used else "") for spell in witch.spells)
            rows.append([
                ("* " if seat == state.cauldron else "") + witch.name,
                str(witch.coins),
                str(witch.puppets_home),
                shown_cards(witch.forest_cards),
                f"{witch.potions_kept}/{witch.potions_sold}/{witch.potions_traded}",
                str(witch.reputation),
                spells or "-",
                str(witch.fagus_tokens),
            ])
        lines = [f"Expedition {state.expedition} of {EXPEDITIONS}, round {state.round} of {ROUNDS_PER_EXPEDITION}."]
        lines += forest_lines(state)
        lines.append(
            f"Potions: {state.potion_display} face up, {state.potion_deck} in the deck. Forest deck "
            f"{state.forest_deck}, discards {state.forest_discard}. Spells left: "
            + ", ".join(f"{kind} {rules.spells_left(state, kind)}" for kind in SPELLS)
        )
        if state.end_declared:
            lines.append("The table declared that no potion left can be brewed: this round is the last.")
        lines.append("* holds the cauldron. Everything in Blackwood lies face up.")
        return PublicView(columns, rows, lines)

    def hidden_view(self, state: Table, player: str) -> list[str]:
        witch = state.witch(player)
        return [
            f"{witch.name}: nothing is hidden in Blackwood. Forest cards {shown_cards(witch.forest_cards)}, "
            f"potion fronts worth {witch.potion_reputation} reputation, {witch.coins} coins."
        ]


def shown_cards(prices: Sequence[int]) -> str:
    if not prices:
        return "-"
    return f"{len(prices)} (prices {' '.join(str(price) for price in prices)})"


def forest_lines(state: Table) -> list[str]:
    """The forest as the table sees it: the farthest row on top, row A beside the round marker."""
    width = max([len(witch.name) for witch in state.witches] + [4])
    lines = ["Forest ('.' card, '-' no card, a name: her puppet):"]
    for row in reversed(range(len(state.forest))):
        cells = []
        for cell in state.forest[row]:
            shown = "-" if cell is None else (cell or ".")
            cells.append(shown.ljust(width))
        lines.append(f"  {chr(ord('A') + row)} | " + " ".join(cells))
    marker = ["    "] + [("^" if column == state.round - 1 else "").ljust(width) for column in range(FOREST_COLUMNS)]
    numbers = ["    "] + [str(column + 1).ljust(width) for column in range(FOREST_COLUMNS)]
    lines.append("  " + " ".join(numbers))
    if state.round:
        lines.append("  " + " ".join(marker) + " (round marker)")
    return lines


GAME = Blackwood()
