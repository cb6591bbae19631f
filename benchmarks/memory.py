"""Peak memory (and wall time) of whole referee processes, against the floor app's.

    referee resume ID --answers F   a 5,000-entry session: replayed, then played to its end
    referee sessions                the list over a store of 1,000 sessions

Peak RSS is the child's own high-water mark, read from wait4 when it exits.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from benchmarks.long_session import LongLog, answers_file, journal_lines_before_fold, place_session
from benchmarks.measure import ChildRun, check_child, run_child, summarise
from benchmarks.startup import FLOOR_COMMAND
from referee.store import Store

REFEREE = (sys.executable, "-m", "referee")


def _summaries(runs: list[ChildRun]) -> dict[str, Any]:
    for child in runs:
        if child.status != 0:
            raise RuntimeError(f"a measured command exited {child.status}")
    return {
        "peak_rss_bytes": summarise([float(child.peak_rss) for child in runs]).to_json(),
        "seconds": summarise([child.seconds for child in runs]).to_json(),
    }


def run(log: LongLog, long_store: Store, full_store: Store, scratch: Path, repeats: int) -> dict[str, Any]:
    env = dict(os.environ, COLUMNS="100")
    env.pop("REFEREE_HOME", None)
    tail = answers_file(scratch, log.tail)
    journal_lines = journal_lines_before_fold(len(log.tail))
    sessions_command = (*REFEREE, "sessions", "--db", str(full_store.root))
    check_child(sessions_command, env)
    runs: dict[str, list[ChildRun]] = {"floor hello Ann": [], "resume": [], "sessions": []}
    for run in range(repeats):
        session_id = f"long-memory-{run:03d}"
        place_session(long_store, log, session_id, journal_lines)
        resume_command = (*REFEREE, "resume", session_id, "--answers", str(tail), "--db", str(long_store.root))
        runs["floor hello Ann"].append(run_child(FLOOR_COMMAND, env))
        runs["resume"].append(run_child(resume_command, env))
        runs["sessions"].append(run_child(sessions_command, env))
    report = {
        "floor hello Ann": _summaries(runs["floor hello Ann"]),
        f"referee resume: {len(log.entries)}-entry session, then {len(log.tail)} answers to its end":
            _summaries(runs["resume"]),
        f"referee sessions: {len(full_store.list())} sessions": _summaries(runs["sessions"]),
    }
    floor = report["floor hello Ann"]["peak_rss_bytes"]["median"]
    report["ratios_to_floor_rss"] = {
        name: figures["peak_rss_bytes"]["median"] / floor
        for name, figures in report.items()
        if name != "floor hello Ann"
    }
    return report
