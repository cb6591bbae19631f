"""Course of Play: a round's two steps, the first witch (#first-witch) and the end of the round."""

from __future__ import annotations

from referee.engine.game import Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.flow.exploration import exploration_turn
from referee.games.blackwood.flow.village import return_to_village
from referee.games.blackwood.rulings import CAULDRON_TIMING
from referee.games.blackwood.state import FOREST_STEP, VILLAGE_STEP, Table


def play_round(table: Table, say: Say) -> Steps:
    holder = table.witches[table.cauldron].name
    say(f"Expedition {table.expedition}, round {table.round}: the marker is under column {table.round}; "
        f"{holder} holds the cauldron.")
    if CAULDRON_TIMING.of(table.rulings) == "round-start":
        pass_cauldron(table, say, "starts this round")
    table.step = FOREST_STEP
    for witch in table.clockwise_from_cauldron():
        if witch.puppets_home == 0:
            say(f"{witch.name} has every puppet in the forest and waits for {VILLAGE_STEP}.")
            continue
        yield from exploration_turn(table, witch, say)
    if CAULDRON_TIMING.of(table.rulings) == "before-return":
        pass_cauldron(table, say, "will start the next round")
    yield from return_to_village(table, say)
    end_of_round(table, say)


def pass_cauldron(table: Table, say: Say, starts: str) -> None:
    """The owner of the puppet farthest from the marker in its column takes the cauldron (#first-witch;
    when this happens is ruling cauldron-timing)."""
    column = table.round - 1
    owner = rules.first_witch(table.forest, column)
    if owner is None:
        holder = table.witches[table.cauldron].name
        say(f"No puppet in column {column + 1}: the cauldron stays with {holder} (ruling cauldron-timing).")
        return
    table.cauldron = table.seat(owner)
    say(f"{owner}'s puppet is the farthest from the marker in column {column + 1}: she takes the cauldron "
        f"and {starts} (ruling cauldron-timing).")


def end_of_round(table: Table, say: Say) -> None:
    """Refill the forest's gaps and the potion display (#end-of-round); the marker moves on."""
    table.step, table.active = "end of round", None
    wanted = rules.gaps(table.forest)
    drawn, reshuffled = rules.draw_forest_cards(table, wanted)
    if reshuffled:
        say("The forest deck ran short: shuffle the discards into a new deck (ruling forest-deck).")
    rules.deal_into_gaps(table.forest, drawn)
    added = rules.refill_display(table)
    short = f" ({wanted - drawn} gap(s) stay empty: no forest card left, ruling forest-deck)" if drawn < wanted else ""
    say(f"End of round {table.round}: deal {drawn} forest card(s) into the gaps{short}; add {added} potion(s) "
        f"to the display ({table.potion_display} face up, {table.potion_deck} in the deck).")
