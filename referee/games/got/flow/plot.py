"""The Plot phase (#phase-plot): plots revealed, initiative and the first player, the 'when
revealed' effects carried out by the table, and in melee the titles."""

from __future__ import annotations

from referee.asks import Ask, Builder, Parsed, ask, pick, table_step
from referee.engine.game import Say, Steps
from referee.games.got import parse, rules
from referee.games.got.flow.common import Asking, player_options
from referee.games.got.flow.melee import choose_titles
from referee.games.got.flow.shadows import shadows_offer
from referee.games.got.rulings import INITIATIVE_TIE
from referee.games.got.scoring import joined_names
from referee.games.got.state import PLOT_DECK_SIZE, Player, Table

PLOT_EXAMPLES = ("5 0 1", "4 2 1 A Noble Cause", "6 1 0", "3 3 2", "2 4 1 Wildfire Assault")


def new_round(table: Table, say: Say) -> None:
    """What a new round starts from: once-per-round powers unused, no title, no plot, no first player
    yet; gold icons of the cards put into play last round join the income; spent plot decks refilled."""
    table.titles_last_round = [player.title for player in table.players if player.title]
    table.crown_regent_used = table.kingsguard_used = False
    table.opposition_earned = []
    table.first_player = None
    for player in table.players:
        player.title = None
        player.challenges_made = []
        player.plot = None
        player.income_bonus += player.income_next
        player.income_next = 0
        if player.plots_left == 0:
            player.used_plots = []
            say(
                f"{player.name} has no plot left: the {PLOT_DECK_SIZE} used plots go back into the plot deck "
                "(ruling plot-deck-reuse)."
            )


def plot_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "plot", None
    new_round(table, say)
    yield from shadows_offer(table, say)
    say(f"Round {table.round}: each player picks a plot in secret; reveal them together.")
    for player in table.players:
        plot = yield from ask(
            Parsed(
                f"{player.name}'s plot: income, initiative, claim as printed (name optional), e.g. '5 0 1'",
                "phase-plot",
                parser=parse.parse_plot,
                hint=f"three whole numbers from 0 to {parse.MAX_ICON} (income initiative claim), "
                "then the name if you like",
                examples=PLOT_EXAMPLES,
            )
        )
        player.plot = plot
        player.used_plots.append(plot)
    chooser = yield from initiative_winner(table, say)
    first = yield from ask(
        pick(
            f"{chooser.name} has the initiative: who is first player this round?",
            "phase-plot",
            player_options(table.players),
        )
    )
    table.first_player = table.players.index(first)
    order = joined_names([player.name for player in table.turn_order()])
    yield from table_step(
        f"{first.name} is first player. Carry out the 'when revealed' effects of the plots in the order {order} "
        "(enter what they change with 'adjust'), then confirm.",
        "phase-plot",
    )
    if table.melee:
        yield from choose_titles(table, say)


def initiative_totals(table: Table) -> str:
    return ", ".join(f"{player.name} {rules.initiative(player)}" for player in table.players)


def tied_for_initiative(table: Table) -> list[Player]:
    """The players left to draw lots, after ruling initiative-tie has done what it can."""
    leaders = rules.initiative_leaders(table.players)
    if INITIATIVE_TIE.of(table.rulings) == "fewer-power-then-lots":
        return rules.fewest_power(leaders)
    return leaders


def lots_question(table: Table) -> Builder[Player]:
    """Drawing lots: a builder, as a correction to initiative or power changes who is tied."""

    def build() -> Ask[Player]:
        tied = tied_for_initiative(table)
        return pick(
            f"Initiative: {initiative_totals(table)}. {joined_names([p.name for p in tied])} are tied "
            "(ruling initiative-tie): draw lots. Who wins?",
            "ruling-initiative-tie",
            player_options(tied),
        )

    return build


def initiative_winner(table: Table, say: Say) -> Asking[Player]:
    leaders = rules.initiative_leaders(table.players)
    totals = initiative_totals(table)
    if len(leaders) == 1:
        say(f"Initiative: {totals}. {leaders[0].name} wins it.")
        return leaders[0]
    tied = tied_for_initiative(table)
    if len(tied) == 1:
        say(
            f"Initiative: {totals}. Tie between {joined_names([p.name for p in leaders])}: "
            f"{tied[0].name} has the least power and wins it (ruling initiative-tie)."
        )
        return tied[0]
    winner = yield from ask(lots_question(table))
    return winner
