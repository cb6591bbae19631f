"""Blackwood random-answer simulation: 1,000 whole games with random valid answers through the
real driver. After every answer the invariants hold; every game ends with a score; replaying the
log rebuilds the identical state."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

from referee.asks import Parsed
from referee.engine.driver import Driver, replay
from referee.engine.simulate import play_random_game, random_answer
from referee.games.blackwood.game import GAME
from referee.games.blackwood.state import EXPEDITIONS, ROUNDS_PER_EXPEDITION, Table

GAMES = 1000
WITCHES = (2, 2, 2, 2, 2, 2, 3, 3, 4, 2)
"""Mostly two witches: the shortest games, so a thousand of them stay quick."""
NAMES = ["Ann", "Bo", "Cy", "Di"]
OVERRIDES: list[dict[str, str]] = [
    {},
    {"forest-deck": "none", "rival-spot": "extra", "coin-supply": "unlimited"},
    {"potions-run-out": "sell-leftovers", "final-tie": "none", "cauldron-timing": "round-start"},
]


def test_random_games_keep_the_invariants_end_and_replay_identically() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        witches = WITCHES[seed % len(WITCHES)]
        rulings = OVERRIDES[seed % len(OVERRIDES)]
        options: dict[str, Any] = {"rulings": rulings} if rulings else {}

        def check(driver: Driver, seed: int = seed) -> None:
            problems = GAME.invariant_errors(driver.state)
            assert problems == [], f"seed {seed}, answer {len(driver.entries)}: {problems}"

        driver = play_random_game(GAME, NAMES[:witches], rng, options, after_each=check)
        table: Table = driver.state
        assert driver.finished and driver.report is not None, f"seed {seed} did not end"
        assert table.finished
        assert len(driver.report.players) == witches
        for player in driver.report.players:
            witch = table.witch(player.name)
            assert player.total == witch.reputation + witch.coins // 3 - 5 * witch.fagus_tokens
        assert (table.expedition, table.round) == (EXPEDITIONS, ROUNDS_PER_EXPEDITION) or table.potion_deck == 0
        for witch in table.witches:
            seen["spells"] += len(witch.spells)
            seen["sold"] += witch.potions_sold
            seen["fagus"] += witch.fagus_tokens
        rebuilt = replay(GAME, driver.players, driver.options, driver.entries)
        assert rebuilt.applied == len(driver.entries), f"seed {seed}: {rebuilt.error}"
        assert GAME.to_json(rebuilt.driver.state) == GAME.to_json(table), f"seed {seed} replays differently"
        assert rebuilt.driver.report is not None
        assert rebuilt.driver.report.to_json() == driver.report.to_json()
    # the random tables really traded for spells, sold potions and borrowed
    assert seen["spells"] > 0 and seen["sold"] > 0 and seen["fagus"] > 0, seen


def test_every_question_names_a_rulebook_section_and_offers_only_valid_examples() -> None:
    markdown = (Path(__file__).resolve().parent.parent / "rulebooks" / "blackwood.md").read_text()
    sections = set(re.findall(r"\{#([a-z0-9-]+)\}", markdown))
    asked: set[str] = set()
    for seed in range(60):
        rng = random.Random(seed)
        driver = Driver(GAME, NAMES[: 2 + seed % 3], {})
        while driver.pending is not None:
            ask = driver.pending
            asked.add(ask.section)
            if isinstance(ask, Parsed):
                for example in ask.examples:
                    ask.parse(example)  # raises if an example does not fit this moment
            driver.answer(random_answer(ask, rng))
    assert asked <= sections, asked - sections
    assert {"setup", "forest-exploration", "return-to-village", "brew-potion"} <= asked
