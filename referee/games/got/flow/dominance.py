"""The end of a round: Dominance (#phase-dominance), Standing (#phase-standing) and Taxation
(#phase-taxation)."""

from __future__ import annotations

from referee.asks import Ask, Builder, Parsed, ask, pick
from referee.engine.game import Say, Steps
from referee.games.got import parse, rules
from referee.games.got.flow.common import player_options
from referee.games.got.flow.power import gain_power
from referee.games.got.flow.shadows import shadows_offer
from referee.games.got.rulings import DOMINANCE_TIE
from referee.games.got.scoring import joined_names
from referee.games.got.state import DOMINANCE_POWER, Player, Table


def strengths_question(table: Table) -> Builder[tuple[int, ...]]:
    """A builder: the question shows each player's gold as it is now."""

    def build() -> Ask[tuple[int, ...]]:
        order = table.turn_order()
        names = ", ".join(f"{player.name} (gold {player.gold})" for player in order)
        return Parsed(
            f"Dominance: strength of each player's standing characters, in the order {names}",
            "phase-dominance",
            parser=lambda text: parse.parse_strengths(text, len(order)),
            hint=f"{len(order)} whole numbers from 0 to {parse.MAX_STRENGTH}, one per player in the order given",
            examples=(" ".join(["3"] * len(order)), " ".join(str(n) for n in range(len(order)))),
        )

    return build


def tie_question(table: Table, strengths: tuple[int, ...]) -> Builder[Player]:
    """The table settles a tie (ruling dominance-tie = table-decides): totals as they are now."""

    def build() -> Ask[Player]:
        totals = rules.dominance_totals(table.turn_order(), strengths)
        summary = ", ".join(f"{player.name} {total}" for player, total in totals)
        leaders = rules.highest(totals)
        tied = joined_names([player.name for player in leaders])
        return pick(
            f"Dominance: {summary}. {tied} are tied (ruling dominance-tie: the table decides). Who wins it?",
            "ruling-dominance-tie",
            player_options(leaders),
        )

    return build


def dominance_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "dominance", None
    yield from shadows_offer(table, say)
    strengths = yield from ask(strengths_question(table))
    totals = rules.dominance_totals(table.turn_order(), strengths)
    summary = ", ".join(f"{player.name} {total}" for player, total in totals)
    leaders = rules.highest(totals)
    if len(leaders) == 1:
        say(f"Dominance (gold + standing strength): {summary}. {leaders[0].name} wins dominance.")
        gain_power(table, leaders[0], DOMINANCE_POWER, "dominance", say)
        return
    if DOMINANCE_TIE.of(table.rulings) == "nobody":
        tied = joined_names([player.name for player in leaders])
        say(f"Dominance: {summary}. {tied} are tied: nobody wins dominance (ruling dominance-tie).")
        return
    winner = yield from ask(tie_question(table, strengths))
    gain_power(table, winner, DOMINANCE_POWER, "dominance", say)


def standing_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "standing", None
    yield from shadows_offer(table, say)
    say("Standing: every player stands all of their knelt cards.")


def taxation_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "taxation", None
    yield from shadows_offer(table, say)
    returned = [f"{player.name} {player.gold}" for player in table.players if player.gold]
    for player in table.players:
        player.gold = 0
    say("Taxation: unspent gold goes back to the bank" + (f" ({', '.join(returned)})." if returned else "."))
