"""Answers per turn, for every guided game.

    python benchmarks/answers_per_turn.py --realistic [--json] [--set tuning|held-out]
    python benchmarks/answers_per_turn.py [--games N] [--players N]

With --realistic: the games a table plays, scripted from each rulebook (benchmarks/realistic.py
says how): each script is played through the referee, checked against its outcome, and its
figures (answers a turn, a round, a card...) are averaged; --json prints one JSON object, game id
-> figure -> mean answers typed. --set limits it to the tuning or the held-out scripts.

Without it: random games, counting entries between changes of the header's (round, turn, active
player). Random answers overstate what a table types (they keep optional steps going), so this
compares versions of the referee, not a game against a table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.engine.driver import Driver  # noqa: E402
from referee.engine.simulate import random_answer  # noqa: E402
from referee.errors import InvalidAnswer  # noqa: E402
from referee.games.registry import GAMES, load_game  # noqa: E402

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def answers_per_turn(game_id: str, games: int, players: int) -> tuple[float, int]:
    info = next(info for info in GAMES if info.id == game_id)
    game = load_game(game_id)
    seated = NAMES[: max(info.min_players, min(players, info.max_players))]
    turns: Counter[tuple[int, object]] = Counter()
    for seed in range(games):
        rng = random.Random(seed)
        driver = Driver(game, seated, {})
        while driver.pending is not None and len(driver.entries) < 5000:
            header = game.header(driver.state)
            for _ in range(50):
                try:
                    driver.answer(random_answer(driver.pending, rng))
                    break
                except InvalidAnswer:
                    continue
            if header.active:
                turns[(seed, (header.round, header.turn, header.active))] += 1
    counts = list(turns.values())
    return sum(counts) / len(counts), len(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--realistic", action="store_true", help="the scripted games of benchmarks/realistic/")
    parser.add_argument("--set", choices=("tuning", "held-out"), help="with --realistic: only this set")
    parser.add_argument("--json", action="store_true", help="with --realistic: one JSON object")
    arguments = parser.parse_args()
    if arguments.realistic:
        from benchmarks.realistic import figures

        found = figures(arguments.set)
        if arguments.json:
            print(json.dumps(found, indent=1))
        else:
            for game, by_figure in found.items():
                for figure, mean in by_figure.items():
                    print(f"{game}: {figure} {mean:.2f} answers")
        return
    for info in GAMES:
        if info.guided:
            mean, turns = answers_per_turn(info.id, arguments.games, arguments.players)
            print(f"{info.id}: {mean:.2f} answers per turn over {turns} turns")


if __name__ == "__main__":
    main()
