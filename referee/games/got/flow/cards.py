"""Cards put into play (setup, marshalling, out of shadows): the gold and initiative icons in their
text box (#text-box-icons), asked once for each card the table marked 'i', and counted when the
rulebook counts them: gold from the next round's income, initiative when it is next decided."""

from __future__ import annotations

from collections.abc import Sequence

from referee.asks import ask
from referee.engine.game import Say, Steps
from referee.games.got.cards import icons_question
from referee.games.got.state import CardCost, Player, Table


def card_icons(table: Table, player: Player, cards: Sequence[CardCost], say: Say) -> Steps:
    """Ask the printed icons of each marked card; the icons stay with the player's cards in play."""
    marked = [card for card in cards if card.icons]
    for number, card in enumerate(marked, 1):
        which = f" ({number} of {len(marked)})" if len(marked) > 1 else ""
        gold, initiative = yield from ask(
            icons_question(f"{player.name}'s card costing {card.cost}{which}: its gold icon and its initiative icon "
                           "as printed, e.g. '1 0'")
        )
        player.income_next += gold
        player.initiative_bonus += initiative
        counted = []
        if gold:
            counted.append(f"+{gold} gold from the next round's income")
        if initiative:
            counted.append(f"+{initiative} initiative from the next Plot phase")
        say(f"{player.name}'s card: {' and '.join(counted) or 'no icons after all'}.")
