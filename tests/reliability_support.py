"""Scripts of whole Council of Blackthorn sessions for the reliability tests, with the log and the
state expected after every step, worked out by a reference run through the real driver."""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import referee
from referee.engine.driver import Driver, Entry, replay
from referee.engine.simulate import random_answer
from referee.errors import InvalidAdjustment
from referee.games.blackthorn.game import GAME

PLAYER_SETS = (["Ann", "Bo"], ["Ann", "Bo", "Cy"], ["Ann", "Bo", "Cy", "Di"])
ADJUSTMENTS = ("{name} influence +1", "{name} noble +1", "{name} hand +1", "{name} influence -1")


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a child process: it imports the same `referee` package as the tests."""
    source = str(Path(referee.__file__).resolve().parents[1])
    paths = [source, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **extra}


@dataclass
class SessionScript:
    """Steps ('answer', text) / ('adjust', text, reason) / ('undo', n) and what each leaves behind."""

    players: list[str]
    steps: list[list[Any]] = field(default_factory=list)
    logs: list[list[dict[str, str]]] = field(default_factory=list)
    """logs[k]: the session log after the first k steps."""
    states: list[dict[str, Any]] = field(default_factory=list)
    """states[k]: GAME.to_json of the state after the first k steps."""

    def write(self, path: Path) -> Path:
        document = {"game": GAME.id, "players": self.players, "options": {}, "steps": self.steps}
        path.write_text(json.dumps(document), encoding="utf-8")
        return path


def make_script(rng: random.Random, undo_chance: float = 0.04, adjust_chance: float = 0.03) -> SessionScript:
    """A whole game of random valid answers with a few undos and corrections mixed in."""
    players = list(rng.choice(PLAYER_SETS))
    script = SessionScript(players)
    driver = Driver(GAME, players, {})

    def note() -> None:
        script.logs.append([entry.to_json() for entry in driver.entries])
        script.states.append(GAME.to_json(driver.state))

    note()
    while driver.pending is not None:
        roll = rng.random()
        if roll < undo_chance and driver.entries:
            steps = rng.randint(1, min(3, len(driver.entries)))
            driver = replay(GAME, players, {}, driver.entries[:-steps]).driver
            script.steps.append(["undo", steps])
        elif roll < undo_chance + adjust_chance:
            text = rng.choice(ADJUSTMENTS).format(name=rng.choice(players))
            try:
                driver.adjust(text, "a card's effect")
            except InvalidAdjustment:
                continue
            script.steps.append(["adjust", text, "a card's effect"])
        else:
            text = answer_that_fits(driver, rng)
            script.steps.append(["answer", text])
        driver.take_messages()
        note()
    return script


def answer_that_fits(driver: Driver, rng: random.Random) -> str:
    """A random valid answer for the pending question, applied to `driver`."""
    ask = driver.pending
    assert ask is not None
    for _ in range(50):
        text = random_answer(ask, rng)
        try:
            driver.answer(text)
        except ValueError:
            continue
        return text
    raise AssertionError(f"no random answer fits {ask.prompt!r}")


def clean_state(players: list[str], log: list[dict[str, str]]) -> dict[str, Any]:
    """The state a fresh replay of `log` reaches."""
    result = replay(GAME, players, {}, [Entry.from_json(entry) for entry in log])
    assert result.error is None, result.error
    return GAME.to_json(result.driver.state)
