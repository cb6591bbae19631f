"""A Game of Thrones (1st edition) session, from setup to the winner at 15 power, as the table plays it.

Each function yields the questions for one part of the rulebook's round and applies the answers to
the Table. Only the driver sends answers in, and it has already validated them. The moment a player
has 15 power the game stops, wherever the round is: `GameWon` carries the flow straight to the count.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, TypeVar

from referee.asks import Ask, Choice, Confirm, Number, Parsed, Question
from referee.engine.game import Flow, GameOver, Say
from referee.games.got import rules
from referee.games.got.scoring import (
    RANKS_BELOW_WINNER,
    SIMULTANEOUS_FIFTEEN,
    Holdings,
    PlayerPower,
    joined_names,
    score,
)
from referee.games.got.state import (
    CHALLENGE_KINDS,
    DOMINANCE_POWER,
    DRAW_DECK_MINIMUM,
    HOUSES,
    LINKS,
    NEUTRAL,
    NO_LINK,
    OFF_HOUSE_PENALTY,
    OPPOSES,
    OPPOSITION_POWER,
    PLOT_DECK_SIZE,
    POWER_TO_WIN,
    SETUP_COST_LIMIT,
    SETUP_HAND,
    SUPPORTS,
    TITLE_STRENGTH_BONUS,
    UNOPPOSED_POWER,
    Player,
    Table,
    link_key,
)
from referee.outcome import ScoreReport

Steps = Generator[Question, Any, None]
T = TypeVar("T")
Asking = Generator[Question, Any, T]

MAX_DRAW_DECK = 999
"""Upper bound for a draw deck as typed: the source sets only the minimum of 60."""
DONE = "done"
NOBODY = "nobody"
KINGSGUARD, SUPPORT = "kingsguard", "support"
SETUP_MARKS = "ax"
PLOT_EXAMPLES = ("5 0 1", "4 2 1 A Noble Cause", "6 1 0", "3 3 2", "2 4 1 Wildfire Assault")
CHALLENGE_EXAMPLES = ("5 3", "4 -", "6 2 r1", "2 5", "3 - r1 p1", "4 4")


class GameWon(GameOver):
    """Somebody has 15 power or more: the game stops where it is."""


def ask(table: Table, question: Ask[Any]) -> Asking[Any]:
    """Every question goes through here: a correction that brought someone to 15 ends the game."""
    value = yield question
    if table.won:
        raise GameWon
    return value


def flow(table: Table, say: Say) -> Flow:
    try:
        yield from set_up(table, say)
        while True:
            table.round += 1
            yield from play_round(table, say)
    except GameOver:  # GameWon from the flow, or thrown in by the driver after a correction
        pass
    return final_count(table, say)


# --- power and the win -------------------------------------------------------------------------


def gain_power(table: Table, player: Player, amount: int, why: str, say: Say, on_cards: bool = False) -> None:
    """Put power on the player's House card (or on their cards); 15 or more ends the game at once."""
    if amount <= 0:
        return
    if on_cards:
        player.card_power += amount
    else:
        player.house_power += amount
    place = "on their cards" if on_cards else "on their House card"
    say(f"{player.name} takes {amount} power {place} ({why}): {player.power} in all.")
    if player.power >= POWER_TO_WIN:
        table.won = True
        table.first_to_fifteen = player.name
        say(f"{player.name} has {player.power} power: {POWER_TO_WIN} or more wins at once, and the game stops.")
        raise GameWon


# --- setup -------------------------------------------------------------------------------------


def set_up(table: Table, say: Say) -> Steps:
    # setup, plots and titles are the whole table's steps: no player is "active" in them
    table.phase, table.active = "setup", None
    for player in table.players:
        player.house = yield from ask(
            table, Choice(f"{player.name}: which House card is in play?", "deck-building", options=HOUSES)
        )
        player.draw_deck = yield from ask(
            table,
            Number(
                f"{player.name}: how many cards are in the draw deck?",
                "deck-building",
                minimum=DRAW_DECK_MINIMUM,
                maximum=MAX_DRAW_DECK,
            ),
        )
    say(f"Each player draws {SETUP_HAND} cards and picks a starting force of Characters and Locations, face down.")
    for player in table.players:
        player.draw_deck -= SETUP_HAND
        player.hand = SETUP_HAND
    for player in table.players:
        yield from starting_force(table, player, say)
    say(f"All starting forces are turned face up; each player draws back up to {SETUP_HAND} cards.")


