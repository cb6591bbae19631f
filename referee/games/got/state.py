"""The A Game of Thrones (1st edition) table as the referee tracks it: plain, JSON-friendly dataclasses.

The referee keeps what decides the game (power, gold, plots, challenges made, titles, the gold and
initiative icons of cards in play) and the card counts it can follow (hand, draw deck, cards in
shadows). Card texts stay on the table; corrections fill the gaps. What the table reports about
the cards it plays and about each challenge is plain data here too (CardCost, ChallengeResult).
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


@dataclass(frozen=True)
class CardCost:
    """One card paid for or put into play: its printed cost and what the table marked about it."""

    cost: int
    other_house: bool = False
    """'x': a card of another House."""
    neutral: bool = False
    """'n': a neutral card."""
    limited: bool = False
    """'l': a Limited card."""
    attachment: bool = False
    """'a': a Set-up attachment (starting force only)."""
    shadows: bool = False
    """'s' alone: a card put into shadows, which costs 2 gold whatever it prints."""
    icons: bool = False
    """'i': the card shows a gold or an initiative icon in its text box (its values are asked)."""


@dataclass(frozen=True)
class ChallengeResult:
    """What the table reports of one challenge."""

    attack: int
    defence: int | None
    """None when no character defended."""
    renown: int = 0
    """Participating Renown characters on the winning side."""
    extra_power: int = 0
    """Power the winner's card texts add to their House card in this challenge."""


@dataclass
class Plot:
    """A revealed plot: its three icons as printed, and its name when the table gave one."""

    income: int
    initiative: int
    claim: int
    name: str = ""


@dataclass
class Player:
    """A player as the referee tracks them: House, power, gold, card counts, plots, title and the
    challenges made this round."""

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
    """Gold icons on the player's other cards in play, counted in this round's income."""
    income_next: int = 0
    """Gold icons of cards put into play this round: they join the income from the next round."""
    initiative_bonus: int = 0
    """Initiative icons on the player's other cards in play, counted whenever initiative is next
    decided (the next Plot phase)."""
    shadows: int = 0
    """Cards the player has face down in shadows."""
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
    """The whole A Game of Thrones table: the players, the rulings, the round and phase, the titles
    and where play stands."""

    players: list[Player]
    """In seat (clockwise) order."""
    rulings: dict[str, str]
    round: int = 0
    phase: str = "setup"
    active: str | None = None
    first_player: int | None = None
    """Seat index of this round's first player; None until the initiative winner has chosen."""
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
    """The game is over with somebody at 15 power or more (set by the final count)."""
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
        """This round's players from the first player clockwise (seat order until one is chosen)."""
        first = self.first_player or 0
        return self.players[first:] + self.players[:first]

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
