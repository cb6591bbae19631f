"""End of the Expedition (#end-of-expedition), End of the Game (#end-of-game) and the score
(#final-score)."""

from __future__ import annotations

from referee.engine.game import Say
from referee.games.blackwood import rules
from referee.games.blackwood.flow.wording import supply_note
from referee.games.blackwood.parse import describe_cards
from referee.games.blackwood.rulings import POTIONS_RUN_OUT
from referee.games.blackwood.scoring import Holdings, Rulings, WitchHoldings, score
from referee.games.blackwood.state import EXPEDITIONS, ROUNDS_PER_EXPEDITION, Table
from referee.outcome import ScoreReport


def end_of_expedition(table: Table, say: Say) -> None:
    table.step, table.active = "end of expedition", None
    sell_leftovers(table, say)
    restored = rules.restore_spells(table)
    if restored:
        say(f"Turn the {restored} used spell(s) face up again.")
    if table.expedition < EXPEDITIONS:
        say(f"Expedition {table.expedition} is over: move the expedition marker on and the round marker back "
            "to column 1. Puppets in the forest stay where they are.")


def sell_leftovers(table: Table, say: Say) -> None:
    for witch in table.witches:
        if not witch.forest_cards:
            continue
        owed = rules.compensation(witch)
        paid = rules.pay_from_supply(table, witch, owed)
        say(f"{witch.name} sells her {len(witch.forest_cards)} leftover forest card(s) (prices "
            f"{describe_cards(witch.forest_cards)}) for half: +{paid} coins." + supply_note(paid, owed))
        table.forest_discard += len(witch.forest_cards)
        witch.forest_cards.clear()


def sells_leftovers_early(table: Table) -> bool:
    """Whether the game's early end sells the leftover forest cards (ruling potions-run-out): an
    end after a fifth round has already sold them with the expedition."""
    return table.round < ROUNDS_PER_EXPEDITION and POTIONS_RUN_OUT.of(table.rulings) == "sell-leftovers"


def early_end_note(table: Table) -> str:
    """What the table is told, and the report notes, when the potions end the game."""
    ending = rules.game_end(table)
    why = ending.text if ending is not None else "the game ended"
    note = f"The game ends after expedition {table.expedition}, round {table.round}: {why} (ruling potions-run-out)."
    if sells_leftovers_early(table):
        return note + " Leftover forest cards were sold at half price."
    if table.round < ROUNDS_PER_EXPEDITION:
        return note + " Leftover forest cards are not sold: that belongs to an expedition's end."
    return note


def end_early(table: Table, say: Say) -> None:
    """The potions end the game with this round (ruling potions-run-out)."""
    if sells_leftovers_early(table):
        sell_leftovers(table, say)
    say(early_end_note(table))


def finish(table: Table, say: Say) -> ScoreReport:
    table.step, table.active, table.finished = "final score", None, True
    rulings = Rulings.chosen(table.rulings)
    holdings = Holdings(
        tuple(
            WitchHoldings(witch.name, witch.reputation, witch.coins, witch.fagus_tokens, witch.potions_brewed)
            for witch in table.witches
        ),
        rulings,
    )
    report = score(holdings)
    ending = rules.game_end(table)
    if ending is not None and ending.code != rules.EXPEDITIONS_OVER:
        report.notes.insert(0, early_end_note(table))
    sold = [witch for witch in table.witches if witch.potions_sold]
    if sold:
        report.notes.append(
            "Reputation counts each sold potion 2 below its front: "
            + ", ".join(f"{witch.name} {witch.potions_sold} sold" for witch in sold) + "."
        )
    say("The game is over: reputation, 1 point per 3 coins, -5 per Fagus Beech token.")
    return report
