"""The Challenges phase (#phase-challenges, #challenge-steps): each player's challenges in turn
order, who defends, the strengths, and what a won challenge brings (#challenge-claim, #unopposed,
#keyword-renown); in melee with the titles of melee.py."""

from __future__ import annotations

from referee.asks import Parsed, ask, pick, table_step
from referee.engine.game import Say, Steps
from referee.games.got import parse, rules
from referee.games.got.flow.common import DONE_CHALLENGING, Asking, player_options
from referee.games.got.flow.melee import (
    crown_regent_redirect,
    kingsguard_takeover,
    legal_targets,
    opposition_power,
    support_offer,
    supports_everyone,
)
from referee.games.got.flow.power import gain_power
from referee.games.got.flow.shadows import shadows_offer
from referee.games.got.rulings import UNDEFENDED_ORDER
from referee.games.got.state import (
    CHALLENGE_KINDS,
    TITLE_STRENGTH_BONUS,
    UNOPPOSED_POWER,
    ChallengeResult,
    Player,
    Table,
)

CHALLENGE_EXAMPLES = ("5 3", "4 -", "6 2 r1", "2 5", "3 - r1 p1", "4 4")
KINGSGUARD_STEP, SUPPORT_STEP = "kingsguard", "support"


def challenges_phase(table: Table, say: Say) -> Steps:
    table.phase, table.active = "challenges", None
    yield from shadows_offer(table, say)
    for attacker in table.turn_order():
        table.active = attacker.name
        while True:
            kinds = [kind for kind in CHALLENGE_KINDS if kind not in attacker.challenges_made]
            if not kinds:
                break
            if supports_everyone(table, attacker):
                say(f"{attacker.name}'s title supports every other player's title: nobody may be challenged.")
                break
            options: list[tuple[str, str | None]] = [(kind, kind) for kind in kinds]
            options.append((DONE_CHALLENGING, None))
            kind = yield from ask(pick(f"{attacker.name}: declare a challenge, or done?", "phase-challenges", options))
            if kind is None:
                break
            targets = yield from legal_targets(table, attacker, say)
            if not targets:
                say(f"{attacker.name}'s title supports every other player's title: nobody may be challenged.")
                break
            attacker.challenges_made.append(kind)
            yield from challenge(table, attacker, kind, targets, say)
    table.active = None


def challenge(table: Table, attacker: Player, kind: str, targets: list[Player], say: Say) -> Steps:
    if len(targets) == 1:
        defender = targets[0]
    else:
        defender = yield from ask(
            pick(
                f"{attacker.name}'s {kind} challenge: against whom?",
                "challenge-steps",
                player_options(targets),
            )
        )
    defender = yield from crown_regent_redirect(table, attacker, defender, targets, say)
    result = yield from ask_result(attacker, defender, kind, table.melee)
    guard = defender
    """Whose characters defend: the defender's, or a supporter's in their place."""
    support_first = UNDEFENDED_ORDER.of(table.rulings) == "support-first"
    order = (SUPPORT_STEP, KINGSGUARD_STEP) if support_first else (KINGSGUARD_STEP, SUPPORT_STEP)
    for step in order:
        if result.defence is not None or not table.melee:
            break
        if step == KINGSGUARD_STEP:
            taken_over = yield from kingsguard_takeover(table, attacker, defender, kind, say)
            if taken_over is not None:
                defender = guard = taken_over
                result = yield from ask_result(attacker, defender, kind, table.melee)
        else:
            supporter = yield from support_offer(table, attacker, defender, say)
            if supporter is not None:
                guard = supporter
                result = yield from ask_result(attacker, defender, kind, table.melee, supporter)
    yield from settle(table, attacker, defender, guard, kind, result, say)


def ask_result(
    attacker: Player, defender: Player, kind: str, melee: bool, supporter: Player | None = None
) -> Asking[ChallengeResult]:
    titles = " (without title bonuses: the referee adds them)" if melee else ""
    whose = f" ({supporter.name}'s characters)" if supporter else ""
    result = yield from ask(
        Parsed(
            f"{kind.capitalize()} challenge, {attacker.name} against {defender.name}: attacking strength, "
            f"defending strength{whose} ('-' if nobody defends){titles}; add rN for Renown characters on the "
            "winning side, pN for power a card text adds",
            "challenge-steps",
            parser=parse.parse_challenge,
            hint=f"two strengths from 0 to {parse.MAX_STRENGTH} ('-' for no defenders), then optional rN and pN; "
            "e.g. '5 3', '4 -', '6 2 r1'",
            examples=CHALLENGE_EXAMPLES,
        )
    )
    return result


def settle(
    table: Table,
    attacker: Player,
    defender: Player,
    guard: Player,
    kind: str,
    result: ChallengeResult,
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
        yield from apply_claim(table, attacker, defender, kind, say)
        if outcome.unopposed:
            gain_power(table, attacker, UNOPPOSED_POWER, "unopposed", say)
        yield from opposition_power(table, attacker, defender, True, say)
    else:
        yield from opposition_power(table, guard, attacker, False, say)
    gain_power(table, winner, result.renown, "Renown", say, on_cards=True)
    gain_power(table, winner, result.extra_power, "card text", say)


def apply_claim(table: Table, attacker: Player, defender: Player, kind: str, say: Say) -> Steps:
    claim = attacker.plot.claim if attacker.plot else 0
    if claim == 0:
        say(f"{attacker.name}'s plot claims 0: no losses.")
        return
    if kind == "military":
        say(f"Claim {claim}: {defender.name} puts {claim} of their own character(s) in the dead pile.")
        # the killed characters may carry power, or be Prized or Stalwart: the table settles them
        # before the referee counts the power that follows the claim
        yield from table_step(
            f"{defender.name} kills {claim} character(s) for the claim. Enter what leaves play with them "
            f"(e.g. 'adjust {defender.name} cards -1' for power on them, 'adjust prized {defender.name} 2' "
            "for a Prized 2 card), then confirm.",
            "challenge-claim",
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
