"""History commands over a full store against the same commands over ten sessions, in the same run.

    referee sessions                          the latest 20 of the list
    referee stats                             every table, and the progression chart of the latest game
    referee export --all --format bgstats     one BG Stats play per finished session
    referee export --all --format json        the whole of every session

The stores hold finished sessions of every guided game (random complete games through the real
driver, ten distinct ones repeated), each stored as a finished session is: its log folded into
its file, its summary in the index. `sessions`, `stats` and the BG Stats export read only the
index. The JSON export writes every log out: it reads each session's files to check that the
export kept from the last run is still theirs (referee/export_cache.py), and the first run of each
command, untimed, is that last run. Over 1,000 sessions each command is held to 1.5x of itself
over 10. Runs are interleaved (small store, full store, ...) so that a busy machine slows both.
"""

from __future__ import annotations

import os
import random
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchmarks.measure import check_child, run_child, summarise
from referee.engine.simulate import play_random_game
from referee.games.registry import load_game
from referee.store import SessionMeta, Store
from referee.summary import summarise as summarise_game

REFEREE = (sys.executable, "-m", "referee")
SMALL = 10
TARGET_RATIO = 1.5
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
GAMES: tuple[tuple[str, int], ...] = (
    ("council-of-blackthorn", 4), ("got-lcg-1e", 3), ("council-of-serpents", 2), ("blackwood", 3),
    ("cutthroat-kingdoms", 4), ("council-of-blackthorn", 3), ("got-lcg-1e", 2), ("council-of-serpents", 4),
    ("blackwood", 2), ("cutthroat-kingdoms", 3),
)
"""Ten distinct games (game, number of players), cycled to fill a store."""
FIRST_START = datetime(2025, 1, 1, 18, 0)


@dataclass(frozen=True)
class Played:
    game: str
    players: list[str]
    entries: list[dict[str, str]]
    winners: list[str]
    summary: dict[str, Any]


def play_games(seed: int = 7) -> list[Played]:
    played = []
    for index, (game_id, count) in enumerate(GAMES):
        game = load_game(game_id)
        rng = random.Random(seed + index)
        players = rng.sample(NAMES, count)
        driver = play_random_game(game, players, rng)
        assert driver.report is not None
        played.append(Played(game_id, players, [entry.to_json() for entry in driver.entries],
                             list(driver.report.winners), summarise_game(game, driver).to_json()))
    return played


def fill(store: Store, count: int, games: list[Played]) -> None:
    """`count` finished sessions, each folded into its file with its summary, then the index built."""
    store.ensure()
    for number in range(count):
        played = games[number % len(games)]
        started = (FIRST_START + timedelta(hours=3 * number)).strftime("%Y-%m-%d %H:%M:%S")
        meta = SessionMeta(
            f"bench-{number:05d}", played.game, list(played.players), {}, started, "finished",
            list(played.winners), len(played.entries), played_seconds=3600.0 + number, summary=dict(played.summary),
            questions=load_game(played.game).questions_version,
        )
        file = store.session_file(meta.id)
        file.meta = meta
        file.entries = [dict(entry) for entry in played.entries]
        file.fold()
    store.rebuild_index()  # the index written from the session files in one write


COMMANDS: dict[str, tuple[tuple[str, ...], bool]] = {
    "referee sessions": (("sessions",), True),
    "referee stats": (("stats",), True),
    "referee export --all --format bgstats": (("export", "--all", "--format", "bgstats"), True),
    "referee export --all --format json": (("export", "--all", "--format", "json"), True),
}
"""Label -> (arguments, held to the target)."""


def run(scratch: Path, large: int, repeats: int) -> dict[str, Any]:
    games = play_games()
    stores = {SMALL: Store(scratch / "history-small"), large: Store(scratch / "history-large")}
    for count, store in stores.items():
        fill(store, count, games)
    env = dict(os.environ, COLUMNS="100")
    env.pop("REFEREE_HOME", None)
    times: dict[tuple[str, int], list[float]] = {}
    first_runs: dict[tuple[str, int], float] = {}
    for label, (arguments, _) in COMMANDS.items():
        for count, store in stores.items():
            start = time.perf_counter()
            check_child((*REFEREE, *arguments, "--db", str(store.root)), env)  # works, and warms the caches
            first_runs[(label, count)] = time.perf_counter() - start
            times[(label, count)] = []
    for _ in range(repeats):
        for label, (arguments, _) in COMMANDS.items():
            for count, store in stores.items():
                child = run_child((*REFEREE, *arguments, "--db", str(store.root)), env)
                if child.status != 0:
                    raise RuntimeError(f"{label} over {count} sessions exited {child.status}")
                times[(label, count)].append(child.seconds)
    report: dict[str, Any] = {"sessions_small": SMALL, "sessions_large": large, "target_ratio": TARGET_RATIO,
                              "commands": {}}
    for label, (_, held) in COMMANDS.items():
        small = summarise(times[(label, SMALL)]).to_json()
        full = summarise(times[(label, large)]).to_json()
        report["commands"][label] = {"small": small, "large": full, "ratio": full["median"] / small["median"],
                                     "held_to_target": held, "first_run": first_runs[(label, large)]}
    return report
