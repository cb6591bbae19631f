"""Phase I, resources: a feast card and the copper or gems of each territory owned (both under
Cawdwell's Opulence), 3 copper without land; blackmail takes them from another house instead."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from referee.asks import Builder, Choice, Question, ask, pick
from referee.engine.game import Say, Steps
from referee.games.cutthroat import rules
from referee.games.cutthroat.flow.shared import (
    collect_copper,
    collect_gems,
    free_label,
    known_names,
    printed_value,
    printed_values,
)
from referee.games.cutthroat.state import (
    BOTH,
    COPPER,
    GEMS,
    NO_TERRITORY_COPPER,
    Kingdom,
    Player,
    Territory,
)
from referee.wording import counted

NO_BLACKMAIL = ("no", "no blackmail", "nobody is blackmailed")
OPULENCE = "both (Cawdwell's Opulence)"


def resource_phase(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    payer, blackmailed = yield from blackmail(kingdom, player)
    if not kingdom.owned_by(player.name):
        got = collect_copper(kingdom, player, NO_TERRITORY_COPPER, payer, say)
        whence = f" from {payer.name} (blackmail)" if payer else ""
        say(f"{player.name} owns no territory: {got} copper{whence}.")
        return
    for territory in kingdom.owned_by(player.name):
        if territory.owner != player.name:  # lost meanwhile, through a correction
            say(f"{player.name} no longer holds {territory.name}: nothing to collect there.")
            continue
        feast = rules.feast_cards_left(kingdom) > 0
        if feast:
            player.feast_cards += 1
            kingdom.feast_cards_drawn += 1
        else:
            say("The feast deck is used up: no feast card this time.")
        source = payer if territory is blackmailed else None
        taken = yield from collect(kingdom, player, territory, source, say)
        parts = (["a feast card"] if feast else []) + taken
        whence = f" from {source.name} (blackmail)" if source else ""
        say(f"{player.name} takes {and_list(parts) or 'nothing'}{whence} for {territory.name}.")


def and_list(parts: list[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)


def blackmail(kingdom: Kingdom, player: Player) -> Generator[Question, Any, tuple[Player | None, Territory | None]]:
    """A bastard shown in the resource phase: its house pays one territory's resources (#blackmail)."""
    if player.hirelings == 0:
        return None, None
    payer = yield from ask(blackmail_question(kingdom, player))
    if payer is None:
        return None, None
    own = kingdom.owned_by(player.name)
    if len(own) <= 1:
        return payer, (own[0] if own else None)
    land = yield from ask(blackmailed_land_question(kingdom, player, payer))
    return payer, land


def blackmail_question(kingdom: Kingdom, player: Player) -> Builder[Player | None]:
    def question() -> Choice[Player | None]:
        no = free_label(NO_BLACKMAIL, known_names(kingdom))
        others = [(other.name, other) for other in kingdom.players if other is not player and player.hirelings > 0]
        return pick(f"{player.name}: show a blackmail card to collect from its house instead of the bank?",
                    "blackmail", [(no, None), *others])

    return question


def blackmailed_land_question(kingdom: Kingdom, player: Player, payer: Player) -> Builder[Territory | None]:
    def question() -> Choice[Territory | None]:
        own: list[tuple[str, Territory | None]] = [(land.name, land) for land in kingdom.owned_by(player.name)]
        return pick(f"{player.name} blackmails {payer.name}: for which territory's resources?", "blackmail",
                    own or [(f"no territory left ({NO_TERRITORY_COPPER} copper)", None)])

    return question


def collect(kingdom: Kingdom, player: Player, territory: Territory, payer: Player | None, say: Say) -> Generator[
        Question, Any, list[str]]:
    """One territory's resources: its copper or its gems, or both under Cawdwell's Opulence.
    Returns what was taken, for the message."""
    copper, gems = yield from printed_values(territory)
    drawable = gems if payer else min(gems, rules.gems_in_purse(kingdom))
    if kingdom.turn.opulence:
        take = BOTH
    elif opulence_holder(kingdom) is None and (copper == 0 or drawable == 0):
        take = COPPER if drawable == 0 else GEMS  # nothing to choose
    else:
        take = yield from ask(collection_question(kingdom, player, territory, payer))
        if take == BOTH:
            cawdwell = opulence_holder(kingdom)
            assert cawdwell is not None  # the option is offered only while a use is left
            cawdwell.ability_uses["opulence"] -= 1
            kingdom.turn.opulence = True
            say(f"{cawdwell.name} uses Opulence ({cawdwell.ability_uses['opulence']} left): "
                f"{player.name} takes both coins and gems this turn.")
    taken = []
    if take in (COPPER, BOTH):
        copper = yield from printed_value(territory, COPPER)  # the side may have turned meanwhile
        taken.append(f"{collect_copper(kingdom, player, copper, payer, say)} copper")
    if take in (GEMS, BOTH):
        gems = yield from printed_value(territory, GEMS)
        taken.append(counted(collect_gems(kingdom, player, gems, payer, say), "gem"))
    return taken


def opulence_holder(kingdom: Kingdom) -> Player | None:
    """Cawdwell's player while an Opulence use is left and none is running this turn."""
    cawdwell = rules.holder_of(kingdom, "Cawdwell")
    if cawdwell is None or cawdwell.ability_uses.get("opulence", 0) == 0 or kingdom.turn.opulence:
        return None
    return cawdwell


def collection_question(kingdom: Kingdom, player: Player, territory: Territory, payer: Player | None) -> Builder[
        str]:
    """Copper or gems, with the values of the side that is up now (a plague entered meanwhile
    rebuilds it with the plagued side's values; a value not known yet is asked after the choice)."""

    def question() -> Choice[str]:
        side = territory.side
        copper, gems = territory.copper_value.get(side), territory.gem_value.get(side)
        if gems is not None and payer is None:
            gems = min(gems, rules.gems_in_purse(kingdom))  # the purse holds 36 gems in all
        options = [
            (f"{copper} copper" if copper is not None else f"copper ({side} side, its value asked next)", COPPER),
            (counted(gems, "gem") if gems is not None else f"gems ({side} side, their value asked next)", GEMS),
        ]
        if opulence_holder(kingdom) is not None:
            options.append((OPULENCE, BOTH))
        where = f"{territory.name} ({side} side)" if territory.plagued else territory.name
        return pick(f"{player.name} collects from {where}: copper or gems?", "resource-phase", options)

    return question
