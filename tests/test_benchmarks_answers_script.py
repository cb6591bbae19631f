"""The answers-per-turn benchmark runs as the README says (`python benchmarks/answers_per_turn.py`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_the_realistic_figures_print_as_one_json_object_of_every_game() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "answers_per_turn.py"),
            "--realistic",
            "--json",
            "--set",
            "held-out",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    every_game = {"blackwood", "council-of-blackthorn", "council-of-serpents", "cutthroat-kingdoms", "got-lcg-1e"}
    assert set(figures) == every_game
    assert all(count > 0 for game in figures.values() for count in game.values())
