"""Setup (#setup): what the table lays out, and who takes the cauldron."""

from __future__ import annotations

from referee.asks import ask, pick
from referee.engine.game import Say, Steps
from referee.games.blackwood import rules
from referee.games.blackwood.state import (
    FOREST_COLUMNS,
    POTION_DISPLAY,
    PUPPETS_PER_WITCH,
    SPELLS,
    STARTING_COINS,
    Table,
)


def set_up(table: Table, say: Say) -> Steps:
    table.step = "setup"
    witches = len(table.witches)
    say(
        f"Setup for {witches} witches: {len(table.forest)} forest rows of {FOREST_COLUMNS} cards, "
        f"{rules.spells_per_type(witches)} spell card(s) in each of the {len(SPELLS)} stacks, "
        f"{POTION_DISPLAY} potions face up, and {STARTING_COINS} coins and {PUPPETS_PER_WITCH} puppets for each witch. "
        "Forest rows are lettered from the round marker (A) and columns numbered from the village (1)."
    )
    table.cauldron = yield from ask(pick(
        "Who was in a forest most recently? She takes the cauldron",
        "setup",
        [(witch.name, seat) for seat, witch in enumerate(table.witches)],
    ))
