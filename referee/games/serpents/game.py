"""Council of Serpents as a guided game: state creation, corrections, the end check, invariants and views."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from referee.engine.corrections import Counter, Target
from referee.engine.game import Game, Header, Progression, PublicView, Setup, Values
from referee.games.serpents import cards, flow, rules, scoring
from referee.games.serpents.houses import ATTRIBUTES, COLLAPSE_VALUE, HOUSES, TRIUMPH_VALUE
from referee.games.serpents.rulings import RULINGS, STRUGGLE_ATTRIBUTE
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
from referee.outcome import Termination

RESERVED_NAMES = (SOLO_NAME.lower(), *HOUSES)
"""The Serpentess is the solo rival, and corrections and messages name the Houses."""
HOUSE = "house"
"""The kind of the things corrections name: the three Houses."""


def read_attribute(attribute: str) -> Counter[Table]:
    """A House's Wealth, Popularity or Strength, from the Collapse symbol (0) to the Triumph symbol (13)."""

    def read(table: Table, house: str) -> int:
        return table.houses[house.lower()][attribute]

    def write(table: Table, house: str, value: int) -> None:
        table.houses[house.lower()][attribute] = value

    return Counter(
        attribute, read, write, lambda table, house: (COLLAPSE_VALUE, TRIUMPH_VALUE), kind=HOUSE,
        about="0 is the Collapse symbol, 13 the Triumph symbol",
    )


def read_intrigue(table: Table, house: str) -> int:
    return table.intrigue[house.lower()]


def discard_intrigue(table: Table, house: str, value: int) -> None:
    """Face-down Intrigue cards discarded by a card's text go to the discard pile."""
    table.discard += table.intrigue[house.lower()] - value
    table.intrigue[house.lower()] = value


INTRIGUE = Counter(
    "intrigue", read_intrigue, discard_intrigue, lambda table, house: (0, table.intrigue[house.lower()]), kind=HOUSE,
    about="face-down Intrigue cards, which a correction can only discard",
)


def house_attributes(table: Table) -> Values:
    """Each House's attributes, a chart each: the running state of the game, all of it public."""
    return {
        f"House {attribute}": {house.capitalize(): values[attribute] for house, values in table.houses.items()}
        for attribute in ATTRIBUTES
    }


class Serpents(Game[Table]):
    id = "council-of-serpents"
    rulebook = "council-of-serpents"
    reserved_names = RESERVED_NAMES
    rulings = RULINGS
    printed_cards = cards.KINDS
    short_headers = {"Popularity": "Pop.", "Strength": "Str.", "Wealth": "Wlth.", "Intrigue": "Intr.",
                     **scoring.SHORT_PARTS}
    progression = Progression("turn", house_attributes, "13 is the Triumph symbol, 0 the Collapse")
    scores_points = False
    """A total counts the player's Ambitions that came true; the winners are whoever's Ambition (or
    teammate's) came true: no averages or best scores."""
    correction_example = "Jane wealth -2 ; a Traitors card"
    play = staticmethod(flow.play)
    final_count = staticmethod(flow.final_count)

    def initial_state(self, setup: Setup) -> Table:
        players = setup.players
        table = Table([Player(name) for name in players], setup.rulings, solo=len(players) == 1)
        table.guild_effects = copy.deepcopy(rules.KNOWN_GUILDS)
        table.intrigue_effects = copy.deepcopy(rules.KNOWN_INTRIGUE)
        table.deck = INFLUENCE_CARDS - COURT_SPACES - STARTING_HAND * len(players)
        return table

    def end_check(self, state: Table) -> Termination | None:
        """A House on a symbol, or the Keeper of Balance on an empty deck; none once play has stopped."""
        return None if state.phase == "final" else rules.termination(state)

    def termination(self, state: Table) -> Termination | None:
        return rules.termination(state)

    def player_names(self, state: Table) -> Sequence[str]:
        return [player.name for player in state.players]

    def correction_targets(self, state: Table) -> Sequence[Target]:
        return [Target(house.capitalize(), HOUSE) for house in HOUSES]

    def correction_fields(self) -> Sequence[Counter[Table]]:
        return [*(read_attribute(attribute) for attribute in ATTRIBUTES), INTRIGUE]

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
        """Turns go round the table without rounds: the header counts turns ('Turn 3')."""
        track = f"{len(state.track)} card(s) on the Time track"
        progress = f"Influence deck {state.deck}; {track}"
        return Header(state.turn or None, None, state.phase, state.active, progress, round_name="Turn")

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
            f"{number}. {rules.describe_action(card.action, STRUGGLE_ATTRIBUTE.of(state.rulings))}"
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


GAME = Serpents()
