"""The Council of Serpents table as the referee tracks it: plain, JSON-friendly dataclasses.

The referee follows what it needs to check the rules and keep the Houses' tracks: attribute values,
the Time track's visible actions, the cards between and at the Houses, and how many Influence cards
lie in each place. It never knows the faces of hidden cards (hands, face-down Intrigue, Ambitions).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from itertools import combinations
from typing import Any

from referee.games.serpents.houses import ATTRIBUTES, COLLAPSE_VALUE, HOUSES, TRIUMPH_VALUE

INFLUENCE_CARDS = 63
COURT_SPACES = 4
STARTING_HAND = 3
STARTING_TRACK_CARDS = 5
COURT_CARDS_TO_TRACK = 2
"""Forming a Time track takes the cards on Court spaces 1 and 2 ..."""
DECK_CARDS_TO_TRACK = 1
"""... and the top card of the Influence deck."""
TRADE_AGREEMENT_WEALTH = 1
SOLO_NAME = "Serpentess"
"""The automated rival of the solo game; no player may take this name."""

Changes = dict[str, int]
"""Attribute -> signed change, for one House."""
HouseChanges = dict[str, Changes]
"""House -> its changes, all applied at the same moment."""

PAIRS: tuple[tuple[str, str], ...] = tuple(combinations(HOUSES, 2))
"""The three places between two Houses where Conflict and Agreement cards are played."""

DIFFICULTIES: dict[str, dict[str, int]] = {
    "Wormtongue": {"removed": 25, "windfall": 5, "struggle": 0},
    "Spymaster": {"removed": 20, "windfall": 3, "struggle": 1},
    "Master of Whispers": {"removed": 10, "windfall": 1, "struggle": 3},
    "Lady/Lord of Shadow": {"removed": 0, "windfall": 0, "struggle": 5},
}
"""Solo difficulty: Influence cards removed, Windfall and Struggle cards added to the Serpentess deck."""

INTRIGUE_CARDS: dict[str, int] = {"Hire Assassin": 1, "Traitors": 1, "Brutal Tactics": 2, "Healers": 3}
"""Each Intrigue card and the War step in which it acts."""


def pair_key(pair: tuple[str, str]) -> str:
    """'clay-jane': the JSON key of the place between two Houses."""
    return "-".join(sorted(pair))


def pair_title(pair: tuple[str, str]) -> str:
    return "-".join(house.capitalize() for house in sorted(pair))


class Card(Enum):
    """The kinds of Influence card play, each played at its own kind of place."""

    CONFLICT = "conflict"
    INTRIGUE = "intrigue"
    PEACE = "peace"
    TRADE = "trade"
    GUILD = "guild"
    CHANGE_OF_PLANS = "change of plans"
    THRIVING_GUILDS = "thriving guilds"


PAIR_CARDS = (Card.CONFLICT, Card.PEACE, Card.TRADE)
"""Played between two Houses."""


@dataclass(frozen=True)
class Play:
    """Where an Influence card is played: its kind, and the House or the pair of Houses (in the order
    of HOUSES) it is played at; none for a Guild (its House is read with its name) or a Planning card."""

    card: Card
    houses: tuple[str, ...] = ()


class PeaceChoice(Enum):
    """What a Peace Agreement removes."""

    CONFLICT = "discard the Conflict card"
    INTRIGUE = "discard the Intrigue cards"


@dataclass
class TrackAction:
    """What a Time track card does when it is resolved.

    kind: 'house' (that House's attributes change), 'nothing', 'most' / 'least' (the House or Houses
    with the most or least Popularity change), 'guilds' (every Guild in play acts), 'windfall' or
    'struggle' (solo cards, whose faces the source prints).
    """

    kind: str
    house: str | None = None
    changes: dict[str, int] = field(default_factory=dict)


@dataclass
class TrackCard:
    """A card on the Time track: what it does when resolved, and where it came from."""

    action: TrackAction
    origin: str = "influence"
    """'influence' (one of the 63), 'starting' (a Starting Time track card), 'windfall', 'struggle'."""


@dataclass
class IntrigueEffect:
    """A revealed Intrigue card's War effect: changes to its own House and to the opposing House."""

    own: dict[str, int] = field(default_factory=dict)
    other: dict[str, int] = field(default_factory=dict)
    keeps_strength: bool = False
    """The own House skips the halving of War step 3."""
    by_hand: bool = False
    """Its text is none of the above: the table carries it out by hand in its War step."""


