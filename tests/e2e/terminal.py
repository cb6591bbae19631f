"""A `referee` process in a real pseudo-terminal, typed at the way a person would.

prompt_toolkit waits for a cursor-position reply unless PROMPT_TOOLKIT_NO_CPR is set, and pexpect
pauses before every send unless `delaybeforesend` is None; both make each question slow.
The terminal size is fixed so that rich lays tables out the same way on every machine.
"""

from __future__ import annotations

import io
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pexpect  # type: ignore[import-untyped]  # ships no type information

ROWS, COLUMNS = 50, 140
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
STYLE = r"(?:\x1b\[[0-9;]*m)*"
"""Colour codes that questionary puts between its '?' mark and the question."""
ENTER = "\r"
CLEAR_LINE = "\x15"
"""Ctrl-U: prompt_toolkit's 'discard the line typed so far', as a person clears a wrong answer."""


def plain(text: str) -> str:
    """The text a person reads on the screen: escape codes and carriage returns removed."""
    return ESCAPES.sub("", text).replace("\r", "")


ALTERNATE_ON, ALTERNATE_OFF = "\x1b[?1049h", "\x1b[?1049l"
"""xterm's alternate screen: what is written between them never reaches the scrollback."""


def main_screen_only(raw: str) -> str:
    """The raw output without what was written on the alternate screen: what the terminal's own
    screen and its scrollback received."""
    kept = []
    rest = raw
    while ALTERNATE_ON in rest:
        before, _, after = rest.partition(ALTERNATE_ON)
        kept.append(before)
        _, _, rest = after.partition(ALTERNATE_OFF)
    kept.append(rest)
    return "".join(kept)


def alternate_screen_only(raw: str) -> str:
    """What was written on the alternate screen."""
    shown = []
    for chunk in raw.split(ALTERNATE_ON)[1:]:
        shown.append(chunk.partition(ALTERNATE_OFF)[0])
    return "".join(shown)


def rendered_lines(raw: str, columns: int, rows: int = ROWS) -> list[str]:
    """The lines a terminal `columns` wide shows for `raw`, scrollback first, as a terminal emulator
    (pyte) draws them: cursor moves, redraws and the terminal's own wrapping all applied."""
    import pyte  # type: ignore[import-untyped]  # ships no type information

    screen = pyte.HistoryScreen(columns, rows, history=100_000)
    stream = pyte.Stream(screen)
    stream.feed(main_screen_only(raw))
    history = ["".join(line[column].data for column in range(columns)) for line in screen.history.top]
    return [line.rstrip() for line in [*history, *screen.display]]


class Terminal:
    """One `python -m referee ...` run in a pseudo-terminal of a fixed size (or another script's
    run, given as `command`)."""

    def __init__(
        self,
        args: Sequence[str],
        home: Path,
        timeout: float = 60,  # only a guard against a hang: every wait is on what the screen shows
        columns: int = COLUMNS,
        command: Sequence[str] = ("-m", "referee"),
    ) -> None:
        env = {
            **os.environ,
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "REFEREE_HOME": str(home),
            "TERM": "xterm-256color",
            "COLUMNS": str(columns),
            "LINES": str(ROWS),
        }
        env.pop("NO_COLOR", None)
        self.columns = columns
        self.transcript = io.StringIO()
        self.child = pexpect.spawn(
            sys.executable,
            [*command, *args],
            env=env,
            dimensions=(ROWS, columns),
            encoding="utf-8",
            codec_errors="replace",
            timeout=timeout,
        )
        self.child.delaybeforesend = None
        self.child.logfile_read = self.transcript

    def wait_for_question(self, fragment: str) -> None:
        """Wait until a questionary prompt whose question starts with `fragment` is on the screen.

        Only call this once the previous answer has visibly been taken (a message or another
        question appeared): prompt_toolkit redraws a question as it is answered, and that redraw
        would otherwise be mistaken for the same question asked again.
        """
        self.child.expect(r"\?" + STYLE + " " + re.escape(fragment))

    def answer(self, fragment: str, text: str) -> None:
        """Wait for the question, type the answer and press Enter."""
        self.wait_for_question(fragment)
        self.type(text)

    def press(self, fragment: str, key: str) -> None:
        """Wait for a question with a short list of options and press one option's number (no Enter)."""
        self.wait_for_question(fragment)
        self.child.send(key)

    def type(self, text: str) -> None:
        """Type `text` and press Enter."""
        self.child.send(text + ENTER)

    def keys(self, text: str) -> None:
        """Type `text` without pressing Enter."""
        self.child.send(text)

    def clear_typed_line(self) -> None:
        self.child.send(CLEAR_LINE)

    def interrupt(self) -> None:
        self.child.sendcontrol("c")

    def expect_text(self, text: str) -> None:
        """Wait for `text` to be printed (it must not be split by a line wrap or a colour change)."""
        self.child.expect_exact(text)

    def expect_pattern(self, pattern: str) -> re.Match[str]:
        """Wait for a regular expression; `{style}` in it stands for any run of colour codes."""
        self.child.expect(pattern.replace("{style}", STYLE))
        match = self.child.match
        assert isinstance(match, re.Match)
        return match

    def finish(self) -> int:
        """Wait for the process to end; returns its exit status."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        status = self.child.exitstatus
        assert isinstance(status, int), f"killed by signal {self.child.signalstatus}"
        return status

    def screen(self) -> str:
        """Everything shown so far, as plain text."""
        return plain(self.transcript.getvalue())

    def raw(self) -> str:
        """Everything written to the terminal so far, escape codes and all."""
        return self.transcript.getvalue()

    def lines(self) -> list[str]:
        """The terminal's lines as drawn (scrollback first), see `rendered_lines`."""
        return rendered_lines(self.raw(), self.columns)

    def wait_until(self, shown: Callable[[list[str]], bool], what: str) -> list[str]:
        """Read what the program draws, as it draws it, until the terminal's lines satisfy `shown`;
        returns them. Only a hang (nothing satisfying within the terminal's timeout) fails, saying `what`
        was awaited and what the screen showed."""
        deadline = time.monotonic() + self.child.timeout
        while not shown(lines := self.lines()):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"never shown: {what}; the screen ends with {lines[-5:]}")
            try:
                self.child.read_nonblocking(65536, timeout=remaining)  # recorded in the transcript
            except pexpect.TIMEOUT:
                continue
        return lines

    def prompt_line(self, shown: Callable[[str], bool], what: str) -> str:
        """Wait until the line the cursor is on (the question and what is typed) satisfies `shown`."""
        lines = self.wait_until(lambda lines: shown(last_line(lines)), what)
        return last_line(lines)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def last_line(lines: list[str]) -> str:
    """The last line that holds anything: where the cursor is, at a prompt."""
    return next((line for line in reversed(lines) if line.strip()), "")


def table_rows(text: str, title: str) -> list[list[str]]:
    """The body rows of the last rich table titled `title` in `text`, as lists of cell texts.

    A cell that wraps onto several lines is rejoined with spaces.
    """
    lines = text.splitlines()
    starts = [index for index, line in enumerate(lines) if line.strip() == title]
    if not starts:
        raise AssertionError(f"no table titled {title!r} on the screen")
    rows: list[list[str]] = []
    in_body = False
    for line in lines[starts[-1] + 1 :]:
        if line.startswith("┡"):
            in_body = True
        elif line.startswith("└"):
            break
        elif in_body and line.startswith("│"):
            cells = [cell.strip() for cell in line.strip().strip("│").split("│")]
            if cells[0] or not rows:  # a new row; an empty first cell continues a wrapped row
                rows.append(cells)
            else:
                rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
    return rows
