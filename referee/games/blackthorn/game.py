"""Council of Blackthorn as a guided game: state creation, corrections, invariants and views."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.game import Flow, Game, Header, PublicView, Say, check_names, chosen_rulings
from referee.errors import InvalidAdjustment
from referee.games.blackthorn import rules
from referee.games.blackthorn.flow import flow
from referee.games.blackthorn.state import (
    DIE_FACES,
    FACTIONS,
    GHOST,
    TOP_LEVEL,
    TRACK,
    TREASON_DECK,
    Building,
    Player,
    Table,
)

RULING_CHOICES: dict[str, tuple[str, ...]] = {
    "trigger-after-dice": ("after", "before"),
    "whispers-active-tied": ("nobody", "choose-other"),
    "pass-without-treason": ("pass-none", "target-draws-from-deck"),
    "ghost-in-comparisons": ("count", "ignore"),
    "block-while-held": ("while-held", "permanent"),
}
"""Rulings the table may override for a guided session, with the default first."""

ADJUST_HELP = (
    "'<player> <noble|guild|legion|peasant|influence|treason|building|construction|hand> <+N|-N|=N>' "
    "or 'dice <faction> <0-3>'; e.g. 'Ann noble +1', 'Bo influence +3', 'Ann building +4'"
)
ADJUST_FORM = re.compile(r"^(?P<who>.+?)\s+(?P<what>[a-z]+)\s+(?P<sign>[+=-]?)(?P<amount>\d{1,3})$", re.IGNORECASE)
FIELDS = (*FACTIONS, "influence", "treason", "building", "construction", "hand")


class Blackthorn(Game[Table]):
    id = "council-of-blackthorn"
    rulebook = "council-of-blackthorn"

    def check_players(self, players: Sequence[str]) -> None:
        check_names("Council of Blackthorn", players, 2, 6, reserved=(GHOST.lower(), "dice", "all"))

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Table:
        self.check_players(players)
        rulings = chosen_rulings(RULING_CHOICES, options)
        ghost = Player(GHOST, influence=0, treason_cards=0, hand=0, is_ghost=True) if len(players) == 2 else None
        return Table([Player(name) for name in players], ghost, rulings)

    def flow(self, state: Table, say: Say) -> Flow:
        return flow(state, say)

    def adjust_help(self) -> str:
        return ADJUST_HELP

    def adjust(self, state: Table, text: str) -> str:
        match = ADJUST_FORM.match(" ".join(text.split()))
        if not match:
            raise InvalidAdjustment(f"cannot read {text!r}; use {ADJUST_HELP}")
        who, what, sign, amount = (
            match["who"], match["what"].lower(), match["sign"], int(match["amount"])
        )
        if who.lower() == "dice":
            return self._adjust_dice(state, what, sign, amount)
        try:
            player = state.player(who)
        except KeyError:
            known = ", ".join(player.name for player in state.competitors)
            raise InvalidAdjustment(f"no player {who!r}; players: {known}") from None
        fields = [name for name in FIELDS if name.startswith(what)]
        if len(fields) != 1:
            raise InvalidAdjustment(f"unknown field {what!r}; fields: {', '.join(FIELDS)}")
        field = fields[0]
        if player.is_ghost and field not in FACTIONS:
            raise InvalidAdjustment("the ghost has only faction levels")
        if field in FACTIONS:
            return self._adjust_level(state, player, field, sign, amount)
        if field in ("building", "construction"):
            return self._adjust_building(player, field == "building", sign, amount)
        current = {"influence": player.influence, "treason": player.treason_cards, "hand": player.hand}[field]
        new = amount if sign == "=" else current + (amount if sign != "-" else -amount)
        if new < 0:
            raise InvalidAdjustment(f"{player.name}'s {field} cannot go below 0 (it is {current})")
        if field == "treason":
            others = sum(other.treason_cards for other in state.players if other is not player)
            if others + new > TREASON_DECK:
                raise InvalidAdjustment(f"only {TREASON_DECK} treason cards exist ({others} held by others)")
            player.treason_cards = new
        elif field == "influence":
            player.influence = new
        else:
            player.hand = new
        return f"{player.name} {field} {current} -> {new}"

    def _adjust_dice(self, state: Table, what: str, sign: str, amount: int) -> str:
        factions = [faction for faction in FACTIONS if faction.startswith(what)]
        if len(factions) != 1 or sign not in ("", "="):
            raise InvalidAdjustment("use 'dice <noble|guild|legion|peasant> <value>', e.g. 'dice guild 3'")
        if state.dice is None:
            raise InvalidAdjustment("the dice have not been rolled yet this game")
        if amount not in DIE_FACES:
            raise InvalidAdjustment(f"a faction die shows 0, 1, 2 or 3, not {amount}")
        old, state.dice[factions[0]] = state.dice[factions[0]], amount
        return f"{factions[0].capitalize()} die {old} -> {amount}"

    def _adjust_level(self, state: Table, player: Player, faction: str, sign: str, amount: int) -> str:
        current = player.levels[faction]
        if sign == "=":
            if amount not in TRACK:
                raise InvalidAdjustment(f"{amount} is not on the track; values: {', '.join(map(str, TRACK))}")
            new = TRACK.index(amount)
        else:
            new = current + (amount if sign != "-" else -amount)
        if not 0 <= new <= TOP_LEVEL:
            raise InvalidAdjustment(f"{player.name}'s {faction} level would leave the track (0 to 13)")
        holder = rules.blocker(state.competitors, faction)
        if new == TOP_LEVEL and holder is not None and holder is not player:
            raise InvalidAdjustment(f"{faction.capitalize()} is blocked: {holder.name} holds its 13 level")
        if new == TOP_LEVEL and current != TOP_LEVEL and faction in rules.closed_factions(state):
            raise InvalidAdjustment(f"{faction.capitalize()} is blocked for good (ruling block-while-held)")
        player.levels[faction] = new
        rules.record_blocks(state)
        return f"{player.name} {faction.capitalize()} {TRACK[current]} -> {TRACK[new]} points"

    def _adjust_building(self, player: Player, complete: bool, sign: str, amount: int) -> str:
        kind = "completed building" if complete else "building under construction"
        if sign == "-":
            for index, building in enumerate(player.buildings):
                if building.complete == complete and building.value == amount:
                    del player.buildings[index]
                    return f"{player.name} loses a {kind} worth {amount}"
            raise InvalidAdjustment(f"{player.name} has no {kind} worth {amount}")
        if sign == "=":
            raise InvalidAdjustment("add a building with +VALUE or remove one with -VALUE")
        player.buildings.append(Building(amount, complete))
        return f"{player.name} gains a {kind} worth {amount}"

    def invariant_errors(self, state: Table) -> list[str]:
        errors = []
        for faction in FACTIONS:
            at_top = [player.name for player in state.competitors if player.levels[faction] == TOP_LEVEL]
            if len(at_top) > 1:
                errors.append(f"{faction}: {', '.join(at_top)} all on 13")
        for player in state.competitors:
            for faction, level in player.levels.items():
                if not 0 <= level <= TOP_LEVEL:
                    errors.append(f"{player.name} {faction} level {level} off the track")
            if min(player.influence, player.treason_cards, player.hand) < 0:
                errors.append(f"{player.name} has a negative count")
            if player.is_ghost and (player.influence or player.treason_cards or player.buildings):
                errors.append("the ghost holds influence, treason or buildings")
        if sum(player.treason_cards for player in state.players) > TREASON_DECK:
            errors.append("more treason cards held than exist")
        if state.dice is not None and any(value not in DIE_FACES for value in state.dice.values()):
            errors.append(f"impossible dice {state.dice}")
        return errors

    def header(self, state: Table) -> Header:
        if state.phase == "dice":  # not a turn yet: the ring holder rolls for the whole round
            return Header(state.round or None, None, f"{state.active} rolls the faction dice", None)
        return Header(state.round or None, state.active, state.phase, state.active)

    def public_view(self, state: Table) -> PublicView:
        columns = ["Player", "Character", *(faction.capitalize() for faction in FACTIONS), "Built+new", "Hand"]
        rows = []
        for player in state.competitors:
            built = sum(1 for building in player.buildings if building.complete)
            building_text = f"{built} + {len(player.buildings) - built}"
            rows.append(
                [
                    ("* " if state.players and player is state.players[state.ring] else "") + player.name,
                    player.character or ("-" if player.is_ghost else "?"),
                    *(str(player.points(faction)) for faction in FACTIONS),
                    building_text if not player.is_ghost else "-",
                    str(player.hand) if not player.is_ghost else "-",
                ]
            )
        lines = []
        if state.dice:
            lines.append("Dice: " + "  ".join(f"{name.capitalize()} {value}" for name, value in state.dice.items()))
        blocked = rules.table_blocked(state)
        if blocked:
            lines.append("Blocked: " + ", ".join(faction.capitalize() for faction in blocked))
        if state.game_over_declared:
            lines.append("Game over declared: this is the last round.")
        lines.append("* holds the Right Hand of the King. Influence and treason are hidden ('secret NAME').")
        return PublicView(columns, rows, lines)

    def hidden_view(self, state: Table, player: str) -> list[str]:
        holder = state.player(player)
        return [f"{holder.name}: {holder.influence} influence points, {holder.treason_cards} treason cards"]

    def to_json(self, state: Table) -> dict[str, Any]:
        return state.to_json()


GAME = Blackthorn()
