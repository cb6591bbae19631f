"""Timing and memory helpers shared by the benchmarks: summaries, percentiles, child processes."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    """A figure over repeated runs."""

    median: float
    minimum: float
    maximum: float
    runs: int

    def to_json(self) -> dict[str, float | int]:
        return {"median": self.median, "min": self.minimum, "max": self.maximum, "runs": self.runs}


def summarise(values: Sequence[float]) -> Summary:
    if not values:
        raise ValueError("nothing was measured")
    return Summary(statistics.median(values), min(values), max(values), len(values))


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (share 0.95 for p95): a value that was actually measured."""
    if not values:
        raise ValueError("nothing was measured")
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class ChildRun:
    """One finished child process: wall time (s), peak resident memory (bytes), exit status."""

    seconds: float
    peak_rss: int
    status: int


def run_child(command: Sequence[str], env: Mapping[str, str], stdin_path: str | None = None) -> ChildRun:
    """Run a command with its output discarded; wait4 gives the child's own peak RSS."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        process = subprocess.Popen(
            list(command), stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(env)
        )
        _, wait_status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(wait_status)  # already reaped: keep Popen quiet
    finally:
        if stdin_path and not isinstance(stdin, int):
            stdin.close()
    return ChildRun(seconds, usage.ru_maxrss * 1024, process.returncode)  # Linux reports kilobytes


def check_child(command: Sequence[str], env: Mapping[str, str]) -> None:
    """Run once with output captured; raise with the child's own words if it fails."""
    done = subprocess.run(list(command), capture_output=True, text=True, env=dict(env), check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
