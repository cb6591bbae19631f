"""Cutthroat Kingdoms as a guided game: state creation, the correction fields, the end, invariants
and views."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.corrections import Field, Target
from referee.engine.game import Game, Header, PublicView, RoleField, Setup
from referee.errors import SessionError
from referee.games.cutthroat import cards, flow, scoring
from referee.games.cutthroat.corrections import FIELDS, TERRITORY
from referee.games.cutthroat.parse import NAME, RESERVED_WORDS
from referee.games.cutthroat.rulings import RULINGS, as_first_asked
from referee.games.cutthroat.state import (
    ABILITY_USES,
    FEAST_CARDS,
    FIRST_QUESTIONS,
    GEMS_IN_GAME,
    HIRELING_CARDS,
    MAX_DEFENDERS,
    MERCENARY,
    MERCENARY_CARDS,
    SOLDIER,
    Kingdom,
    Player,
)
from referee.outcome import Termination
from referee.wording import counted

GAME_ID = "cutthroat-kingdoms"
RULING_CHOICES = RULINGS.choices
"""Every ruling a guided session applies (its own and the final score's), the default first."""
LAST_EVENT = Termination("last-event-resolved", "the last event card, the Royal Feast, has resolved")


class CutthroatKingdoms(Game[Kingdom]):
    id = GAME_ID
    rulebook = GAME_ID
    reserved_names = RESERVED_WORDS
    rulings = RULINGS
    printed_cards = cards.KINDS
    short_headers = {"Hand s/m/h": "s/m/h", **scoring.SHORT_PARTS}
    role = RoleField("Lord or lady", "players", "character")
    correction_example = "Ann copper +3 ; a deal"
    correction_verbs = ("pay",)
    questions_version = 2
    """2: the conquest collected as the action that won it is complete, Bedlam never declined, and
    blackmail asked of the table as one question that may name a second house."""
    play = staticmethod(flow.play)
    final_count = staticmethod(flow.final_count)

    def check_players(self, players: Sequence[str]) -> None:
        super().check_players(players)
        for name in players:
            if not NAME.fullmatch(name) or not name[0].isalpha() or name.split()[0].lower() == "pay":
                raise SessionError(
                    f"player name {name!r}: use up to 30 letters, digits, spaces, ' or -, starting with a letter "
                    "(but not with the word 'pay', which starts a payment)"
                )

    def initial_state(self, setup: Setup) -> Kingdom:
        first = setup.questions == FIRST_QUESTIONS
        rulings = as_first_asked(setup.rulings) if first else setup.rulings
        kingdom = Kingdom([Player(name) for name in setup.players], rulings, questions=setup.questions)
        kingdom.hireling_deck_size = HIRELING_CARDS + len(setup.players)  # each house's bastard joins the deck
        return kingdom

    def end_check(self, state: Kingdom) -> Termination | None:
        """The game ends only when the last event card, the Royal Feast, has resolved: that is the
        end of play itself, so no entry can end it sooner."""
        return None

    def termination(self, state: Kingdom) -> Termination | None:
        return LAST_EVENT

    # --- corrections ------------------------------------------------------------------------------

    def player_names(self, state: Kingdom) -> Sequence[str]:
        return [player.name for player in state.players]

    def correction_targets(self, state: Kingdom) -> Sequence[Target]:
        return [*super().correction_targets(state), *(Target(land.name, TERRITORY) for land in state.territories)]

    def correction_fields(self) -> Sequence[Field[Kingdom]]:
        return FIELDS

    # --- checks and views -------------------------------------------------------------------------

    def invariant_errors(self, state: Kingdom) -> list[str]:
        errors = []
        characters = [player.character for player in state.players if player.character]
        if len(set(characters)) != len(characters):
            errors.append("two players lead the same house")
        for player in state.players:
            counts = (player.copper, player.silver, player.gems, player.dead, player.mercenaries, player.hirelings,
                      player.feast_cards)
            if min(counts) < 0:
                errors.append(f"{player.name} has a negative count")
            if not 0 <= state.soldiers_in_hand(player) <= player.soldiers_total:
                errors.append(f"{player.name}'s soldiers do not add up")
            if any(not 0 <= left <= ABILITY_USES for left in player.ability_uses.values()):
                errors.append(f"{player.name}'s ability uses out of range")
            if player.married_to is not None:
                try:
                    partner = state.player(player.married_to)
                except KeyError:
                    errors.append(f"{player.name} is married to an unknown player")
                    continue
                if partner.married_to != player.name or partner is player:
                    errors.append(f"{player.name}'s marriage is one-sided")
                if not (player.heir_alive and partner.heir_alive):
                    errors.append(f"{player.name} is married although an heir is dead")
        if state.gems_held() > GEMS_IN_GAME:
            errors.append(f"more than {GEMS_IN_GAME} gems held")
        if state.mercenaries_in_play() > MERCENARY_CARDS:
            errors.append(f"more than {MERCENARY_CARDS} mercenary cards in play")
        if sum(player.hirelings for player in state.players) > state.hireling_deck_size:
            errors.append("more hirelings held than exist")
        if not sum(player.feast_cards for player in state.players) <= state.feast_cards_drawn <= FEAST_CARDS:
            errors.append("feast cards do not add up")
        names = {player.name for player in state.players}
        for territory in state.territories:
            if (territory.owner is None) != (not territory.defenders):
                errors.append(f"{territory.name}: a house token without defenders, or defenders without one")
            if territory.owner is not None and territory.owner not in names:
                errors.append(f"{territory.name}: owner {territory.owner!r} is not playing")
            if len(territory.defenders) > MAX_DEFENDERS or set(territory.defenders) - {SOLDIER, MERCENARY}:
                errors.append(f"{territory.name}: impossible defenders {territory.defenders}")
        if state.events_drawn > state.events_total and state.events_total:
            errors.append("more events drawn than the deck held")
        return errors

    def header(self, state: Kingdom) -> Header:
        if not state.turn_number:
            return Header(None, None, state.phase, state.active)
        left = state.events_total - state.events_drawn
        progress = f"events left: {left} of {state.events_total}"
        # The rulebook counts turns (an event at the end of each), never rounds.
        return Header(state.turn_number, None, state.phase, state.active, progress, round_name="Turn")

    def public_view(self, state: Kingdom) -> PublicView:
        columns = ["Player", "House", "Land", "Hand s/m/h", "Dead", "Feast", "Heir"]
        rows = []
        for player in state.players:
            left = " ".join(f"{ability} {count}" for ability, count in player.ability_uses.items())
            heir = "alive" if player.heir_alive else "dead"
            if player.married_to:
                heir = f"married to {player.married_to}"
            rows.append(
                [
                    ("* " if player.name == state.active else "") + player.name,
                    (player.character or "?") + (f" ({left})" if left else ""),
                    str(len(state.owned_by(player.name))),
                    f"{state.soldiers_in_hand(player)}/{player.mercenaries}/{player.hirelings}",
                    str(player.dead),
                    str(player.feast_cards),
                    heir,
                ]
            )
        lines = []
        for territory in state.territories:
            side = ", plagued" if territory.plagued else ""
            if territory.owner is None:
                lines.append(f"{territory.name}: unoccupied{side}")
            else:
                cards = ", ".join("face-down mercenary" if card == MERCENARY else card for card in territory.defenders)
                lines.append(f"{territory.name}: {territory.owner}, defended top first by {cards}{side}")
        if state.events_total:
            lines.append(f"Events drawn: {state.events_drawn} of {state.events_total}"
                         + ("" if state.wedding_drawn else "; the Royal Wedding is still to come"))
        lines.append("Hand s/m/h: soldiers, mercenaries, hirelings. Purses are secret ('secret NAME').")
        return PublicView(columns, rows, lines)

    def hidden_view(self, state: Kingdom, player: str) -> list[str]:
        holder = state.player(player)
        return [f"{holder.name}: {holder.copper} copper, {holder.silver} silver, {counted(holder.gems, 'gem')}"]


GAME = CutthroatKingdoms()