def starting_force(table: Table, player: Player, say: Say) -> Steps:
    attachments_count = table.rulings["setup-attachment-cost"] == "counts"
    penalty_house = player.house if table.rulings["starting-force-printed-cost"] == "with-penalty" else None

    def read(text: str) -> tuple[rules.CardCost, ...]:
        cards = rules.parse_costs(text, SETUP_MARKS)
        if len(cards) > player.hand:
            raise ValueError(f"only {player.hand} cards were drawn")
        total = rules.starting_force_cost(cards, attachments_count, penalty_house)
        if total > SETUP_COST_LIMIT:
            raise ValueError(f"the starting force counts {total}, more than {SETUP_COST_LIMIT}")
        return cards

    cards: tuple[rules.CardCost, ...] = yield from ask(
        table,
        Parsed(
            f"{player.name}: printed cost of each card in the starting force, e.g. '3 2', '2 1a', or 'none'",
            "setup",
            parser=read,
            hint=f"printed costs adding up to {SETUP_COST_LIMIT} or less "
            f"({rules.describe_marks(SETUP_MARKS)}), or 'none'",
            examples=("3 2", "5", "2 1 1a", "none", "4 1", "1x 2"),
        ),
    )
    total = rules.starting_force_cost(cards, attachments_count, penalty_house)
    notes = []
    if any(card.attachment for card in cards):
        notes.append("ruling setup-attachment-cost: attachments " + ("count" if attachments_count else "are free"))
    if any(card.other_house for card in cards):
        counted = "with" if penalty_house else "without"
        notes.append(f"ruling starting-force-printed-cost: counted {counted} the off-House penalty")
    note = f" ({'; '.join(notes)})" if notes else ""
    say(f"{player.name}'s starting force: {len(cards)} card(s) counting {total} of {SETUP_COST_LIMIT}{note}.")
    refill = min(len(cards), player.draw_deck)
    player.draw_deck -= refill
    player.hand = player.hand - len(cards) + refill


# --- a round -----------------------------------------------------------------------------------


def play_round(table: Table, say: Say) -> Steps:
    yield from plot_phase(table, say)
    draw_phase(table, say)
    yield from marshalling_phase(table, say)
    yield from challenges_phase(table, say)
    yield from dominance_phase(table, say)
    table.phase, table.active = "standing", None
    say("Standing: every player stands all of their knelt cards.")
    table.phase = "taxation"
    returned = [f"{player.name} {player.gold}" for player in table.players if player.gold]
    for player in table.players:
        player.gold = 0
    say("Taxation: unspent gold goes back to the bank" + (f" ({', '.join(returned)})." if returned else "."))


def plot_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "plot", None
    table.titles_last_round = [player.title for player in table.players if player.title]
    table.crown_regent_used = table.kingsguard_used = False
    table.opposition_earned = []
    for player in table.players:
        player.title = None
        player.challenges_made = []
        player.plot = None
        if player.plots_left == 0:
            player.used_plots = []
            say(
                f"{player.name} has no plot left: the {PLOT_DECK_SIZE} used plots go back into the plot deck "
                "(ruling plot-deck-reuse)."
            )
    say(f"Round {table.round}: each player picks a plot in secret; reveal them together.")
    for player in table.players:
        plot = yield from ask(
            table,
            Parsed(
                f"{player.name}'s plot: income, initiative, claim as printed (name optional), e.g. '5 0 1'",
                "phase-plot",
                parser=rules.parse_plot,
                hint=f"three whole numbers from 0 to {rules.MAX_ICON} (income initiative claim), "
                "then the name if you like",
                examples=PLOT_EXAMPLES,
            ),
        )
        player.plot = plot
        player.used_plots.append(plot)
    table.active = None
    chooser = yield from initiative_winner(table, say)
    first = yield from ask(
        table,
        Choice(
            f"{chooser.name} has the initiative: who is first player this round?",
            "phase-plot",
            options=tuple(player.name for player in table.players),
        ),
    )
    table.first_player = table.players.index(table.player(first))
    order = joined_names([player.name for player in table.turn_order()])
    say(f"{first} is first player. Resolve 'when revealed' plot effects in the order {order}.")
    if table.melee:
        yield from choose_titles(table, say)


