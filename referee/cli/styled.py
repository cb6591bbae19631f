"""A line of text in styled pieces, and the codes rich writes for a style: what every console of the
referee prints without markup.

Each piece is shown as it is (control characters written as escapes), in its own style. rich
prints a line as its Text; a session's console writes it itself (session_console.py). Kept apart
from rendering so that the consoles and the renderer can all use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.user_text import visible

if TYPE_CHECKING:
    from rich.text import Text


ATTRIBUTES = {"bold": "1", "dim": "2", "italic": "3", "underline": "4", "reverse": "7", "strike": "9"}
"""rich's codes for text attributes, in the order rich writes them (before the colour)."""
COLOURS = {name: str(30 + number) for number, name in
           enumerate(("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"))}
COLOURS |= {f"bright_{name}": str(60 + int(code)) for name, code in list(COLOURS.items())}
"""The terminal's sixteen colours: rich writes them with these codes whatever the colour system."""


def escape_code(style: str) -> str | None:
    """What rich writes before text in `style` (the codes of its attributes, then of its colour),
    or None for a style that is not a few of those names."""
    words = style.split()
    colours = [COLOURS[word] for word in words if word in COLOURS]
    if len(colours) > 1 or any(word not in ATTRIBUTES and word not in COLOURS for word in words):
        return None
    codes = [code for name, code in ATTRIBUTES.items() if name in words] + colours
    return f"\x1b[{';'.join(codes)}m"


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
