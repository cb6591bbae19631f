"""Ctrl-C and Ctrl-D at a prompt, and no terminal at all.

Ctrl-C at any question: every answer given is saved, the resume command is printed, exit 130.
Ctrl-D (end of input): the same, exit 1. Standard input that is not a terminal and no --answers:
one clear line and exit 2, at once (no hang, no questionary traceback).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect  # type: ignore[import-untyped]  # ships no type information
import pytest
from reliability_support import child_env

from referee.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX only)")

ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
STYLE = r"(?:\x1b\[[0-9;]*m)*"
"""Colour codes that questionary puts between its '?' mark and the question."""
FIRST_QUESTION = "Ann: roll the four faction dice"
SECOND_QUESTION = "Bo: roll the four faction dice"
RESUME_HINT = re.compile(r"Resume with: referee resume ([a-z0-9-]+)")
HANG_GUARD = 60
"""Seconds a wait for the screen may take before it counts as a hang: generous, since a test here
waits on what it sees, and a machine busy with other runs can starve the program for many seconds."""


def plain(text: str) -> str:
    return ESCAPES.sub("", text).replace("\r", "")


def spawn(home: Path, *args: str) -> pexpect.spawn:
    env = child_env(REFEREE_HOME=str(home), PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="140")
    child = pexpect.spawn(sys.executable, ["-m", "referee", *args], env=env, dimensions=(50, 140),
                          encoding="utf-8", codec_errors="replace", timeout=HANG_GUARD)
    child.delaybeforesend = None
    return child


def wait_for_prompt(child: pexpect.spawn, fragment: str) -> None:
    """Wait until a question holding `fragment` is drawn as a prompt (questionary's '?' mark before
    it). prompt_toolkit puts the terminal in raw mode before it draws, so keys sent from then on are
    read as keys: a Ctrl-C or Ctrl-D sent earlier would reach the terminal's line discipline instead."""
    child.expect(r"\?" + STYLE + r" [^\r\n]*" + re.escape(fragment))


def answer(child: pexpect.spawn, question: str, text: str) -> None:
    wait_for_prompt(child, question)
    child.send(text + "\r")


def finish(child: pexpect.spawn) -> tuple[int, str]:
    child.expect(pexpect.EOF)
    output = plain(child.before)
    child.close()
    return child.exitstatus, output


def stored_answers(home: Path, session_id: str) -> list[str]:
    session = Store(home).session_file(session_id)
    session.load()
    return [entry.get("answer", "") for entry in session.entries]


@pytest.mark.parametrize(
    ("key", "code", "words"),
    [
        ("\x03", 130, "Interrupted; every answer given is saved."),
        ("\x04", 1, "End of input; every answer given is saved."),
    ],
    ids=["ctrl-c", "ctrl-d"],
)
def test_interrupt_at_a_question_saves_and_prints_the_resume_command(
    tmp_path: Path, key: str, code: int, words: str
) -> None:
    child = spawn(tmp_path, "play", "blackthorn", "--players", "Ann,Bo")
    answer(child, FIRST_QUESTION, "9")
    answer(child, SECOND_QUESTION, "5")
    wait_for_prompt(child, "chooses a character")
    child.send(key)
    status, output = finish(child)
    assert status == code
    assert words in output
    hint = RESUME_HINT.search(output)
    assert hint is not None and "Traceback" not in output
    assert stored_answers(tmp_path, hint[1]) == ["9", "5"]
    session = next(meta for meta in Store(tmp_path).list() if meta.id == hint[1])
    assert session.status == "playing" and session.answers == 2


def test_ctrl_c_while_typing_an_answer_keeps_it_out_of_the_log(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "blackthorn", "--players", "Ann,Bo")
    answer(child, FIRST_QUESTION, "9")
    wait_for_prompt(child, SECOND_QUESTION)
    child.send("1")  # half an answer, never confirmed with Enter
    child.send("\x03")
    status, output = finish(child)
    hint = RESUME_HINT.search(output)
    assert status == 130 and hint is not None
    assert stored_answers(tmp_path, hint[1]) == ["9"]


