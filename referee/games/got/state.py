"""The A Game of Thrones (1st edition) table as the referee tracks it: plain, JSON-friendly dataclasses.

The referee keeps what decides the game (power, gold, plots, challenges made, titles) and the card
counts it can follow (hand and draw deck). Card texts stay on the table; corrections fill the gaps.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

HOUSES = ("Stark", "Lannister", "Baratheon", "Targaryen", "Greyjoy", "Martell", "Neutral")
NEUTRAL = "Neutral"
CHALLENGE_KINDS = ("military", "power", "intrigue")
TITLES = (
    "Crown Regent",
    "Hand of the King",
    "Master of Laws",
    "Lord Commander of the Kingsguard",
    "Master of Whispers",
    "Master of Coins",
)
TITLE_STRENGTH = {
    "power": "Crown Regent",
    "military": "Lord Commander of the Kingsguard",
    "intrigue": "Master of Whispers",
}
"""The title that adds strength to each kind of challenge."""
TITLE_STRENGTH_BONUS = 3
MASTER_OF_LAWS_EXTRA_DRAW = 1
MASTER_OF_COINS_EXTRA_GOLD = 2

POWER_TO_WIN = 15
SETUP_HAND = 7
SETUP_COST_LIMIT = 5
DRAW_DECK_MINIMUM = 60
PLOT_DECK_SIZE = 7
CARDS_DRAWN_PER_ROUND = 2
OFF_HOUSE_PENALTY = 2
SHADOWS_ENTRY_COST = 2
UNOPPOSED_POWER = 1
DOMINANCE_POWER = 1
OPPOSITION_POWER = 1
JOUST_PLAYERS = 2
THREE_PLAYERS = 3

SUPPORTS, OPPOSES, NO_LINK = "supports", "opposes", "no mark"
LINKS = (SUPPORTS, OPPOSES, NO_LINK)


@dataclass
class Plot:
    """A revealed plot: its three icons as printed, and its name when the table gave one."""

    income: int
    initiative: int
    claim: int
    name: str = ""


@dataclass
class Player:
    name: str
    house: str = ""
    house_power: int = 0
    """Power tokens on the House card."""
    card_power: int = 0
    """Power tokens on the player's other cards in play (Renown, Infamy, card effects)."""
    gold: int = 0
    hand: int = 0
    draw_deck: int = 0
    used_plots: list[Plot] = field(default_factory=list)
    """The used pile, oldest first; the last one is this round's plot once revealed."""
    plot: Plot | None = None
    """This round's revealed plot (None before the reveal)."""
    income_bonus: int = 0
    """Gold icons on the player's other cards in play (kept up to date by corrections)."""
    initiative_bonus: int = 0
    """Initiative icons on the player's other cards in play (kept up to date by corrections)."""
    title: str | None = None
    challenges_made: list[str] = field(default_factory=list)
    """Kinds of challenge this player has declared this round."""

    @property
    def power(self) -> int:
        return self.house_power + self.card_power

    @property
    def plots_left(self) -> int:
        return PLOT_DECK_SIZE - len(self.used_plots)


@dataclass
class Table:
    players: list[Player]
    """In seat (clockwise) order."""
    rulings: dict[str, str]
    round: int = 0
    phase: str = "setup"
    active: str | None = None
    first_player: int = 0
    """Seat index of this round's first player."""
    titles_last_round: list[str] = field(default_factory=list)
    crown_regent_used: bool = False
    kingsguard_used: bool = False
    opposition_earned: list[str] = field(default_factory=list)
    """Players who took the once-per-round opposition power this round."""
    title_links: dict[str, str] = field(default_factory=dict)
    """What the board shows from one title to another ('A > B' -> supports, opposes or neither),
    read by the table once and remembered: the board does not change."""
    first_to_fifteen: str | None = None
    """Who reached 15 power before anyone else, when known."""
    won: bool = False
    """Somebody has 15 power or more: the game is over."""
    finished: bool = False

    @property
    def melee(self) -> bool:
        return len(self.players) > JOUST_PLAYERS

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name.lower() == name.lower():
                return player
        raise KeyError(name)

    def turn_order(self) -> list[Player]:
        """This round's players from the first player clockwise."""
        return self.players[self.first_player :] + self.players[: self.first_player]

    def opponents(self, player: Player) -> list[Player]:
        return [other for other in self.players if other is not player]

    def title_holder(self, title: str) -> Player | None:
        for player in self.players:
            if player.title == title:
                return player
        return None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def link_key(from_title: str, to_title: str) -> str:
    return f"{from_title} > {to_title}"
