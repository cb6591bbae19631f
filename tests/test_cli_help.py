"""`--help` and `-h` on every command: the same text, values named as a table reads them (no
Python types), and each paragraph of a command's help whole."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from referee.cli.app import app

ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None,
                                      "NO_COLOR": "1"}
PYTHON_TYPE = re.compile(r"<(bool|str|int|float|path|file|datetime|uuid|list\[[^\]]*\])>")


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """Every command's words, the root's first (a group holds its commands in `commands`)."""
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from command_paths(sub, (*path, name))


PATHS = list(command_paths(typer.main.get_command(app)))


def test_every_command_is_walked() -> None:
    assert {("play",), ("sessions", "show"), ("rules",), ("cards",), ("stats",), ()} <= set(PATHS)


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "referee")
def test_dash_h_is_help_and_names_no_python_type(path: tuple[str, ...]) -> None:
    runner = CliRunner()
    long = runner.invoke(app, [*path, "--help"], env=ENVIRONMENT)
    short = runner.invoke(app, [*path, "-h"], env=ENVIRONMENT)
    assert long.exit_code == 0 and short.exit_code == 0, short.output
    assert "Usage:" in short.stdout and short.stdout == long.stdout
    assert PYTHON_TYPE.search(short.stdout) is None, PYTHON_TYPE.search(short.stdout)


def test_values_are_named_and_flags_take_none() -> None:
    shown = CliRunner().invoke(app, ["play", "-h"], env=ENVIRONMENT).stdout
    rows = {line.split()[1]: line for line in shown.splitlines() if line.startswith("│") and "--" in line}
    assert "NAME=VALUE" in rows["--ruling"] and "FILE" in rows["--answers"] and "DIR" in rows["--db"]
    assert re.search(r"--help\s+-h\s+Show this message", rows["--help"])  # a flag: no value named


def test_a_paragraph_of_help_is_not_broken_where_its_source_line_ends() -> None:
    shown = CliRunner().invoke(app, ["edit", "-h"], env=ENVIRONMENT).stdout
    # the docstring breaks its line after "no longer fits is"; at 200 columns the sentence is one line
    assert any("an answer that no longer fits is asked again" in line for line in shown.splitlines())


@pytest.mark.parametrize("command", [["play", "-h"], ["rules", "-h"], ["rules", "blackthorn", "-h"]])
def test_dash_h_reaches_help_past_the_fast_paths(command: list[str]) -> None:
    env = {key: value for key, value in {**os.environ, **ENVIRONMENT}.items() if value is not None}
    done = subprocess.run([sys.executable, "-m", "referee", *command], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0 and "Usage:" in done.stdout and "Show this message" in done.stdout


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_help_longer_than_the_screen_is_paged_at_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("PAGER", f"cat > {paged}")
    monkeypatch.setenv("LINES", "10")
    screen = Tty()
    monkeypatch.setattr(sys, "stdout", screen)
    with pytest.raises(SystemExit) as done:
        app(["sessions", "-h"], prog_name="referee")
    monkeypatch.setattr(sys, "stdout", sys.__stdout__)
    assert done.value.code == 0
    text = paged.read_text(encoding="utf-8")
    assert "\x1b[" in text  # drawn in the terminal's colours
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert "Usage: referee sessions" in plain and "--since" in plain
    assert "Usage" not in screen.getvalue()  # shown by the pager, not printed again
