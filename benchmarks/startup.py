"""Start-up: each referee command from the shell, against the floor app measured in the same run.

Every command runs as the player runs it: a fresh interpreter (`python -m referee ...`, which is
what the `referee` script does), output piped away. Runs are interleaved (floor, command, floor,
...) so that a busy machine slows both sides alike; the first run of each is untimed (it warms the
file cache and builds the rules index cache in the temporary data directory), except in quick
mode, whose one run of each only shows that the commands still work.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.measure import check_child, run_child, summarise

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FLOOR_APP = str(HERE / "floor_app.py")
SCORE_GAME = "blackwood"
SCORE_INPUT = REPO / "scenarios" / "score" / "blackwood.json"
RULES_QUERY = ("blackthorn", "influence", "dice")
PLAYER_QUERY = ("who", "goes", "first")
"""A player's question across every game, read through the vocabularies."""
TARGET_RATIO = 1.3

PYTHON = sys.executable
FLOOR_COMMAND = (PYTHON, FLOOR_APP, "Ann")
FLOOR_HELP = (PYTHON, FLOOR_APP, "--help")
REFERENCES: dict[str, tuple[str, ...]] = {
    "python -c pass": (PYTHON, "-c", "pass"),
    "python -c 'import typer, rich'": (PYTHON, "-c", "import typer, rich"),
}


@dataclass(frozen=True)
class Pair:
    """A referee command and the floor it is held against."""

    label: str
    command: tuple[str, ...]
    floor_label: str
    floor: tuple[str, ...]


def pairs() -> list[Pair]:
    referee = (PYTHON, "-m", "referee")
    return [
        Pair("referee --help", (*referee, "--help"), "floor --help", FLOOR_HELP),
        Pair("referee games", (*referee, "games"), "floor hello Ann", FLOOR_COMMAND),
        Pair(f"referee rules {' '.join(RULES_QUERY)}", (*referee, "rules", *RULES_QUERY),
             "floor hello Ann", FLOOR_COMMAND),
        Pair(f"referee rules {' '.join(PLAYER_QUERY)}", (*referee, "rules", *PLAYER_QUERY),
             "floor hello Ann", FLOOR_COMMAND),
        Pair(f"referee score {SCORE_GAME} --input F --json",
             (*referee, "score", SCORE_GAME, "--input", str(SCORE_INPUT), "--json"),
             "floor hello Ann", FLOOR_COMMAND),
    ]


def run(quick: bool, home: Path) -> dict[str, Any]:
    """Median/min/max seconds of every command and floor, and each command's ratio to its floor."""
    repeats = 1 if quick else 21
    env = dict(os.environ, REFEREE_HOME=str(home), COLUMNS="100", PAGER="cat")
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    commands: dict[str, Sequence[str]] = dict(REFERENCES)
    for pair in pairs():
        commands[pair.floor_label] = pair.floor
        commands[pair.label] = pair.command
    if not quick:
        for command in commands.values():
            check_child(command, env)  # untimed warm-up (file cache, the rules index cache)
    times: dict[str, list[float]] = {label: [] for label in commands}
    for _ in range(repeats):
        for label, command in commands.items():
            child = run_child(command, env)
            if child.status != 0:
                check_child(command, env)  # raises with the command's own error message
            times[label].append(child.seconds)
    results: dict[str, Any] = {label: summarise(values).to_json() for label, values in times.items()}
    ratios = {}
    for pair in pairs():
        ratios[pair.label] = {
            "floor": pair.floor_label,
            "ratio": results[pair.label]["median"] / results[pair.floor_label]["median"],
        }
    return {"seconds": results, "ratios": ratios, "target_ratio": TARGET_RATIO, "repeats": repeats}
