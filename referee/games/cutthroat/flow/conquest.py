"""Conquering a territory: an unoccupied one reached, a stack of 1 to 4 military cards placed under
it, and, once the turn's conquests are over, the copper or the gems of one territory conquered."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Choice, Question, ask, pick
from referee.engine.game import Say, Steps
from referee.games.cutthroat import rules
from referee.games.cutthroat.flow.shared import (
    collect_copper,
    collect_gems,
    occupy_if_placed,
    passage,
    printed_value,
    printed_values,
)
from referee.games.cutthroat.state import BOTH, COPPER, GEMS, Kingdom, Player, Territory
from referee.wording import counted


def conquer_question(kingdom: Kingdom, player: Player) -> Builder[Territory | None]:
    def question() -> Choice[Territory | None]:
        targets: list[tuple[str, Territory | None]] = [(land.name, land) for land in rules.conquer_targets(kingdom)]
        return pick(f"{player.name} conquers which unoccupied territory?", "conquering",
                    targets or [("none left unoccupied", None)])

    return question


def conquer(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    territory = yield from ask(conquer_question(kingdom, player))
    if territory is None:
        say(f"No territory is unoccupied now: {player.name} conquers nothing.")
        return
    if not (yield from passage(kingdom, player, territory, "conquer", say)):
        return
    yield from occupy_if_placed(kingdom, player, territory, f"{player.name}: military cards under {territory.name}",
                                f"{player.name} leaves {territory.name} unoccupied.", say)


def collection_options(kingdom: Kingdom, territory: Territory) -> list[tuple[str, tuple[Territory, str]]]:
    side = territory.side
    copper, gems = territory.copper_value.get(side), territory.gem_value.get(side)
    if kingdom.turn.opulence:
        return [(f"{territory.name}: both", (territory, BOTH))]
    copper_label = f"{copper} copper" if copper is not None else f"copper ({side} side, its value asked next)"
    options = [(f"{territory.name}: {copper_label}", (territory, COPPER))]
    if gems is None:
        options.append((f"{territory.name}: gems ({side} side, their value asked next)", (territory, GEMS)))
    elif min(gems, rules.gems_in_purse(kingdom)) > 0:
        held = counted(min(gems, rules.gems_in_purse(kingdom)), "gem")
        options.append((f"{territory.name}: {held}", (territory, GEMS)))
    return options


def collection_question(kingdom: Kingdom, player: Player, since: int) -> Builder[tuple[Territory, str] | None]:
    def question() -> Choice[tuple[Territory, str] | None]:
        options: list[tuple[str, tuple[Territory, str] | None]] = [
            option for territory in rules.held_conquests(kingdom, player, since)
            for option in collection_options(kingdom, territory)]
        return pick(f"{player.name} collects the resources of one territory conquered this turn", "conquering",
                    options or [("nothing (no conquest is held now)", None)])

    return question


def conquest_collection(kingdom: Kingdom, player: Player, say: Say, since: int = 0) -> Generator[
        Question, Any, bool]:
    """Once an action's conquests are over, the copper or the gems (not both, unless under
    Opulence) of one territory conquered this turn from its `since`-th conquest on (#conquering).
    False when nothing was collected (no such territory is held now)."""
    held = rules.held_conquests(kingdom, player, since)
    if not held:
        return False
    for territory in held:
        yield from printed_values(territory)
    options = [option for territory in held for option in collection_options(kingdom, territory)]
    chosen = options[0][1] if len(options) == 1 else (yield from ask(collection_question(kingdom, player, since)))
    if chosen is None:
        return False
    territory, take = chosen
    if take in (COPPER, BOTH):
        copper = yield from printed_value(territory, COPPER)
        got = collect_copper(kingdom, player, copper, None, say)
        say(f"{player.name} takes {got} copper for conquering {territory.name}.")
    if take in (GEMS, BOTH):
        gems = yield from printed_value(territory, GEMS)
        got = collect_gems(kingdom, player, gems, None, say)
        say(f"{player.name} takes {counted(got, 'gem')} for conquering {territory.name}.")
    return True
