"""The referee's benchmarks, each held against its floor measured in the same run.

    python benchmarks/run.py [--quick] [--output PATH]

Prints one table and writes benchmarks/results.json (or PATH). Every figure is taken over
repeated runs (median, min, max); times carry a ratio to their floor. Everything is written to
a temporary data directory, never to the player's own.

    start-up     referee --help / games / rules / score against a ten-line Typer app (floor_app.py)
    latency      answer to next question in a 5,000-entry session, 1,000 other sessions vs none
    resume       replaying that session to its last question
    throughput   random complete games a second per guided game, through the real driver
    memory       peak RSS of `referee resume` on that session and of `referee sessions` over 1,000
    rules        the rules lookup benchmark (bench_rules.py)
    history      `sessions`, `stats` and `export --all` over 1,000 finished sessions against 10 (history.py)
    long session `sessions show`, `edit` and `export -f md` of a 10,000-entry session against its resume
                 (long_history.py)
    terminal     a whole game typed into `referee play` in a pseudo-terminal: Enter to the next question
                 drawn (p50, p95), and start to the first question, against a bare questionary loop
                 (terminal.py, floor_prompt.py)

--quick shrinks every size and repeat count so that the whole suite runs in seconds: its figures
only show that each benchmark still works.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import (  # noqa: E402
    bench_rules,
    history,
    latency,
    long_history,
    long_session,
    memory,
    startup,
    terminal,
    throughput,
)
from benchmarks.report import Row, render_table, rows_for  # noqa: E402
from referee.store import Store  # noqa: E402

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "results.json"


@dataclass(frozen=True)
class Sizes:
    """How big and how often: the full suite, or the quick one that keeps it from rotting."""

    session_entries: int
    tail_answers: int
    other_sessions: int
    latency_runs: int
    resume_runs: int
    memory_runs: int
    history_sessions: int
    history_runs: int
    long_history_entries: int
    long_history_runs: int


FULL = Sizes(session_entries=5000, tail_answers=150, other_sessions=1000, latency_runs=5, resume_runs=15,
             memory_runs=3, history_sessions=1000, history_runs=9, long_history_entries=10_000, long_history_runs=5)
QUICK = Sizes(session_entries=600, tail_answers=30, other_sessions=10, latency_runs=1, resume_runs=2,
              memory_runs=1, history_sessions=15, history_runs=1, long_history_entries=300, long_history_runs=1)


def measure(quick: bool, scratch: Path) -> dict[str, Any]:
    sizes = QUICK if quick else FULL
    results: dict[str, Any] = {"sizes": sizes.__dict__}
    results["startup"] = timed("start-up", lambda: startup.run(quick, scratch / "startup-home"))
    log = timed(f"a {sizes.session_entries}-entry session",
                lambda: long_session.build_long_log(sizes.session_entries, sizes.tail_answers))
    full_store = Store(scratch / "full-store")
    timed(f"a store of {sizes.other_sessions} sessions",
          lambda: long_session.fill_store(full_store, sizes.other_sessions))
    stores = {f"{sizes.other_sessions} sessions stored": full_store, "empty store": Store(scratch / "empty-store")}
    results["terminal"] = timed(f"at a terminal, {sizes.other_sessions} sessions stored",
                                lambda: terminal.run(quick, full_store.root))
    results["latency"] = timed("answer latency", lambda: latency.run_latency(log, stores, sizes.latency_runs))
    results["resume"] = timed("resume", lambda: latency.run_resume(log, full_store, sizes.resume_runs))
    results["throughput"] = timed("engine throughput", lambda: throughput.run(quick))
    results["memory"] = timed("memory", lambda: memory.run(
        log, Store(scratch / "memory-store"), full_store, scratch, sizes.memory_runs))
    results["rules_lookup"] = timed("rules lookup (bench_rules.py)", lambda: bench_rules.run(quick))
    results["history"] = timed(f"history over {sizes.history_sessions} sessions",
                               lambda: history.run(scratch, sizes.history_sessions, sizes.history_runs))
    results["long_history"] = timed(f"history of a {sizes.long_history_entries}-entry session",
                                    lambda: long_history.run(scratch, sizes.long_history_entries,
                                                             sizes.long_history_runs))
    return results


T = TypeVar("T")


def timed(step: str, work: Callable[[], T]) -> T:
    """Run one step, telling stderr what it was and how long it took."""
    print(f"{step} ...", end="", file=sys.stderr, flush=True)
    start = time.perf_counter()
    result = work()
    print(f" {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return result


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description="Benchmarks of the referee against their floors.")
    parser.add_argument("--quick", action="store_true", help="small sizes and few repeats (seconds)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="where to write the JSON results")
    options = parser.parse_args(argv)

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="referee-bench-") as scratch:
        results = measure(options.quick, Path(scratch))
    rows: list[Row] = rows_for(results)
    print(render_table(rows))
    missed = [row.label for row in rows if row.met is False]
    document = {
        "quick": options.quick,
        "seconds_taken": time.perf_counter() - started,
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "results": results,
        "table": [row.to_json() for row in rows],
        "targets_missed": missed,
    }
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    note = " (quick mode: sizes are small, figures only show that each benchmark works)" if options.quick else ""
    print(f"{len(missed)} target(s) missed{': ' + ', '.join(missed) if missed else ''}; "
          f"results in {options.output}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
