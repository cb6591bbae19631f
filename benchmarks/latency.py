"""Answer latency and resume of a long session, in a full store and in an empty one.

Answer latency is what the table waits for: from the moment an answer is handed to the session
loop to the moment the loop asks the next question. It covers checking the answer, the game's
step, the durable write (journal append + fsync, and the periodic fold), and rendering the
header, messages and table to a terminal-like console. The answer that ends the game is timed
on its own (it also writes the index and draws the final scoreboard).

The floor is one journal-sized line appended and fsynced in the same directory: the durable
write no referee can skip. Resume is held against reading the session's files alone.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from benchmarks.long_session import LongLog, journal_lines_before_fold, place_session
from benchmarks.measure import percentile, summarise
from referee.cli.answerers import AnswersEnded, ScriptRejected, Validator
from referee.cli.loop import SessionLoop
from referee.cli.render import make_console
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store

LATENCY_P95_TARGET = 0.010
FULL_TO_EMPTY_TARGET = 1.5
RESUME_TARGET = 0.150


class TimingAnswerer:
    """Gives fixed answers and notes how long the loop took between an answer and the next ask."""

    interactive = False

    def __init__(self, answers: Sequence[str]) -> None:
        self.answers = list(answers)
        self.position = 0
        self.waits: list[float] = []
        self.answered_at: float | None = None

    def ask(self, prompt: str, validate: Validator, default: str | None = None, single_keys: str = "",
            complete: Any = None, masked: Any = None) -> str:
        now = time.perf_counter()
        if self.answered_at is not None:
            self.waits.append(now - self.answered_at)
        if self.position >= len(self.answers):
            raise AnswersEnded(f"the benchmark's answers ended before the game did, at {prompt!r}")
        text = self.answers[self.position]
        self.position += 1
        self.answered_at = time.perf_counter()
        return text

    def show_private(self, title: str, lines: Sequence[str]) -> None:
        pass

    def rejected(self, message: str) -> None:
        raise ScriptRejected(f"answer {self.position} was refused: {message}")


def terminal_console() -> Console:
    """The session's console (as `referee play` makes it), drawing a 100-column colour terminal into memory."""
    return make_console(file=io.StringIO(), width=100, force_terminal=True, color_system="truecolor")


def play_tail(store: Store, session_id: str, log: LongLog) -> tuple[list[float], float]:
    """Resume the session and give the rest of its game; the waits, and the final answer's time."""
    live = LiveSession.resume(store, session_id, load_game)
    answerer = TimingAnswerer(log.tail)
    try:
        live.driver.take_messages()  # as `referee resume` does: the replay's messages are not shown again
        loop = SessionLoop(live, answerer, terminal_console())
        loop.show_state()
        loop.run()
        finished_at = time.perf_counter()
    finally:
        live.release()
    if answerer.answered_at is None or not live.driver.finished:
        raise RuntimeError("the session did not finish on its last answer")
    if tuple(live.driver.report.winners if live.driver.report else ()) != log.winners:
        raise RuntimeError("the long session ended with other winners than its game")
    return answerer.waits, finished_at - answerer.answered_at


def fsync_floor(directory: Path, count: int, line: bytes) -> list[float]:
    """Times of `count` appends of one line, each flushed and fsynced, as the journal does."""
    path = directory / ".fsync-floor"
    waits: list[float] = []
    with open(path, "ab") as handle:
        for _ in range(count):
            start = time.perf_counter()
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
            waits.append(time.perf_counter() - start)
    path.unlink()
    return waits


def latency_figures(waits: Sequence[float]) -> dict[str, float]:
    return {"p50": percentile(waits, 0.50), "p95": percentile(waits, 0.95), "max": max(waits)}


def run_latency(log: LongLog, stores: dict[str, Store], repeats: int) -> dict[str, Any]:
    """Per store: p50/p95/max of each run, summarised over runs; the final answer's time too."""
    journal_lines = journal_lines_before_fold(len(log.tail))
    per_run: dict[str, dict[str, list[float]]] = {
        name: {"p50": [], "p95": [], "max": [], "final": []} for name in [*stores, "fsync floor"]
    }
    samples = {name: 0 for name in stores}
    for run in range(repeats):
        for name, store in stores.items():  # interleaved, so that both stores see the same machine
            session_id = f"long-{run:03d}"
            place_session(store, log, session_id, journal_lines)
            waits, final = play_tail(store, session_id, log)
            for figure, value in latency_figures(waits).items():
                per_run[name][figure].append(value)
            per_run[name]["final"].append(final)
            samples[name] += len(waits)
        floor = fsync_floor(next(iter(stores.values())).sessions_dir, len(log.tail), b'{"seq":1}' * 8 + b"\n")
        for figure, value in latency_figures(floor).items():
            per_run["fsync floor"][figure].append(value)
    per_run["fsync floor"].pop("final")
    report: dict[str, Any] = {
        name: {figure: summarise(values).to_json() for figure, values in figures.items()}
        for name, figures in per_run.items()
    }
    full, empty = list(stores)[:2]
    report["answers_per_run"] = len(log.tail) - 1
    report["log_entries"] = len(log.entries)
    report["journal_lines_at_start"] = journal_lines
    report["ratios"] = {
        f"{full} / {empty} (p95)": report[full]["p95"]["median"] / report[empty]["p95"]["median"],
        f"{full} / {empty} (p50)": report[full]["p50"]["median"] / report[empty]["p50"]["median"],
        f"{full} p50 / fsync floor p50": report[full]["p50"]["median"] / report["fsync floor"]["p50"]["median"],
    }
    report["targets"] = {"p95_seconds": LATENCY_P95_TARGET, "full_to_empty": FULL_TO_EMPTY_TARGET}
    return report


def run_resume(log: LongLog, store: Store, repeats: int) -> dict[str, Any]:
    """Resume of the long session to its last question, against opening its files alone."""
    session_id = "long-resume"
    place_session(store, log, session_id, journal_lines_before_fold(len(log.tail)))
    resume: list[float] = []
    open_only: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        live = LiveSession.resume(store, session_id, load_game)
        resume.append(time.perf_counter() - start)
        entries = len(live.driver.entries)
        live.release()
        if entries != len(log.entries):
            raise RuntimeError(f"resume rebuilt {entries} entries of {len(log.entries)}")
        start = time.perf_counter()
        file = store.open(session_id)
        open_only.append(time.perf_counter() - start)
        file.unlock()
    report: dict[str, Any] = {
        "resume": summarise(resume).to_json(),
        "read files only (floor)": summarise(open_only).to_json(),
        "log_entries": len(log.entries),
    }
    report["ratios"] = {"resume / read files": report["resume"]["median"] / report["read files only (floor)"]["median"]}
    report["target_seconds"] = RESUME_TARGET
    return report
