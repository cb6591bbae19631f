"""Council of Blackthorn rules as plain functions on plain state.

Everything here is deterministic arithmetic on the table; the flow decides when each applies.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from referee.games.blackthorn.parse import Effect
from referee.games.blackthorn.rulings import (
    BLOCK_WHILE_HELD,
    GHOST_IN_COMPARISONS,
    GHOST_WHISPERS_TREASON,
    WHISPERS_GAIN_CAPPED,
)
from referee.games.blackthorn.state import (
    CAP_WHEN_BLOCKED,
    FACTION_DECK,
    FACTIONS,
    TOP_LEVEL,
    TRACK,
    TREASON_DECK,
    Player,
    Table,
)


def blocker(competitors: Sequence[Player], faction: str) -> Player | None:
    """The token on the faction's 13 level, if any: while it sits there the faction is blocked."""
    for player in competitors:
        if player.levels[faction] == TOP_LEVEL:
            return player
    return None


def blocked_factions(competitors: Sequence[Player], closed: Collection[str] = ()) -> list[str]:
    """Factions with a token on 13, plus those `closed` for good (ruling block-while-held overridden)."""
    return [faction for faction in FACTIONS if faction in closed or blocker(competitors, faction) is not None]


def level_after_gain(
    competitors: Sequence[Player], player: Player, faction: str, levels: int, closed: bool = False
) -> int:
    """The level a player reaches by gaining `levels`: 13 is the top, and 9 once another holds 13
    (or, when `closed`, once anyone has reached 13 on this faction)."""
    current = player.levels[faction]
    holder = blocker(competitors, faction)
    open_top = (holder is None and not closed) or holder is player
    ceiling = TOP_LEVEL if open_top else CAP_WHEN_BLOCKED
    if current >= ceiling:
        return current  # a blocker stays on 13; nobody is pushed down by a gain
    return min(current + levels, ceiling)


def gain(competitors: Sequence[Player], player: Player, faction: str, levels: int, closed: bool = False) -> int:
    """Move a token up; returns the points gained."""
    before = player.points(faction)
    player.levels[faction] = level_after_gain(competitors, player, faction, levels, closed)
    return player.points(faction) - before


@dataclass(frozen=True)
class Leaders:
    """Who holds the highest value of a measure (faction points, or buildings in play)."""

    value: int
    players: tuple[Player, ...]


def leaders(values: Sequence[tuple[Player, int]]) -> Leaders:
    top = max(value for _, value in values)
    return Leaders(top, tuple(player for player, value in values if value == top))


def control_points(active: Player, competitors: Sequence[Player]) -> dict[str, int]:
    """Influence the active player scores for control at the end of the turn.

    2 for each faction where the player alone is highest, 1 where tied for highest above 0; the
    same for the most buildings in play (counting those under construction), at least 1 to tie.
    """
    scored: dict[str, int] = {}
    for faction in FACTIONS:
        top = leaders([(player, player.points(faction)) for player in competitors])
        if top.value > 0 and active in top.players:
            scored[faction] = 2 if len(top.players) == 1 else 1
    most = leaders([(player, player.building_count()) for player in competitors])
    if most.value > 0 and active in most.players:
        scored["buildings"] = 2 if len(most.players) == 1 else 1
    return scored


def whispers_candidates(
    active: Player, values: Sequence[tuple[Player, int]], active_tie_blocks: bool = True, zero_draws: bool = False
) -> tuple[Player, ...]:
    """Who may have to draw a treason card for one Whispers check.

    Nobody when the highest value is 0 (a player with 0 never draws), or when the active player has
    the highest value alone; when the active player is tied for it, nobody either unless
    `active_tie_blocks` is off (ruling whispers-active-tied). `zero_draws` (the building check under
    ruling whispers-zero-buildings = choose-among-tied) makes everyone else tied for the most when
    nobody has a Building: the active player's own 0 exempts nobody, since nobody leads. The ghost
    holds no treason cards, so it never draws (ruling ghost-in-comparisons).
    """
    top = leaders(values)
    if top.value == 0:
        if not zero_draws:
            return ()
        return tuple(player for player in top.players if player is not active and not player.is_ghost)
    if top.players == (active,):
        return ()
    if active in top.players and active_tie_blocks:
        return ()
    return tuple(player for player in top.players if player is not active and not player.is_ghost)


