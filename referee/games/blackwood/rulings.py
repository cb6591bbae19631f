"""The rulings of Blackwood the table may override, each with every value it may take.

Written under Rulings in rulebooks/blackwood.md, with their defaults in its TOML; held against the
TOML as the game loads (engine/rulings.py). The first three decide the final score as well.
"""

from __future__ import annotations

from typing import Literal, get_args

from referee.engine.rulings import Ruling, RulingSet

FinalTie = Literal["share", "none"]
FINAL_TIE = Ruling[FinalTie]("final-tie", get_args(FinalTie))
Supply = Literal["limited", "unlimited"]
COIN_SUPPLY = Ruling[Supply]("coin-supply", get_args(Supply))
FAGUS_TOKENS = Ruling[Supply]("fagus-tokens", get_args(Supply))
ForestDeck = Literal["reshuffle", "none"]
FOREST_DECK = Ruling[ForestDeck]("forest-deck", get_args(ForestDeck))
PotionsRunOut = Literal["end-of-round", "sell-leftovers"]
POTIONS_RUN_OUT = Ruling[PotionsRunOut]("potions-run-out", get_args(PotionsRunOut))
RivalSpot = Literal["own-placement", "extra"]
RIVAL_SPOT = Ruling[RivalSpot]("rival-spot", get_args(RivalSpot))
CauldronTiming = Literal["before-return", "round-start"]
CAULDRON_TIMING = Ruling[CauldronTiming]("cauldron-timing", get_args(CauldronTiming))
SecondPuppet = Literal["third-puppet", "once-a-turn"]
SECOND_PUPPET_TWICE = Ruling[SecondPuppet]("second-puppet-twice", get_args(SecondPuppet))

RULINGS = RulingSet.of(
    "blackwood",
    FINAL_TIE, COIN_SUPPLY, FAGUS_TOKENS, FOREST_DECK, POTIONS_RUN_OUT, RIVAL_SPOT, CAULDRON_TIMING,
    SECOND_PUPPET_TWICE,
)
SCORE_RULINGS = (FINAL_TIE, COIN_SUPPLY, FAGUS_TOKENS)
"""The rulings the final score depends on."""
