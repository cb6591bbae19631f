"""Realistic games: what a table types to the referee, game by game (benchmarks/realistic/<game>/*.toml).

A script is a scenario file (the format of scenarios/, see referee/scenarios.py) with two more keys:

    set = "tuning"          # or "held-out": a held-out script is never used to tune the questions
    events = '''...'''      # what happens at the table, turn by turn, card by card: the fixed part

Its `answers` are the lines the table types to tell the referee those events. They may change as
the referee's questions change; the events and the `[expect]` outcome may not. Inside `answers`, a
comment line `#> FIGURE [N]` starts one instance of a measured figure and `#> end` (or the next
`#>` line) ends it; every typed line inside it counts as one answer (an Enter too, written as the
line the Enter stands for, such as `done`), and the instance's count is divided by N (default 1:
the players of a final count, the cards of a Time track).

A script is played as `referee play GAME --answers FILE` plays it, in a data directory of its own
that starts empty, so a card named earlier in the script is known later in it (the card catalogue).
"""

from __future__ import annotations

import io
import os
import re
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = REPO / "benchmarks" / "realistic"
MARKER = re.compile(r"#>\s*(?P<figure>[a-z_]+)(?:\s+(?P<units>[0-9]+))?\s*$")
SETS = ("tuning", "held-out")


@dataclass
class Instance:
    """One measured stretch of a script: its figure, the answers typed in it, what it is divided by."""

    figure: str
    units: int
    answers: int = 0
    first_line: int = 0


@dataclass
class Script:
    path: Path
    game: str
    players: list[str]
    options: dict[str, Any]
    set: str
    events: str
    answers: str
    expect: dict[str, Any]
    instances: list[Instance] = field(default_factory=list)


def load(path: Path) -> Script:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    script = Script(path, str(data["game"]), [str(name) for name in data["players"]], dict(data.get("options", {})),
                    str(data.get("set", "")), str(data.get("events", "")), str(data["answers"]),
                    dict(data.get("expect", {})))
    if script.set not in SETS:
        raise ValueError(f"{path}: set is one of {', '.join(SETS)}, not {script.set!r}")
    if not script.events.strip():
        raise ValueError(f"{path}: no events: a script says what happens at the table")
    script.instances = instances(script.answers, path)
    return script


def instances(answers: str, path: Path) -> list[Instance]:
    found: list[Instance] = []
    current: Instance | None = None
    for number, line in enumerate(answers.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("#>"):
            if stripped[2:].strip() == "end":
                current = None
                continue
            match = MARKER.fullmatch(stripped)
            if match is None:
                raise ValueError(f"{path} answers line {number}: a marker is '#> FIGURE [N]' or '#> end'")
            current = Instance(match["figure"], int(match["units"] or 1), first_line=number)
            found.append(current)
            continue
        content = "" if stripped.startswith("#") else stripped.split("#", 1)[0].strip()
        if content and current is not None:
            current.answers += 1
    return found


def play(script: Script) -> list[str]:
    """Play the script as `referee play --answers` would; the unmet expectations (none: it fits)."""
    from referee.cli.answerers import ScriptedAnswerer, ScriptRejected
    from referee.cli.loop import SessionLoop
    from referee.cli.session_console import SessionConsole
    from referee.errors import RefereeError
    from referee.games.registry import load_game
    from referee.scenarios import Scenario, ScenarioRun, check_expectations
    from referee.session import LiveSession
    from referee.store import Store

    with tempfile.TemporaryDirectory(prefix="referee-realistic-") as home:
        shown = io.StringIO()
        console = SessionConsole(file=shown)
        live = LiveSession.start(Store(Path(home)), load_game(script.game), script.players, script.options)
        answerer = ScriptedAnswerer.from_text(script.answers, console, str(script.path))
        try:
            SessionLoop(live, answerer, console).run()
        except (ScriptRejected, RefereeError) as problem:
            return [str(problem)]
        finally:
            live.close("finished" if live.driver.finished else "playing")
            live.release()
        if answerer.position < len(answerer.lines):  # a line the game never asked for would count as typed
            line, text = answerer.lines[answerer.position]
            return [f"answers line {line}: the game ended before this answer: {text!r}"]
        expect = {key: value for key, value in script.expect.items() if key != "messages"}
        scenario = Scenario(script.path, script.path.stem, script.game, script.players, script.options, [], expect)
        return check_expectations(scenario, ScenarioRun(live.driver, transcript=shown.getvalue().splitlines()))


def scripts(chosen: str | None = None) -> Iterator[Script]:
    for path in sorted(SCRIPTS.glob("*/*.toml")):
        script = load(path)
        if chosen is None or script.set == chosen:
            yield script


def figures(chosen: str | None = None, check: bool = True) -> dict[str, dict[str, float]]:
    """game id -> figure -> mean answers an instance (each instance divided by its units)."""
    sums: dict[str, dict[str, list[float]]] = {}
    for script in scripts(chosen):
        if check:
            problems = play(script)
            if problems:
                raise SystemExit(f"{script.path}: " + "; ".join(problems))
        for instance in script.instances:
            sums.setdefault(script.game, {}).setdefault(instance.figure, []).append(instance.answers / instance.units)
    return {game: {figure: round(sum(values) / len(values), 2) for figure, values in by_figure.items()}
            for game, by_figure in sorted(sums.items())}


if __name__ == "__main__":  # python benchmarks/realistic.py FILE...: play each script and show its figures
    sys.path.insert(0, str(REPO))
    os.environ.setdefault("COLUMNS", "80")
    failed = False
    for name in sys.argv[1:]:
        script = load(Path(name))
        problems = play(script)
        counts = ", ".join(f"{i.figure} {i.answers}/{i.units} (line {i.first_line})" for i in script.instances)
        print(f"{name}: {'fits' if not problems else 'DOES NOT FIT: ' + '; '.join(problems)}")
        print(f"  {len(script.instances)} instances: {counts}")
        failed |= bool(problems)
    raise SystemExit(1 if failed else 0)