# --- the same rules on the whole table, with the table's rulings ---------------------------------


def comparison_pool(table: Table) -> list[Player]:
    """Who is compared when finding the highest value (ruling ghost-in-comparisons)."""
    return table.competitors if GHOST_IN_COMPARISONS.of(table.rulings) == "count" else table.players


def whispers_pool(table: Table, active: Player) -> list[Player]:
    """Who is compared in the checks of a Whispers: as for control, except that the ghost's own
    Whispers leaves the ghost out under ruling ghost-whispers-treason = live-only."""
    if active.is_ghost and GHOST_WHISPERS_TREASON.of(table.rulings) == "live-only":
        return table.players
    return comparison_pool(table)


def whispers_gain_factions(table: Table, player: Player) -> tuple[str, ...]:
    """The factions a Whispers level may be taken in: any of the four (a level past a track's limit
    is lost), or only those where the token can still move (ruling whispers-gain-capped)."""
    if WHISPERS_GAIN_CAPPED.of(table.rulings) == "must-move":
        return tuple(faction for faction in FACTIONS if can_gain(table, player, faction))
    return FACTIONS


def closed_factions(table: Table) -> set[str]:
    """Factions blocked for good, when the table chose ruling block-while-held = permanent."""
    return set(table.ever_blocked) if BLOCK_WHILE_HELD.of(table.rulings) == "permanent" else set()


def table_blocked(table: Table) -> list[str]:
    return blocked_factions(table.competitors, closed_factions(table))


def record_blocks(table: Table) -> None:
    for faction in FACTIONS:
        if faction not in table.ever_blocked and blocker(table.competitors, faction) is not None:
            table.ever_blocked.append(faction)


def move_up(table: Table, player: Player, faction: str, levels: int) -> int:
    """A token's gain under the blocking rules; returns the points gained."""
    gained = gain(table.competitors, player, faction, levels, faction in closed_factions(table))
    record_blocks(table)
    return gained


def can_gain(table: Table, player: Player, faction: str) -> bool:
    closed = faction in closed_factions(table)
    return level_after_gain(table.competitors, player, faction, 1, closed) > player.levels[faction]


def draw_treason(table: Table, player: Player, count: int) -> int:
    """Draw from the treason deck; the deck is reshuffled from discards, but 96 cards exist in all."""
    held = sum(other.treason_cards for other in table.players)
    drawn = max(0, min(count, TREASON_DECK - held))
    player.treason_cards += drawn
    return drawn


def apply_effect(table: Table, owner: Player, effect: Effect) -> list[str]:
    """Carry out an effect line (a card's text, an Action) for `owner`, whose changes name nobody,
    and for the players the others name. A token moves as the dice move it: up to the top open
    level, down to 0; a count stops at 0, and no more Treason cards are drawn than exist. Returns
    what happened, one phrase a change, for the shared screen (amounts only: a card's text is
    public, the totals stay hidden)."""
    told = []
    for who, field, amount in effect:
        player = table.player(who) if who else owner
        if field in FACTIONS:
            before = player.points(field)
            if amount > 0:
                move_up(table, player, field, amount)
            else:
                player.levels[field] = max(0, player.levels[field] + amount)
            after = player.points(field)
            stopped = "" if abs(TRACK.index(after) - TRACK.index(before)) == abs(amount) else " (as far as it goes)"
            told.append(f"{player.name} {field.capitalize()} {before} -> {after}{stopped}")
        elif field == "influence":
            taken = min(player.influence, -amount) if amount < 0 else amount
            player.influence += taken if amount > 0 else -taken
            told.append(f"{player.name} {'gains' if amount > 0 else 'loses'} {taken} influence")
        elif field == "treason":
            if amount > 0:
                done = draw_treason(table, player, amount)
                told.append(f"{player.name} draws {done} treason card{'s' if done != 1 else ''}")
            else:
                done = min(player.treason_cards, -amount)
                player.treason_cards -= done
                told.append(f"{player.name} discards {done} treason card{'s' if done != 1 else ''}")
        else:
            new = max(0, min(FACTION_DECK, player.hand + amount))
            told.append(f"{player.name} hand {player.hand} -> {new}")
            player.hand = new
    return told
