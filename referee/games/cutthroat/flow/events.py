"""Phase III, the event, and the special events: Welcome to Aurum, the Royal Wedding, Alms of
Lazarus, Tribute, and the Royal Feast that ends the game (serving, tasting, the main course)."""

from __future__ import annotations

from referee.asks import Builder, Choice, Confirm, Parsed, ask, choice, pick, table_step
from referee.engine.game import Say, Steps
from referee.games.cutthroat import rules
from referee.games.cutthroat.flow.shared import (
    announce_votes,
    collect_gems,
    free_label,
    known_names,
    names,
    printed_values,
    turn_order_from,
)
from referee.games.cutthroat.parse import parse_alms, parse_dealers, parse_players
from referee.games.cutthroat.rulings import BASTARD_SAVE
from referee.games.cutthroat.state import (
    ALMS,
    ALMS_COPPER,
    FEAST,
    OTHER_EVENT,
    TRIBUTE,
    TRIBUTE_NO_TERRITORY_COPPER,
    WEDDING,
    WELCOME,
    WELCOME_COPPER,
    Kingdom,
    Player,
)
from referee.wording import counted

NO_MORE = ("no more", "no more marriages", "nobody else")
NOBODY = ("nobody", "no one", "nobody saves it")


def event_phase(kingdom: Kingdom, player: Player, say: Say) -> Steps:
    kingdom.events_drawn += 1
    drawn = kingdom.events_drawn
    if drawn == 1:
        event = WELCOME
    elif drawn == kingdom.events_total:
        event = FEAST
    elif not kingdom.wedding_drawn and drawn == kingdom.events_total - 1:
        event = WEDDING
        say("Only the Royal Wedding can lie above the Royal Feast now.")
    else:
        events = ((WEDDING,) if not kingdom.wedding_drawn else ()) + (ALMS, TRIBUTE, OTHER_EVENT)
        event = yield from ask(choice(f"Event {drawn} of {kingdom.events_total}: {player.name} draws which card?",
                                      "event-phase", events))
    kingdom.last_event = event
    say(f"Event {drawn} of {kingdom.events_total}: {event}.")
    if event == WELCOME:
        yield from welcome_to_aurum(kingdom, say)
    elif event == WEDDING:
        kingdom.wedding_drawn = True
        yield from royal_wedding(kingdom, say)
    elif event == ALMS:
        yield from alms_of_lazarus(kingdom, say)
    elif event == TRIBUTE:
        yield from tribute(kingdom, player, say)
    elif event == OTHER_EVENT:
        yield from table_step("Resolve the event card as printed; enter what it changes as corrections, then "
                              "confirm.", "event-phase")
    else:
        yield from royal_feast(kingdom, player, say)


def welcome_to_aurum(kingdom: Kingdom, say: Say) -> Steps:
    everyone = [player.name for player in kingdom.players]
    dealers = yield from ask(Parsed(
        "Welcome to Aurum: who formalised a deal (names, 'all' or 'none')?",
        "welcome-to-aurum",
        parser=lambda text: parse_dealers(text, kingdom),
        hint="player names separated by spaces or commas, 'all' or 'none' (never just one player)",
        examples=("all", "none", " ".join(everyone[:2]), " ".join(everyone[1:3])),
    ))
    for player in dealers:
        player.copper += WELCOME_COPPER
    if dealers:
        say(f"{names(dealers)} take {WELCOME_COPPER} copper each for their deal.")
    else:
        say("Nobody made a deal: no copper.")


def first_partner(kingdom: Kingdom) -> Builder[Player | None]:
    def question() -> Choice[Player | None]:
        free: list[tuple[str, Player | None]] = [(p.name, p) for p in kingdom.players if rules.can_marry(p)]
        return pick("A marriage agreed? Name one partner, or 'no more'", "royal-wedding",
                    [*free, (free_label(NO_MORE, known_names(kingdom)), None)])

    return question


def second_partner(kingdom: Kingdom, bride: Player) -> Builder[Player | None]:
    def question() -> Choice[Player | None]:
        free: list[tuple[str, Player | None]] = [
            (p.name, p) for p in kingdom.players if rules.can_marry(p) and p is not bride]
        return pick(f"{bride.name} marries whom?", "royal-wedding",
                    free or [(free_label(NOBODY, known_names(kingdom)), None)])

    return question


def royal_wedding(kingdom: Kingdom, say: Say) -> Steps:
    say("The Royal Wedding: three minutes of open courtship.")
    while sum(rules.can_marry(player) for player in kingdom.players) >= 2:
        bride = yield from ask(first_partner(kingdom))
        if bride is None:
            break
        groom = yield from ask(second_partner(kingdom, bride))
        if groom is None or not (rules.can_marry(bride) and rules.can_marry(groom)):
            say("That marriage is no longer possible (a correction).")
            continue
        rules.marry(kingdom, bride, groom)
        say(f"{bride.name} and {groom.name} swap heirs: married, they win or lose together and may not "
            "attack each other.")


