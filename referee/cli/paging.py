"""Long output through the pager, as `rules` shows it (referee/rules/pager.py): a session's whole
log (`sessions show`), and a rule or the help asked for at a question.

Only when standard output is a terminal: the text is drawn for that terminal (its width, its
colours) into a buffer, then shown through the pager if it is longer than the screen, and written
as it is otherwise. Piped or redirected output is never paged, nor held back.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from referee.cli.render import make_console

if TYPE_CHECKING:
    from referee.cli.plain_console import PlainConsole


def to_a_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):  # closed, or replaced by an object without one
        return False


@contextmanager
def paged_console(like: PlainConsole | None = None, allowed: bool = True) -> Iterator[PlainConsole]:
    """A console to print long output on: drawn as `like` (else a new console on standard
    output) would draw it, and paged when it is long, `allowed` and bound for a terminal; else
    `like` itself."""
    screen = like if like is not None else make_console()
    if not allowed or not to_a_terminal():
        yield screen
        return
    buffer = io.StringIO()
    drawn = make_console(file=buffer, width=screen.width, force_terminal=True,
                         color_system=screen.color_system, no_color=screen.no_color)
    yield drawn
    from referee.rules.pager import show

    sys.stdout.flush()
    show(buffer.getvalue(), sys.stdout)
    sys.stdout.flush()