def initiative_winner(table: Table, say: Say) -> Asking[Player]:
    leaders = rules.initiative_leaders(table.players)
    totals = ", ".join(f"{player.name} {rules.initiative(player)}" for player in table.players)
    if len(leaders) == 1:
        say(f"Initiative: {totals}. {leaders[0].name} wins it.")
        return leaders[0]
    tied = leaders
    if table.rulings["initiative-tie"] == "fewer-power-then-lots":
        tied = rules.fewest_power(leaders)
        if len(tied) == 1:
            say(
                f"Initiative: {totals}. Tie between {joined_names([p.name for p in leaders])}: "
                f"{tied[0].name} has the least power and wins it (ruling initiative-tie)."
            )
            return tied[0]
    name = yield from ask(
        table,
        Choice(
            f"Initiative: {totals}. {joined_names([p.name for p in tied])} are tied "
            "(ruling initiative-tie): draw lots. Who wins?",
            "ruling-initiative-tie",
            options=tuple(player.name for player in tied),
        ),
    )
    return table.player(name)


def choose_titles(table: Table, say: Say) -> Steps:
    taken: list[str] = []
    for player in table.turn_order():
        free = rules.open_titles(taken, table.titles_last_round, len(table.players), table.round)
        if len(free) == 1:
            player.title = free[0]
            say(f"{player.name} takes the last open title, {free[0]}.")
        else:
            player.title = yield from ask(
                table, Choice(f"{player.name} takes which title?", "melee-titles", options=free)
            )
        taken.append(player.title)
    table.active = None


def draw_phase(table: Table, say: Say) -> None:
    table.phase, table.active = "draw", None
    parts = []
    for player in table.players:
        wanted = rules.cards_to_draw(player)
        drawn = min(wanted, player.draw_deck)
        player.draw_deck -= drawn
        player.hand += drawn
        part = f"{player.name} {drawn}"
        if drawn < wanted:
            part += f" (draw deck empty: {wanted - drawn} not drawn, ruling empty-draw-deck)"
        parts.append(part)
    say("Draw: " + ", ".join(parts) + ".")


MARSHALLING_MARKS = "xnls"


def marshalling_phase(table: Table, say: Say) -> Steps:
    table.phase = "marshalling"
    for player in table.turn_order():
        table.active = player.name
        collected = rules.income(player)
        player.gold += collected
        say(f"{player.name} collects {collected} gold ({income_parts(player)}).")
        if player.hand == 0:
            say(f"{player.name} has no card in hand to play.")
            continue
        yield from marshal(table, player, say)


def marshal(table: Table, player: Player, say: Say) -> Steps:
    """One player's cards played: checked against the gold, the hand and the Limited rule."""
    neutral_penalty = table.rulings["neutral-cards-no-penalty"] == "penalty"

    def read(text: str) -> tuple[rules.CardCost, ...]:
        cards = rules.parse_costs(text, MARSHALLING_MARKS)
        if len(cards) > player.hand:
            raise ValueError(f"{player.name} holds only {player.hand} cards")
        if sum(card.limited for card in cards) > 1:
            raise ValueError("at most one Limited card per round")
        gold = rules.marshalling_gold(cards, player.house, neutral_penalty)
        if gold > player.gold:
            raise ValueError(f"those cost {gold} gold and {player.name} has {player.gold}")
        return cards

    cards: tuple[rules.CardCost, ...] = yield from ask(
        table,
        Parsed(
            f"{player.name} ({player.gold} gold): printed cost of each card played, e.g. '3 2x 1', or 'none'",
            "phase-marshalling",
            parser=read,
            hint=f"printed costs with marks ({rules.describe_marks(MARSHALLING_MARKS)}), "
            f"within {player.gold} gold, or 'none'",
            examples=("none", "0", "1", "2 1", "1x", "s", "1l 0"),
        ),
    )
    paid = rules.marshalling_gold(cards, player.house, neutral_penalty)
    player.gold -= paid
    player.hand -= len(cards)
    if cards:
        note = penalty_note(player, cards, neutral_penalty)
        say(f"{player.name} plays {len(cards)} card(s) for {paid} gold{note}; {player.gold} gold left.")


