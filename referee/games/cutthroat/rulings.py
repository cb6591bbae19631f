"""The rulings of Cutthroat Kingdoms the table may override, each with every value it may take.

Written under Rulings in rulebooks/cutthroat-kingdoms.md, with their defaults in its TOML; held
against the TOML as the game loads (engine/rulings.py). The first three settle the final score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from referee.engine.rulings import Ruling, RulingSet

GemSplitting = Literal["best", "most-sets"]
GEM_SPLIT = Ruling[GemSplitting]("gem-split", get_args(GemSplitting))
TiedTop = Literal["share", "nobody"]
TIED_TOP = Ruling[TiedTop]("tied-top", get_args(TiedTop))
TeamRanks = Literal["sides", "players"]
TEAM_RANKS = Ruling[TeamRanks]("team-ranks", get_args(TeamRanks))
Layout = Literal["row", "ring"]
TERRITORY_LAYOUT = Ruling[Layout]("territory-layout", get_args(Layout))
ShortPayment = Literal["what-they-have", "nothing"]
SHORT_PAYMENT = Ruling[ShortPayment]("short-payment", get_args(ShortPayment))
PurchaseUnit = Literal["pair", "batch"]
PURCHASE_UNIT = Ruling[PurchaseUnit]("purchase-unit", get_args(PurchaseUnit))
EmptyDeck = Literal["reshuffle", "closed"]
EMPTY_DECK = Ruling[EmptyDeck]("empty-deck", get_args(EmptyDeck))
BastardSave = Literal["owner", "holder"]
BASTARD_SAVE = Ruling[BastardSave]("bastard-save", get_args(BastardSave))
StoneholdDiscard = Literal["once-per-turn", "each-defender"]
STONEHOLD_DISCARD = Ruling[StoneholdDiscard]("stonehold-discard", get_args(StoneholdDiscard))
BedlamOwnLand = Literal["spared", "included"]
BEDLAM_OWN_LAND = Ruling[BedlamOwnLand]("bedlam-own-land", get_args(BedlamOwnLand))
BedlamPartnerLand = Literal["spared", "included"]
BEDLAM_PARTNER_LAND = Ruling[BedlamPartnerLand]("bedlam-partner-land", get_args(BedlamPartnerLand))
GemSupply = Literal["limited"]
GEM_SUPPLY = Ruling[GemSupply]("gem-supply", get_args(GemSupply))
CoinSupply = Literal["unlimited"]
COIN_SUPPLY = Ruling[CoinSupply]("coin-supply", get_args(CoinSupply))
ConquestCollection = Literal["once-a-turn", "each-action", "end-of-actions"]
CONQUEST_COLLECTION = Ruling[ConquestCollection]("conquest-collection", get_args(ConquestCollection))

RULINGS = RulingSet.of(
    "cutthroat-kingdoms",
    GEM_SPLIT, TIED_TOP, TEAM_RANKS, TERRITORY_LAYOUT, SHORT_PAYMENT, PURCHASE_UNIT, EMPTY_DECK, BASTARD_SAVE,
    STONEHOLD_DISCARD, BEDLAM_OWN_LAND, BEDLAM_PARTNER_LAND, GEM_SUPPLY, COIN_SUPPLY, CONQUEST_COLLECTION,
)
SCORE_RULINGS = (GEM_SPLIT, TIED_TOP, TEAM_RANKS)
"""The rulings the final score depends on."""

ADDED_AFTER_FIRST_QUESTIONS: tuple[Ruling[Any], ...] = (BEDLAM_PARTNER_LAND,)
"""Rulings a session of the first questions never had (Bedlam was optional then)."""


def as_first_asked(rulings: Mapping[str, str]) -> dict[str, str]:
    """The rulings a session stored with the first version of the questions replays under: its
    conquest collected when the action phase ends (the one reading it had), and none of the
    rulings added since, so that it reaches the very table it reached when it was played."""
    kept = {name: value for name, value in rulings.items()
            if name not in {ruling.name for ruling in ADDED_AFTER_FIRST_QUESTIONS}}
    kept[CONQUEST_COLLECTION.name] = "end-of-actions"
    return kept
