"""Ending the game: each purse checked against the referee's count, the VP printed on the cards
each player may score, the colours of their gems, and the score."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Number, Question, TableStep, ask
from referee.engine.game import Flow, Say
from referee.games.cutthroat.gems import GEM_COLOURS, GEM_PLURALS, GEMS_PER_COLOUR
from referee.games.cutthroat.rulings import GEM_SPLIT, TEAM_RANKS, TIED_TOP
from referee.games.cutthroat.scoring import LARGEST_ENTRY, Holdings, PlayerHoldings, score
from referee.games.cutthroat.state import Kingdom, Player
from referee.wording import counted

Counts = Generator[Question, Any, tuple[int, ...]]


def final_count(kingdom: Kingdom, say: Say) -> Flow:
    kingdom.phase, kingdom.active = "final", None
    card_points: dict[str, int] = {}
    for player in kingdom.players:
        yield from ask(purse_check(player))
        card_points[player.name] = yield from ask(Number(
            f"{player.name}: VP printed on the food in front of them and on their own bastard, if held",
            "score-cards",
            maximum=LARGEST_ENTRY,
        ))
    gems: dict[str, tuple[int, ...]] = {}
    for player in kingdom.players:
        gems[player.name] = yield from gem_colours(player, gems, say)
    kingdom.finished = True
    holdings = Holdings(
        tuple(
            PlayerHoldings(
                player.name,
                player.copper,
                player.silver,
                gems[player.name],
                card_points[player.name],
                player.heir_alive,
                player.married_to,
            )
            for player in kingdom.players
        ),
        gem_split=GEM_SPLIT.of(kingdom.rulings),
        tied_top=TIED_TOP.of(kingdom.rulings),
        team_ranks=TEAM_RANKS.of(kingdom.rulings),
    )
    return score(holdings)


def purse_check(player: Player) -> Builder[None]:
    """The purse is opened: the referee's count of it is confirmed, or corrected first (deals move
    coins and gems the referee does not see)."""
    return lambda: TableStep(
        f"Final count: {player.name}'s purse by the referee's count holds {player.copper} copper, {player.silver} "
        f"silver and {counted(player.gems, 'gem')}. If it holds otherwise, correct it (adjust {player.name} "
        "copper =N), then confirm.",
        "score-coins",
    )


def colour_question(player: Player, colour: str, least: int, most: int, left: int) -> Builder[int]:
    return lambda: Number(
        f"{player.name}'s {counted(player.gems, 'gem')}: how many {GEM_PLURALS[colour]}? ({left} not yet counted)",
        "score-gems",
        minimum=least,
        maximum=most,
    )


def gem_colours(player: Player, counted: dict[str, tuple[int, ...]], say: Say) -> Counts:
    """The colours of a player's gems, one colour at a time; bounds keep the count and the supply
    right (6 of each colour, less those counted for earlier players). If a correction changes the
    player's gems meanwhile, their colours are counted again."""
    while True:
        colours_left = {colour: GEMS_PER_COLOUR - sum(other[index] for other in counted.values())
                        for index, colour in enumerate(GEM_COLOURS)}
        counts = yield from count_colours(player, colours_left)
        if sum(counts) == player.gems:
            break
        say(f"{player.name}'s gems changed meanwhile (a correction): count their colours again.")
    if player.gems:
        say(f"{player.name}'s gems: " + ", ".join(
            f"{count} {GEM_PLURALS[colour] if count > 1 else colour}"
            for colour, count in zip(GEM_COLOURS, counts, strict=True) if count
        ) + ".")
    return counts


def count_colours(player: Player, colours_left: dict[str, int]) -> Counts:
    counts = dict.fromkeys(GEM_COLOURS, 0)
    total = player.gems
    for index, colour in enumerate(GEM_COLOURS):
        left = total - sum(counts.values())
        if left <= 0:
            break
        room_after = sum(colours_left[later] for later in GEM_COLOURS[index + 1 :])
        least, most = max(0, left - room_after), min(colours_left[colour], left)
        if least >= most:
            counts[colour] = most
        else:
            counts[colour] = yield from ask(colour_question(player, colour, least, most, left))
    return tuple(counts[colour] for colour in GEM_COLOURS)
