"""What user text (player names, answers, file contents) may hold, and how it is shown.

User text is data: it is never read as rich markup, emoji codes or terminal control sequences.
Names with control characters are refused where they are given; anything else that reaches the
screen (an answer being refused, a name read from an old or edited session) goes through
`visible`, which writes such characters as escapes (`\\x1b`) instead of sending them to the
terminal.
"""

from __future__ import annotations

import unicodedata

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""Control, format (bidirectional overrides, zero-width), surrogate, line and paragraph separators."""


def hidden_characters(text: str) -> list[str]:
    """The characters of `text` that a terminal would act on or hide rather than show."""
    if text.isprintable():
        return []
    return [ch for ch in text if unicodedata.category(ch) in HIDDEN_CATEGORIES]


def split_names(text: str) -> list[str]:
    """The names of a comma-separated list ('Ann, Bo,Cy'), each trimmed. An empty one is kept
    for the checks to refuse: 'Ann,,Bo' is a typing slip, not a game of two."""
    return [name.strip() for name in text.split(",")]


def name_problem(name: str, noun: str = "player") -> str | None:
    """Why a name cannot be used, or None: it is empty, or it holds control characters."""
    if not name.strip():
        return f"every {noun} needs a name (an empty one was given)"
    found = hidden_characters(name)
    if found:
        shown = "".join(dict.fromkeys(found)).encode("unicode_escape").decode()
        return f"{noun} name '{visible(name)}' holds control characters ({shown}); use letters, digits and spaces"
    return None


def visible(text: str, keep: str = "\n\t") -> str:
    """`text` with every hidden character (except those in `keep`) written as an escape."""
    if text.isprintable():
        return text
    return "".join(
        ch.encode("unicode_escape").decode() if ch not in keep and unicodedata.category(ch) in HIDDEN_CATEGORIES
        else ch
        for ch in text
    )
