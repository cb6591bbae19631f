"""Resolving a War, with the Intrigue cards at both Houses: I prepare (reveal, step I cards, then the
end check), II fight, III losses, IV the War ends."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import partial
from typing import Any

from referee.asks import Builder, Parsed, Question, TableStep, ask
from referee.engine.cards import card_field, card_question, remember
from referee.engine.game import Say, Steps
from referee.games.serpents import parse, rules
from referee.games.serpents.cards import INTRIGUE_CARD, intrigue_effect_question
from referee.games.serpents.flow.end import stop_if_over
from referee.games.serpents.rulings import INTRIGUE_EFFECTS
from referee.games.serpents.state import INTRIGUE_CARDS, HouseChanges, IntrigueEffect, Table, pair_key

STEP_NAMES = {1: "I", 2: "II", 3: "III"}
Revealed = Sequence[tuple[str, str]]
"""(House, Intrigue card name) for every card revealed at the two Houses."""


def reveal_question(table: Table, house: str) -> Builder[tuple[str, ...]]:
    """A builder: a correction may discard Intrigue cards while this is asked, and the count follows."""

    def build() -> Parsed[tuple[str, ...]]:
        count = table.intrigue[house]
        if not count:
            raise ValueError(f"no Intrigue card is left at House {house.capitalize()} to reveal")
        return Parsed(
            f"Step I: reveal the {count} Intrigue card(s) at House {house.capitalize()}. Which? (comma-separated)",
            "intrigue-cards",
            parser=partial(parse.parse_intrigue_names, count=count),
            hint=f"{count} of {', '.join(INTRIGUE_CARDS)}, separated by commas",
            examples=parse.intrigue_examples(count),
        )

    return build


def effect_question(name: str) -> Parsed[IntrigueEffect]:
    return intrigue_effect_question(f"{name}: its War effect as printed?")


def intrigue_effect(name: str) -> Generator[Question, Any, IntrigueEffect]:
    """A revealed Intrigue card's War effect, the first time this game sees the card: a card the
    catalogue knows is accepted with Enter, and what is read is remembered."""
    question = effect_question(name)
    card = yield from ask(lambda: card_question(INTRIGUE_CARD, "effect", question, name=name))
    effect = yield from card_field(card, "effect", question)
    yield from remember(card)
    return effect


def step_changes(table: Table, revealed: Revealed, pair: tuple[str, str], step: int) -> HouseChanges:
    first, second = pair
    opponent = {first: second, second: first}
    return rules.combine(
        *(
            rules.intrigue_changes(table.intrigue_effects[name], house, opponent[house])
            for house, name in revealed
            if INTRIGUE_CARDS[name] == step
        )
    )


def apply(table: Table, changes: HouseChanges, say: Say) -> None:
    for line in rules.apply_changes(table.houses, changes):
        say(line + ".")


def by_hand(table: Table, revealed: Revealed, step: int) -> Steps:
    """The table carries out the cards of this step whose text the referee was not given; the end is
    not checked while it does (the War checks after step I and once it is over)."""
    for house, name in revealed:
        if table.intrigue_effects[name].by_hand and INTRIGUE_CARDS[name] == step:
            yield from ask(
                TableStep(
                    f"Step {STEP_NAMES[step]}: carry out {name} at House {house.capitalize()} as printed, entering "
                    f"each change as a correction (e.g. 'adjust {house.capitalize()} strength +1 ; {name}'); "
                    "Enter when done",
                    "intrigue-cards",
                    end_check=False,
                )
            )


def resolve_war(table: Table, pair: tuple[str, str], prize: str, say: Say) -> Steps:
    table.phase = "war"
    first, second = pair
    say(f"War between House {first.capitalize()} and House {second.capitalize()} for {prize.capitalize()}.")
    revealed: list[tuple[str, str]] = []
    for house in pair:
        if table.intrigue[house]:
            names = yield from ask(reveal_question(table, house))
            revealed += [(house, name) for name in names]
    for _, name in revealed:
        if name not in table.intrigue_effects:
            table.intrigue_effects[name] = yield from intrigue_effect(name)
    for house, name in revealed:
        say(f"{name} at House {house.capitalize()}: {rules.describe_intrigue(table.intrigue_effects[name])}.")

    apply(table, step_changes(table, revealed, pair, 1), say)
    yield from by_hand(table, revealed, 1)
    stop_if_over(table, say, "step I of the War")

    apply(table, step_changes(table, revealed, pair, 2), say)
    yield from by_hand(table, revealed, 2)
    winner, loser, amount = rules.war_spoils(table.houses, first, second, prize)
    if winner:
        table.houses[loser][prize] -= amount
        table.houses[winner][prize] = rules.clamp(table.houses[winner][prize] + amount)
        say(
            f"Step II: House {winner.capitalize()} is stronger and takes {amount} {prize.capitalize()} from "
            f"House {loser.capitalize()} ({prize.capitalize()} {table.houses[winner][prize]} and "
            f"{table.houses[loser][prize]})."
        )
    else:
        say("Step II: equal Strength, so neither House wins the War.")

    after_losses = INTRIGUE_EFFECTS.of(table.rulings) == "after-losses"
    healing = step_changes(table, revealed, pair, 3)
    if not after_losses:
        if healing:
            say("Step III cards act before the halving (ruling intrigue-effects, overridden).")
            apply(table, healing, say)
        yield from by_hand(table, revealed, 3)
    keepers = {house for house, name in revealed if table.intrigue_effects[name].keeps_strength}
    halved = []
    for house in pair:
        if house in keepers:
            halved.append(f"House {house.capitalize()} keeps its Strength {table.houses[house]['strength']}")
            continue
        before = table.houses[house]["strength"]
        table.houses[house]["strength"] = rules.strength_after_losses(before)
        halved.append(f"House {house.capitalize()} Strength {before} -> {table.houses[house]['strength']}")
    say("Step III: " + "; ".join(halved) + ".")
    if after_losses:
        if healing:
            say("Step III cards act after the halving (ruling intrigue-effects).")
            apply(table, healing, say)
        yield from by_hand(table, revealed, 3)

    key = pair_key(pair)
    cards = table.conflicts[key] + table.intrigue[first] + table.intrigue[second]
    table.discard += cards
    table.conflicts[key] = table.intrigue[first] = table.intrigue[second] = 0
    say(f"Step IV: the War ends; discard its {cards} Conflict and Intrigue cards.")
