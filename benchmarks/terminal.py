"""The referee at a real terminal: from Enter to the next question drawn, and from start to the
first question, each against a bare questionary program measured in the same run.

    answer to next prompt   a whole Council of Blackthorn game typed into `referee play` in a
                            pseudo-terminal, with the benchmark's stored sessions beside it;
                            each answer timed from the write of its Enter to the next question
                            fully drawn (the prompt's cursor shown again). The floor asks
                            questions of the same shape in a loop (floor_prompt.py). Both
                            run at once and are answered in turn, answer by answer.
    start to first question `referee play` started in a pseudo-terminal until its first question
                            is drawn, against floor_prompt.py's first question.

Both sides are sent the same keys (the game's answers, each followed by Enter) and run with
PROMPT_TOOLKIT_NO_CPR=1 (no cursor-position round trip) and pexpect's send delay off, so the
figures are the programs' own time plus the pseudo-terminal's. Compiled bytecode is kept (in a
temporary PYTHONPYCACHEPREFIX, filled by an untimed run) as an installed package keeps it, even
where PYTHONDONTWRITEBYTECODE is set.
"""

from __future__ import annotations

import os
import sys
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pexpect  # type: ignore[import-untyped]  # ships no type information

from benchmarks.measure import percentile, summarise

HERE = Path(__file__).resolve().parent
GAME = HERE.parent / "scenarios" / "council-of-blackthorn" / "two-player-ghost.toml"
FLOOR = str(HERE / "floor_prompt.py")
PROMPT_STARTS = "\x1b[?2004h"
"""prompt_toolkit turns bracketed paste on as a prompt starts ..."""
PROMPT_DRAWN = "\x1b[?25h"
"""... and shows the cursor again once the prompt is drawn."""
ANSWER_TARGET = 1.2
START_TARGET = 1.3


def the_game() -> tuple[list[str], list[str]]:
    """The players and the answers of a whole two-player game (every line of the scenario)."""
    scenario = tomllib.loads(GAME.read_text(encoding="utf-8"))
    answers = [line.split("#", 1)[0].strip() for line in scenario["answers"].splitlines()]
    return list(scenario["players"]), [answer for answer in answers if answer]


def spawn(arguments: Sequence[str], home: Path) -> pexpect.spawn:
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "REFEREE_HOME": str(home), "TERM": "xterm-256color",
           "COLUMNS": "100", "LINES": "50", "PYTHONPYCACHEPREFIX": str(home.parent / "terminal-bytecode")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    child = pexpect.spawn(sys.executable, list(arguments), env=env, dimensions=(50, 100), encoding="utf-8",
                          codec_errors="replace", timeout=60)
    child.delaybeforesend = None
    return child


def until_drawn(child: pexpect.spawn) -> None:
    """Wait until the next prompt has started and is fully drawn."""
    child.expect_exact(PROMPT_STARTS)
    child.expect_exact(PROMPT_DRAWN)


def answer_waits(sides: dict[str, Sequence[str]], answers: Sequence[str], home: Path) -> dict[str, list[float]]:
    """Each answer's time from its Enter to the next prompt drawn, on every side (the last answer
    ends the run). The sides play at once, answer by answer, taking turns to go first: each pair
    of figures is taken within milliseconds of each other, whatever else the machine is doing."""
    children = {side: spawn(arguments, home) for side, arguments in sides.items()}
    try:
        for child in children.values():
            until_drawn(child)
        waits: dict[str, list[float]] = {side: [] for side in children}
        order = list(children)
        for answer in answers[:-1]:
            for side in order:
                start = time.perf_counter()
                children[side].send(answer + "\r")
                until_drawn(children[side])
                waits[side].append(time.perf_counter() - start)
            order.reverse()
        for child in children.values():
            child.send(answers[-1] + "\r")
            child.expect(pexpect.EOF)
    finally:
        for child in children.values():
            child.close(force=True)
    for side, child in children.items():
        if child.exitstatus != 0:
            raise RuntimeError(f"{' '.join(sides[side])} exited {child.exitstatus}")
    return waits


def first_question(arguments: Sequence[str], home: Path) -> float:
    start = time.perf_counter()
    child = spawn(arguments, home)
    try:
        until_drawn(child)
        return time.perf_counter() - start
    finally:
        child.close(force=True)


def run(quick: bool, home: Path) -> dict[str, Any]:
    """`home` is the data directory with the stored sessions the referee plays beside."""
    players, answers = the_game()
    referee = ["-m", "referee", "play", "council-of-blackthorn", "--players", ",".join(players)]
    floor = [FLOOR, str(len(answers))]
    games = 1 if quick else 9
    starts = 1 if quick else 21
    first_question(referee, home)  # untimed: compiles the bytecode both sides then read
    first_question([FLOOR, "1"], home)
    waits: dict[str, list[float]] = {"referee": [], "floor": []}
    per_game: dict[str, dict[str, list[float]]] = {side: {"p50": [], "p95": []} for side in waits}
    for _ in range(games):  # both sides at once, answer by answer: a busy machine slows both alike
        measured = answer_waits({"floor": floor, "referee": referee}, answers, home)  # the same keys
        for side, side_waits in measured.items():
            waits[side] += side_waits
            per_game[side]["p50"].append(percentile(side_waits, 0.50))
            per_game[side]["p95"].append(percentile(side_waits, 0.95))
    start_times: dict[str, list[float]] = {"referee play": [], "floor": []}
    for _ in range(starts):
        start_times["floor"].append(first_question([FLOOR, "1"], home))
        start_times["referee play"].append(first_question(referee, home))
    figures = {side: {"p50": percentile(values, 0.50), "p95": percentile(values, 0.95), "samples": len(values),
                      "p50 per game": summarise(per_game[side]["p50"]).to_json(),
                      "p95 per game": summarise(per_game[side]["p95"]).to_json()}
               for side, values in waits.items()}
    started = {side: summarise(values).to_json() for side, values in start_times.items()}
    stored = len(list((home / "sessions").glob("*.json"))) if (home / "sessions").exists() else 0
    return {
        "answer_to_prompt": figures,
        "answers_per_game": len(answers) - 1,
        "games": games,
        "stored_sessions": stored,
        "start_to_first_question": started,
        "ratios": {
            "answer p50": figures["referee"]["p50"] / figures["floor"]["p50"],
            "answer p95": figures["referee"]["p95"] / figures["floor"]["p95"],
            "start": started["referee play"]["median"] / started["floor"]["median"],
        },
        "targets": {"answer": ANSWER_TARGET, "start": START_TARGET},
    }
