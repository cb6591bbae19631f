"""The rulings of A Game of Thrones (1st edition) the table may override, each with every value it
may take.

Written under Rulings in rulebooks/got-lcg-1e.md, with their defaults in its TOML; held against the
TOML as the game loads (engine/rulings.py). The first two settle the power count.
"""

from __future__ import annotations

from typing import Literal, get_args

from referee.engine.rulings import Ruling, RulingSet

SimultaneousFifteen = Literal["shared", "most-power"]
SIMULTANEOUS_FIFTEEN = Ruling[SimultaneousFifteen]("simultaneous-fifteen", get_args(SimultaneousFifteen))
RanksBelowWinner = Literal["by-power", "shared"]
RANKS_BELOW_WINNER = Ruling[RanksBelowWinner]("ranks-below-winner", get_args(RanksBelowWinner))
InitiativeTie = Literal["fewer-power-then-lots", "lots"]
INITIATIVE_TIE = Ruling[InitiativeTie]("initiative-tie", get_args(InitiativeTie))
DominanceTie = Literal["nobody", "table-decides"]
DOMINANCE_TIE = Ruling[DominanceTie]("dominance-tie", get_args(DominanceTie))
AttachmentCost = Literal["counts", "free"]
SETUP_ATTACHMENT_COST = Ruling[AttachmentCost]("setup-attachment-cost", get_args(AttachmentCost))
NeutralPenalty = Literal["no-penalty", "penalty"]
NEUTRAL_CARDS_NO_PENALTY = Ruling[NeutralPenalty]("neutral-cards-no-penalty", get_args(NeutralPenalty))
UndefendedOrder = Literal["kingsguard-first", "support-first"]
UNDEFENDED_ORDER = Ruling[UndefendedOrder]("undefended-order", get_args(UndefendedOrder))
StartingForceCost = Literal["printed-cost", "with-penalty"]
STARTING_FORCE_PRINTED_COST = Ruling[StartingForceCost]("starting-force-printed-cost", get_args(StartingForceCost))
OppositionSide = Literal["attacker", "either"]
OPPOSITION_SIDE = Ruling[OppositionSide]("opposition-side", get_args(OppositionSide))
RegentOffer = Literal["when-challenged", "every-challenge"]
CROWN_REGENT_OFFER = Ruling[RegentOffer]("crown-regent-offer", get_args(RegentOffer))

RULINGS = RulingSet.of(
    "got-lcg-1e",
    SIMULTANEOUS_FIFTEEN, RANKS_BELOW_WINNER, INITIATIVE_TIE, DOMINANCE_TIE, SETUP_ATTACHMENT_COST,
    NEUTRAL_CARDS_NO_PENALTY, UNDEFENDED_ORDER, STARTING_FORCE_PRINTED_COST, OPPOSITION_SIDE, CROWN_REGENT_OFFER,
)
SCORE_RULINGS = (SIMULTANEOUS_FIFTEEN, RANKS_BELOW_WINNER)
"""The rulings the power count depends on."""
