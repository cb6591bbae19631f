"""The Council of Blackthorn table as the referee tracks it: plain, JSON-friendly dataclasses."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

FACTIONS = ("noble", "guild", "legion", "peasant")
"""In the order the table reads the dice: red, yellow, black, white."""

DIE_COLOURS = {"noble": "red", "guild": "yellow", "legion": "black", "peasant": "white"}
"""Each faction's die, by the colour printed in the rules."""

WHISPERS_ORDER = ("noble", "legion", "peasant", "guild")
"""Clockwise around the board, starting at Noble: the order of the Whispers treason checks."""

TRACK = (0, 1, 2, 3, 4, 5, 7, 9, 13)
"""Points of each level of a faction track (level 0 to level 8)."""

TOP_LEVEL = len(TRACK) - 1
CAP_WHEN_BLOCKED = TRACK.index(9)
DIE_FACES = (0, 1, 1, 2, 2, 3)
CHARACTERS = ("Queen", "Lord of War", "Minister of Coin", "Lord of the Tower", "Seventh Vigil", "Master of Shadows")
HAND_SIZE = 5
FACTION_DECK = 80 + 8
"""Faction cards and Whispers cards together: no hand can hold more."""
STARTING_INFLUENCE = 3
STARTING_TREASON = 3
TREASON_DECK = 96
GHOST = "Ghost"
DICE = "dice"
"""What corrections to the dice name: 'dice guild 3'."""
UNDER_CONSTRUCTION_POINTS = 2


@dataclass
class Building:
    """A player's building: its value, and whether it is complete or still under construction.
    Where the table named the card (questions version 2 on), its name and, once known, what its
    Action does for its owner (an effect line, 'none' for a Building without an Action)."""

    value: int
    complete: bool
    name: str | None = None
    action: str | None = None


@dataclass
class Player:
    """A player (or the ghost) as the referee tracks them: faction track levels, character, hidden
    influence and treason, buildings and hand."""

    name: str
    levels: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FACTIONS, 0))
    """Level index (0-8) on each faction track; TRACK gives its points."""
    character: str | None = None
    influence: int = STARTING_INFLUENCE
    """Influence token points (hidden from the other players during play)."""
    treason_cards: int = STARTING_TREASON
    """Treason cards held (hidden); their points are revealed only at the end."""
    buildings: list[Building] = field(default_factory=list)
    hand: int = HAND_SIZE
    is_ghost: bool = False

    def points(self, faction: str) -> int:
        return TRACK[self.levels[faction]]

    def faction_points(self) -> int:
        return sum(self.points(faction) for faction in FACTIONS)

    def building_count(self) -> int:
        return len(self.buildings)


@dataclass
class Table:
    """The whole Council of Blackthorn table: the players and the ghost, the rulings, the Right Hand
    of the King, the round and dice, and where play stands."""

    players: list[Player]
    """Live players in seat (clockwise) order."""
    ghost: Player | None
    rulings: dict[str, str]
    ring: int = 0
    """Seat index of the Right Hand of the King."""
    round: int = 0
    dice: dict[str, int] | None = None
    phase: str = "setup"
    active: str | None = None
    game_over_declared: bool = False
    game_over_turn: str | None = None
    """Whose turn ended with the third blocked faction (the declaration)."""
    finished: bool = False
    ever_blocked: list[str] = field(default_factory=list)
    """Factions whose 13 level has been reached at some point (for ruling block-while-held)."""
    questions: int = 1
    """The version of the questions the session is played with (Game.questions_version)."""

    @property
    def competitors(self) -> list[Player]:
        """Everyone with tokens on the tracks: live players and the ghost."""
        return self.players + ([self.ghost] if self.ghost else [])

    def player(self, name: str) -> Player:
        for player in self.competitors:
            if player.name.lower() == name.lower():
                return player
        raise KeyError(name)

    def turn_order(self) -> list[Player]:
        """This round's live players from the ring holder clockwise (the ghost goes last)."""
        return self.players[self.ring :] + self.players[: self.ring]

    def to_json(self) -> dict[str, Any]:
        """The state as plain data. What the first version of the questions never tracked (the
        version itself, a Building's name and Action) is left out where it is not set, so that a
        session of that version writes out the same state as it always did."""
        data = asdict(self)
        if self.questions == 1:
            del data["questions"]
        for player in [*data["players"], *([data["ghost"]] if data["ghost"] else [])]:
            for building in player["buildings"]:
                for key in ("name", "action"):
                    if building[key] is None:
                        del building[key]
        return data
