"""The random-answer simulation of every guided game, through the real driver.

For each registered game: whole games with random valid answers, every player count and every
overridable ruling choice in turn. After every entry the invariants hold; every game ends with a
report that adds up and says how the game ended; replaying the log gives the identical state and
report; taking the last answer back and giving it again gives the identical state. What one game
promises beyond that (its endings, what never goes backwards, the corrections a table types) is
checked on the same games by that game's module in tests/simulation_checks/.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from simulation_checks import checks_for

from referee.engine.driver import Driver, replay
from referee.engine.facts import ruling_choices
from referee.engine.game import Game
from referee.engine.simulate import play_random_game
from referee.games.registry import GAMES, GameInfo, load_game

GUIDED = [info for info in GAMES if info.guided]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
GAMES_EACH = 500
CHECKED_EVERY = 10
"""Replay and undo are checked on every tenth game (each costs a full replay)."""


def options_for(game: Game[Any], seed: int) -> dict[str, Any]:
    """Seed 0 plays the defaults; later seeds take each ruling's other choices in turn."""
    overrides = {}
    for index, (name, choices) in enumerate(sorted(ruling_choices(game.rulebook).items())):
        overrides[name] = choices[(seed + index) % len(choices)] if seed else choices[0]
    return {"rulings": overrides} if seed else {}


def state_of(driver: Driver) -> Any:
    return driver.game.to_json(driver.state)


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
def test_random_games_keep_their_invariants_end_and_replay(info: GameInfo) -> None:
    game = load_game(info.id)
    counts = list(range(info.min_players, info.max_players + 1))
    own = checks_for(info)
    for seed in range(GAMES_EACH):
        rng = random.Random(seed)
        players = NAMES[: counts[seed % len(counts)]]
        options = options_for(game, seed)
        own.begin(players, options, random.Random(-seed))

        def check(driver: Driver, seed: int = seed, options: dict[str, Any] = options) -> None:
            problems = game.invariant_errors(driver.state)
            assert problems == [], f"seed {seed}, entry {len(driver.entries)}: {problems}"
            try:
                own.after_step(driver)
            except AssertionError as failure:
                raise AssertionError(f"seed {seed}, entry {len(driver.entries)}, {options}: {failure}") from failure

        driver = play_random_game(game, players, rng, options, after_each=check)
        report = driver.report
        assert driver.finished and report is not None, f"seed {seed} did not end"
        assert report.termination is not None, f"seed {seed}: the report does not say how the game ended"
        names = {player.name for player in report.players}
        assert set(report.winners) <= names, f"seed {seed}: winners {report.winners} not among {names}"
        for player in report.players:
            if player.total is not None and player.breakdown:
                assert sum(player.breakdown.values()) == player.total, f"seed {seed}: {player.name} {player}"
        try:
            own.at_end(driver)
        except AssertionError as failure:
            raise AssertionError(f"seed {seed}, {len(players)} players, {options}: {failure}") from failure
        if seed % CHECKED_EVERY:
            continue
        rebuilt = replay(game, driver.players, driver.options, driver.entries)
        assert rebuilt.applied == len(driver.entries), f"seed {seed}: {rebuilt.error}"
        assert state_of(rebuilt.driver) == state_of(driver), f"seed {seed} replays differently"
        assert rebuilt.driver.report is not None and rebuilt.driver.report.to_json() == report.to_json()
        answered = [index for index, entry in enumerate(driver.entries) if entry.answer is not None]
        cut = rng.choice(answered)
        before = replay(game, driver.players, driver.options, driver.entries[:cut]).driver
        again = replay(game, driver.players, driver.options, driver.entries[: cut + 1]).driver
        before.apply(driver.entries[cut])  # undo, then the same answer
        assert state_of(before) == state_of(again), f"seed {seed}: undo then the same answer differs at {cut}"
    own.after_all()