def income_parts(player: Player) -> str:
    parts = [f"plot {player.plot.income if player.plot else 0}"]
    if player.income_bonus:
        parts.append(f"cards in play {player.income_bonus}")
    if player.title == "Master of Coins":
        parts.append("Master of Coins 2")
    return ", ".join(parts)


def penalty_note(player: Player, cards: Sequence[rules.CardCost], neutral_penalty: bool) -> str:
    notes = []
    other = sum(card.other_house for card in cards)
    neutral = sum(card.neutral for card in cards)
    if player.house == NEUTRAL and (other or neutral):
        notes.append("no off-House penalty for a Neutral House")
    elif other:
        notes.append(f"{other} off-House card(s) at {OFF_HOUSE_PENALTY} more each")
    if neutral and player.house != NEUTRAL:
        ruled = f"{OFF_HOUSE_PENALTY} more each" if neutral_penalty else "no penalty"
        notes.append(f"neutral card(s): {ruled} (ruling neutral-cards-no-penalty)")
    return f" ({'; '.join(notes)})" if notes else ""


# --- challenges --------------------------------------------------------------------------------


def challenges_phase(table: Table, say: Say) -> Steps:
    table.phase = "challenges"
    for attacker in table.turn_order():
        table.active = attacker.name
        while True:
            kinds = tuple(kind for kind in CHALLENGE_KINDS if kind not in attacker.challenges_made)
            if not kinds:
                break
            if supports_everyone(table, attacker):
                say(f"{attacker.name}'s title supports every other player's title: nobody may be challenged.")
                break
            kind = yield from ask(
                table,
                Choice(f"{attacker.name}: declare a challenge, or done?", "phase-challenges", options=(*kinds, DONE)),
            )
            if kind == DONE:
                break
            targets = yield from legal_targets(table, attacker, say)
            if not targets:
                say(f"{attacker.name}'s title supports every other player's title: nobody may be challenged.")
                break
            attacker.challenges_made.append(kind)
            yield from challenge(table, attacker, kind, targets, say)
    table.active = None


def supports_everyone(table: Table, attacker: Player) -> bool:
    """Known from the board already: the attacker's title supports every other player's title."""
    if not table.melee or attacker.title is None:
        return False
    links = [
        table.title_links.get(link_key(attacker.title, other.title or ""))
        for other in table.opponents(attacker)
    ]
    return all(link == SUPPORTS for link in links)


def legal_targets(table: Table, attacker: Player, say: Say) -> Asking[list[Player]]:
    """Every opponent, except in melee those whose title the attacker's title supports."""
    targets = []
    for defender in table.opponents(attacker):
        if table.melee and (yield from board_link(table, attacker, defender, say)) == SUPPORTS:
            continue
        targets.append(defender)
    return targets


def board_link(table: Table, source: Player, target: Player, say: Say) -> Asking[str]:
    """What the board shows from one player's title to another's, asked once per pair of titles."""
    if source.title is None or target.title is None:
        return NO_LINK
    key = link_key(source.title, target.title)
    if key not in table.title_links:
        table.title_links[key] = yield from ask(
            table,
            Choice(
                f"Read the board: what does {source.title} show towards {target.title}?",
                "ruling-title-links",
                options=LINKS,
            ),
        )
        say(
            f"Remembered for this game: from {source.title} to {target.title} the board shows "
            f"'{table.title_links[key]}' (ruling title-links)."
        )
    return table.title_links[key]


