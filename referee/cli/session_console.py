"""The console of a session: its lines are written without rich where rich would write the same.

Loading rich takes about a fifth of the time from `referee play` to the first question, and all a
session prints before that question is a few lines of styled text: the session's name, a rule with
where the game stands, a message or two. Most of what it prints after each answer is lines like
those, and rich takes several times longer to write one than it takes to write it directly.
`SessionConsole` writes such lines itself, byte for byte as rich would write them
(tests/test_cli_session_console.py holds the two side by side), and hands everything else to a
rich console that it loads when first needed: a table, a line to wrap, characters wider than a
column, a style it does not know, the alternate screen, a terminal rich would treat differently
(no terminal, a dumb one, NO_COLOR, FORCE_COLOR...). rich writes out each print before it returns,
so the lines reach the terminal in the order they were printed.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING, Any

from referee.cli.styled import StyledLine, escape_code
from referee.user_text import visible

if TYPE_CHECKING:
    from rich.style import Style
    from rich.text import TextType

    from referee.cli.plain_console import PlainConsole

    RichConsole = PlainConsole  # to the type checker a SessionConsole is a console; see __getattr__
else:
    RichConsole = object

RULE_LINE = "bright_green"
"""The style of a rule's line in rich's default theme."""
ONE_COLUMN = frozenset("›Δ·→←─")
"""Beyond ASCII, the referee's own marks: one column each, for rich as for the terminal."""
SETTINGS_FOR_RICH = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")
"""Environment variables that change what rich writes: with any of them set, rich writes it all."""


def in_style(text: str, style: str) -> str | None:
    """`text` as rich writes it in `style`; None when rich would have to read the style."""
    if not style:
        return text
    code = escape_code(style)
    if code is None:
        return None
    return f"{code}{text}\x1b[0m" if text else ""


def one_column_each(text: str) -> bool:
    return text.isprintable() and (text.isascii() or all(character.isascii() or character in ONE_COLUMN
                                                         for character in text))


def terminal_width() -> int:
    """The terminal's width as rich finds it: from standard input, output or error, COLUMNS first."""
    width = 0
    for descriptor in (0, 1, 2):
        try:
            width = os.get_terminal_size(descriptor).columns
        except (AttributeError, ValueError, OSError):
            continue
        break
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    return width or 80


def writes_like_rich(file: IO[str]) -> bool:
    """Whether rich would write escape codes and nothing else to `file`: a terminal of UTF-8 that
    is not dumb, with no setting that changes rich's output (and not Windows' console)."""
    term = os.environ.get("TERM", "").strip().lower()
    encoding = (getattr(file, "encoding", None) or "utf-8").lower()
    try:
        terminal = file.isatty()
    except (AttributeError, ValueError, OSError):
        return False
    return (terminal and sys.platform != "win32" and term not in ("", "dumb", "unknown")
            and encoding.startswith("utf") and not any(name in os.environ for name in SETTINGS_FOR_RICH))


OWN_ATTRIBUTES = ("_out", "_rich", "_direct")


class SessionConsole(RichConsole):
    """A console that writes plain styled lines itself and the rest through rich (see the module)."""

    def __init__(self, file: IO[str] | None = None) -> None:
        self._out = file
        """Where it writes: standard output as it is at each line when None, as for rich."""
        self._rich: PlainConsole | None = None
        self._direct = writes_like_rich(file if file is not None else sys.stdout)

    def loaded(self) -> PlainConsole:
        """The rich console, loaded now if it was not yet."""
        if self._rich is None:
            from referee.cli.render import make_console

            self._rich = make_console() if self._out is None else make_console(file=self._out)
        return self._rich

    def put(self, line: str) -> None:
        out = self._out if self._out is not None else sys.stdout
        out.write(line + "\n")
        out.flush()  # as rich does at the end of each print: the prompt comes after it

    def __getattr__(self, name: str) -> Any:
        # Only what the class does not define itself: the rest of rich's console.
        if name in OWN_ATTRIBUTES:
            raise AttributeError(name)  # not set yet (a copy being made): never rich's
        return getattr(self.loaded(), name)

    @property
    def width(self) -> int:
        return terminal_width() if self._direct else self.loaded().width

    @width.setter
    def width(self, columns: int) -> None:
        self.loaded().width = columns

    def print(self, *objects: Any, style: str | Style | None = None, soft_wrap: bool | None = None,
              **options: Any) -> None:
        line = self.direct_line(objects, style, bool(soft_wrap)) if not options else None
        if line is None:
            self.loaded().print(*objects, style=style, soft_wrap=soft_wrap, **options)
        else:
            self.put(line)

    def rule(self, title: TextType | StyledLine = "", **options: Any) -> None:
        line = self.direct_rule(title) if options == {"align": "left"} else None
        if line is None:
            self.loaded().rule(title, **options)
        else:
            self.put(line)

    def direct_line(self, objects: tuple[Any, ...], style: object, soft_wrap: bool) -> str | None:
        """The line rich would write for these, when it is one this console can write itself."""
        if not self._direct or len(objects) > 1:
            return None
        if not objects:
            return ""
        printed = objects[0]
        if isinstance(printed, str) and (style is None or isinstance(style, str)):
            pieces: tuple[tuple[str, str], ...] = ((visible(printed), style or ""),)
        elif isinstance(printed, StyledLine) and style is None:
            pieces = printed.pieces
        else:
            return None
        text = "".join(piece for piece, _style in pieces)
        if not one_column_each(text) or (not soft_wrap and len(text) > terminal_width()):
            return None  # rich would wrap it, or its characters are not one column each
        written = [in_style(piece, piece_style) for piece, piece_style in pieces]
        return None if None in written else "".join(part for part in written if part)

    def direct_rule(self, title: object) -> str | None:
        """rich's left-aligned rule under a short title, when this console can write it itself."""
        if not isinstance(title, StyledLine):
            return None
        width = terminal_width()
        heading = self.direct_line((title,), None, soft_wrap=False)
        length = len(str(title))
        if heading is None or not heading or length + 2 > width:
            return None
        return f"{heading} {in_style('─' * (width - length - 1), RULE_LINE)}"
