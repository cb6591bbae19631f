"""A line of text in styled pieces: what every console of the referee prints without markup.

Each piece is shown as it is (control characters written as escapes), in its own style. rich
prints a line as its Text; a session's console writes it itself (session_console.py). Kept apart
from rendering so that the consoles and the renderer can all use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.user_text import visible

if TYPE_CHECKING:
    from rich.text import Text


class StyledLine:
    """One line in pieces, each shown as it is in its own style ('' for none). rich prints it as
    its Text (`__rich__`); a session's console writes it itself (session_console.py)."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: tuple[tuple[str, str], ...]) -> None:
        self.pieces = pieces

    def __rich__(self) -> Text:
        from rich.text import Text

        return Text.assemble(*self.pieces)

    def __str__(self) -> str:
        return "".join(text for text, _style in self.pieces)


def styled(*parts: str | tuple[str, str]) -> StyledLine:
    """One line from pieces shown as they are; a (text, style) pair is shown in that style."""
    return StyledLine(tuple((visible(part[0]), part[1]) if isinstance(part, tuple) else (visible(part), "")
                        for part in parts))
