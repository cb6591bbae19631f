"""Cutthroat Kingdoms as a guided game: state creation, corrections, invariants and views."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from referee.engine.game import Flow, Game, Header, PublicView, Say, check_names, chosen_rulings
from referee.errors import InvalidAdjustment, SessionError
from referee.games.cutthroat import rules, scoring
from referee.games.cutthroat.flow import RESERVED_WORDS, flow
from referee.games.cutthroat.state import (
    ABILITY_USES,
    FEAST_CARDS,
    GEMS_IN_GAME,
    HIRELING_CARDS,
    MAX_DEFENDERS,
    MERCENARY,
    MERCENARY_CARDS,
    SOLDIER,
    TWICE_PER_GAME,
    Kingdom,
    Player,
    Territory,
)

RULING_CHOICES: dict[str, tuple[str, ...]] = {**rules.RULING_CHOICES, **scoring.RULING_CHOICES}
"""Every ruling a guided session applies (its own and the final score's), the default first."""

COUNTED_FIELDS = ("copper", "silver", "gems", "mercenaries", "hirelings", "feast", "dead")
TERRITORY_ACTIONS = ("plague", "cure", "kill", "return")
ADJUST_HELP = (
    "'<player> <copper|silver|gems|mercenaries|hirelings|feast|dead> <+N|-N|=N>' (dead +N: soldiers from "
    "hand to the dead pile), '<player> uses <fury|opulence|life|death|eye|venom> [territory|player]', "
    "'<player> marries <player>', '<player> heir killed', '<player> hireling killed', "
    "'<territory> <plague|cure|return|kill N|kill all>'; e.g. 'Ann copper +3', 'Marrow kill 1'"
)
AMOUNT = re.compile(r"^(?P<sign>[+=-]?)(?P<amount>\d{1,4})$")


class CutthroatKingdoms(Game[Kingdom]):
    id = "cutthroat-kingdoms"
    rulebook = "cutthroat-kingdoms"

    def check_players(self, players: Sequence[str]) -> None:
        check_names("Cutthroat Kingdoms", players, scoring.MIN_PLAYERS, scoring.MAX_PLAYERS, RESERVED_WORDS)
        for name in players:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 '\-]{0,29}", name) or name.lower() in RESERVED_WORDS:
                raise SessionError(
                    f"player name {name!r}: use up to 30 letters, digits, spaces, ' or -, starting with a letter "
                    f"(not {', '.join(RESERVED_WORDS)})"
                )

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Kingdom:
        self.check_players(players)
        chosen = chosen_rulings(RULING_CHOICES, options)
        kingdom = Kingdom([Player(name) for name in players], chosen)
        kingdom.hireling_deck_size = HIRELING_CARDS + len(players)  # each house's bastard joins the deck
        return kingdom

    def flow(self, state: Kingdom, say: Say) -> Flow:
        return flow(state, say)

    def adjust_help(self) -> str:
        return ADJUST_HELP

    # --- corrections ------------------------------------------------------------------------------

    def adjust(self, state: Kingdom, text: str) -> str:
        clean = " ".join(text.split())
        subject, rest = self._subject(state, clean)
        if isinstance(subject, Territory):
            return self._adjust_territory(state, subject, rest)
        words = rest.split()
        if len(words) == 2 and words[0].lower() in ("heir", "hireling") and words[1].lower() == "killed":
            return self._killed(state, subject, words[0].lower())
        if words and words[0].lower() == "marries":
            return self._marry(state, subject, " ".join(words[1:]))
        if words and words[0].lower() == "uses":
            return self._use_ability(state, subject, words[1:])
        if len(words) == 2:
            return self._adjust_count(state, subject, words[0].lower(), words[1])
        raise InvalidAdjustment(f"cannot read {text!r}; use {ADJUST_HELP}")

    def _subject(self, state: Kingdom, text: str) -> tuple[Player | Territory, str]:
        """The player or territory the correction starts with (the longest name that fits)."""
        named: list[Player | Territory] = [*state.players, *state.territories]
        fits = [thing for thing in named if text.lower().startswith(thing.name.lower() + " ")]
        if not fits:
            known = ", ".join(thing.name for thing in named)
            raise InvalidAdjustment(f"a correction starts with a player or territory name ({known}); use {ADJUST_HELP}")
        best = max(fits, key=lambda thing: len(thing.name))
        return best, text[len(best.name) + 1 :]

    def _adjust_count(self, state: Kingdom, player: Player, what: str, change: str) -> str:
        fields = [name for name in COUNTED_FIELDS if name.startswith(what)]
        match = AMOUNT.match(change)
        if len(fields) != 1 or not match:
            raise InvalidAdjustment(f"cannot read '{what} {change}'; use {ADJUST_HELP}")
        field, sign, amount = fields[0], match["sign"], int(match["amount"])
        current = self._count(state, player, field)
        new = amount if sign == "=" else current + (-amount if sign == "-" else amount)
        if new < 0:
            raise InvalidAdjustment(f"{player.name}'s {field} cannot go below 0 (it is {current})")
        problem = self._count_problem(state, player, field, current, new)
        if problem:
            raise InvalidAdjustment(problem)
        if field == "feast":
            state.feast_cards_drawn += max(0, new - current)  # new feast cards come off the feast deck
            player.feast_cards = new
        elif field == "hirelings":
            state.hirelings_drawn += max(0, new - current)
            player.hirelings = new
        elif field == "mercenaries":
            state.mercenaries_drawn += max(0, new - current)
            player.mercenaries = new
        else:
            setattr(player, field, new)
        return f"{player.name} {field} {current} -> {new}"

    @staticmethod
    def _count(state: Kingdom, player: Player, field: str) -> int:
        return int(player.feast_cards if field == "feast" else getattr(player, field))

    @staticmethod
    def _count_problem(state: Kingdom, player: Player, field: str, current: int, new: int) -> str | None:
        grows = new - current
        if field == "gems" and state.gems_held() + grows > GEMS_IN_GAME:
            return f"only {GEMS_IN_GAME} gems exist ({state.gems_held()} already held)"
        if field == "mercenaries" and state.mercenaries_in_play() + grows > MERCENARY_CARDS:
            return f"only {MERCENARY_CARDS} mercenary cards exist ({state.mercenaries_in_play()} in hands and on land)"
        if field == "hirelings":
            held = sum(other.hirelings for other in state.players)
            if held + grows > state.hireling_deck_size:
                return f"only {state.hireling_deck_size} hireling cards exist with the bastards ({held} held)"
        if field == "feast" and sum(other.feast_cards for other in state.players) + grows > FEAST_CARDS:
            return f"only {FEAST_CARDS} feast cards exist"
        if field == "feast" and grows > 0 and state.feast_cards_drawn + grows > FEAST_CARDS:
            return f"the feast deck has only {FEAST_CARDS - state.feast_cards_drawn} card(s) left"
        if field == "dead" and grows > state.soldiers_in_hand(player):
            in_hand = state.soldiers_in_hand(player)
            return f"{player.name} has only {in_hand} soldier(s) in hand to send to the dead pile"
        return None

    def _killed(self, state: Kingdom, player: Player, what: str) -> str:
        if what == "heir":
            if not player.heir_alive:
                raise InvalidAdjustment(f"{player.name}'s royal heir is already dead")
            notes = rules.kill_heir(state, player)
            return " ".join([f"{player.name}'s royal heir is killed.", *notes])
        if player.hirelings == 0:
            raise InvalidAdjustment(f"{player.name} holds no hireling")
        player.hirelings -= 1
        return " ".join([f"{player.name} loses a killed hireling.", *rules.dark_influence(state, "hireling")])

    def _marry(self, state: Kingdom, player: Player, other_name: str) -> str:
        try:
            other = state.player(other_name)
        except KeyError:
            raise InvalidAdjustment(f"no player {other_name!r}") from None
        if other is player:
            raise InvalidAdjustment("a player cannot marry their own heir")
        for someone in (player, other):
            if not rules.can_marry(someone):
                why = "is already married" if someone.married_to else "has no living heir"
                raise InvalidAdjustment(f"{someone.name} {why}")
        rules.marry(state, player, other)
        return f"{player.name} and {other.name} are married"

    def _use_ability(self, state: Kingdom, player: Player, words: list[str]) -> str:
        if not words:
            raise InvalidAdjustment(f"name the ability; use {ADJUST_HELP}")
        ability, target = words[0].lower(), " ".join(words[1:])
        owned = TWICE_PER_GAME.get(player.character or "", ())
        if ability not in owned:
            has = ", ".join(owned) or "none counted"
            raise InvalidAdjustment(f"{player.name} ({player.character}) has no ability {ability!r}; theirs: {has}")
        if player.ability_uses[ability] == 0:
            raise InvalidAdjustment(f"{player.name} has used {ability} twice already")
        if ability in ("death", "fury"):
            territory = self._territory(state, target)
            if ability == "fury" and territory.owner == player.name:
                raise InvalidAdjustment("nobody may kill the military cards on their own territory")
            player.ability_uses[ability] -= 1
            owner = territory.owner
            if ability == "death":
                killed = rules.kill_top(state, territory, len(territory.defenders))
                territory.plagued = True
            else:
                killed = rules.kill_top(state, territory, 2)
            freed = f"; {owner}'s house token goes home" if owner and territory.owner is None else ""
            return f"{player.name} uses {ability}: {len(killed)} defender(s) of {territory.name} killed{freed}"
        if ability == "venom":
            try:
                victim = state.player(target)
            except KeyError:
                raise InvalidAdjustment("use '<Slaine's player> uses venom <player whose hireling dies>'") from None
            if victim.hirelings == 0:
                raise InvalidAdjustment(f"{victim.name} holds no hireling")
            player.ability_uses[ability] -= 1
            victim.hirelings -= 1
            notes = rules.dark_influence(state, "hireling")
            return " ".join([f"{player.name} uses venom on {victim.name}'s hireling.", *notes])
        player.ability_uses[ability] -= 1
        if ability == "opulence":
            state.turn.opulence = True
        return f"{player.name} uses {ability} ({player.ability_uses[ability]} left)"

    @staticmethod
    def _territory(state: Kingdom, name: str) -> Territory:
        try:
            return state.territory(name)
        except KeyError:
            known = ", ".join(territory.name for territory in state.territories) or "none yet"
            raise InvalidAdjustment(f"no territory {name!r}; territories: {known}") from None

    def _adjust_territory(self, state: Kingdom, territory: Territory, rest: str) -> str:
        words = rest.lower().split()
        if not words or words[0] not in TERRITORY_ACTIONS:
            raise InvalidAdjustment(f"cannot read {rest!r} for {territory.name}; use {ADJUST_HELP}")
        action = words[0]
        if action in ("plague", "cure") and len(words) == 1:
            territory.plagued = action == "plague"
            return f"{territory.name} turns to its {territory.side} side"
        owner = territory.owner
        if action == "return" and len(words) == 1:
            if owner is None:
                raise InvalidAdjustment(f"{territory.name} has no defenders to return")
            count = rules.return_to_hand(state, territory)
            return f"{count} military card(s) on {territory.name} go back to {owner}'s hand, the token too"
        if action == "kill" and len(words) == 2:
            count = len(territory.defenders) if words[1] == "all" else int(words[1]) if words[1].isdecimal() else -1
            if not 1 <= count <= len(territory.defenders):
                raise InvalidAdjustment(
                    f"{territory.name} has {len(territory.defenders)} defender(s); kill 1 to that many, or 'all'"
                )
            rules.kill_top(state, territory, count)
            freed = f"; {owner}'s house token goes home" if territory.owner is None else ""
            return f"{count} defender(s) of {territory.name} killed{freed}"
        raise InvalidAdjustment(f"cannot read {rest!r} for {territory.name}; use {ADJUST_HELP}")

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
            if any(not 0 <= uses <= ABILITY_USES for uses in player.ability_uses.values()):
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
        turn = f"turn {state.turn_number}, event {state.events_drawn} of {state.events_total} drawn"
        return Header(state.turn_number, turn, state.phase, state.active)

    def public_view(self, state: Kingdom) -> PublicView:
        columns = ["Player", "House", "Land", "Hand s/m/h", "Dead", "Feast", "Heir"]
        rows = []
        for player in state.players:
            uses = " ".join(f"{ability} {left}" for ability, left in player.ability_uses.items())
            heir = "alive" if player.heir_alive else "dead"
            if player.married_to:
                heir = f"married to {player.married_to}"
            rows.append(
                [
                    ("* " if player.name == state.active else "") + player.name,
                    (player.character or "?") + (f" ({uses})" if uses else ""),
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
        return [f"{holder.name}: {holder.copper} copper, {holder.silver} silver, {holder.gems} gem(s)"]

    def to_json(self, state: Kingdom) -> dict[str, Any]:
        return state.to_json()


GAME = CutthroatKingdoms()
