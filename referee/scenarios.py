"""Scenarios: scripted sessions with their expected outcome (scenarios/<game>/*.toml).

A scenario names the game, the players, optional ruling overrides, the answers line by line (the
same lines an --answers file takes, corrections and undo included) and what must be true at the
end: winners, totals, eliminations, state values, messages shown. Tests and `referee replay`
run them through the real driver.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.driver import Driver, replay
from referee.engine.lines import read_line
from referee.errors import InvalidAdjustment, InvalidAnswer, RefereeError
from referee.games.registry import load_game
from referee.safe_files import describe, read_user_text
from referee.wording import unhedged


class ScenarioError(RefereeError):
    """A scenario file that cannot be read or run."""


@dataclass
class Scenario:
    """A scripted session from a scenario file: the game, the players, ruling overrides, the answers
    by line number and what must be true at the end."""

    path: Path
    title: str
    game: str
    players: list[str]
    options: dict[str, Any]
    answers: list[tuple[int, str]]
    expect: dict[str, Any]


@dataclass
class ScenarioRun:
    """A scenario as it was played: the driver where it stands, what was asked and said, and every
    unmet expectation."""

    driver: Driver
    transcript: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    known: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    """The cards the scenario has named so far (kind -> name -> printed fields): a scenario plays
    as a session in a data directory of its own, so a card named once is known later in it."""

    def learn(self) -> None:
        """Keep what the flow learned at the last line and offer it from the next question on."""
        learned, self.driver.learned = self.driver.learned, []
        for card in learned:
            self.known.setdefault(card.kind, {}).setdefault(card.name, {}).update(card.printed)
        if learned:
            self.driver.use_catalogue(self.known)


def load_scenario(path: Path) -> Scenario:
    try:
        data = tomllib.loads(read_user_text(path))  # a regular file of at most 16 MB
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError(f"cannot read scenario {path}: {describe(error)}") from None
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"cannot read scenario {path}: {error}") from None
    try:
        raw_answers = data["answers"]
        lines = raw_answers.splitlines() if isinstance(raw_answers, str) else [str(a) for a in raw_answers]
        answers = []
        for number, line in enumerate(lines, 1):
            content = "" if line.lstrip().startswith("#") else line.split("#", 1)[0].strip()
            if content:
                answers.append((number, content))
        return Scenario(
            path,
            str(data.get("title", path.stem)),
            str(data["game"]),
            [str(name) for name in data["players"]],
            dict(data.get("options", {})),
            answers,
            dict(data.get("expect", {})),
        )
    except (KeyError, TypeError, AttributeError) as error:
        raise ScenarioError(f"scenario {path} lacks or misstates {error}") from None


def run_scenario(scenario: Scenario, echo: Callable[[str], None] | None = None) -> ScenarioRun:
    """Play the scenario's answers; failures list every unmet expectation."""
    game = load_game(scenario.game)
    driver = Driver(game, scenario.players, scenario.options)
    run = ScenarioRun(driver)

    def note(line: str) -> None:
        run.transcript.append(line)
        if echo:
            echo(line)

    for line_number, text in scenario.answers:
        driver = run.driver
        for message in driver.take_messages():
            note(f"  > {message}")
        if driver.pending is None:
            run.failures.append(f"line {line_number}: the game ended before this answer: {text!r}")
            break
        note(f"? {driver.pending.prompt}  {text}")
        try:
            apply_line(run, text)
        except (InvalidAnswer, InvalidAdjustment) as error:
            run.failures.append(f"line {line_number}: {error}")
            break
        run.learn()
        problems = game.invariant_errors(run.driver.state)
        if problems:
            run.failures.append(f"line {line_number}: invariants broken: {'; '.join(problems)}")
            break
    for message in run.driver.take_messages():
        note(f"  > {message}")
    run.failures.extend(check_expectations(scenario, run))
    return run


def apply_line(run: ScenarioRun, text: str) -> None:
    """One line, read as the terminal reads it; commands that only show something do nothing here."""
    driver = run.driver
    line = read_line(text, driver.pending, driver.game.correction_verbs)
    if line.kind == "adjust":
        driver.adjust(line.text, line.reason)
    elif line.kind == "undo":
        kept = driver.entries[: max(0, len(driver.entries) - line.steps)]
        run.driver = replay(driver.game, driver.players, driver.options, kept, run.known,
                            questions=driver.questions).driver
        run.driver.learned.clear()  # (what the replay re-learned is known already)
    elif line.kind == "answer":
        driver.answer(line.text)


def lookup(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def check_expectations(scenario: Scenario, run: ScenarioRun) -> list[str]:
    expect = scenario.expect
    driver = run.driver
    failures = []
    report = driver.report
    if "finished" in expect and expect["finished"] != driver.finished:
        failures.append(f"finished: expected {expect['finished']}, got {driver.finished}")
    if report is None:
        for key in ("winners", "totals", "eliminated", "ranks"):
            if key in expect:
                failures.append(f"{key}: the game did not end")
    else:
        if "winners" in expect and sorted(expect["winners"]) != sorted(report.winners):
            failures.append(f"winners: expected {expect['winners']}, got {report.winners}")
        for name, total in expect.get("totals", {}).items():
            got = report.player(name).total
            if got != total:
                failures.append(f"total of {name}: expected {total}, got {got}")
        for name, rank in expect.get("ranks", {}).items():
            got = report.player(name).rank
            if got != rank:
                failures.append(f"rank of {name}: expected {rank}, got {got}")
        if "eliminated" in expect:
            got_out = sorted(player.name for player in report.players if player.eliminated)
            if got_out != sorted(expect["eliminated"]):
                failures.append(f"eliminated: expected {expect['eliminated']}, got {got_out}")
    state = driver.game.to_json(driver.state)
    for path, value in expect.get("state", {}).items():
        try:
            got = lookup(state, path)
        except (KeyError, IndexError, ValueError, TypeError):
            failures.append(f"state {path}: no such value")
            continue
        if got != value:
            failures.append(f"state {path}: expected {value!r}, got {got!r}")
    text = "\n".join(run.transcript + (report.notes if report else []))
    for message in expect.get("messages", []):
        # A message written before its counts were worded out ("1 gem(s)", now "1 gem") still matches.
        if message not in text and unhedged(message) not in text:
            failures.append(f"message not shown: {message!r}")
    if "answers" in expect and expect["answers"] != len(driver.entries):
        failures.append(f"answers: expected {expect['answers']}, got {len(driver.entries)}")
    return failures
