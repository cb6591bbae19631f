"""The Cutthroat Kingdoms table as the referee tracks it: plain, JSON-friendly dataclasses.

The referee follows what happens in the open (territories, defenders, cards bought, coins and gems
taken from the bank) and keeps purses and hands as counts. Card texts are not known to it: the
table enters what they change as corrections.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

LORDS = ("Brom", "Cawdwell", "Dravanof")
LADIES = ("Crone", "Slaine", "Tyber")
CHARACTERS = LORDS + LADIES

TWICE_PER_GAME: dict[str, tuple[str, ...]] = {
    "Brom": ("fury",),
    "Cawdwell": ("opulence",),
    "Dravanof": ("life", "death"),
    "Crone": ("eye",),
    "Slaine": ("venom",),
    "Tyber": (),
}
"""Each character's abilities counted by the house tokens on the lord/lady card (#lords-and-ladies)."""
ABILITY_USES = 2

SOLDIERS_PER_HOUSE = 6
BROM_SOLDIERS = 8
"""38 soldier cards: Brom starts with 8 (Might), so each of the other five houses has 6."""
MERCENARY_CARDS = 36
HIRELING_CARDS = 44
FEAST_CARDS = 34
EVENT_CARDS = 25
GEMS_IN_GAME = 36
TERRITORIES_BEYOND_PLAYERS = 2
MAX_DEFENDERS = 4
PURCHASES_PER_TURN = 3
MERCENARIES_PER_COPPER = 2
COLLECT_DEAD_COST = 2
NO_TERRITORY_COPPER = 3
TRIBUTE_NO_TERRITORY_COPPER = 4
WELCOME_COPPER = 5
ALMS_COPPER = 12
TAXES_COPPER = 3
PILLAGE_COPPER = 3
DARK_INFLUENCE_COPPER = 3
FURY_KILLS = 2
SILVER_IN_COPPER = 5

SOLDIER = "soldier"
MERCENARY = "mercenary"

WELCOME = "Welcome to Aurum"
WEDDING = "The Royal Wedding"
ALMS = "Alms of Lazarus"
TRIBUTE = "Tribute"
OTHER_EVENT = "another event"
FEAST = "The Royal Feast"
SIDES = ("healthy", "plagued")

STONEHOLD = "Stonehold"
MARROW = "Marrow"
NYGHTWALD = "Nyghtwald"
HANGING_TONGUE = "The Hanging Tongue"
THREE_RIVERS = "Three Rivers"
KNOWN_TERRITORIES = (STONEHOLD, THREE_RIVERS, NYGHTWALD, HANGING_TONGUE, MARROW)
"""The territories whose texts the rulebook gives (Three Rivers has no ability); the others are read
off the cards by the table."""
STONEHOLD_DISCARDS = {"healthy": 2, "plagued": 1}

COPPER = "copper"
GEMS = "gems"
BOTH = "both"
"""What a territory's resources are taken as: its copper, its gems, or both (Cawdwell's Opulence)."""

PURCHASE = "purchase"
CONQUEST = "conquest"
ATTACKS = "attacks"
COLLECTING = "collecting the dead"
BLOCKS = (PURCHASE, CONQUEST, ATTACKS, COLLECTING)
"""The four actions of the action phase: each is finished before another begins (#action-phase)."""

FIRST_QUESTIONS = 1
"""The first version of the questions, which a session stored with it is asked again on replay:
the conquest collected only when the action phase ends, Bedlam with a 'none', and one blackmail
question put to the player by name, naming one house."""


@dataclass
class Territory:
    """A territory on the playmat: its side, who holds it, its defenders and the copper and gems
    printed on it."""

    name: str
    named: bool = False
    """True when the table gave its printed name at setup (not the slot's placeholder): its printed
    values are then a card of the catalogue under that name."""
    plagued: bool = False
    owner: str | None = None
    """The player whose house token is on it; None while unoccupied."""
    defenders: list[str] = field(default_factory=list)
    """Military cards under it, top first: 'soldier' (the owner's) or 'mercenary' (face down)."""
    copper_value: dict[str, int] = field(default_factory=dict)
    """Copper printed on each side, once the table has said (keyed 'healthy' / 'plagued')."""
    gem_value: dict[str, int] = field(default_factory=dict)

    @property
    def side(self) -> str:
        return SIDES[1] if self.plagued else SIDES[0]


