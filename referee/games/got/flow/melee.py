"""Melee, 3 or 4 players (#melee): titles chosen each round, the board's support and opposition
marks read by the table, the supporters' defence, the opposition power, and the two titles that
change a challenge (the Crown Regent's redirect, the Lord Commander's takeover)."""

from __future__ import annotations

from referee.asks import Confirm, ask, choice, pick
from referee.engine.game import Say, Steps
from referee.games.got import rules
from referee.games.got.flow.common import Asking, nobody_label, player_options
from referee.games.got.flow.power import gain_power
from referee.games.got.rulings import CROWN_REGENT_OFFER, OPPOSITION_SIDE
from referee.games.got.state import (
    LINKS,
    NO_LINK,
    OPPOSES,
    OPPOSITION_POWER,
    SUPPORTS,
    Player,
    Table,
    link_key,
)

CROWN_REGENT = "Crown Regent"
KINGSGUARD = "Lord Commander of the Kingsguard"


def choose_titles(table: Table, say: Say) -> Steps:
    taken: list[str] = []
    for player in table.turn_order():
        free = rules.open_titles(taken, table.titles_last_round, len(table.players), table.round)
        if len(free) == 1:
            player.title = free[0]
            say(f"{player.name} takes the last open title, {free[0]}.")
        else:
            player.title = yield from ask(choice(f"{player.name} takes which title?", "melee-titles", free))
        taken.append(player.title)


# --- the board ---------------------------------------------------------------------------------


def board_link(table: Table, source: Player, target: Player, say: Say) -> Asking[str]:
    """What the board shows from one player's title to another's, asked once per pair of titles."""
    if source.title is None or target.title is None:
        return NO_LINK
    key = link_key(source.title, target.title)
    if key not in table.title_links:
        table.title_links[key] = yield from ask(
            pick(
                f"Read the board: what does {source.title} show towards {target.title}?",
                "ruling-title-links",
                [(link, link) for link in LINKS],
            )
        )
        say(
            f"Remembered for this game: from {source.title} to {target.title} the board shows "
            f"'{table.title_links[key]}' (ruling title-links)."
        )
    return table.title_links[key]


def supports_everyone(table: Table, attacker: Player) -> bool:
    """Known from the board already: the attacker's title supports every other player's title."""
    if not table.melee or attacker.title is None:
        return False
    links = [table.title_links.get(link_key(attacker.title, other.title or "")) for other in table.opponents(attacker)]
    return all(link == SUPPORTS for link in links)


def legal_targets(table: Table, attacker: Player, say: Say) -> Asking[list[Player]]:
    """Every opponent, except in melee those whose title the attacker's title supports."""
    targets = []
    for defender in table.opponents(attacker):
        if table.melee and (yield from board_link(table, attacker, defender, say)) == SUPPORTS:
            continue
        targets.append(defender)
    return targets


# --- titles that change a challenge ------------------------------------------------------------


def crown_regent_redirect(
    table: Table, attacker: Player, defender: Player, targets: list[Player], say: Say
) -> Asking[Player]:
    """Once a round the Crown Regent may make an attacker change targets. Offered only where it can
    change something for the Regent (ruling crown-regent-offer) and another target is allowed."""
    regent = table.title_holder(CROWN_REGENT)
    if regent is None or regent is attacker or table.crown_regent_used:
        return defender
    if CROWN_REGENT_OFFER.of(table.rulings) == "when-challenged" and regent is not defender:
        return defender
    others = [player for player in targets if player is not defender]
    if not others:
        return defender
    redirect = yield from ask(
        Confirm(f"{regent.name} (Crown Regent): make {attacker.name} pick another target?", "title-powers")
    )
    if not redirect:
        return defender
    table.crown_regent_used = True
    if len(others) == 1:
        say(f"{attacker.name} must challenge {others[0].name} instead (Crown Regent, once this round).")
        return others[0]
    chosen = yield from ask(
        pick(
            f"Crown Regent: {attacker.name} picks a new target",
            "title-powers",
            player_options(others),
        )
    )
    return chosen


def kingsguard_takeover(table: Table, attacker: Player, defender: Player, kind: str, say: Say) -> Asking[Player | None]:
    """Once a round, in a military challenge nobody defended, the Lord Commander may become the defender."""
    commander = table.title_holder(KINGSGUARD)
    if kind != "military" or commander is None or commander in (attacker, defender) or table.kingsguard_used:
        return None
    take = yield from ask(
        Confirm(
            f"Nobody defended. {commander.name} (Lord Commander of the Kingsguard): make {attacker.name} attack "
            f"{commander.name} instead?",
            "title-powers",
        )
    )
    if not take:
        return None
    table.kingsguard_used = True
    say(f"{commander.name} becomes the defender: redo the Stealth choices and the defenders.")
    return commander


def support_offer(table: Table, attacker: Player, defender: Player, say: Say) -> Asking[Player | None]:
    """Nobody defended: a player whose title supports the defender's may defend in their place."""
    supporters = []
    for other in table.players:
        if other in (attacker, defender):
            continue
        if (yield from board_link(table, other, defender, say)) == SUPPORTS:
            supporters.append(other)
    if not supporters:
        return None
    options: list[tuple[str, Player | None]] = [*player_options(supporters)]
    options.append((nobody_label(table.players), None))
    supporter = yield from ask(
        pick(
            f"Nobody defended for {defender.name}. Does a supporter defend in their place?",
            "title-support",
            options,
        )
    )
    if supporter is not None:
        say(f"{supporter.name} defends for {defender.name}; {defender.name} still takes any losses.")
    return supporter


# --- opposition --------------------------------------------------------------------------------


def opposition_power(table: Table, winner: Player, loser: Player, attacker_won: bool, say: Say) -> Steps:
    """1 power, once a round, for winning a challenge against a player whose title the winner's opposes.
    Ruling opposition-side says whether a winning defender earns it too."""
    if not table.melee or winner.name in table.opposition_earned:
        return
    either_side = OPPOSITION_SIDE.of(table.rulings) == "either"
    if not attacker_won and not either_side:
        if winner.title and loser.title and table.title_links.get(link_key(winner.title, loser.title)) == OPPOSES:
            say(
                f"{winner.title} opposes {loser.title}, but only a winning attacker earns the opposition power "
                "(ruling opposition-side)."
            )
        return
    if (yield from board_link(table, winner, loser, say)) != OPPOSES:
        return
    table.opposition_earned.append(winner.name)
    why = f"{winner.title} opposes {loser.title}"
    if not attacker_won:
        why += ", won in defence (ruling opposition-side)"
    gain_power(table, winner, OPPOSITION_POWER, why, say)