def alms_of_lazarus(kingdom: Kingdom, say: Say) -> Steps:
    everyone = [player.name for player in kingdom.players]
    announce_votes(kingdom, say)
    shares = yield from ask(Parsed(
        f"Alms of Lazarus: the vote's winning share of the {ALMS_COPPER} copper ('Ann 6 Bo 6'), or 'tie'",
        "alms-of-lazarus",
        parser=lambda text: parse_alms(text, kingdom),
        hint=f"player names each with copper, {ALMS_COPPER} in all; or 'tie' when the vote decided nothing",
        examples=("tie", f"{everyone[0]} {ALMS_COPPER}", f"{everyone[1]} 6 {everyone[2]} 6",
                  " ".join(f"{name} 4" for name in everyone[:3])),
    ))
    if not shares:
        say("The vote is tied: nothing is decided and the copper stays in the bank.")
        return
    for name, amount in shares.items():
        kingdom.player(name).copper += amount
    say("Alms of Lazarus: " + ", ".join(f"{name} +{amount}" for name, amount in shares.items()) + " copper.")


def tribute(kingdom: Kingdom, drawer: Player, say: Say) -> Steps:
    """Every player collects the coins and the gems of each territory; 4 copper without land."""
    for player in turn_order_from(kingdom, drawer):
        own = kingdom.owned_by(player.name)
        if not own:
            player.copper += TRIBUTE_NO_TERRITORY_COPPER
            say(f"Tribute: {player.name} owns no territory and takes {TRIBUTE_NO_TERRITORY_COPPER} copper.")
            continue
        for territory in own:
            copper, gems = yield from printed_values(territory)
            if territory.owner != player.name:  # lost meanwhile, through a correction
                continue
            player.copper += copper
            got = collect_gems(kingdom, player, gems, None, say)
            say(f"Tribute: {player.name} takes {copper} copper and {counted(got, 'gem')} for {territory.name}.")


# --- the Royal Feast --------------------------------------------------------------------------------------


def royal_feast(kingdom: Kingdom, drawer: Player, say: Say) -> Steps:
    kingdom.phase = "feast"
    held = ", ".join(f"{player.name} {player.feast_cards}" for player in kingdom.players)
    say(f"The Royal Feast: clear the territories and military cards; feast cards gathered: {held}. "
        f"{drawer.name} serves first, then clockwise; then the tasting.")
    if sum(player.feast_cards for player in kingdom.players) == 0:
        say("Nobody gathered a feast card: nothing is served and no heir is in danger.")
        return
    yield from table_step(
        f"Serve and taste: {drawer.name} first, then clockwise, each player lays their feast cards face down "
        "before any players; then Tasters (2 cards each) and discarded hirelings (1 card each) reveal cards. "
        "Enter the hirelings spent (adjust NAME hirelings -N), then confirm.",
        "royal-feast",
    )
    seated = [(player, rules.heir_in_front_of(kingdom, player)) for player in turn_order_from(kingdom, drawer)]
    at_risk = [(player, heir) for player, heir in seated if heir is not None]
    if not at_risk:
        return
    poisoned = yield from ask(Parsed(
        "Main course: in front of whom did untasted poison turn up (names, or 'none')?",
        "royal-feast",
        parser=lambda text: parse_players(text, kingdom),
        hint="player names separated by spaces or commas, 'all' or 'none'",
        examples=("none", at_risk[0][0].name, "all"),
    ))
    for player in poisoned:
        if rules.heir_in_front_of(kingdom, player) is None:
            say(f"No living heir sits in front of {player.name}: the poison harms nobody.")
    for player, heir in at_risk:
        if player in poisoned:
            yield from poison(kingdom, player, heir, say)


def saver_question(kingdom: Kingdom, heir: Player, where: str) -> Builder[Player | None]:
    def question() -> Choice[Player | None]:
        holders: list[tuple[str, Player | None]] = [(p.name, p) for p in kingdom.players if p.hirelings > 0]
        return pick(f"{heir.name}'s heir is poisoned{where}. Who discards {heir.name}'s bastard to save it "
                    "(ruling bastard-save: holder)?", "royal-feast",
                    [(free_label(NOBODY, known_names(kingdom)), None), *holders])

    return question


def poison(kingdom: Kingdom, eater: Player, heir: Player, say: Say) -> Steps:
    """An heir poisoned at the feast dies, unless a bastard is given up for it (#royal-feast)."""
    where = "" if eater is heir else f" (in front of {eater.name})"
    saver: Player | None = None
    if BASTARD_SAVE.of(kingdom.rulings) == "owner":
        if heir.hirelings > 0:
            saved = yield from ask(Confirm(
                f"{heir.name}'s heir is poisoned{where}. Does {heir.name} discard their own bastard to save it "
                "(ruling bastard-save: owner)?",
                "royal-feast",
            ))
            saver = heir if saved else None
    elif any(player.hirelings > 0 for player in kingdom.players):
        saver = yield from ask(saver_question(kingdom, heir, where))
    if saver is not None and saver.hirelings > 0:
        saver.hirelings -= 1
        say(f"{saver.name} discards the bastard of {heir.name}'s house: the heir lives.")
        return
    say(f"{heir.name}'s royal heir is poisoned and dies.")
    for note in rules.kill_heir(kingdom, heir):
        say(note)