def challenge(table: Table, attacker: Player, kind: str, targets: list[Player], say: Say) -> Steps:
    if len(targets) == 1:
        defender = targets[0]
    else:
        name = yield from ask(
            table,
            Choice(
                f"{attacker.name}'s {kind} challenge: against whom?",
                "challenge-steps",
                options=tuple(player.name for player in targets),
            ),
        )
        defender = table.player(name)
    defender = yield from crown_regent_redirect(table, attacker, defender, targets, say)
    result = yield from ask_result(table, attacker, defender, kind)
    guard = defender
    """Whose characters defend: the defender's, or a supporter's in their place."""
    order = (SUPPORT, KINGSGUARD) if table.rulings["undefended-order"] == "support-first" else (KINGSGUARD, SUPPORT)
    for step in order:
        if result.defence is not None or not table.melee:
            break
        if step == KINGSGUARD:
            taken_over = yield from kingsguard_takeover(table, attacker, defender, kind, say)
            if taken_over is not None:
                defender = guard = taken_over
                result = yield from ask_result(table, attacker, defender, kind)
        else:
            supporter = yield from support_offer(table, attacker, defender, say)
            if supporter is not None:
                guard = supporter
                result = yield from ask_result(table, attacker, defender, kind, supporter)
    yield from settle(table, attacker, defender, guard, kind, result, say)


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
    name = yield from ask(
        table,
        Choice(
            f"Nobody defended for {defender.name}. Does a supporter defend in their place?",
            "title-support",
            options=(*(player.name for player in supporters), NOBODY),
        ),
    )
    if name == NOBODY:
        return None
    say(f"{name} defends for {defender.name}; {defender.name} still takes any losses.")
    return table.player(name)


def crown_regent_redirect(
    table: Table, attacker: Player, defender: Player, targets: list[Player], say: Say
) -> Asking[Player]:
    regent = table.title_holder("Crown Regent")
    others = [player for player in targets if player is not defender]
    if regent is None or regent is attacker or table.crown_regent_used or not others:
        return defender
    redirect = yield from ask(
        table,
        Confirm(f"{regent.name} (Crown Regent): make {attacker.name} pick another target?", "title-powers"),
    )
    if not redirect:
        return defender
    table.crown_regent_used = True
    if len(others) == 1:
        say(f"{attacker.name} must challenge {others[0].name} instead (Crown Regent, once this round).")
        return others[0]
    name = yield from ask(
        table,
        Choice(
            f"Crown Regent: {attacker.name} picks a new target",
            "title-powers",
            options=tuple(player.name for player in others),
        ),
    )
    return table.player(name)


def kingsguard_takeover(table: Table, attacker: Player, defender: Player, kind: str, say: Say) -> Asking[Player | None]:
    commander = table.title_holder("Lord Commander of the Kingsguard")
    if kind != "military" or commander in (None, attacker, defender) or table.kingsguard_used:
        return None
    assert commander is not None
    take = yield from ask(
        table,
        Confirm(
            f"Nobody defended. {commander.name} (Lord Commander of the Kingsguard): make {attacker.name} attack "
            f"{commander.name} instead?",
            "title-powers",
        ),
    )
    if not take:
        return None
    table.kingsguard_used = True
    say(f"{commander.name} becomes the defender: redo the Stealth choices and the defenders.")
    return commander


def ask_result(
    table: Table, attacker: Player, defender: Player, kind: str, supporter: Player | None = None
) -> Asking[rules.ChallengeResult]:
    titles = " (without title bonuses: the referee adds them)" if table.melee else ""
    whose = f" ({supporter.name}'s characters)" if supporter else ""
    result: rules.ChallengeResult = yield from ask(
        table,
        Parsed(
            f"{kind.capitalize()} challenge, {attacker.name} against {defender.name}: attacking strength, "
            f"defending strength{whose} ('-' if nobody defends){titles}; add rN for Renown characters on the "
            "winning side, pN for power a card text adds",
            "challenge-steps",
            parser=rules.parse_challenge,
            hint=f"two strengths from 0 to {rules.MAX_STRENGTH} ('-' for no defenders), then optional rN and pN; "
            "e.g. '5 3', '4 -', '6 2 r1'",
            examples=CHALLENGE_EXAMPLES,
        ),
    )
    return result


