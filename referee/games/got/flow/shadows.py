"""Cards out of shadows (#shadows): at the very start of each phase, each player who has a card in
shadows may bring one out, paying its shadow cost in gold."""

from __future__ import annotations

from referee.asks import Ask, Builder, Parsed, ask, pick
from referee.engine.game import Say, Steps
from referee.games.got import parse
from referee.games.got.flow.cards import card_icons
from referee.games.got.flow.common import nobody_label, player_options
from referee.games.got.state import CardCost, Player, Table

SHADOW_EXAMPLES = ("0", "1", "2", "3", "1i", "none")


def waiting(table: Table, done: list[Player]) -> list[Player]:
    """Players who may still bring a card out at the start of this phase."""
    return [player for player in table.turn_order() if player.shadows and player not in done]


def offer_question(table: Table, done: list[Player]) -> Builder[Player | None]:
    """Who brings a card out: a builder, as corrections may change the gold and the cards in shadows."""

    def build() -> Ask[Player | None]:
        players = waiting(table, done)
        holdings = "; ".join(f"{player.name} {player.shadows} in shadows, {player.gold} gold" for player in players)
        options: list[tuple[str, Player | None]] = [*player_options(players)]
        options.append((nobody_label(table.players), None))
        return pick(
            f"Start of the {table.phase} phase ({holdings}): does a player bring a card out of shadows?",
            "shadows",
            options,
        )

    return build


def cost_question(player: Player) -> Builder[CardCost | None]:
    def read(text: str) -> CardCost | None:
        card = parse.parse_shadow_card(text)
        if card is not None and not player.shadows:
            raise ValueError(f"{player.name} has no card in shadows now")
        if card is not None and card.cost > player.gold:
            raise ValueError(f"it costs {card.cost} gold and {player.name} has {player.gold}")
        return card

    def build() -> Ask[CardCost | None]:
        return Parsed(
            f"{player.name} ({player.gold} gold) brings a card out of shadows: its shadow cost (the number "
            "beside the s), e.g. '3', or '3i' if it shows a gold or initiative icon; 'none' for no card",
            "shadows",
            parser=read,
            hint=f"a whole number up to {player.gold} (the gold {player.name} has), marked i if the card "
            "shows a gold or initiative icon; or 'none'",
            examples=SHADOW_EXAMPLES,
        )

    return build


def shadows_offer(table: Table, say: Say) -> Steps:
    """Asked only while somebody has a card in shadows; each player brings out at most one a phase."""
    done: list[Player] = []
    while waiting(table, done):
        player = yield from ask(offer_question(table, done))
        if player is None:
            return
        card = yield from ask(cost_question(player))
        done.append(player)
        if card is None:
            continue
        player.gold -= card.cost
        player.shadows -= 1
        say(
            f"{player.name} brings a card out of shadows for {card.cost} gold: {player.gold} gold left, "
            f"{player.shadows} still in shadows."
        )
        yield from card_icons(table, player, [card], say)
