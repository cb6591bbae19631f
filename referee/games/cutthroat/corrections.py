"""The corrections of Cutthroat Kingdoms: each field the table may correct, and how each reads the
rest of the line and changes the kingdom (engine/corrections.py reads the grammar).

A player's purse and cards in hand are counts; the rest are actions with a form of their own:
abilities used off the guided path, marriages and deaths, a territory's side and its defenders,
and the payments of a deal ('pay FROM TO N').
"""

from __future__ import annotations

from collections.abc import Callable

from referee.engine.corrections import GAME as OF_THE_GAME
from referee.engine.corrections import Action, Counter, Field
from referee.errors import InvalidAdjustment
from referee.games.cutthroat import rules
from referee.games.cutthroat.state import (
    FEAST_CARDS,
    GEMS_IN_GAME,
    MERCENARY_CARDS,
    TWICE_PER_GAME,
    Kingdom,
    Player,
    Territory,
)
from referee.wording import counted

TERRITORY = "territory"
"""The kind of the things corrections name besides the players: the territories."""


# --- counted fields --------------------------------------------------------------------------------


def reader(attribute: str) -> Callable[[Kingdom, str], int]:
    return lambda kingdom, who: int(getattr(kingdom.player(who), attribute))


def write_plain(attribute: str) -> Callable[[Kingdom, str, int], None]:
    def write(kingdom: Kingdom, who: str, value: int) -> None:
        setattr(kingdom.player(who), attribute, value)

    return write


