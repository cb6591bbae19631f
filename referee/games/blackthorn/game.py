"""Council of Blackthorn as a guided game: the state, the fields corrections may change, the end of
the game, invariants and views. The flow itself is in flow.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.engine.corrections import Action, Counter, Field, Target, read_change
from referee.engine.game import Game, Header, Progression, PublicView, RoleField, Setup, Values
from referee.errors import InvalidAdjustment
from referee.games.blackthorn import cards, flow, rules, scoring
from referee.games.blackthorn.rulings import RULINGS
from referee.games.blackthorn.state import (
    DICE,
    DIE_FACES,
    FACTION_DECK,
    FACTIONS,
    GHOST,
    TOP_LEVEL,
    TRACK,
    TREASON_DECK,
    Building,
    Player,
    Table,
)
from referee.outcome import Termination

Apply = Callable[[Table, str, str], str]
"""How an Action field reads the rest of a correction and changes the table."""
GHOST_KIND = "ghost"
DICE_KIND = "dice"
LEVEL_FORM = "<+N|-N levels, or =V a track value>"
BUILDING_FORM = "<+V|-V> (a building of printed value V comes into play or leaves it)"


def visible_influence(table: Table) -> Values:
    """The running score the table may see: influence without the hidden tokens (the ghost, which
    cannot win, is not charted)."""
    return {"Visible influence": {player.name: scoring.final_holdings(player).visible_influence()
                                  for player in table.players}}


class Blackthorn(Game[Table]):
    id = "council-of-blackthorn"
    rulebook = "council-of-blackthorn"
    reserved_names = (GHOST.lower(), DICE, "all")
    rulings = RULINGS
    printed_cards = cards.KINDS
    short_headers = {"Character": "Char.", "Built+new": "Built", "Peasant": "Peas.", "Legion": "Leg.",
                     **scoring.SHORT_PARTS}
    progression = Progression(
        "round", visible_influence,
        "faction tracks + completed buildings + 2 a building under construction; influence tokens stay "
        "hidden until the final count",
    )
    role = RoleField("Character", "players", "character")
    correction_example = "Ann noble +1 ; the King's text"
    questions_version = 2
    """2: a new card's fields in one line, an Ally's text and a Building's Action learned once and
    then carried out by the referee, the Action named with the card ('Guildhall, Moneylender')."""
    play = staticmethod(flow.play)
    final_count = staticmethod(flow.final_count)

    def initial_state(self, setup: Setup) -> Table:
        two = len(setup.players) == 2
        ghost = Player(GHOST, influence=0, treason_cards=0, hand=0, is_ghost=True) if two else None
        return Table([Player(name) for name in setup.players], ghost, setup.rulings, questions=setup.questions)

    def end_check(self, state: Table) -> Termination | None:
        """Never at once: the rulebook ends the game only at the end of a round, after a turn that
        ended with 3 blocked factions (#game-end). The flow checks that at the end of every turn,
        after the turn's table steps, and finishes the round before it stops."""
        return None

    def termination(self, state: Table) -> Termination | None:
        if not state.game_over_declared:
            return None
        return Termination(
            "factions-blocked",
            f"three factions were blocked at the end of {state.game_over_turn}'s turn in round {state.round}, "
            "and the round was played out",
        )

    # --- corrections ---------------------------------------------------------------------------

    def player_names(self, state: Table) -> Sequence[str]:
        return [player.name for player in state.players]

    def correction_targets(self, state: Table) -> Sequence[Target]:
        ghost = [Target(state.ghost.name, GHOST_KIND)] if state.ghost else []
        return [*super().correction_targets(state), *ghost, Target(DICE, DICE_KIND)]

    def correction_fields(self) -> Sequence[Field[Table]]:
        # Faction levels, Buildings in play and the dice are open to all (#hidden-information).
        levels = [Action(faction, correct_level(faction), LEVEL_FORM, hidden=False) for faction in FACTIONS]
        ghost_levels = [
            Action(faction, correct_level(faction), LEVEL_FORM, GHOST_KIND, hidden=False) for faction in FACTIONS
        ]
        dice = [Action(faction, correct_die(faction), "<0-3>", DICE_KIND, hidden=False) for faction in FACTIONS]
        counts: list[Field[Table]] = [
            Counter("influence", read_influence, write_influence, hidden=True, about="influence token points"),
            Counter("treason", read_treason, write_treason, treason_bounds, hidden=True,
                    about="treason cards held"),
            Counter("hand", read_hand, write_hand, lambda state, who: (0, FACTION_DECK), about="cards in hand"),
            Action("building", correct_building(complete=True), BUILDING_FORM, about="a completed building",
                   hidden=False),
            Action("construction", correct_building(complete=False), BUILDING_FORM,
                   about="a building under construction", hidden=False),
        ]
        return [*levels, *counts, *ghost_levels, *dice]

    # --- checks and views ----------------------------------------------------------------------

    def invariant_errors(self, state: Table) -> list[str]:
        errors = []
        competitors = state.competitors  # (checked after every correction: a resume replays them all)
        for faction in FACTIONS:
            at_top = [player.name for player in competitors if player.levels[faction] == TOP_LEVEL]
            if len(at_top) > 1:
                errors.append(f"{faction}: {', '.join(at_top)} all on 13")
        for player in competitors:
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
        blocked = rules.table_blocked(state)
        progress = f"blocked: {', '.join(blocked)}" if blocked else "no faction blocked"
        if state.phase == "dice":  # not a turn yet: the ring holder rolls for the whole round
            return Header(state.round or None, None, f"{state.active} rolls the faction dice", None, progress)
        return Header(state.round or None, state.active, state.phase, state.active, progress)

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


# --- the correction fields: how each reads and changes the table --------------------------------


def read_influence(state: Table, who: str) -> int:
    return state.player(who).influence


def write_influence(state: Table, who: str, value: int) -> None:
    state.player(who).influence = value


def read_treason(state: Table, who: str) -> int:
    return state.player(who).treason_cards


def write_treason(state: Table, who: str, value: int) -> None:
    state.player(who).treason_cards = value


def treason_bounds(state: Table, who: str) -> tuple[int, int]:
    """No more treason cards can be held than the 96 that exist."""
    others = sum(player.treason_cards for player in state.players if player.name != who)
    return 0, TREASON_DECK - others


def read_hand(state: Table, who: str) -> int:
    return state.player(who).hand


def write_hand(state: Table, who: str, value: int) -> None:
    state.player(who).hand = value


def correct_level(faction: str) -> Apply:
    """'+N' / '-N' move the token N levels; '=V' puts it on the level worth V points."""

    def apply(state: Table, who: str, rest: str) -> str:
        player = state.player(who)
        sign, amount = read_change(rest, faction)
        current = player.levels[faction]
        if sign == "=":
            if amount not in TRACK:
                raise InvalidAdjustment(f"{amount} is not on the track; values: {', '.join(map(str, TRACK))}")
            new = TRACK.index(amount)
        else:
            new = current + amount if sign == "+" else current - amount
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

    return apply


def correct_die(faction: str) -> Apply:
    """A die is set to the face it now shows: 'dice guild 3' (or '=3')."""

    def apply(state: Table, who: str, rest: str) -> str:
        text = rest.strip().removeprefix("=").strip()
        if not text.isdecimal() or len(text) > 1:
            raise InvalidAdjustment(f"set a die to the face it shows, e.g. 'dice {faction} 3' (0 to 3)")
        value = int(text)
        if state.dice is None:
            raise InvalidAdjustment("the dice have not been rolled yet this game")
        if value not in DIE_FACES:
            raise InvalidAdjustment(f"a faction die shows 0, 1, 2 or 3, not {value}")
        old, state.dice[faction] = state.dice[faction], value
        return f"{faction.capitalize()} die {old} -> {value}"

    return apply


def correct_building(complete: bool) -> Apply:
    """'+V' brings a building of printed value V into play, '-V' takes one such building away."""
    kind = "completed building" if complete else "building under construction"

    def apply(state: Table, who: str, rest: str) -> str:
        player = state.player(who)
        sign, value = read_change(rest, "building" if complete else "construction")
        if sign == "=":
            raise InvalidAdjustment("add a building with +VALUE or remove one with -VALUE")
        if sign == "+":
            player.buildings.append(Building(value, complete))
            return f"{player.name} gains a {kind} worth {value}"
        for index, building in enumerate(player.buildings):
            if building.complete == complete and building.value == value:
                del player.buildings[index]
                return f"{player.name} loses a {kind} worth {value}"
        raise InvalidAdjustment(f"{player.name} has no {kind} worth {value}")

    return apply


GAME = Blackthorn()
