"""Council of Serpents as a guided game: state creation, corrections, invariants and views."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.game import Flow, Game, Header, PublicView, Say, check_names, chosen_rulings
from referee.errors import InvalidAdjustment
from referee.games.serpents import rules
from referee.games.serpents.flow import NOBODY, flow
from referee.games.serpents.houses import ATTRIBUTES, COLLAPSE_VALUE, HOUSES, TRIUMPH_VALUE
from referee.games.serpents.rulings import RULING_CHOICES as SCORE_RULING_CHOICES
from referee.games.serpents.state import (
    COURT_SPACES,
    INFLUENCE_CARDS,
    PAIRS,
    SOLO_NAME,
    STARTING_HAND,
    Player,
    Table,
    pair_key,
    pair_title,
)

RULING_CHOICES: dict[str, tuple[str, ...]] = {
    **rules.PLAY_RULING_CHOICES,
    "triumph-and-collapse": tuple(str(choice) for choice in SCORE_RULING_CHOICES["triumph-and-collapse"]),
}
"""Rulings the table may override for a guided session, with the default first."""

RESERVED_NAMES = (SOLO_NAME.lower(), NOBODY, "both", *HOUSES)

ADJUST_HELP = (
    "'<house> <wealth|popularity|strength> <+N|-N|=N>' (e.g. 'Jane wealth -2') or "
    "'<house> intrigue -N' (face-down Intrigue cards discarded by a card's text)"
)
ADJUST_FORM = re.compile(r"^(?P<house>[a-z]+)\s+(?P<what>[a-z]+)\s+(?P<sign>[+=-]?)(?P<amount>\d{1,3})$", re.IGNORECASE)


class Serpents(Game[Table]):
    id = "council-of-serpents"
    rulebook = "council-of-serpents"

    def check_players(self, players: Sequence[str]) -> None:
        check_names("Council of Serpents", players, 1, 4, RESERVED_NAMES)

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Table:
        self.check_players(players)
        rulings = chosen_rulings(RULING_CHOICES, options)
        table = Table([Player(name) for name in players], rulings, solo=len(players) == 1)
        table.guild_effects = copy.deepcopy(rules.KNOWN_GUILDS)
        table.intrigue_effects = copy.deepcopy(rules.KNOWN_INTRIGUE)
        table.deck = INFLUENCE_CARDS - COURT_SPACES - STARTING_HAND * len(players)
        return table

    def flow(self, state: Table, say: Say) -> Flow:
        return flow(state, say)

    def ended_by_correction(self, state: Table) -> bool:
        """A correction put a House's marker on a symbol while the game was going on."""
        return state.phase != "final" and state.ended_by is None and bool(state.ended_houses())

    def adjust_help(self) -> str:
        return ADJUST_HELP

    def adjust(self, state: Table, text: str) -> str:
        match = ADJUST_FORM.match(" ".join(text.split()))
        if not match:
            raise InvalidAdjustment(f"cannot read {text!r}; use {ADJUST_HELP}")
        house = rules.match_word(match["house"].lower(), HOUSES)
        if house is None:
            raise InvalidAdjustment(f"no House {match['house']!r}; Houses: Clay, Jane, Rowel")
        what, sign, amount = match["what"].lower(), match["sign"], int(match["amount"])
        if what.startswith("intr"):
            if sign != "-":
                raise InvalidAdjustment("Intrigue cards can only be discarded by a correction: '<house> intrigue -N'")
            held = state.intrigue[house]
            if amount > held:
                raise InvalidAdjustment(f"House {house.capitalize()} has only {held} face-down Intrigue card(s)")
            state.intrigue[house] -= amount
            state.discard += amount
            return f"House {house.capitalize()} Intrigue cards {held} -> {held - amount} (discarded)"
        attribute = rules.match_word(what, ATTRIBUTES)
        if attribute is None:
            raise InvalidAdjustment(f"unknown field {what!r}; use wealth, popularity, strength or intrigue")
        current = state.houses[house][attribute]
        new = amount if sign == "=" else current + (-amount if sign == "-" else amount)
        if not COLLAPSE_VALUE <= new <= TRIUMPH_VALUE:
            raise InvalidAdjustment(
                f"House {house.capitalize()} {attribute} would be {new}; markers run from {COLLAPSE_VALUE} "
                f"(Collapse symbol) to {TRIUMPH_VALUE} (Triumph symbol)"
            )
        state.houses[house][attribute] = new
        change = f"House {house.capitalize()} {attribute.capitalize()} {current} -> {new}"
        if new in (COLLAPSE_VALUE, TRIUMPH_VALUE):
            change += " (on a symbol: the game ends once the question is answered)"
        return change

    def invariant_errors(self, state: Table) -> list[str]:
        errors = []
        for house, values in state.houses.items():
            for attribute, value in values.items():
                if not COLLAPSE_VALUE <= value <= TRIUMPH_VALUE:
                    errors.append(f"House {house} {attribute} {value} off the track")
        if state.cards_counted() != state.cards_in_game():
            errors.append(f"{state.cards_counted()} Influence cards accounted for, {state.cards_in_game()} in the game")
        counts = {"deck": state.deck, "discard": state.discard, "pile": state.pile, "playing": state.playing}
        for name, count in counts.items():
            if count < 0:
                errors.append(f"{name} holds {count} cards")
        if not 0 <= state.court <= COURT_SPACES:
            errors.append(f"The Court holds {state.court} cards")
        if state.playing > 1:
            errors.append(f"{state.playing} cards being played at once")
        for player in state.players:
            if player.hand < 0:
                errors.append(f"{player.name} holds {player.hand} cards")
        war = state.phase in ("war", "final")  # a War can end the game after its step I
        for key, count in state.conflicts.items():
            if not 0 <= count <= (2 if war else 1):
                errors.append(f"{count} Conflict cards between {key}")
        for house, count in state.intrigue.items():
            if count < 0:
                errors.append(f"House {house} has {count} Intrigue cards")
        for guild, house in state.guilds.items():
            if house not in HOUSES or guild not in state.guild_effects:
                errors.append(f"Guild {guild} at {house} without a known effect")
        if state.windfall_left < 0 or state.struggle_left < 0:
            errors.append("more Windfall or Struggle cards turned than were added")
        if not state.finished and state.phase not in ("setup", "new time track", "final") and not state.track:
            errors.append("the Time track is empty between turns")
        if state.finished and state.ended_by is None:
            errors.append("the game finished without an end")
        return errors

    def header(self, state: Table) -> Header:
        return Header(state.turn or None, state.active, state.phase, state.active)

    def public_view(self, state: Table) -> PublicView:
        columns = ["House", "Wealth", "Popularity", "Strength", "Guilds", "Intrigue"]
        rows = []
        for house in HOUSES:
            values = state.houses[house]
            guilds = ", ".join(guild for guild, at in state.guilds.items() if at == house) or "-"
            rows.append(
                [
                    house.capitalize(),
                    *(str(values[attribute]) for attribute in ATTRIBUTES),
                    guilds,
                    str(state.intrigue[house]),
                ]
            )
        lines = []
        conflicts = [pair_title(pair) for pair in PAIRS if state.conflicts[pair_key(pair)]]
        lines.append("Conflicts: " + (", ".join(conflicts) if conflicts else "none"))
        track = "; ".join(
            f"{number}. {rules.describe_action(card.action, state.rulings['struggle-attribute'])}"
            for number, card in enumerate(state.track, 1)
        )
        lines.append("Time track (next first): " + (track or "empty"))
        lines.append(f"The Court: {state.court} face up. Influence deck: {state.deck}. Discard pile: {state.discard}.")
        hands = ", ".join(f"{player.name} {player.hand}" for player in state.turn_order())
        lines.append(f"Cards in hand: {hands}.")
        if state.solo:
            lines.append(
                f"Solo, {state.difficulty}: {state.windfall_left} Windfall and {state.struggle_left} Struggle "
                "cards left in the Serpentess deck."
            )
        if len(state.players) == 4:
            order = state.turn_order()
            lines.append(f"Teams: {order[0].name} + {order[2].name}, {order[1].name} + {order[3].name}.")
        lines.append("Ambitions, hands and face-down Intrigue cards stay hidden; 0 = Collapse, 13 = Triumph.")
        return PublicView(columns, rows, lines)

    def hidden_view(self, state: Table, player: str) -> list[str]:
        holder = state.player(player)
        return [
            f"{holder.name}: {holder.hand} Influence card(s) in hand. The referee never learns their faces or "
            "the Ambition cards until the end."
        ]

    def to_json(self, state: Table) -> dict[str, Any]:
        return state.to_json()


GAME = Serpents()
