"""One reader of the lines the table types: at the terminal, in an --answers file and in a scenario.

A line is an answer to the pending question or one of the table's commands. The same line means
the same thing everywhere; where a command cannot act (e.g. 'state' in a replay) it is read and
does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Ask, Choice
from referee.errors import InvalidAnswer

COMMANDS = ("undo", "redo", "state", "secret", "help", "?", "rules", "adjust", "edit", "quit")
"""Command words; a player may not be named so (an option named like one stays an answer)."""


@dataclass(frozen=True)
class Line:
    """What a typed line is: `kind` is "answer" or a command word; `text` is the answer or the
    command's argument; `steps` counts an undo or redo; `reason` goes with a correction."""

    kind: str
    text: str = ""
    steps: int = 1
    reason: str = ""


def read_line(raw: str, ask: Ask[Any] | None, correction_verbs: Sequence[str] = ()) -> Line:
    """Read one typed line. Raises InvalidAnswer for a command written wrong (e.g. 'undo two')."""
    text = raw.strip()
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    if isinstance(ask, Choice) and text.lower() in (label.lower() for label in ask.options):
        return Line("answer", text)
    if word in correction_verbs:  # a game's own correction verb (e.g. 'pay Ann Bo 3'): the reason is optional
        change, _, reason = text.partition(";")
        return Line("adjust", change.strip(), reason=reason.strip() or word)
    if word not in COMMANDS:
        return Line("answer", text)
    if word in ("undo", "redo"):
        if rest and not (rest.isascii() and rest.isdecimal() and 0 < int(rest) <= 9999):
            raise InvalidAnswer(rest, f"'{word}' takes a number of steps", f"'{word}' or '{word} N' with N from 1")
        return Line(word, steps=int(rest) if rest else 1)
    if word == "?":
        word = "help"
    if word == "adjust":
        change, _, reason = rest.partition(";")
        return Line("adjust", change.strip(), reason=reason.strip())
    return Line(word, rest)