def test_ctrl_c_after_resume_keeps_old_and_new_answers(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "blackthorn", "--players", "Ann,Bo")
    answer(child, FIRST_QUESTION, "9")
    wait_for_prompt(child, SECOND_QUESTION)
    child.send("\x03")
    _, output = finish(child)
    hint = RESUME_HINT.search(output)
    assert hint is not None
    child = spawn(tmp_path, "resume", hint[1])
    child.expect_exact("after 1 answers")
    answer(child, SECOND_QUESTION, "5")
    wait_for_prompt(child, "chooses a character")
    child.send("\x03")
    status, output = finish(child)
    assert status == 130 and f"referee resume {hint[1]}" in output
    assert stored_answers(tmp_path, hint[1]) == ["9", "5"]


def test_ctrl_c_in_interactive_scoring_exits_130(tmp_path: Path) -> None:
    child = spawn(tmp_path, "score", "blackwood", "--players", "Ann,Bo")
    wait_for_prompt(child, "Ann")
    child.send("\x03")
    status, output = finish(child)
    assert status == 130 and "nothing was scored" in output and "Traceback" not in output


@pytest.mark.parametrize(
    "args",
    [
        ["play", "blackthorn", "-p", "A,B"],
        ["resume"],
        ["score", "blackwood", "-p", "Ann,Bo"],
    ],
    ids=["play", "resume", "score"],
)
def test_no_terminal_and_no_answers_file_is_one_clear_line(tmp_path: Path, args: list[str]) -> None:
    if args == ["resume"]:  # something to resume, so that only the missing terminal stops it
        subprocess.run([sys.executable, "-m", "referee", "play", "blackthorn", "-p", "A,B", "--answers",
                        os.devnull], env=child_env(REFEREE_HOME=str(tmp_path)), capture_output=True, timeout=60)
    with open(os.devnull) as nothing:  # a hang, waiting on a terminal that is not there, fails the timeout
        result = subprocess.run([sys.executable, "-m", "referee", *args], stdin=nothing, capture_output=True,
                                text=True, env=child_env(REFEREE_HOME=str(tmp_path)), timeout=30)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("referee: ") and "--" in lines[0], result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    if args[0] == "play":
        assert not list(tmp_path.glob("sessions/*.json"))  # nothing started that cannot be played


def test_markup_names_and_answers_at_a_real_terminal(tmp_path: Path) -> None:
    """A player named in rich markup, and markup typed as answers and command arguments at the
    keyboard: each shown as typed and refused in one line; the session goes on and saves."""
    child = spawn(tmp_path, "play", "blackthorn", "--players", "[/bold]y,[bold red]x")
    answer(child, "[/bold]y: roll the four faction dice", "9")
    answer(child, "[bold red]x: roll the four faction dice", "5")
    for typed in ("secret [/x]", "undo [/x]", "adjust [/x] ; r", "[/green]"):
        wait_for_prompt(child, "chooses a character")
        child.send(typed + "\r")
        child.expect_exact("[/x]" if "[/x]" in typed else "[/green]")
    wait_for_prompt(child, "chooses a character")
    child.send("\x03")
    status, output = finish(child)
    assert status == 130 and "Traceback" not in output and "MarkupError" not in output
    hint = RESUME_HINT.search(output)
    assert hint is not None and stored_answers(tmp_path, hint[1]) == ["9", "5"]
    listing = subprocess.run([sys.executable, "-m", "referee", "sessions"], capture_output=True, text=True,
                             env=child_env(REFEREE_HOME=str(tmp_path), COLUMNS="200"), timeout=60)
    assert listing.returncode == 0 and "[/bold]y, [bold red]x" in listing.stdout
