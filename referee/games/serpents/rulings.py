"""The rulings of Council of Serpents, each with every value it may take, and the readings the
end-of-game count takes from them.

Every ruling's choices and default are in rulebooks/council-of-serpents.toml as well; the
declarations below are held against it as the game loads (engine/rulings.py). The score input and a
guided session take their overrides from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from referee.engine.rulings import Ruling, RulingSet
from referee.errors import ScoreInputError
from referee.outcome import require_mapping

RULEBOOK = "council-of-serpents"

TrackEnds = Literal["strict", "clamp"]
TRACK_ENDS = Ruling[TrackEnds]("track-ends", get_args(TrackEnds))
AmbitionDeck = Literal["house-fates"]
AMBITION_DECK = Ruling[AmbitionDeck]("ambition-deck", get_args(AmbitionDeck))
TriumphAndCollapse = Literal["both", "triumph", "collapse"]
TRIUMPH_AND_COLLAPSE = Ruling[TriumphAndCollapse]("triumph-and-collapse", get_args(TriumphAndCollapse))
KeeperWins = Literal["true", "false"]
KEEPER_WINS_WITHOUT_HOUSE_END = Ruling[KeeperWins]("keeper-wins-without-house-end", get_args(KeeperWins))
TimeTrackOrder = Literal["first-placed-last", "first-placed-first"]
TIME_TRACK_ORDER = Ruling[TimeTrackOrder]("time-track-order", get_args(TimeTrackOrder))
StartingCards = Literal["set-aside", "discard-pile"]
STARTING_CARDS = Ruling[StartingCards]("starting-cards", get_args(StartingCards))
PeaceChoice = Literal["automatic", "always-ask"]
PEACE_CHOICE = Ruling[PeaceChoice]("peace-choice", get_args(PeaceChoice))
IntrigueEffects = Literal["after-losses", "before-losses"]
INTRIGUE_EFFECTS = Ruling[IntrigueEffects]("intrigue-effects", get_args(IntrigueEffects))
StruggleAttribute = Literal["strength", "wealth"]
STRUGGLE_ATTRIBUTE = Ruling[StruggleAttribute]("struggle-attribute", get_args(StruggleAttribute))
"""The attribute a Struggle card changes."""
EmptyDeck = Literal["draw-nothing"]
EMPTY_DECK_AND_DISCARD = Ruling[EmptyDeck]("empty-deck-and-discard", get_args(EmptyDeck))
CourtRefill = Literal["refill"]
SERPENTESS_COURT_REFILL = Ruling[CourtRefill]("serpentess-court-refill", get_args(CourtRefill))
MissingHouses = Literal["all-act", "one-by-one"]
MISSING_HOUSES = Ruling[MissingHouses]("missing-houses", get_args(MissingHouses))
LastCardPlans = Literal["joins-track", "form-at-once"]
CHANGE_OF_PLANS_LAST_CARD = Ruling[LastCardPlans]("change-of-plans-last-card", get_args(LastCardPlans))
"""Whether a Change of Plans that takes the Time track's last card puts the Court card on that track,
or forms the emptied track again at once and puts the Court card last on the new one."""

RULINGS = RulingSet.of(
    RULEBOOK,
    TRACK_ENDS, AMBITION_DECK, TRIUMPH_AND_COLLAPSE, KEEPER_WINS_WITHOUT_HOUSE_END, TIME_TRACK_ORDER,
    STARTING_CARDS, PEACE_CHOICE, INTRIGUE_EFFECTS, STRUGGLE_ATTRIBUTE, EMPTY_DECK_AND_DISCARD,
    SERPENTESS_COURT_REFILL, MISSING_HOUSES, CHANGE_OF_PLANS_LAST_CARD,
)
SCORE_RULINGS = ("track-ends", "ambition-deck", "triumph-and-collapse", "keeper-wins-without-house-end")
"""The rulings that decide an end-of-game count; the others belong to play."""


@dataclass(frozen=True)
class Rulings:
    """The rulings the end-of-game count applies, as chosen for the game, and which of them the
    table overrode."""

    track_ends: TrackEnds = "strict"
    """strict: attributes from 0 to 13 only; clamp: any whole number, read against the symbols."""
    triumph_and_collapse: TriumphAndCollapse = "both"
    """Which fate counts for a House with one marker on Triumph and another on Collapse."""
    keeper_wins_without_house_end: bool = True
    """With a Keeper of Balance and no House ended, the Influence deck ran out: the Keeper wins."""
    overridden: tuple[str, ...] = ()
    """Ids the table overrode, to say so in the report."""


def score_ruling_choices() -> dict[str, tuple[str, ...]]:
    return {ruling: RULINGS.choices[ruling] for ruling in SCORE_RULINGS}


def rulings_from(chosen: Mapping[str, str]) -> Rulings:
    """The count's rulings from each ruling's chosen value (defaults where none is given)."""
    choices = score_ruling_choices()
    values = {ruling: chosen.get(ruling, options[0]) for ruling, options in choices.items()}
    return Rulings(
        track_ends=TRACK_ENDS.of(values),
        triumph_and_collapse=TRIUMPH_AND_COLLAPSE.of(values),
        keeper_wins_without_house_end=KEEPER_WINS_WITHOUT_HOUSE_END.of(values) == "true",
        overridden=tuple(ruling for ruling in SCORE_RULINGS if values[ruling] != choices[ruling][0]),
    )


def _as_choice(value: object) -> str | None:
    """A JSON value as a ruling's choice: true/false for a yes-or-no ruling, a word for the others."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else None


def parse_rulings(data: object) -> Rulings:
    """The `rulings` object of the score input: known ids only, each set to one of its choices."""
    overrides: Mapping[str, Any] = require_mapping(data, None, "rulings")
    choices = score_ruling_choices()
    chosen: dict[str, str] = {}
    for ruling, value in overrides.items():
        if ruling not in choices:
            raise ScoreInputError(None, f"rulings.{ruling}", value, "known rulings: " + ", ".join(choices))
        shown = _as_choice(value)
        if shown is None or shown not in choices[ruling]:
            raise ScoreInputError(None, f"rulings.{ruling}", value, " or ".join(choices[ruling]))
        chosen[ruling] = shown
    return rulings_from(chosen)
