"""The history commands of one long session against its resume, in the same run.

    referee resume ID --answers quit.txt      replays the log to its last question, then saves (the floor)
    referee sessions show ID                  the whole log as a table, the rulings, the charts, the edits
    referee edit ID --entry K --value V       an entry in the middle changed, the rest replayed, saved
    referee export ID --format md             the Markdown report, round by round

Each one reads the session and replays its log once, as resume does, so each is held to 2x of
resume. The session is the padded Council of Blackthorn game of long_session.py (10,000 entries in
the full suite). The edit changes a correction's reason in the middle of the log and back again, so
every run replays the same log. Runs are interleaved (resume, show, edit, export, resume, ...) so
that a busy machine slows each alike; each command runs once first, untimed, to check it works.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from benchmarks.long_session import build_long_log, place_session
from benchmarks.measure import check_child, run_child, summarise
from referee.store import Store

REFEREE = (sys.executable, "-m", "referee")
SESSION_ID = "long-history"
TARGET_RATIO = 2.0
FLOOR = "referee resume"


def run(scratch: Path, entries: int, repeats: int) -> dict[str, Any]:
    log = build_long_log(entries, tail=30)
    store = Store(scratch / "long-history")
    place_session(store, log, SESSION_ID, journal_lines=0)
    middle = next(number for number in range(len(log.entries) // 2, len(log.entries) + 1)
                  if log.entries[number - 1].adjust is not None)
    corrected = log.entries[middle - 1].adjust
    quit_file = scratch / "long-history-quit.txt"
    quit_file.write_text("quit\n", encoding="utf-8")
    env = dict(os.environ, COLUMNS="100")
    env.pop("REFEREE_HOME", None)
    db = ("--db", str(store.root))

    def commands(run_number: int) -> dict[str, tuple[str, ...]]:
        return {
            FLOOR: ("resume", SESSION_ID, "--answers", str(quit_file), *db),
            "referee sessions show": ("sessions", "show", SESSION_ID, *db),
            "referee edit (an entry in the middle)": (
                "edit", SESSION_ID, "--entry", str(middle), "--value", f"{corrected} ; benchmark edit {run_number % 2}",
                *db),
            "referee export --format md": ("export", SESSION_ID, "--format", "md", *db),
        }

    times: dict[str, list[float]] = {label: [] for label in commands(0)}
    for arguments in commands(1).values():
        check_child((*REFEREE, *arguments), env)
    for run_number in range(repeats):
        for label, arguments in commands(run_number).items():
            child = run_child((*REFEREE, *arguments), env)
            if child.status != 0:
                raise RuntimeError(f"{label} on a {entries}-entry session exited {child.status}")
            times[label].append(child.seconds)
    floor = summarise(times[FLOOR]).to_json()
    report: dict[str, Any] = {"entries": len(log.entries), "target_ratio": TARGET_RATIO, "floor": FLOOR,
                              "commands": {}}
    for label, seconds in times.items():
        figures = summarise(seconds).to_json()
        report["commands"][label] = {**figures, "ratio": figures["median"] / floor["median"]}
    return report
