"""Random-answer simulation of got-lcg-1e: many complete games through the real driver.

Every game must end with a winner at 15 power, keep its invariants after every answer, and replay
from its log to the identical state.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from referee.engine.driver import Driver, replay
from referee.engine.simulate import play_random_game
from referee.errors import InvalidAdjustment
from referee.games.got.game import GAME, RULING_CHOICES
from referee.games.got.scoring import POWER_TO_WIN
from referee.games.got.state import Table

GAMES = 1000
NAMES = ("Ann", "Bo", "Cy", "Di")


CORRECTION_RATE = 0.03
CORRECTIONS = (
    "house +2", "house -1", "cards +3", "gold +1", "hand -2", "income +1", "initiative +1", "claim =2", "infamy 1"
)


def random_correction(players: list[str], rng: random.Random) -> str:
    """A correction the table might enter: most fit, some are refused (too few tokens, no plot yet)."""
    if rng.random() < 0.15:
        return f"prized {rng.choice(players)} {rng.randint(1, 4)}"
    return f"{rng.choice(players)} {rng.choice(CORRECTIONS)}"


def random_options(rng: random.Random) -> dict[str, Any]:
    """Now and then override each ruling, so the other readings are played too."""
    rulings = {ruling: rng.choice(choices) for ruling, choices in RULING_CHOICES.items() if rng.random() < 0.3}
    return {"rulings": rulings} if rulings else {}


def test_random_games_end_sound_and_replay_identically() -> None:
    rng = random.Random(20240601)
    broken: list[str] = []
    shared = 0

    def check(driver: Driver) -> None:
        if driver.pending is not None and rng.random() < CORRECTION_RATE:
            try:
                driver.adjust(random_correction(driver.players, rng), "card text")
            except InvalidAdjustment:
                pass  # refused corrections must leave the state as it was; the invariants below check it
        problems = GAME.invariant_errors(driver.state)
        if problems:
            broken.append(f"after answer {len(driver.entries)}: {problems}")

    for number in range(GAMES):
        players = list(NAMES[: 2 + number % 3])
        options = random_options(rng)
        driver = play_random_game(GAME, players, rng, options, after_each=check, max_answers=5000)
        assert broken == [], f"game {number}: {broken[:3]}"
        report = driver.report
        assert report is not None and report.ended, f"game {number} did not end"
        table: Table = driver.state
        assert table.finished and table.won
        shared += len(report.winners) > 1
        at_fifteen = [player.name for player in table.players if player.power >= POWER_TO_WIN]
        assert report.winners and set(report.winners) <= set(at_fifteen)
        for player in table.players:
            assert report.player(player.name).total == player.power
        for score in report.players:
            assert (score.rank == 1) == (score.name in report.winners)
        again = replay(GAME, players, options, driver.entries)  # the log alone rebuilds the state
        assert again.applied == len(driver.entries)
        assert again.driver.finished
        assert GAME.to_json(again.driver.state) == GAME.to_json(driver.state)
    assert shared > 0  # Prized corrections brought several players to 15 at once in some games


def test_every_question_names_a_section_of_the_rulebook() -> None:
    rulebook = Path(__file__).resolve().parent.parent / "rulebooks" / "got-lcg-1e.md"
    section_ids = set(re.findall(r"\{#([a-z0-9-]+)\}", rulebook.read_text(encoding="utf-8")))
    rng = random.Random(7)
    asked: set[str] = set()

    def note(driver: Driver) -> None:
        if driver.pending is not None:
            asked.add(driver.pending.section)

    for number in range(150):
        players = list(NAMES[: 2 + number % 3])
        play_random_game(GAME, players, rng, random_options(rng), after_each=note)
    assert asked - section_ids == set()
    assert {"phase-plot", "challenge-steps", "phase-dominance", "melee-titles", "title-support"} <= asked
