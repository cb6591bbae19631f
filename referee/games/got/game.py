"""A Game of Thrones (1st edition) as a guided game: state creation, corrections, invariants and views."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.game import Flow, Game, Header, PublicView, Say, check_names, chosen_rulings
from referee.errors import InvalidAdjustment
from referee.games.got import rules
from referee.games.got.flow import flow
from referee.games.got.scoring import RULING_CHOICES as SCORE_RULINGS
from referee.games.got.scoring import joined_names
from referee.games.got.state import (
    CHALLENGE_KINDS,
    HOUSES,
    LINKS,
    PLOT_DECK_SIZE,
    POWER_TO_WIN,
    TITLES,
    Player,
    Table,
)

RULING_CHOICES: dict[str, tuple[str, ...]] = {
    **SCORE_RULINGS,
    "initiative-tie": ("fewer-power-then-lots", "lots"),
    "dominance-tie": ("nobody", "table-decides"),
    "title-links": ("read-board",),
    "setup-attachment-cost": ("counts", "free"),
    "neutral-cards-no-penalty": ("no-penalty", "penalty"),
    "plot-deck-reuse": ("return-used-pile",),
    "empty-draw-deck": ("draw-nothing",),
    "intrigue-discard-pile": ("owner",),
    "undefended-order": ("kingsguard-first", "support-first"),
    "starting-force-printed-cost": ("printed-cost", "with-penalty"),
}
"""Rulings of rulebooks/got-lcg-1e.toml the session applies, with the default first."""

FIELDS = {
    "house": "power on the House card",
    "cards": "power on other cards in play",
    "gold": "gold",
    "hand": "cards in hand",
    "deck": "cards in the draw deck",
    "income": "gold icons on cards in play",
    "initiative": "initiative icons on cards in play",
    "claim": "claim of this round's plot",
}
ADJUST_HELP = (
    "'<player> <house|cards|gold|hand|deck|income|initiative|claim> <+N|-N|=N>', "
    "'<player> infamy <N>' (move N power from the House card to Infamy cards), "
    "or 'prized <owner> <N>' (each opponent takes N power at once); e.g. 'Ann house +2', 'Bo cards -1'"
)
CHANGE_FORM = re.compile(r"^(?P<who>.+?)\s+(?P<what>[a-z]+)\s+(?P<sign>[+=-]?)(?P<amount>\d{1,3})$", re.IGNORECASE)
PRIZED_FORM = re.compile(r"^prized\s+(?P<owner>.+?)\s+(?P<amount>\d{1,2})$", re.IGNORECASE)
RESERVED_NAMES = ("prized",)


PLAYER_ATTRIBUTES = {
    "house": "house_power",
    "cards": "card_power",
    "gold": "gold",
    "hand": "hand",
    "deck": "draw_deck",
    "income": "income_bonus",
    "initiative": "initiative_bonus",
}
"""The Player attribute each correction field changes (the plot's claim is handled apart)."""


class Thrones(Game[Table]):
    id = "got-lcg-1e"
    rulebook = "got-lcg-1e"

    def check_players(self, players: Sequence[str]) -> None:
        check_names("A Game of Thrones (1st edition)", players, 2, 4, RESERVED_NAMES)

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Table:
        self.check_players(players)
        rulings = chosen_rulings(RULING_CHOICES, options)
        return Table([Player(name) for name in players], rulings)

    def flow(self, state: Table, say: Say) -> Flow:
        return flow(state, say)

    def adjust_help(self) -> str:
        return ADJUST_HELP

    # --- corrections -----------------------------------------------------------------------------

    def adjust(self, state: Table, text: str) -> str:
        cleaned = " ".join(text.split())
        if state.won:
            raise InvalidAdjustment(
                f"the game is over ({state.first_to_fifteen or 'a player'} reached {POWER_TO_WIN} power)"
            )
        prized = PRIZED_FORM.match(cleaned)
        if prized:
            return self._prized(state, self._player(state, prized["owner"]), int(prized["amount"]))
        match = CHANGE_FORM.match(cleaned)
        if not match:
            raise InvalidAdjustment(f"cannot read {text!r}; use {ADJUST_HELP}")
        player = self._player(state, match["who"])
        what, sign, amount = match["what"].lower(), match["sign"], int(match["amount"])
        if what == "infamy":
            return self._infamy(state, player, sign, amount)
        fields = [name for name in FIELDS if name.startswith(what)]
        if len(fields) != 1:
            raise InvalidAdjustment(f"unknown field {what!r}; fields: {', '.join(FIELDS)}, infamy")
        return self._change(state, player, fields[0], sign, amount)

    def _player(self, state: Table, name: str) -> Player:
        try:
            return state.player(name)
        except KeyError:
            known = joined_names([player.name for player in state.players])
            raise InvalidAdjustment(f"no player {name!r}; players: {known}") from None

    def _change(self, state: Table, player: Player, field: str, sign: str, amount: int) -> str:
        if field == "claim" and player.plot is None:
            raise InvalidAdjustment(f"{player.name} has no revealed plot this round")
        current = self._read(player, field)
        new = amount if sign == "=" else current + (-amount if sign == "-" else amount)
        if new < 0:
            raise InvalidAdjustment(f"{player.name}'s {FIELDS[field]} cannot go below 0 (it is {current})")
        if field == "claim" and new > rules.MAX_ICON:
            raise InvalidAdjustment(f"a claim above {rules.MAX_ICON} is not plausible")
        self._write(player, field, new)
        summary = f"{player.name} {FIELDS[field]} {current} -> {new}"
        if field in ("house", "cards"):
            summary += self._check_win(state, [player])
        return summary

    @staticmethod
    def _read(player: Player, field: str) -> int:
        if field == "claim":
            return player.plot.claim if player.plot else 0
        value: int = getattr(player, PLAYER_ATTRIBUTES[field])
        return value

    @staticmethod
    def _write(player: Player, field: str, value: int) -> None:
        if field == "claim":
            if player.plot is not None:
                player.plot.claim = value
            return
        setattr(player, PLAYER_ATTRIBUTES[field], value)

    def _infamy(self, state: Table, player: Player, sign: str, amount: int) -> str:
        if sign not in ("", "+"):
            raise InvalidAdjustment("use '<player> infamy <N>' to move N power from the House card to Infamy cards")
        if amount > player.house_power:
            raise InvalidAdjustment(f"{player.name} has only {player.house_power} power on the House card")
        player.house_power -= amount
        player.card_power += amount
        return f"{player.name} moves {amount} power from the House card to Infamy cards (total still {player.power})"

    def _prized(self, state: Table, owner: Player, amount: int) -> str:
        if amount == 0:
            raise InvalidAdjustment("Prized gives 1 power or more")
        opponents = state.opponents(owner)
        for opponent in opponents:
            opponent.house_power += amount
        names = joined_names([opponent.name for opponent in opponents])
        return f"{owner.name}'s Prized card left play: {names} each take {amount} power" + self._check_win(
            state, opponents
        )

    @staticmethod
    def _check_win(state: Table, gainers: Sequence[Player]) -> str:
        """A correction that takes players to 15 ends the game at once (see ended_by_correction)."""
        reached = rules.players_at_fifteen(gainers)
        if not reached:
            return ""
        state.won = True
        state.first_to_fifteen = reached[0].name if len(reached) == 1 else None
        together = " at the same moment" if len(reached) > 1 else ""
        names = joined_names([player.name for player in reached])
        return f". {names} reached {POWER_TO_WIN} power{together}: the game is over"

    def ended_by_correction(self, state: Table) -> bool:
        return state.won

    # --- checks and views --------------------------------------------------------------------------

    def invariant_errors(self, state: Table) -> list[str]:
        errors = []
        for player in state.players:
            counts = {
                "house power": player.house_power,
                "card power": player.card_power,
                "gold": player.gold,
                "hand": player.hand,
                "draw deck": player.draw_deck,
                "income bonus": player.income_bonus,
                "initiative bonus": player.initiative_bonus,
            }
            errors += [f"{player.name}: negative {name}" for name, value in counts.items() if value < 0]
            if player.house and player.house not in HOUSES:
                errors.append(f"{player.name}: unknown House {player.house!r}")
            if len(player.used_plots) > PLOT_DECK_SIZE:
                errors.append(f"{player.name}: more than {PLOT_DECK_SIZE} plots used")
            if len(set(player.challenges_made)) != len(player.challenges_made) or any(
                kind not in CHALLENGE_KINDS for kind in player.challenges_made
            ):
                errors.append(f"{player.name}: challenges {player.challenges_made} break one-of-each-kind")
            if player.title is not None and (player.title not in TITLES or not state.melee):
                errors.append(f"{player.name}: title {player.title!r} not allowed here")
        titles = [player.title for player in state.players if player.title]
        if len(set(titles)) != len(titles):
            errors.append(f"a title is held twice: {titles}")
        reached = rules.players_at_fifteen(state.players)
        if reached and not state.won:
            errors.append(f"{joined_names([p.name for p in reached])} at {POWER_TO_WIN}+ power but the game goes on")
        if state.first_to_fifteen is not None and state.first_to_fifteen not in [p.name for p in reached]:
            errors.append(f"{state.first_to_fifteen} is named first to {POWER_TO_WIN} without {POWER_TO_WIN} power")
        if any(link not in LINKS for link in state.title_links.values()):
            errors.append("an unknown board link between titles")
        return errors

    def header(self, state: Table) -> Header:
        return Header(state.round or None, state.active, state.phase, state.active)

    def public_view(self, state: Table) -> PublicView:
        columns = ["Player", "House"]
        if state.melee:
            columns.append("Title")
        columns += ["Power", "Gold", "Plot", "Challenges", "Hand", "Deck", "Plots left"]
        rows = []
        first = state.players[state.first_player] if state.round else None
        for player in state.players:
            plot = player.plot
            row = [("* " if player is first else "") + player.name, player.house or "?"]
            if state.melee:
                row.append(player.title or "-")
            row += [
                f"{player.power} ({player.house_power}+{player.card_power})",
                str(player.gold),
                f"{plot.income}/{plot.initiative}/{plot.claim}" if plot else "-",
                ", ".join(player.challenges_made) or "-",
                str(player.hand),
                str(player.draw_deck),
                str(player.plots_left),
            ]
            rows.append(row)
        lines = [
            "* first player. Power = House card + other cards. Plot = income/initiative/claim.",
        ]
        bonuses = [
            f"{player.name} +{player.income_bonus} gold, +{player.initiative_bonus} initiative"
            for player in state.players
            if player.income_bonus or player.initiative_bonus
        ]
        if bonuses:
            lines.append("Icons on cards in play: " + "; ".join(bonuses))
        if state.won:
            lines.append(f"The game is over: {POWER_TO_WIN} power reached.")
        return PublicView(columns, rows, lines)

    def hidden_view(self, state: Table, player: str) -> list[str]:
        holder = state.player(player)
        used = ", ".join(plot.name or f"{plot.income}/{plot.initiative}/{plot.claim}" for plot in holder.used_plots)
        return [
            f"{holder.name}: {holder.hand} cards in hand (which ones stays with the player), "
            f"{holder.plots_left} plots left to choose from; used: {used or 'none'}"
        ]

    def to_json(self, state: Table) -> dict[str, Any]:
        return state.to_json()


GAME = Thrones()
