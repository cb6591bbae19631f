"""Gaining power, and the win at 15 (#end-of-game): the game stops the moment a player has 15."""

from __future__ import annotations

from referee.engine.game import GameOver, Say
from referee.games.got import rules
from referee.games.got.state import POWER_TO_WIN, Player, Table


def gain_power(table: Table, player: Player, amount: int, why: str, say: Say, on_cards: bool = False) -> None:
    """Put power on the player's House card (or on their cards). At 15 or more the game ends right
    here, in the middle of whatever the referee was working out: nothing after it is applied."""
    if amount <= 0:
        return
    if on_cards:
        player.card_power += amount
    else:
        player.house_power += amount
    place = "on their cards" if on_cards else "on their House card"
    say(f"{player.name} takes {amount} power {place} ({why}): {player.power} in all.")
    ended = rules.power_reached(table.players)
    if ended is not None:
        table.first_to_fifteen = player.name
        say(f"{player.name} has {player.power} power: {POWER_TO_WIN} or more wins at once, and the game stops.")
        raise GameOver(ended)