@dataclass
class GuildEffect:
    """A Guild card's printed effects: the upper one when it joins a House, the lower when it leaves."""

    upper: dict[str, int]
    lower: dict[str, int] | None = None


@dataclass
class Player:
    """A player, with the number of Influence cards in their hand."""

    name: str
    hand: int = STARTING_HAND
    """Influence cards in hand (their faces are hidden, also from the referee)."""


@dataclass
class Table:
    """The whole Council of Serpents table: the players, the rulings, the Houses' attributes, the
    Time track, where the Influence cards lie and where play stands."""

    players: list[Player]
    """In seat (clockwise) order, as the table gave them."""
    rulings: dict[str, str]
    houses: dict[str, dict[str, int]] = field(
        default_factory=lambda: {house: dict.fromkeys(ATTRIBUTES, 1) for house in HOUSES}
    )
    first: int = 0
    """Seat of the starting player (in a 4-player game it also fixes the teams)."""
    solo: bool = False
    difficulty: str | None = None
    keeper_variant: bool = False
    """3 players: the Keeper of Balance is shuffled in with the Ambition cards."""
    keeper_possible: bool = False
    """Someone may still hold the Keeper of Balance (false once nobody revealed it on an empty deck)."""
    keeper: str | None = None
    """Who revealed the Keeper of Balance (the solo player when the deck runs out)."""

    track: list[TrackCard] = field(default_factory=list)
    """The Time track, the next card to resolve first."""
    court: int = COURT_SPACES
    deck: int = INFLUENCE_CARDS
    discard: int = 0
    pile: int = 0
    """Face-down cards gathered to form a new Time track."""
    playing: int = 0
    """An Influence card on its way to where it is played."""
    removed: int = 0
    """Influence cards taken out of a solo game by its difficulty."""
    extra_cards: int = 0
    """Starting Time track cards that joined the Influence cards (ruling starting-cards overridden)."""
    conflicts: dict[str, int] = field(default_factory=lambda: {pair_key(pair): 0 for pair in PAIRS})
    """Conflict cards between each pair of Houses (2 only while their War is resolved)."""
    intrigue: dict[str, int] = field(default_factory=lambda: dict.fromkeys(HOUSES, 0))
    """Face-down Intrigue cards at each House."""
    guilds: dict[str, str] = field(default_factory=dict)
    """Guild in play -> the House it supports."""
    guild_effects: dict[str, GuildEffect] = field(default_factory=dict)
    """Printed Guild effects known so far (from the source, or read off a card by the table)."""
    intrigue_effects: dict[str, IntrigueEffect] = field(default_factory=dict)
    preferred_actions: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each House's preferred action, printed on its board, once the table has read it."""
    windfall_left: int = 0
    struggle_left: int = 0
    """Windfall and Struggle cards still unturned in the Serpentess deck."""

    turn: int = 0
    active: str | None = None
    phase: str = "setup"
    ended_by: str | None = None
    """'house' (a Triumph or Collapse) or 'deck' (the Keeper of Balance on an empty Influence deck)."""
    finished: bool = False

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name.lower() == name.lower():
                return player
        raise KeyError(name)

    def turn_order(self) -> list[Player]:
        """Players from the starting player clockwise."""
        return self.players[self.first :] + self.players[: self.first]

    def cards_in_game(self) -> int:
        return INFLUENCE_CARDS - self.removed + self.extra_cards

    def cards_counted(self) -> int:
        """Where every Influence card in the game lies; must equal cards_in_game()."""
        on_track = sum(1 for card in self.track if card.origin == "influence")
        return (
            self.deck
            + self.discard
            + self.court
            + self.pile
            + self.playing
            + on_track
            + sum(player.hand for player in self.players)
            + sum(self.conflicts.values())
            + sum(self.intrigue.values())
            + len(self.guilds)
        )

    def ended_houses(self) -> list[str]:
        return [
            house
            for house, values in self.houses.items()
            if any(not COLLAPSE_VALUE < value < TRIUMPH_VALUE for value in values.values())
        ]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