@dataclass
class Player:
    """A player as the referee tracks them: lord or lady, purse, soldiers and cards in hand as
    counts, heir, marriage and ability uses."""

    name: str
    character: str | None = None
    copper: int = 0
    silver: int = 0
    gems: int = 0
    """Gems in the purse; their colours are asked only at the end."""
    soldiers_total: int = 0
    """The house's soldier cards, wherever they are (hand, dead pile, territories)."""
    dead: int = 0
    mercenaries: int = 0
    """Mercenaries in hand."""
    hirelings: int = 0
    """Hireling cards in hand, bastards included."""
    feast_cards: int = 0
    heir_alive: bool = True
    married_to: str | None = None
    ability_uses: dict[str, int] = field(default_factory=dict)

    @property
    def coin_value(self) -> int:
        return self.copper + SILVER_IN_COPPER * self.silver


@dataclass
class TurnRecord:
    """What has happened so far in the current turn (reset when the next turn begins)."""

    purchases: int = 0
    action: str | None = None
    """The action under way (one of BLOCKS), until the player turns to another."""
    finished_actions: list[str] = field(default_factory=list)
    """Actions the player has moved on from: closed for the rest of the turn."""
    taxed: bool = False
    opulence: bool = False
    conquered: list[str] = field(default_factory=list)
    stonehold_paid_at: int | None = None
    """How many defenders Stonehold had when its discard was last paid this turn (None: not paid)."""
    hanging_tongue_used: bool = False


@dataclass
class Kingdom:
    """The whole Cutthroat Kingdoms table: the players, the rulings, the territories, the decks
    drawn from and where play stands."""

    players: list[Player]
    """In seat (clockwise) order."""
    rulings: dict[str, str]
    territories: list[Territory] = field(default_factory=list)
    """In slot order around the playmat."""
    events_total: int = 0
    events_drawn: int = 0
    wedding_drawn: bool = False
    last_event: str | None = None
    starting_seat: int = 0
    turn_number: int = 0
    active: str | None = None
    phase: str = "setup"
    turn: TurnRecord = field(default_factory=TurnRecord)
    mercenaries_drawn: int = 0
    """Mercenary cards drawn from the deck over the game (for ruling empty-deck: closed)."""
    hirelings_drawn: int = 0
    feast_cards_drawn: int = 0
    hireling_deck_size: int = HIRELING_CARDS
    """Hirelings plus the bastards of the houses in play (and the Royal Pillow, when used)."""
    royal_pillow: bool = False
    finished: bool = False
    questions: int = FIRST_QUESTIONS
    """The version of the questions the session is asked (Setup.questions): the session's own
    record, not the table's, so it is left out of the table's JSON."""

    def player(self, name: str) -> Player:
        for player in self.players:
            if player.name.lower() == name.lower():
                return player
        raise KeyError(name)

    def territory(self, name: str) -> Territory:
        for territory in self.territories:
            if territory.name.lower() == name.lower():
                return territory
        raise KeyError(name)

    def owned_by(self, name: str) -> list[Territory]:
        return [territory for territory in self.territories if territory.owner == name]

    def soldiers_placed(self, name: str) -> int:
        return sum(territory.defenders.count(SOLDIER) for territory in self.owned_by(name))

    def soldiers_in_hand(self, player: Player) -> int:
        return player.soldiers_total - player.dead - self.soldiers_placed(player.name)

    def military_in_hand(self, player: Player) -> int:
        return self.soldiers_in_hand(player) + player.mercenaries

    def mercenaries_in_play(self) -> int:
        on_land = sum(territory.defenders.count(MERCENARY) for territory in self.territories)
        return on_land + sum(player.mercenaries for player in self.players)

    def gems_held(self) -> int:
        return sum(player.gems for player in self.players)

    def to_json(self) -> dict[str, Any]:
        table = asdict(self)
        del table["questions"]
        return table
