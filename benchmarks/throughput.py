"""Engine throughput: complete random games per second through the real driver, no terminal.

Every game whose registry entry has a guided session is measured, so a game joins
as soon as it has one. Answers come from `random_answer`, as in the random-play tests; the
time includes drawing them.
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks.measure import summarise
from referee.engine.simulate import play_random_game
from referee.games.registry import GAMES, GameInfo

PLAYER_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
PREFERRED_PLAYERS = 4
TARGETS = {"council-of-blackthorn": 100.0}
"""Complete four-player games a second that the table needs."""


def player_count(info: GameInfo) -> int:
    return max(info.min_players, min(PREFERRED_PLAYERS, info.max_players))


def games_per_second(info: GameInfo, seconds: float, seed: int) -> tuple[float, float]:
    """Games and answers a second, playing whole games until `seconds` have passed."""
    assert info.guided is not None
    game = info.guided()
    players = PLAYER_NAMES[: player_count(info)]
    rng = random.Random(seed)
    games = answers = 0
    start = time.perf_counter()
    while True:
        driver = play_random_game(game, players, rng)
        games += 1
        answers += len(driver.entries)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, answers / elapsed


def run(quick: bool) -> dict[str, Any]:
    seconds, repeats = (0.3, 2) if quick else (2.0, 5)
    report: dict[str, Any] = {}
    for info in GAMES:
        if info.guided is None:
            continue
        rates = [games_per_second(info, seconds, seed) for seed in range(repeats)]
        games = summarise([rate for rate, _ in rates]).to_json()
        target = TARGETS.get(info.id)
        report[info.id] = {
            "players": player_count(info),
            "games_per_second": games,
            "answers_per_second": summarise([rate for _, rate in rates]).to_json(),
            "target_games_per_second": target,
            "ratio_to_target": games["median"] / target if target else None,
        }
    return report
