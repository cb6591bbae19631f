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


MAX_NAME_LENGTH = 48
"""The longest name a player may have (as long as a printed card's): it is stored in every session."""


def name_problem(name: str, noun: str = "player") -> str | None:
    """Why a name cannot be used, or None: it is empty, too long, or it holds control characters."""
    if not name.strip():
        return f"every {noun} needs a name (an empty one was given)"
    if len(name.strip()) > MAX_NAME_LENGTH:
        return (f"{noun} name '{visible(name.strip()[:20])}...' is too long ({len(name.strip())} characters): "
                f"at most {MAX_NAME_LENGTH} characters")
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


def json_visible(text: str) -> str:
    """JSON text with every hidden character written as JSON's own escape (`\\u001b`, `\\u202e`), so
    the text reads back unchanged while a terminal shows it as data. (JSON already escapes the C0
    controls; C1 controls, DEL, bidirectional overrides and separators it would write raw.)"""
    if text.isprintable():
        return text
    return "\n".join(line if line.isprintable() else "".join(
        json_escape(ch) if unicodedata.category(ch) in HIDDEN_CATEGORIES else ch for ch in line)
        for line in text.split("\n"))


def json_escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the first plane: a surrogate pair, as JSON writes it
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
