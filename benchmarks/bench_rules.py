"""How long a rules lookup takes from the shell, process start included, against a bare
`python -c "import typer, rich"` on the same machine. The target is a ratio of at most 1.5.

    python benchmarks/bench_rules.py [--quick]

Runs are interleaved (baseline, lookup, baseline, ...) so that a busy machine slows both alike.
The data directory is a temporary one: its index cache is built by one untimed run first (that
cold run is reported on its own), then every timed run reads the cache as a table's would.
Compiled bytecode is kept (in a temporary PYTHONPYCACHEPREFIX) as an installed package keeps it,
even where PYTHONDONTWRITEBYTECODE is set; the lookup with the project's modules compiled afresh
on every run is reported on its own line.

Two questions are timed: a misspelt one about one game, and a player's question across every
game ("who goes first", read through the vocabularies, one answer per game). A pager waits for a
key, so PAGER is `cat` here: the terminal runs time the lookup and its rendering, not the reader.
"""

from __future__ import annotations

import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

GAME = "got"
QUERY = ("what", "does", "stelth", "do")
TARGET_RATIO = 1.5
BASELINE = (sys.executable, "-c", "import typer, rich")
ENTRY_POINT = (sys.executable, "-m", "referee", "rules", GAME, *QUERY)
"""The command as a player types it (`referee rules ...`), through the package's main()."""
FAST_PATH_CODE = ("import sys; import referee.cli.app; from referee.cli.rules_cmd import fast_path; "
                  "sys.exit(fast_path(sys.argv[1:]))")
FAST_PATH = (sys.executable, "-c", FAST_PATH_CODE, "rules", GAME, *QUERY)
"""The lookup as main() runs it once it hands `rules` to rules_cmd.fast_path before calling the
Typer app: the app module is imported as main() would have it, but Typer's command tree is not
built (that is what imports pydantic)."""
EVERY_GAME_QUERY = ("who", "goes", "first")
EVERY_GAME = (sys.executable, "-c", FAST_PATH_CODE, "rules", *EVERY_GAME_QUERY)
"""A player's question with no game named: every game's index and vocabulary are read."""
TIMED = ("fast_path", "every_game")
"""The figures held to the target ratio."""


def _run_piped(command: Sequence[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                   check=False)
    return time.perf_counter() - start


def _run_on_terminal(command: Sequence[str], env: dict[str, str]) -> float:
    """Run with stdout on a pseudo-terminal, so the output is rendered as a player sees it."""
    main_fd, child_fd = os.openpty()
    start = time.perf_counter()
    # Standard input is no terminal, so the lookup asks no "which one answered it?" to wait on.
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=child_fd, stderr=child_fd, env=env)
    os.close(child_fd)
    try:
        while True:
            ready, _, _ = select.select([main_fd], [], [], 5.0)
            if not ready:
                break
            try:
                if not os.read(main_fd, 65536):
                    break
            except OSError:  # the terminal closes when the child exits
                break
        process.wait()
    finally:
        os.close(main_fd)
    return time.perf_counter() - start


def _summary(times: list[float]) -> dict[str, float]:
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def run(quick: bool) -> dict[str, Any]:
    """Time the lookup paths against the baseline; returns medians/min/max (seconds) and ratios."""
    repeats = 2 if quick else 25
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as bytecode:
        env = dict(os.environ, REFEREE_HOME=home, COLUMNS="100", PYTHONPYCACHEPREFIX=bytecode, PAGER="cat")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # Installed packages keep their own __pycache__; only the project's modules go uncompiled.
        uncompiled = dict(os.environ, REFEREE_HOME=home, COLUMNS="100", PYTHONDONTWRITEBYTECODE="1",
                          PAGER="cat")
        uncompiled.pop("PYTHONPYCACHEPREFIX", None)
        cold = _run_piped(FAST_PATH, env)
        for command in (BASELINE, ENTRY_POINT, EVERY_GAME):
            _run_piped(command, env)
        runs: dict[str, list[float]] = {"baseline": [], "entry_point": [], "fast_path": [],
                                        "fast_path_terminal": [], "fast_path_uncompiled": [],
                                        "every_game": [], "every_game_terminal": []}
        for _ in range(repeats):
            runs["baseline"].append(_run_piped(BASELINE, env))
            runs["entry_point"].append(_run_piped(ENTRY_POINT, env))
            runs["fast_path"].append(_run_piped(FAST_PATH, env))
            runs["fast_path_terminal"].append(_run_on_terminal(FAST_PATH, env))
            runs["fast_path_uncompiled"].append(_run_piped(FAST_PATH, uncompiled))
            runs["every_game"].append(_run_piped(EVERY_GAME, env))
            runs["every_game_terminal"].append(_run_on_terminal(EVERY_GAME, env))
    report: dict[str, Any] = {name: _summary(times) for name, times in runs.items()}
    base = report["baseline"]["median"]
    report["cold_first_run"] = cold
    report["repeats"] = repeats
    report["ratios"] = {name: report[name]["median"] / base for name in runs if name != "baseline"}
    report["target_ratio"] = TARGET_RATIO
    report["ok"] = all(report["ratios"][name] <= TARGET_RATIO for name in TIMED)
    return report


def main(argv: Sequence[str]) -> int:
    quick = "--quick" in argv
    report = run(quick)
    print(f"rules lookup benchmark ({report['repeats']} interleaved runs each; query: "
          f"referee rules {GAME} {' '.join(QUERY)})")
    labels = {
        "baseline": 'python -c "import typer, rich"',
        "entry_point": "python -m referee rules ... (piped)",
        "fast_path": "rules fast path (piped)",
        "fast_path_terminal": "rules fast path (on a terminal, styled)",
        "fast_path_uncompiled": "rules fast path (piped, project bytecode not saved)",
        "every_game": f"rules {' '.join(EVERY_GAME_QUERY)} (all games, piped)",
        "every_game_terminal": f"rules {' '.join(EVERY_GAME_QUERY)} (all games, terminal)",
    }
    for name, label in labels.items():
        times = report[name]
        ratio = "" if name == "baseline" else f"  ratio {report['ratios'][name]:.2f}"
        print(f"  {label:<52} median {times['median'] * 1000:6.1f} ms  min {times['min'] * 1000:6.1f}"
              f"  max {times['max'] * 1000:6.1f}{ratio}")
    print(f"  first run with no cache (builds the index): {report['cold_first_run'] * 1000:.1f} ms")
    verdict = "within" if report["ok"] else "OVER"
    print(f"lookups ({', '.join(TIMED)}) {verdict} the {TARGET_RATIO}x target")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main(sys.argv[1:]))
