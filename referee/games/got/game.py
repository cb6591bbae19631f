"""A Game of Thrones (1st edition) as a guided game: state creation, corrections, the end check,
invariants and views."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.engine.corrections import GAME as OF_THE_GAME
from referee.engine.corrections import Action, Counter, Field
from referee.engine.game import Game, Header, Progression, PublicView, RoleField, Setup, Values
from referee.errors import InvalidAdjustment
from referee.games.got import cards, flow, parse, rules, scoring
from referee.games.got.rulings import RULINGS
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
from referee.outcome import Termination

GAME_NAME = "A Game of Thrones (1st edition)"
"""The game's name in messages (shorter than the rulebook's)."""
RESERVED_NAMES = ("prized",)
"""'adjust prized NAME N' starts with this word, so no player may be named so."""
MAX_COUNT = 999
"""Upper bound for a corrected count (power, gold, cards): the source sets none; this catches slips."""

PLAYER_COUNTERS = (
    ("house", "house_power", "power on the House card"),
    ("cards", "card_power", "power on the player's other cards in play"),
    ("gold", "gold", "gold"),
    ("hand", "hand", "cards in hand"),
    ("deck", "draw_deck", "cards in the draw deck"),
    ("income", "income_bonus", "gold icons on cards in play, counted in this round's income"),
    ("initiative", "initiative_bonus", "initiative icons on cards in play"),
    ("shadows", "shadows", "cards in shadows"),
)
"""The correction fields that are a plain count of the player, with the Player attribute each changes."""
POWER_ATTRIBUTES = ("house_power", "card_power")


def read_count(attribute: str) -> Callable[[Table, str], int]:
    def read(table: Table, who: str) -> int:
        value: int = getattr(table.player(who), attribute)
        return value

    return read


def write_count(attribute: str) -> Callable[[Table, str, int], None]:
    def write(table: Table, who: str, value: int) -> None:
        player = table.player(who)
        nobody_there_yet = not rules.players_at_fifteen(table.players)
        setattr(player, attribute, value)
        if attribute in POWER_ATTRIBUTES and nobody_there_yet and player.power >= POWER_TO_WIN:
            table.first_to_fifteen = player.name

    return write


def count_bounds(table: Table, who: str) -> tuple[int, int]:
    return 0, MAX_COUNT


def read_claim(table: Table, who: str) -> int:
    plot = table.player(who).plot
    return plot.claim if plot else 0


def write_claim(table: Table, who: str, value: int) -> None:
    plot = table.player(who).plot
    if plot is None:
        raise InvalidAdjustment(f"{who} has no revealed plot this round")
    plot.claim = value


def claim_bounds(table: Table, who: str) -> tuple[int, int]:
    return 0, parse.MAX_ICON


def move_to_infamy(table: Table, who: str, rest: str) -> str:
    """'Ann infamy 2': 2 power moves from Ann's House card onto her Infamy cards (#keyword-infamy)."""
    amount = rest.removeprefix("+").strip()
    if not amount.isascii() or not amount.isdecimal() or len(amount) > 2:
        raise InvalidAdjustment("write '<player> infamy N' to move N power from the House card to Infamy cards")
    player = table.player(who)
    moved = int(amount)
    if moved > player.house_power:
        raise InvalidAdjustment(f"{player.name} has only {player.house_power} power on the House card")
    player.house_power -= moved
    player.card_power += moved
    return f"{player.name} moves {moved} power from the House card to Infamy cards (total still {player.power})"


def prized_leaves_play(table: Table, who: str, rest: str) -> str:
    """'prized Ann 3': Ann's Prized 3 card left play, so each of her opponents takes 3 power at once
    (#keyword-prized). Several may reach 15 together (#ruling-simultaneous-fifteen)."""
    owner_name, _, amount = rest.rpartition(" ")
    if not amount.isascii() or not amount.isdecimal() or len(amount) > 2 or not owner_name.strip():
        raise InvalidAdjustment("write 'prized <owner> <N>': each opponent of the owner takes N power")
    try:
        owner = table.player(owner_name.strip())
    except KeyError:
        known = joined_names([player.name for player in table.players])
        raise InvalidAdjustment(f"no player {owner_name.strip()!r}; players: {known}") from None
    gained = int(amount)
    if gained == 0:
        raise InvalidAdjustment("Prized gives 1 power or more")
    opponents = table.opponents(owner)
    nobody_there_yet = not rules.players_at_fifteen(table.players)
    for opponent in opponents:
        opponent.house_power += gained
    reached = rules.players_at_fifteen(opponents)
    if nobody_there_yet and len(reached) == 1:
        table.first_to_fifteen = reached[0].name
    names = joined_names([opponent.name for opponent in opponents])
    return f"{owner.name}'s Prized card left play: {names} each take {gained} power"


