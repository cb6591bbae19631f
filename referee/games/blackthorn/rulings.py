"""The rulings of Council of Blackthorn the table may override, each with every value it may take.

Written under Rulings in rulebooks/council-of-blackthorn.md, with their defaults in its TOML;
held against the TOML as the game loads (engine/rulings.py).
"""

from __future__ import annotations

from typing import Literal, get_args

from referee.engine.rulings import Ruling, RulingSet

TriggerTiming = Literal["after", "before"]
TRIGGER_AFTER_DICE = Ruling[TriggerTiming]("trigger-after-dice", get_args(TriggerTiming))
"""Whether a card's trigger is compared with the faction value after its dice effect or before."""
ActiveTied = Literal["nobody", "choose-other"]
WHISPERS_ACTIVE_TIED = Ruling[ActiveTied]("whispers-active-tied", get_args(ActiveTied))
ZeroBuildings = Literal["nobody", "choose-among-tied"]
WHISPERS_ZERO_BUILDINGS = Ruling[ZeroBuildings]("whispers-zero-buildings", get_args(ZeroBuildings))
PassWithoutTreason = Literal["pass-none", "target-draws-from-deck"]
PASS_WITHOUT_TREASON = Ruling[PassWithoutTreason]("pass-without-treason", get_args(PassWithoutTreason))
GhostCompared = Literal["count", "ignore"]
GHOST_IN_COMPARISONS = Ruling[GhostCompared]("ghost-in-comparisons", get_args(GhostCompared))
Blocking = Literal["while-held", "permanent"]
BLOCK_WHILE_HELD = Ruling[Blocking]("block-while-held", get_args(Blocking))
StartingRoll = Literal["total", "table-decides"]
STARTING_ROLL_TOTAL = Ruling[StartingRoll]("starting-roll-total", get_args(StartingRoll))
WhispersGain = Literal["capped", "must-move"]
WHISPERS_GAIN_CAPPED = Ruling[WhispersGain]("whispers-gain-capped", get_args(WhispersGain))
GhostWhispers = Literal["ghost-active", "live-only"]
GHOST_WHISPERS_TREASON = Ruling[GhostWhispers]("ghost-whispers-treason", get_args(GhostWhispers))

RULINGS = RulingSet.of(
    "council-of-blackthorn",
    TRIGGER_AFTER_DICE, WHISPERS_ACTIVE_TIED, WHISPERS_ZERO_BUILDINGS, PASS_WITHOUT_TREASON, GHOST_IN_COMPARISONS,
    BLOCK_WHILE_HELD, STARTING_ROLL_TOTAL, WHISPERS_GAIN_CAPPED, GHOST_WHISPERS_TREASON,
)
