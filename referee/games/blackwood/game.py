"""Blackwood as a guided game: state creation, corrections, invariants and views."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.game import Flow, Game, Header, PublicView, Say, check_names, chosen_rulings
from referee.errors import InvalidAdjustment
from referee.games.blackwood import rules
from referee.games.blackwood.flow import flow
from referee.games.blackwood.scoring import (
    COIN_SUPPLY,
    COIN_VALUE_IN_BOX,
    FAGUS_TOKENS_IN_BOX,
    FINAL_TIE,
)
from referee.games.blackwood.scoring import (
    RULING_CHOICES as SCORING_RULINGS,
)
from referee.games.blackwood.state import (
    EXPEDITIONS,
    FOREST_CARDS,
    FOREST_COLUMNS,
    FOREST_ROWS,
    MAX_WITCHES,
    MIN_WITCHES,
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

RULING_CHOICES: dict[str, tuple[str, ...]] = {
    FINAL_TIE: SCORING_RULINGS[FINAL_TIE],
    COIN_SUPPLY: SCORING_RULINGS[COIN_SUPPLY],
    rules.CAULDRON_TIMING: ("before-return", "round-start"),
    rules.FOREST_DECK: ("reshuffle", "none"),
    rules.POTIONS_RUN_OUT: ("end-of-round", "sell-leftovers"),
    rules.RIVAL_SPOT: ("own-placement", "extra"),
}
"""Rulings the table may override for a guided session, with the default first."""

ADJUST_HELP = (
    "'<witch> <coins|fagus|reputation|kept|sold|traded> <+N|-N|=N>', '<witch> card <+PRICE|-PRICE>', "
    "'<witch> spell <+KIND|-KIND>', "
    "'display <+N|-N|=N>', or 'end' / 'end cancel' (no potion left can be brewed); "
    "e.g. 'Ann coins +2', 'Bo reputation =7', 'Cy card +3'"
)
ADJUST_FORM = re.compile(r"^(?P<who>.+?)\s+(?P<what>[a-z]+)\s+(?P<sign>[+=-]?)(?P<amount>\d{1,3})$", re.IGNORECASE)
DISPLAY_FORM = re.compile(r"^display\s+(?P<sign>[+=-]?)(?P<amount>\d{1,3})$", re.IGNORECASE)
SPELL_FORM = re.compile(r"^(?P<who>.+?)\s+spell\s+(?P<sign>[+-])\s*(?P<kind>[a-z-]+)$", re.IGNORECASE)
WITCH_FIELDS = ("coins", "fagus", "reputation", "kept", "sold", "traded", "card")
RESERVED_NAMES = ("display", "end")


class Blackwood(Game[Table]):
    id = "blackwood"
    rulebook = "blackwood"

    def check_players(self, players: Sequence[str]) -> None:
        check_names("Blackwood", players, MIN_WITCHES, MAX_WITCHES, RESERVED_NAMES, noun="witch")

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Table:
        self.check_players(players)
        rulings = chosen_rulings(RULING_CHOICES, options)
        forest = rules.new_forest(len(players))
        return Table(
            [Witch(name) for name in players],
            rulings,
            forest,
            forest_deck=FOREST_CARDS - rules.cards_in_forest(forest),
        )

    def flow(self, state: Table, say: Say) -> Flow:
        return flow(state, say)

    def adjust_help(self) -> str:
        return ADJUST_HELP

    # --- corrections -----------------------------------------------------------------------------

    def adjust(self, state: Table, text: str) -> str:
        text = " ".join(text.split())
        if text.lower() in ("end", "end cancel"):
            state.end_declared = text.lower() == "end"
            if state.end_declared:
                return "the table declares no potion left can be brewed: the game ends with this round"
            return "the declaration that no potion can be brewed is withdrawn"
        spell = SPELL_FORM.match(text)
        if spell:
            return self._adjust_spell(state, spell["who"], spell["sign"], spell["kind"].lower())
        display = DISPLAY_FORM.match(text)
        if display:
            return self._adjust_display(state, display["sign"], int(display["amount"]))
        match = ADJUST_FORM.match(text)
        if not match:
            raise InvalidAdjustment(f"cannot read {text!r}; use {ADJUST_HELP}")
        who, what, sign, amount = match["who"], match["what"].lower(), match["sign"], int(match["amount"])
        witch = self._witch(state, who)
        fields = [name for name in WITCH_FIELDS if name.startswith(what)]
        if len(fields) != 1:
            raise InvalidAdjustment(f"unknown field {what!r}; fields: {', '.join(WITCH_FIELDS)}")
        field = fields[0]
        if field == "card":
            return self._adjust_card(state, witch, sign, amount)
        current = {
            "coins": witch.coins,
            "fagus": witch.fagus_tokens,
            "reputation": witch.potion_reputation,
            "kept": witch.potions_kept,
            "sold": witch.potions_sold,
            "traded": witch.potions_traded,
        }[field]
        new = amount if sign == "=" else current + (-amount if sign == "-" else amount)
        if new < 0 and field != "reputation":
            raise InvalidAdjustment(f"{witch.name}'s {field} cannot go below 0 (it is {current})")
        if field == "coins":
            left = rules.supply_coins(state)
            if left is not None and new - current > left:
                raise InvalidAdjustment(f"the supply holds only {left} coins (ruling coin-supply)")
            witch.coins = new
        elif field == "fagus":
            if new - current > rules.fagus_tokens_left(state):
                raise InvalidAdjustment(f"only {FAGUS_TOKENS_IN_BOX} Fagus Beech tokens exist")
            witch.fagus_tokens = new
        elif field == "reputation":
            if abs(new) > PRINTED_VALUE_GUARD * POTION_CARDS:
                raise InvalidAdjustment(f"reputation {new} is beyond any 40 potion cards")
            witch.potion_reputation = new
        else:
            if new - current > state.potion_deck:
                raise InvalidAdjustment(f"only {state.potion_deck} potion card(s) left in the potion deck")
            state.potion_deck -= new - current
            setattr(witch, f"potions_{field}", new)
        label = "reputation on her potion fronts" if field == "reputation" else field
        return f"{witch.name} {label} {current} -> {new}"

    def _witch(self, state: Table, name: str) -> Witch:
        try:
            return state.witch(name)
        except KeyError:
            known = ", ".join(witch.name for witch in state.witches)
            raise InvalidAdjustment(f"no witch {name!r}; witches: {known}") from None

    def _adjust_spell(self, state: Table, who: str, sign: str, kind: str) -> str:
        witch = self._witch(state, who)
        if kind not in SPELLS:
            raise InvalidAdjustment(f"unknown spell {kind!r}; spells: {', '.join(SPELLS)}")
        if sign == "+":
            if rules.spells_left(state, kind) <= 0:
                raise InvalidAdjustment(f"no {kind} spell card is left in its stack")
            witch.spells.append(Spell(kind))
            return f"{witch.name} takes a {kind} spell"
        held = [spell for spell in witch.spells if spell.kind == kind]
        if not held:
            raise InvalidAdjustment(f"{witch.name} has no {kind} spell")
        witch.spells.remove(held[-1])
        return f"{witch.name} returns a {kind} spell to its stack"

    def _adjust_display(self, state: Table, sign: str, amount: int) -> str:
        current = state.potion_display
        new = amount if sign in ("=", "") else current + (-amount if sign == "-" else amount)
        if not 0 <= new <= POTION_DISPLAY:
            raise InvalidAdjustment(f"the potion display holds 0 to {POTION_DISPLAY} cards, not {new}")
        if new - current > state.potion_deck:
            raise InvalidAdjustment(f"only {state.potion_deck} potion card(s) left in the potion deck")
        state.potion_deck -= new - current
        state.potion_display = new
        return f"potion display {current} -> {new}"

    def _adjust_card(self, state: Table, witch: Witch, sign: str, price: int) -> str:
        if sign == "-":
            if price not in witch.forest_cards:
                raise InvalidAdjustment(f"{witch.name} has no forest card priced {price}")
            witch.forest_cards.remove(price)
            state.forest_discard += 1
            return f"{witch.name} discards a forest card priced {price}"
        if sign == "=":
            raise InvalidAdjustment("add a forest card with +PRICE or remove one with -PRICE")
        if price > PRINTED_VALUE_GUARD:
            raise InvalidAdjustment(f"a printed price from 0 to {PRINTED_VALUE_GUARD}")
        if state.forest_deck == 0:
            raise InvalidAdjustment("the forest deck is empty")
        state.forest_deck -= 1
        witch.forest_cards.append(price)
        return f"{witch.name} takes a forest card priced {price} from the deck"

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
        if sum(witch.fagus_tokens for witch in state.witches) > FAGUS_TOKENS_IN_BOX:
            errors.append(f"more than {FAGUS_TOKENS_IN_BOX} Fagus Beech tokens held")
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
        phase = state.step
        if state.round:
            phase = f"expedition {state.expedition}, round {state.round}: {state.step}"
        return Header(state.rounds_played or None, state.active, phase, state.active)

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
                describe_cards(witch.forest_cards),
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
            f"{witch.name}: nothing is hidden in Blackwood. Forest cards {describe_cards(witch.forest_cards)}, "
            f"potion fronts worth {witch.potion_reputation} reputation, {witch.coins} coins."
        ]

    def to_json(self, state: Table) -> dict[str, Any]:
        return state.to_json()


def describe_cards(prices: Sequence[int]) -> str:
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
