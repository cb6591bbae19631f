"""Random play through the real driver: valid random answers for any Ask[Any].

Used by the random-answer simulations in the tests and by the throughput benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.asks import Ask, Choice, Confirm, Dice, Number, Parsed, TableStep
from referee.engine.cards import CardQuestion
from referee.engine.driver import Driver
from referee.engine.game import Game
from referee.errors import InvalidAnswer


def random_answer(ask: Ask[Any], rng: random.Random) -> str:
    if isinstance(ask, CardQuestion) and not isinstance(ask, Choice):
        return random_answer(ask.inner, rng)  # an ordinary answer; naming cards is the catalogue tests' part
    if isinstance(ask, Choice):
        return rng.choice(ask.options)
    if isinstance(ask, Number):
        return str(rng.randint(ask.minimum, min(ask.maximum, ask.minimum + 20)))
    if isinstance(ask, Confirm):
        return rng.choice(("yes", "no"))
    if isinstance(ask, Dice):
        return " ".join(str(rng.choice(ask.faces)) for _ in ask.names)
    if isinstance(ask, Parsed):
        return rng.choice(ask.examples) if ask.examples else (ask.default or "")
    if isinstance(ask, TableStep):
        return "done"
    raise TypeError(f"no random answer for {type(ask).__name__}")


def play_random_game(
    game: Game[Any],
    players: Sequence[str],
    rng: random.Random,
    options: Mapping[str, Any] | None = None,
    after_each: Callable[[Driver], None] | None = None,
    max_answers: int = 100_000,
) -> Driver:
    """Play one whole game with random valid answers; `after_each` runs after every answer."""
    driver = Driver(game, players, options or {})
    while driver.pending is not None:
        if len(driver.entries) >= max_answers:
            raise RuntimeError(f"game did not end within {max_answers} answers")
        ask = driver.pending
        for _ in range(50):  # a Parsed example may not fit this moment (e.g. a track value already held)
            try:
                driver.answer(random_answer(ask, rng))
                break
            except InvalidAnswer:  # only a refusal; any other error is a defect and propagates
                continue
        else:
            raise RuntimeError(f"no random answer fits {ask.prompt!r}")
        driver.take_messages()
        if after_each is not None:
            after_each(driver)
    return driver
