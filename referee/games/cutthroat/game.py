"""Cutthroat Kingdoms as a guided game: state creation, the correction fields, the end, invariants
and views."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.engine import facts
from referee.engine.cards import CardKind
from referee.engine.corrections import GAME as OF_THE_GAME
from referee.engine.corrections import Action, Counter, Field, Target
from referee.engine.game import Flow, Game, Header, PublicView, Say, Steps, check_names, chosen_rulings
from referee.errors import InvalidAdjustment, SessionError
from referee.games.cutthroat import cards, flow, rules
from referee.games.cutthroat.parse import NAME, RESERVED_WORDS
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
from referee.outcome import Termination

GAME_ID = "cutthroat-kingdoms"
RULING_CHOICES = facts.ruling_choices(GAME_ID)
"""Every ruling a guided session applies (its own and the final score's), the default first."""
TERRITORY = "territory"
PURSE = ("copper", "silver", "gems")
LAST_EVENT = Termination("last-event-resolved", "the last event card, the Royal Feast, has resolved")


# --- counted fields --------------------------------------------------------------------------------


def reader(attribute: str) -> Callable[[Kingdom, str], int]:
    return lambda kingdom, who: int(getattr(kingdom.player(who), attribute))


def write_plain(attribute: str) -> Callable[[Kingdom, str, int], None]:
    def write(kingdom: Kingdom, who: str, value: int) -> None:
        setattr(kingdom.player(who), attribute, value)

    return write


def write_gems(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    if value - player.gems > rules.gems_in_purse(kingdom):
        raise InvalidAdjustment(f"only {GEMS_IN_GAME} gems exist (ruling gem-supply): the purse holds "
                                f"{rules.gems_in_purse(kingdom)} more")
    player.gems = value


def write_mercenaries(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    grows = value - player.mercenaries
    if kingdom.mercenaries_in_play() + grows > MERCENARY_CARDS:
        raise InvalidAdjustment(f"only {MERCENARY_CARDS} mercenary cards exist ({kingdom.mercenaries_in_play()} "
                                "in hands and on land)")
    kingdom.mercenaries_drawn += max(0, grows)
    player.mercenaries = value


def write_hirelings(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    grows = value - player.hirelings
    held = sum(other.hirelings for other in kingdom.players)
    if held + grows > kingdom.hireling_deck_size:
        raise InvalidAdjustment(f"only {kingdom.hireling_deck_size} hireling cards exist with the bastards "
                                f"({held} held)")
    kingdom.hirelings_drawn += max(0, grows)
    player.hirelings = value


def write_feast(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    grows = value - player.feast_cards
    if grows > 0 and kingdom.feast_cards_drawn + grows > FEAST_CARDS:
        raise InvalidAdjustment(f"the feast deck has only {rules.feast_cards_left(kingdom)} card(s) left")
    kingdom.feast_cards_drawn += max(0, grows)  # new feast cards come off the feast deck
    player.feast_cards = value


def dead_bounds(kingdom: Kingdom, who: str) -> tuple[int, int]:
    """Soldiers go to the dead pile from the hand (dead +N) or back to it (dead -N)."""
    player = kingdom.player(who)
    return 0, player.dead + kingdom.soldiers_in_hand(player)


# --- actions on players -------------------------------------------------------------------------------


def killed(what: str) -> Callable[[Kingdom, str, str], str]:
    def apply(kingdom: Kingdom, who: str, rest: str) -> str:
        player = kingdom.player(who)
        if rest.lower() != "killed":
            raise InvalidAdjustment(f"write '{player.name} {what} killed'")
        if what == "heir":
            if not player.heir_alive:
                raise InvalidAdjustment(f"{player.name}'s royal heir is already dead")
            notes = rules.kill_heir(kingdom, player)
            return " ".join([f"{player.name}'s royal heir is killed.", *notes])
        if player.hirelings == 0:
            raise InvalidAdjustment(f"{player.name} holds no hireling")
        player.hirelings -= 1
        return " ".join([f"{player.name} loses a killed hireling.", *rules.dark_influence(kingdom, "hireling")])

    return apply


def marries(kingdom: Kingdom, who: str, rest: str) -> str:
    player = kingdom.player(who)
    try:
        other = kingdom.player(rest.strip())
    except KeyError:
        raise InvalidAdjustment(f"no player {rest.strip()!r}") from None
    if other is player:
        raise InvalidAdjustment("a player cannot marry their own heir")
    for someone in (player, other):
        if not rules.can_marry(someone):
            why = "is already married" if someone.married_to else "has no living heir"
            raise InvalidAdjustment(f"{someone.name} {why}")
    rules.marry(kingdom, player, other)
    return f"{player.name} and {other.name} are married"


def territory_named(kingdom: Kingdom, name: str) -> Territory:
    try:
        return kingdom.territory(name)
    except KeyError:
        known = ", ".join(territory.name for territory in kingdom.territories) or "none yet"
        raise InvalidAdjustment(f"no territory {name!r}; territories: {known}") from None


def uses(kingdom: Kingdom, who: str, rest: str) -> str:
    """A twice-per-game ability used off the guided path: its token is spent and, for Death, Fury
    and Venom, its effect applied."""
    player = kingdom.player(who)
    words = rest.split()
    if not words:
        raise InvalidAdjustment("name the ability: '<player> uses <ability> [territory|player]'")
    ability, target = words[0].lower(), " ".join(words[1:])
    owned = TWICE_PER_GAME.get(player.character or "", ())
    if ability not in owned:
        has = ", ".join(owned) or "none counted"
        raise InvalidAdjustment(f"{player.name} ({player.character}) has no ability {ability!r}; theirs: {has}")
    if player.ability_uses[ability] == 0:
        raise InvalidAdjustment(f"{player.name} has used {ability} twice already")
    if ability in ("death", "fury"):
        return kill_with(kingdom, player, ability, territory_named(kingdom, target))
    if ability == "venom":
        try:
            victim = kingdom.player(target)
        except KeyError:
            raise InvalidAdjustment("use '<Slaine's player> uses venom <player whose hireling dies>'") from None
        if victim.hirelings == 0:
            raise InvalidAdjustment(f"{victim.name} holds no hireling")
        player.ability_uses[ability] -= 1
        victim.hirelings -= 1
        notes = rules.dark_influence(kingdom, "hireling")
        return " ".join([f"{player.name} uses venom on {victim.name}'s hireling.", *notes])
    player.ability_uses[ability] -= 1
    if ability == "opulence":
        kingdom.turn.opulence = True
    return f"{player.name} uses {ability} ({player.ability_uses[ability]} left)"


def kill_with(kingdom: Kingdom, player: Player, ability: str, territory: Territory) -> str:
    """Death (every defender, and the plague) or Fury (the top 2): never on the user's own land
    (#faq), and a Fury on an undefended territory is refused rather than spent."""
    if territory.owner == player.name:
        raise InvalidAdjustment(f"nobody may kill the military cards on their own territory ({territory.name})")
    if ability == "fury" and not territory.defenders:
        raise InvalidAdjustment(f"{territory.name} has no defenders: Fury would kill nothing, so it is not spent")
    player.ability_uses[ability] -= 1
    owner = territory.owner
    if ability == "death":
        dead = rules.kill_top(kingdom, territory, len(territory.defenders))
        territory.plagued = True
    else:
        dead = rules.kill_top(kingdom, territory, 2)
    freed = f"; {owner}'s house token goes home" if owner and territory.owner is None else ""
    return f"{player.name} uses {ability}: {len(dead)} defender(s) of {territory.name} killed{freed}"


# --- actions on territories ---------------------------------------------------------------------------


def turn_side(plagued: bool) -> Callable[[Kingdom, str, str], str]:
    def apply(kingdom: Kingdom, who: str, rest: str) -> str:
        territory = kingdom.territory(who)
        if rest:
            raise InvalidAdjustment(f"'{territory.name} {'plague' if plagued else 'cure'}' takes nothing after it")
        territory.plagued = plagued
        return f"{territory.name} turns to its {territory.side} side"

    return apply


def return_defenders(kingdom: Kingdom, who: str, rest: str) -> str:
    territory = kingdom.territory(who)
    owner = territory.owner
    if rest:
        raise InvalidAdjustment(f"'{territory.name} return' takes nothing after it")
    if owner is None:
        raise InvalidAdjustment(f"{territory.name} has no defenders to return")
    count = rules.return_to_hand(kingdom, territory)
    return f"{count} military card(s) on {territory.name} go back to {owner}'s hand, the token too"


def kill_defenders(kingdom: Kingdom, who: str, rest: str) -> str:
    territory = kingdom.territory(who)
    owner = territory.owner
    word = rest.lower().strip()
    count = len(territory.defenders) if word == "all" else int(word) if word.isdecimal() else -1
    if not 1 <= count <= len(territory.defenders):
        raise InvalidAdjustment(
            f"{territory.name} has {len(territory.defenders)} defender(s); kill 1 to that many, or 'all'"
        )
    rules.kill_top(kingdom, territory, count)
    freed = f"; {owner}'s house token goes home" if territory.owner is None else ""
    return f"{count} defender(s) of {territory.name} killed{freed}"


# --- coins, cards and gems changing hands ---------------------------------------------------------------


BANK = "bank"
KINDS = {"copper": "copper", "silver": "silver", "gem": "gems", "gems": "gems"}


def party(kingdom: Kingdom, words: list[str]) -> tuple[Player | None, list[str]]:
    """The player (longest name first) or the bank the words begin with, and the words after it."""
    lowered = [word.lower() for word in words]
    for player in sorted(kingdom.players, key=lambda player: -len(player.name.split())):
        name = player.name.lower().split()
        if lowered[: len(name)] == name:
            return player, words[len(name) :]
    if lowered[:1] == [BANK]:
        return None, words[1:]
    known = ", ".join(player.name for player in kingdom.players)
    raise InvalidAdjustment(f"'pay FROM TO N [copper|silver|gems]': FROM and TO are players ({known}) or the bank")


def pay(kingdom: Kingdom, who: str, rest: str) -> str:
    """'pay FROM TO N [copper|silver|gems]': coins or gems handed over in a deal (or to or from the bank)."""
    payer, words = party(kingdom, rest.split())
    payee, words = party(kingdom, words)
    if payer is payee:
        raise InvalidAdjustment("a payment goes from one player to another (or to or from the bank)")
    if not words or not words[0].isdecimal() or not 1 <= int(words[0]) <= 9999 or len(words) > 2:
        raise InvalidAdjustment("write 'pay FROM TO N [copper|silver|gems]', N a whole number from 1")
    amount = int(words[0])
    kind = KINDS.get(words[1].lower(), "") if len(words) == 2 else "copper"
    if not kind:
        raise InvalidAdjustment(f"pay copper, silver or gems, not {words[1]!r}")
    if payer is not None and getattr(payer, kind) < amount:
        raise InvalidAdjustment(f"{payer.name} does not hold {amount} {kind} by the referee's count (correct that "
                                f"first with 'adjust {payer.name} {kind} =N')")
    if payer is None and kind == "gems" and amount > rules.gems_in_purse(kingdom):
        raise InvalidAdjustment(f"the purse holds only {rules.gems_in_purse(kingdom)} gem(s)")
    for holder, change in ((payer, -amount), (payee, amount)):
        if holder is not None:
            setattr(holder, kind, getattr(holder, kind) + change)
    giver = payer.name if payer else "The bank"
    taker = payee.name if payee else "the bank"
    return f"{giver} pays {taker} {amount} {'gem(s)' if kind == 'gems' else kind}"


class CutthroatKingdoms(Game[Kingdom]):
    id = GAME_ID
    rulebook = GAME_ID
    correction_example = "Ann copper +3 ; a deal"
    correction_verbs = ("pay",)

    def check_players(self, players: Sequence[str]) -> None:
        low, high = facts.player_range(self.id)
        check_names("Cutthroat Kingdoms", players, low, high, RESERVED_WORDS)
        for name in players:
            if not NAME.fullmatch(name) or not name[0].isalpha() or name.split()[0].lower() == "pay":
                raise SessionError(
                    f"player name {name!r}: use up to 30 letters, digits, spaces, ' or -, starting with a letter "
                    "(but not with the word 'pay', which starts a payment)"
                )

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Kingdom:
        self.check_players(players)
        chosen = chosen_rulings(RULING_CHOICES, options)
        kingdom = Kingdom([Player(name) for name in players], chosen)
        kingdom.hireling_deck_size = HIRELING_CARDS + len(players)  # each house's bastard joins the deck
        return kingdom

    def play(self, state: Kingdom, say: Say) -> Steps:
        return flow.play(state, say)

    def final_count(self, state: Kingdom, say: Say) -> Flow:
        return flow.final_count(state, say)

    def card_kinds(self) -> Sequence[CardKind]:
        return cards.KINDS

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
        return [
            Counter("copper", reader("copper"), write_plain("copper"), hidden=True),
            Counter("silver", reader("silver"), write_plain("silver"), hidden=True),
            Counter("gems", reader("gems"), write_gems, hidden=True),
            Counter("mercenaries", reader("mercenaries"), write_mercenaries),
            Counter("hirelings", reader("hirelings"), write_hirelings),
            Counter("feast", reader("feast_cards"), write_feast),
            Counter("dead", reader("dead"), write_plain("dead"), dead_bounds,
                    about="dead +N: soldiers from hand to the dead pile"),
            Action("uses", uses, form="<fury|opulence|life|death|eye|venom> [territory|player]"),
            Action("marries", marries, form="<player>"),
            Action("heir", killed("heir"), form="killed"),
            Action("hireling", killed("hireling"), form="killed"),
            Action("plague", turn_side(True), form="", kind=TERRITORY),
            Action("cure", turn_side(False), form="", kind=TERRITORY),
            Action("kill", kill_defenders, form="<N|all>", kind=TERRITORY),
            Action("return", return_defenders, form="", kind=TERRITORY),
            Action("pay", pay, form="FROM TO N [copper|silver|gems]", kind=OF_THE_GAME,
                   about="coins or gems handed over; 'pay' alone starts the line, the reason is optional"),
        ]

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
        return Header(state.turn_number, None, state.phase, state.active, progress)

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
        return [f"{holder.name}: {holder.copper} copper, {holder.silver} silver, {holder.gems} gem(s)"]

    def to_json(self, state: Kingdom) -> dict[str, Any]:
        return state.to_json()


GAME = CutthroatKingdoms()
