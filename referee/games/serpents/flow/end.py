"""Game End & Determining Victory: the check for Triumph and Collapse inside a turn, and the final
count (the Ambition cards revealed, the report).

The driver asks the game's end check at every question. Inside a turn the rulebook also checks
where no question comes first: after each card is fully resolved and after step I of a War. There
the flow checks with the same rule (rules.termination) and stops play itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.asks import Choice, ask, pick
from referee.engine.game import Flow, GameOver, Say
from referee.games.serpents import rules
from referee.games.serpents.houses import HOUSES, House
from referee.games.serpents.rulings import rulings_from
from referee.games.serpents.scoring import Holdings, PlayerAmbitions, ask_ambition_cards, score
from referee.games.serpents.state import Table

NOBODY = "nobody"


def stop_if_over(table: Table, say: Say, after: str) -> None:
    """Stop play at once if a House is on the Triumph or Collapse symbol (after `after`)."""
    termination = rules.termination(table)
    if termination is None:
        return
    for house in HOUSES:
        reached = rules.fates(table.houses[house])
        if reached:
            say(f"After {after}, House {house.capitalize()} {' and '.join(reached)}: the game ends at once.")
    raise GameOver(termination)


def nobody_label(names: Sequence[str]) -> str:
    """The option for 'no player': 'nobody', kept apart from a player of that name."""
    label = NOBODY
    while label in (name.lower() for name in names):
        label = f"({label})"
    return label


def keeper_question(prompt: str, section: str, names: Sequence[str]) -> Choice[str | None]:
    """Who holds (or reveals) the Keeper of Balance, or nobody; the answer is a name or None."""
    options: list[tuple[str, str | None]] = [(nobody_label(names), None), *((name, name) for name in names)]
    return pick(prompt, section, options)


def final_count(table: Table, say: Say) -> Flow:
    table.phase, table.active = "final", None
    if table.ended_by is None and table.ended_houses():
        table.ended_by = "house"
    order = table.turn_order()
    keeper = table.players[0].name if table.solo else table.keeper
    players: list[PlayerAmbitions] = []
    if table.solo or table.ended_by == "deck":
        players = [PlayerAmbitions(player.name, ()) for player in order]
    else:
        if table.keeper_possible:
            names = [player.name for player in order]
            keeper = yield from ask(keeper_question("Who holds the Keeper of Balance?", "keeper-of-balance", names))
        players = yield from ask_ambition_cards([player.name for player in order], keeper, say)
    houses = tuple(House(house, **table.houses[house]) for house in HOUSES)
    table.keeper = keeper
    table.finished = True
    holdings = Holdings(houses, tuple(players), keeper, rulings_from(table.rulings), table.ended_by == "deck")
    return score(holdings)
