"""How many answers an ordinary Council of Blackthorn turn takes at the table.

An ordinary turn is a faction card played on a die showing 1 or 2. The referee asks which card was
played and the trigger printed on it; only a card whose text applies adds "ally or building?"; an
ally then adds the table step where the table carries out its text (Enter), a building its printed
value. Everything else in the turn (construction, control points,
drawing back to five) the referee works out itself. The dice are one more answer per round, shared
by every player's turn.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from referee.engine.driver import Driver
from referee.engine.simulate import random_answer
from referee.games.blackthorn.game import GAME


def start_round(players: Sequence[str], dice: str) -> Driver:
    driver = Driver(GAME, players, {})
    rolls = [str(12 - seat) for seat in range(len(players))]  # the first seat rolls highest
    characters = ["1"] * min(len(players), 5)  # the first one left; with six players the last is dealt
    for answer in [*rolls, *characters, dice]:
        driver.answer(answer)
    return driver


def answers_in_turn(driver: Driver, answers: Sequence[str]) -> int:
    """Play one turn with `answers`; checks the turn ends exactly after the last one."""
    player = GAME.header(driver.state).active
    assert driver.pending is not None and driver.pending.prompt == f"{player} plays which card?"
    for answer in answers:
        assert GAME.header(driver.state).active == player, f"{player}'s turn ended before {answer!r}"
        driver.answer(answer)
    assert GAME.header(driver.state).active != player, f"{player}'s turn asked for more than {answers}"
    return len(answers)


@pytest.mark.parametrize(
    ("card", "trigger", "rest", "expected"),
    [
        ("noble", "guild 5", [], 2),  # Noble shows 1; Ann has no Guild, so the text does not apply
        ("guild", "none", ["ally", "done"], 4),  # Guild shows 2; no trigger printed: the ally resolves
        ("noble", "noble 1", ["ally", "done"], 4),  # triggered by the level the card itself gave
        ("guild", "noble 0", ["building", "5"], 4),  # triggered building: its printed value is asked
    ],
)
def test_ordinary_turn_answers(card: str, trigger: str, rest: list[str], expected: int) -> None:
    driver = start_round(["Ann", "Bo", "Cy"], "1 2 1 2")
    assert answers_in_turn(driver, [card, trigger, *rest]) == expected


def test_dice_are_asked_once_a_round_for_every_player() -> None:
    driver = start_round(["Ann", "Bo", "Cy"], "1 2 1 2")
    turns = [["noble", "guild 5"], ["guild", "none", "ally", "done"], ["peasant", "guild 5"]]
    for answers in turns:
        answers_in_turn(driver, answers)
    assert driver.pending is not None and driver.pending.section == "round-dice"
    assert len(driver.entries) == 3 + 3 + 1 + sum(len(answers) for answers in turns)


def test_random_ordinary_turns_take_two_or_four_answers() -> None:
    """Across random games, every turn with a faction card on a 1 or 2 takes 2 answers (text not
    triggered) or 4 (an ally and its table step, or a building and its value)."""
    lengths: Counter[int] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        players = [f"P{seat}" for seat in range(rng.randint(2, 6))]
        driver = Driver(GAME, players, {})
        turn: list[str] | None = None
        while driver.pending is not None:
            ask = driver.pending
            if turn is not None and GAME.header(driver.state).active != turn[0]:
                lengths[len(turn) - 1] += 1
                turn = None
            for _ in range(50):
                try:
                    driver.answer(random_answer(ask, rng))
                    break
                except ValueError:
                    continue
            card = driver.entries[-1].answer or ""
            dice = driver.state.dice or {}
            if ask.prompt.endswith("plays which card?") and dice.get(card) in (1, 2):
                turn = [GAME.header(driver.state).active or "", card]
            elif turn is not None:
                turn.append(card)
    assert set(lengths) == {2, 4}
    total = sum(lengths.values())
    assert total > 500
    mean = sum(length * count for length, count in lengths.items()) / total
    shares = ", ".join(f"{length} answers {count / total:.0%}" for length, count in sorted(lengths.items()))
    print(f"\nordinary Council of Blackthorn turns: {total}; {shares}; mean {mean:.2f}")