def write_gems(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    if value - player.gems > rules.gems_in_purse(kingdom):
        raise InvalidAdjustment(f"only {GEMS_IN_GAME} gems exist (ruling gem-supply): the purse holds "
                                f"{rules.gems_in_purse(kingdom)} more")
    player.gems = value


def write_mercenaries(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    grows = value - player.mercenaries
    if kingdom.mercenaries_in_play() + grows > MERCENARY_CARDS:
        raise InvalidAdjustment(f"only {MERCENARY_CARDS} mercenary cards exist ({kingdom.mercenaries_in_play()} "
                                "in hands and on land)")
    kingdom.mercenaries_drawn += max(0, grows)
    player.mercenaries = value


def write_hirelings(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    grows = value - player.hirelings
    held = sum(other.hirelings for other in kingdom.players)
    if held + grows > kingdom.hireling_deck_size:
        raise InvalidAdjustment(f"only {kingdom.hireling_deck_size} hireling cards exist with the bastards "
                                f"({held} held)")
    kingdom.hirelings_drawn += max(0, grows)
    player.hirelings = value


def write_feast(kingdom: Kingdom, who: str, value: int) -> None:
    player = kingdom.player(who)
    grows = value - player.feast_cards
    if grows > 0 and kingdom.feast_cards_drawn + grows > FEAST_CARDS:
        raise InvalidAdjustment(f"the feast deck has only {rules.feast_cards_left(kingdom)} card(s) left")
    kingdom.feast_cards_drawn += max(0, grows)  # new feast cards come off the feast deck
    player.feast_cards = value


def dead_bounds(kingdom: Kingdom, who: str) -> tuple[int, int]:
    """Soldiers go to the dead pile from the hand (dead +N) or back to it (dead -N)."""
    player = kingdom.player(who)
    return 0, player.dead + kingdom.soldiers_in_hand(player)


# --- actions on players -------------------------------------------------------------------------------


def killed(what: str) -> Callable[[Kingdom, str, str], str]:
    def apply(kingdom: Kingdom, who: str, rest: str) -> str:
        player = kingdom.player(who)
        if rest.lower() != "killed":
            raise InvalidAdjustment(f"write '{player.name} {what} killed'")
        if what == "heir":
            if not player.heir_alive:
                raise InvalidAdjustment(f"{player.name}'s royal heir is already dead")
            notes = rules.kill_heir(kingdom, player)
            return " ".join([f"{player.name}'s royal heir is killed.", *notes])
        if player.hirelings == 0:
            raise InvalidAdjustment(f"{player.name} holds no hireling")
        player.hirelings -= 1
        return " ".join([f"{player.name} loses a killed hireling.", *rules.dark_influence(kingdom, "hireling")])

    return apply


def marries(kingdom: Kingdom, who: str, rest: str) -> str:
    player = kingdom.player(who)
    try:
        other = kingdom.player(rest.strip())
    except KeyError:
        raise InvalidAdjustment(f"no player {rest.strip()!r}") from None
    if other is player:
        raise InvalidAdjustment("a player cannot marry their own heir")
    for someone in (player, other):
        if not rules.can_marry(someone):
            why = "is already married" if someone.married_to else "has no living heir"
            raise InvalidAdjustment(f"{someone.name} {why}")
    rules.marry(kingdom, player, other)
    return f"{player.name} and {other.name} are married"


def territory_named(kingdom: Kingdom, name: str) -> Territory:
    try:
        return kingdom.territory(name)
    except KeyError:
        known = ", ".join(territory.name for territory in kingdom.territories) or "none yet"
        raise InvalidAdjustment(f"no territory {name!r}; territories: {known}") from None


def uses(kingdom: Kingdom, who: str, rest: str) -> str:
    """A twice-per-game ability used off the guided path: its token is spent and, for Death, Fury
    and Venom, its effect applied."""
    player = kingdom.player(who)
    words = rest.split()
    if not words:
        raise InvalidAdjustment("name the ability: '<player> uses <ability> [territory|player]'")
    ability, target = words[0].lower(), " ".join(words[1:])
    owned = TWICE_PER_GAME.get(player.character or "", ())
    if ability not in owned:
        has = ", ".join(owned) or "none counted"
        raise InvalidAdjustment(f"{player.name} ({player.character}) has no ability {ability!r}; theirs: {has}")
    if player.ability_uses[ability] == 0:
        raise InvalidAdjustment(f"{player.name} has used {ability} twice already")
    if ability in ("death", "fury"):
        return kill_with(kingdom, player, ability, territory_named(kingdom, target))
    if ability == "venom":
        try:
            victim = kingdom.player(target)
        except KeyError:
            raise InvalidAdjustment("use '<Slaine's player> uses venom <player whose hireling dies>'") from None
        if victim.hirelings == 0:
            raise InvalidAdjustment(f"{victim.name} holds no hireling")
        player.ability_uses[ability] -= 1
        victim.hirelings -= 1
        notes = rules.dark_influence(kingdom, "hireling")
        return " ".join([f"{player.name} uses venom on {victim.name}'s hireling.", *notes])
    player.ability_uses[ability] -= 1
    if ability == "opulence":
        kingdom.turn.opulence = True
    return f"{player.name} uses {ability} ({player.ability_uses[ability]} left)"


def kill_with(kingdom: Kingdom, player: Player, ability: str, territory: Territory) -> str:
    """Death (every defender, and the plague) or Fury (the top 2): never on the user's own land
    (#faq), and a Fury on an undefended territory is refused rather than spent."""
    if territory.owner == player.name:
        raise InvalidAdjustment(f"nobody may kill the military cards on their own territory ({territory.name})")
    if ability == "fury" and not territory.defenders:
        raise InvalidAdjustment(f"{territory.name} has no defenders: Fury would kill nothing, so it is not spent")
    player.ability_uses[ability] -= 1
    owner = territory.owner
    if ability == "death":
        dead = rules.kill_top(kingdom, territory, len(territory.defenders))
        territory.plagued = True
    else:
        dead = rules.kill_top(kingdom, territory, 2)
    freed = f"; {owner}'s house token goes home" if owner and territory.owner is None else ""
    return f"{player.name} uses {ability}: {len(dead)} defender(s) of {territory.name} killed{freed}"


# --- actions on territories ---------------------------------------------------------------------------


def turn_side(plagued: bool) -> Callable[[Kingdom, str, str], str]:
    def apply(kingdom: Kingdom, who: str, rest: str) -> str:
        territory = kingdom.territory(who)
        if rest:
            raise InvalidAdjustment(f"'{territory.name} {'plague' if plagued else 'cure'}' takes nothing after it")
        territory.plagued = plagued
        return f"{territory.name} turns to its {territory.side} side"

    return apply


def return_defenders(kingdom: Kingdom, who: str, rest: str) -> str:
    territory = kingdom.territory(who)
    owner = territory.owner
    if rest:
        raise InvalidAdjustment(f"'{territory.name} return' takes nothing after it")
    if owner is None:
        raise InvalidAdjustment(f"{territory.name} has no defenders to return")
    count = rules.return_to_hand(kingdom, territory)
    return f"{count} military card(s) on {territory.name} go back to {owner}'s hand, the token too"


def kill_defenders(kingdom: Kingdom, who: str, rest: str) -> str:
    territory = kingdom.territory(who)
    owner = territory.owner
    word = rest.lower().strip()
    count = len(territory.defenders) if word == "all" else int(word) if word.isdecimal() else -1
    if not 1 <= count <= len(territory.defenders):
        raise InvalidAdjustment(
            f"{territory.name} has {len(territory.defenders)} defender(s); kill 1 to that many, or 'all'"
        )
    rules.kill_top(kingdom, territory, count)
    freed = f"; {owner}'s house token goes home" if territory.owner is None else ""
    return f"{count} defender(s) of {territory.name} killed{freed}"


# --- coins, cards and gems changing hands ---------------------------------------------------------------


BANK = "bank"
KINDS = {"copper": "copper", "silver": "silver", "gem": "gems", "gems": "gems"}


def party(kingdom: Kingdom, words: list[str]) -> tuple[Player | None, list[str]]:
    """The player (longest name first) or the bank the words begin with, and the words after it."""
    lowered = [word.lower() for word in words]
    for player in sorted(kingdom.players, key=lambda player: -len(player.name.split())):
        name = player.name.lower().split()
        if lowered[: len(name)] == name:
            return player, words[len(name) :]
    if lowered[:1] == [BANK]:
        return None, words[1:]
    known = ", ".join(player.name for player in kingdom.players)
    raise InvalidAdjustment(f"'pay FROM TO N [copper|silver|gems]': FROM and TO are players ({known}) or the bank")


def pay(kingdom: Kingdom, who: str, rest: str) -> str:
    """'pay FROM TO N [copper|silver|gems]': coins or gems handed over in a deal (or to or from the bank)."""
    payer, words = party(kingdom, rest.split())
    payee, words = party(kingdom, words)
    if payer is payee:
        raise InvalidAdjustment("a payment goes from one player to another (or to or from the bank)")
    if not words or not words[0].isdecimal() or not 1 <= int(words[0]) <= 9999 or len(words) > 2:
        raise InvalidAdjustment("write 'pay FROM TO N [copper|silver|gems]', N a whole number from 1")
    amount = int(words[0])
    kind = KINDS.get(words[1].lower(), "") if len(words) == 2 else "copper"
    if not kind:
        raise InvalidAdjustment(f"pay copper, silver or gems, not {words[1]!r}")
    if payer is not None and getattr(payer, kind) < amount:
        raise InvalidAdjustment(f"{payer.name} does not hold {amount} {kind} by the referee's count (correct that "
                                f"first with 'adjust {payer.name} {kind} =N')")
    if payer is None and kind == "gems" and amount > rules.gems_in_purse(kingdom):
        raise InvalidAdjustment(f"the purse holds only {counted(rules.gems_in_purse(kingdom), 'gem')}")
    for holder, change in ((payer, -amount), (payee, amount)):
        if holder is not None:
            setattr(holder, kind, getattr(holder, kind) + change)
    giver = payer.name if payer else "The bank"
    taker = payee.name if payee else "the bank"
    return f"{giver} pays {taker} {counted(amount, 'gem') if kind == 'gems' else f'{amount} {kind}'}"


FIELDS: tuple[Field[Kingdom], ...] = (
    Counter("copper", reader("copper"), write_plain("copper"), hidden=True),
    Counter("silver", reader("silver"), write_plain("silver"), hidden=True),
    Counter("gems", reader("gems"), write_gems, hidden=True),
    Counter("mercenaries", reader("mercenaries"), write_mercenaries),
    Counter("hirelings", reader("hirelings"), write_hirelings),
    Counter("feast", reader("feast_cards"), write_feast),
    Counter("dead", reader("dead"), write_plain("dead"), dead_bounds,
            about="dead +N: soldiers from hand to the dead pile"),
    Action("uses", uses, form="<fury|opulence|life|death|eye|venom> [territory|player]"),
    Action("marries", marries, form="<player>"),
    Action("heir", killed("heir"), form="killed"),
    Action("hireling", killed("hireling"), form="killed"),
    Action("plague", turn_side(True), form="", kind=TERRITORY),
    Action("cure", turn_side(False), form="", kind=TERRITORY),
    Action("kill", kill_defenders, form="<N|all>", kind=TERRITORY),
    Action("return", return_defenders, form="", kind=TERRITORY),
    Action("pay", pay, form="FROM TO N [copper|silver|gems]", kind=OF_THE_GAME,
           about="coins or gems handed over; 'pay' alone starts the line, the reason is optional"),
)