def power(table: Table) -> Values:
    """The race to 15: each player's power, all of it on the table."""
    return {"Power": {player.name: player.house_power + player.card_power for player in table.players}}


class Thrones(Game[Table]):
    id = "got-lcg-1e"
    rulebook = "got-lcg-1e"
    title = GAME_NAME
    reserved_names = RESERVED_NAMES
    rulings = RULINGS
    printed_cards = cards.KINDS
    short_headers = {"Challenges": "Chall.", "Plots left": "Plots", **scoring.SHORT_PARTS}
    progression = Progression("round", power, "power on House cards and other cards")
    role = RoleField("House", "players", "house")
    correction_example = "Ann house +2 ; a card's text"
    play = staticmethod(flow.play)
    final_count = staticmethod(flow.final_count)

    def initial_state(self, setup: Setup) -> Table:
        return Table([Player(name) for name in setup.players], setup.rulings)

    def end_check(self, state: Table) -> Termination | None:
        return rules.power_reached(state.players)

    def termination(self, state: Table) -> Termination | None:
        return rules.power_reached(state.players)

    def player_names(self, state: Table) -> Sequence[str]:
        return [player.name for player in state.players]

    def correction_fields(self) -> Sequence[Field[Table]]:
        counters: list[Field[Table]] = [
            Counter(name, read_count(attribute), write_count(attribute), count_bounds, about=about)
            for name, attribute, about in PLAYER_COUNTERS
        ]
        return [
            *counters,
            Counter("claim", read_claim, write_claim, claim_bounds, about="claim of this round's plot"),
            Action("infamy", move_to_infamy, form="N", about="move N power from the House card to Infamy cards"),
            Action(
                "prized",
                prized_leaves_play,
                form="<owner> N",
                kind=OF_THE_GAME,
                about="a Prized N card left play: each opponent of its owner takes N power",
            ),
        ]

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
                "income from next round": player.income_next,
                "initiative bonus": player.initiative_bonus,
                "cards in shadows": player.shadows,
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
        if state.first_to_fifteen is not None and state.first_to_fifteen not in [p.name for p in reached]:
            errors.append(f"{state.first_to_fifteen} is named first to {POWER_TO_WIN} without {POWER_TO_WIN} power")
        if any(link not in LINKS for link in state.title_links.values()):
            errors.append("an unknown board link between titles")
        return errors

    def header(self, state: Table) -> Header:
        race = ", ".join(f"{player.name} {player.power}" for player in state.players)
        progress = f"power to {POWER_TO_WIN}: {race}" if state.players else None
        return Header(state.round or None, state.active, state.phase, state.active, progress)

    def public_view(self, state: Table) -> PublicView:
        columns = ["Player", "House"]
        if state.melee:
            columns.append("Title")
        columns += ["Power", "Gold", "Plot", "Challenges", "Hand", "Deck", "Plots left"]
        rows = []
        # the mark appears once the initiative winner has chosen, not before
        first = state.players[state.first_player] if state.first_player is not None else None
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
            f"{player.name} +{player.income_bonus} gold"
            + (f" (+{player.income_next} more from the next round)" if player.income_next else "")
            + f", +{player.initiative_bonus} initiative"
            for player in state.players
            if player.income_bonus or player.income_next or player.initiative_bonus
        ]
        if bonuses:
            lines.append("Icons on cards in play: " + "; ".join(bonuses))
        shadows = [f"{player.name} {player.shadows}" for player in state.players if player.shadows]
        if shadows:
            lines.append("Cards in shadows: " + ", ".join(shadows))
        if state.finished:
            lines.append(f"The game is over: {POWER_TO_WIN} power reached.")
        return PublicView(columns, rows, lines)

    def hidden_view(self, state: Table, player: str) -> list[str]:
        holder = state.player(player)
        used = ", ".join(plot.name or f"{plot.income}/{plot.initiative}/{plot.claim}" for plot in holder.used_plots)
        return [
            f"{holder.name}: {holder.hand} cards in hand (which ones stays with the player), "
            f"{holder.plots_left} plots left to choose from; used: {used or 'none'}"
        ]


GAME = Thrones()