def settle(
    table: Table,
    attacker: Player,
    defender: Player,
    guard: Player,
    kind: str,
    result: rules.ChallengeResult,
    say: Say,
) -> Steps:
    """Winner, claim on the defender, unopposed and opposition power, then Renown and card-text power.

    `guard` is whose characters defended (a supporter's in melee); their title adds strength and
    their characters take Renown power, while the claim still falls on the defender.
    """
    outcome = rules.resolve(attacker, guard, kind, result)
    winner = attacker if outcome.attacker_wins else guard
    bonus = [
        f"{player.name} +{TITLE_STRENGTH_BONUS} as {player.title}"
        for player, participating in ((attacker, True), (guard, result.defence is not None))
        if rules.title_bonus(player, kind, participating)
    ]
    titles = f" ({'; '.join(bonus)})" if bonus else ""
    defending = defender.name if guard is defender else f"{guard.name} for {defender.name}"
    say(
        f"{kind.capitalize()}: {attacker.name} {outcome.attack_total} against {defending} "
        f"{outcome.defence_total}{titles}: {winner.name} wins."
    )
    if outcome.attacker_wins:
        apply_claim(table, attacker, defender, kind, say)
        if outcome.unopposed:
            gain_power(table, attacker, UNOPPOSED_POWER, "unopposed", say)
        if table.melee and attacker.name not in table.opposition_earned:
            if (yield from board_link(table, attacker, defender, say)) == OPPOSES:
                table.opposition_earned.append(attacker.name)
                gain_power(table, attacker, OPPOSITION_POWER, f"{attacker.title} opposes {defender.title}", say)
    gain_power(table, winner, result.renown, "Renown", say, on_cards=True)
    gain_power(table, winner, result.extra_power, "card text", say)


def apply_claim(table: Table, attacker: Player, defender: Player, kind: str, say: Say) -> None:
    claim = attacker.plot.claim if attacker.plot else 0
    if claim == 0:
        say(f"{attacker.name}'s plot claims 0: no losses.")
        return
    if kind == "military":
        say(
            f"Claim {claim}: {defender.name} puts {claim} of their own character(s) in the dead pile "
            "(power on them leaves play: correct with 'adjust NAME cards -N')."
        )
    elif kind == "intrigue":
        discarded = min(claim, defender.hand)
        defender.hand -= discarded
        say(
            f"Claim {claim}: {attacker.name} discards {discarded} card(s) at random from {defender.name}'s hand, "
            f"to {defender.name}'s discard pile (ruling intrigue-discard-pile)."
        )
    else:
        from_house, from_reserve = rules.power_claim(defender, claim)
        defender.house_power -= from_house
        source = f"{from_house} from {defender.name}'s House card"
        if from_reserve:
            source += f", {from_reserve} from the reserve"
        gain_power(table, attacker, claim, f"power claim: {source}", say)


# --- dominance ---------------------------------------------------------------------------------


def dominance_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "dominance", None
    order = table.turn_order()
    names = ", ".join(f"{player.name} (gold {player.gold})" for player in order)
    strengths: tuple[int, ...] = yield from ask(
        table,
        Parsed(
            f"Dominance: strength of each player's standing characters, in the order {names}",
            "phase-dominance",
            parser=lambda text: rules.parse_strengths(text, len(order)),
            hint=f"{len(order)} whole numbers from 0 to {rules.MAX_STRENGTH}, one per player in the order given",
            examples=(" ".join(["3"] * len(order)), " ".join(str(n) for n in range(len(order)))),
        ),
    )
    totals = rules.dominance_totals(order, strengths)
    summary = ", ".join(f"{player.name} {total}" for player, total in totals)
    leaders = rules.highest(totals)
    if len(leaders) == 1:
        say(f"Dominance (gold + standing strength): {summary}. {leaders[0].name} wins dominance.")
        gain_power(table, leaders[0], DOMINANCE_POWER, "dominance", say)
        return
    tied = joined_names([player.name for player in leaders])
    if table.rulings["dominance-tie"] == "nobody":
        say(f"Dominance: {summary}. {tied} are tied: nobody wins dominance (ruling dominance-tie).")
        return
    name = yield from ask(
        table,
        Choice(
            f"Dominance: {summary}. {tied} are tied (ruling dominance-tie: the table decides). Who wins it?",
            "ruling-dominance-tie",
            options=tuple(player.name for player in leaders),
        ),
    )
    gain_power(table, table.player(name), DOMINANCE_POWER, "dominance", say)


# --- the end -----------------------------------------------------------------------------------


def final_count(table: Table, say: Say) -> ScoreReport:
    table.phase, table.active, table.finished = "final", None, True
    return score(
        Holdings(
            tuple(PlayerPower(player.name, player.house_power, player.card_power) for player in table.players),
            table.first_to_fifteen,
            table.rulings[SIMULTANEOUS_FIFTEEN],
            table.rulings[RANKS_BELOW_WINNER],
        )
    )

