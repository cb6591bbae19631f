"""The one way a command says what went wrong: one line on standard error, 'referee: ...', with any
user text in it shown as text (control characters written as escapes), never a traceback."""

from __future__ import annotations

import sys

from referee.user_text import visible


def error(message: str) -> None:
    """Say what went wrong (and what is allowed) in one line on standard error."""
    print(f"referee: {visible(message, keep='')}", file=sys.stderr)
