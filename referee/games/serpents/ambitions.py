"""Ambition cards: which exist, how many each player holds, and the 4-player teams."""

from __future__ import annotations

from referee.games.serpents.houses import HOUSES, Fate

AMBITIONS: tuple[str, ...] = tuple(f"{house}-{fate.value}" for house in HOUSES for fate in Fate)
"""One Triumphs and one Collapses card per House (ruling ambition-deck)."""

AMBITIONS_PER_PLAYER = {1: 0, 2: 2, 3: 2, 4: 1}
"""Ambition cards dealt to each player, by player count; solo holds only the Keeper of Balance."""

KEEPER_PLAYER_COUNTS = (1, 3)
"""The Keeper of Balance is the solo player's card, and a variant for 3 players."""

SOLO_PLAYERS = 1
TEAM_PLAYERS = 4
TEAM_SEATS = ((0, 2), (1, 3))
"""In a 4-player game seats 1 and 3 play together, as do seats 2 and 4 (0-based here)."""


def ambition_id(house: str, fate: Fate) -> str:
    return f"{house}-{fate.value}"


def ambition_title(ambition: str) -> str:
    """'clay-collapses' -> 'Clay Collapses', as the card is called at the table."""
    house, fate = ambition.split("-")
    return f"{house.capitalize()} {fate.capitalize()}"


def house_ambitions_held(player_count: int, holds_keeper: bool) -> int:
    """House Ambition cards a player lists: the Keeper's holder in a 3-player game lists only the
    other card dealt to them (it is ignored for victory)."""
    dealt = AMBITIONS_PER_PLAYER[player_count]
    return dealt - 1 if holds_keeper and player_count > SOLO_PLAYERS else dealt


def teammate_seat(seat: int, player_count: int) -> int | None:
    """The teammate's seat (0-based) in a 4-player game; None otherwise."""
    if player_count != TEAM_PLAYERS:
        return None
    for team in TEAM_SEATS:
        if seat in team:
            return team[1] if team[0] == seat else team[0]
    return None
