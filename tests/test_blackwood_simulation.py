"""Blackwood random-answer games: what tests/test_simulation.py does not check for every game.

Each random game ends where the rulebook ends it, its score follows from the table as it stands
(reputation, 1 point per 3 coins, -5 per Fagus Beech token), every example a question offers is an
answer it accepts, and the random tables really use what the session offers (spells, sales, loans,
brewing)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.asks import Parsed
from referee.engine.driver import Driver
from referee.engine.simulate import play_random_game, random_answer
from referee.games.blackwood import rules
from referee.games.blackwood.game import GAME
from referee.games.blackwood.state import EXPEDITIONS, ROUNDS_PER_EXPEDITION, Table

GAMES = 300
WITCHES = (2, 2, 2, 3, 4)
NAMES = ["Ann", "Bo", "Cy", "Di"]
OVERRIDES: list[dict[str, str]] = [
    {},
    {"forest-deck": "none", "rival-spot": "extra", "coin-supply": "unlimited", "fagus-tokens": "unlimited"},
    {"potions-run-out": "sell-leftovers", "final-tie": "none", "cauldron-timing": "round-start",
     "second-puppet-twice": "once-a-turn"},
]


def test_random_games_end_where_the_rulebook_ends_them_and_score_the_table() -> None:
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        rulings = OVERRIDES[seed % len(OVERRIDES)]
        options: dict[str, Any] = {"rulings": rulings} if rulings else {}
        driver = play_random_game(GAME, NAMES[: WITCHES[seed % len(WITCHES)]], rng, options)
        table: Table = driver.state
        assert driver.report is not None and table.finished, f"seed {seed}"
        ending = rules.game_end(table)
        assert ending is not None and driver.report.termination == ending, f"seed {seed}"
        if ending.code == rules.EXPEDITIONS_OVER:
            assert (table.expedition, table.round) == (EXPEDITIONS, ROUNDS_PER_EXPEDITION)
        else:
            assert rules.potions_exhausted(table) or table.end_declared, f"seed {seed}: {ending}"
        for player in driver.report.players:
            witch = table.witch(player.name)
            assert player.total == witch.reputation + witch.coins // 3 - 5 * witch.fagus_tokens, f"seed {seed}"
        for witch in table.witches:
            seen["spells"] += len(witch.spells)
            seen["sold"] += witch.potions_sold
            seen["fagus"] += witch.fagus_tokens
            seen["brewed"] += witch.potions_brewed
    assert all(seen[key] > 0 for key in ("spells", "sold", "fagus", "brewed")), seen


def test_every_example_a_question_offers_is_accepted() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        driver = Driver(GAME, NAMES[: 2 + seed % 3], {})
        while driver.pending is not None:
            ask = driver.pending
            if isinstance(ask, Parsed):
                for example in ask.examples:
                    ask.parse(example)  # raises if an example does not fit this moment
            driver.answer(random_answer(ask, rng))
