"""The questions a game flow asks the table, and how each one reads an answer.

An Ask is a frozen description of a question. `parse(raw)` turns what the table typed into the
value the flow receives, or raises InvalidAnswer saying what was wrong and what is allowed.
`encode(value)` gives the canonical text that goes in the session log, so replaying the log
parses exactly the same values again.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.errors import InvalidAnswer

MAX_ANSWER_LENGTH = 200


def clean(raw: str) -> str:
    """Trim an answer and refuse what no question accepts (control characters, very long text)."""
    if len(raw) > MAX_ANSWER_LENGTH:
        raise InvalidAnswer(raw[:20] + "...", "answer too long", f"at most {MAX_ANSWER_LENGTH} characters")
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in raw if ch not in "\t"):
        raise InvalidAnswer(raw.encode("unicode_escape").decode(), "control characters", "plain text")
    return " ".join(raw.split())


@dataclass(frozen=True)
class Ask:
    """A question for the table. `section` names the rulebook section that governs it."""

    prompt: str
    section: str = ""
    default: str | None = None

    def parse(self, raw: str) -> Any:
        text = clean(raw)
        if not text and self.default is not None:
            text = self.default
        if not text:
            raise InvalidAnswer(raw, "no answer given", self.allowed())
        return self._parse(text)

    def _parse(self, text: str) -> Any:
        raise NotImplementedError

    def encode(self, value: Any) -> str:
        return str(value)

    def allowed(self) -> str:
        raise NotImplementedError

    def suggestions(self) -> list[str]:
        """Answers worth offering for completion."""
        return []


def _match_option(text: str, options: Sequence[str]) -> str | None:
    """An option by number (1-based), exact name, or unique prefix, ignoring case."""
    lowered = text.lower()
    if re.fullmatch(r"[0-9]{1,3}", lowered):
        index = int(lowered) - 1
        return options[index] if 0 <= index < len(options) else None
    exact = [option for option in options if option.lower() == lowered]
    if exact:
        return exact[0]
    prefixed = [option for option in options if option.lower().startswith(lowered)]
    return prefixed[0] if len(prefixed) == 1 else None


@dataclass(frozen=True)
class Choice(Ask):
    """Pick one of a few named options: by number, by name, or by a unique first letter or prefix."""

    options: tuple[str, ...] = ()

    def _parse(self, text: str) -> str:
        option = _match_option(text, self.options)
        if option is None:
            raise InvalidAnswer(text, "not one of the options", self.allowed())
        return option

    def allowed(self) -> str:
        return ", ".join(f"{number}={option}" for number, option in enumerate(self.options, 1))

    def suggestions(self) -> list[str]:
        return list(self.options)


@dataclass(frozen=True)
class Number(Ask):
    """A whole number within bounds."""

    minimum: int = 0
    maximum: int = 99

    def _parse(self, text: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,6}", text):
            raise InvalidAnswer(text, "not a whole number", self.allowed())
        value = int(text)
        if not self.minimum <= value <= self.maximum:
            raise InvalidAnswer(text, "out of range", self.allowed())
        return value

    def allowed(self) -> str:
        return f"a whole number from {self.minimum} to {self.maximum}"


YES = ("y", "yes", "true", "1")
NO = ("n", "no", "false", "0")


@dataclass(frozen=True)
class Confirm(Ask):
    """Yes or no."""

    def _parse(self, text: str) -> bool:
        lowered = text.lower()
        if lowered in YES:
            return True
        if lowered in NO:
            return False
        raise InvalidAnswer(text, "not yes or no", self.allowed())

    def encode(self, value: Any) -> str:
        return "yes" if value else "no"

    def allowed(self) -> str:
        return "y(es) or n(o)"

    def suggestions(self) -> list[str]:
        return ["yes", "no"]


@dataclass(frozen=True)
class Dice(Ask):
    """One value per named die, each one of the die's faces. '2 0 1 3', '2,0,1,3' or '2013'."""

    faces: tuple[int, ...] = ()
    names: tuple[str, ...] = ()

    def _parse(self, text: str) -> tuple[int, ...]:
        parts = re.split(r"[\s,;/]+", text.strip(" ,;/"))
        if len(parts) == 1 and re.fullmatch(r"[0-9]+", parts[0]) and len(parts[0]) == len(self.names) > 1:
            parts = list(parts[0])
        if len(parts) != len(self.names) or not all(re.fullmatch(r"[0-9]{1,3}", part) for part in parts):
            raise InvalidAnswer(text, f"expected {len(self.names)} die values", self.allowed())
        values = tuple(int(part) for part in parts)
        for name, value in zip(self.names, values, strict=True):
            if value not in self.faces:
                raise InvalidAnswer(text, f"{name} die cannot show {value}", self.allowed())
        return values

    def encode(self, value: Any) -> str:
        return " ".join(str(v) for v in value)

    def allowed(self) -> str:
        faces = ", ".join(str(face) for face in sorted(set(self.faces)))
        return f"{len(self.names)} values in the order {' '.join(self.names)}, each one of {faces}"


@dataclass(frozen=True)
class Parsed(Ask):
    """A free-form answer read by a game-specific parser (e.g. a card's trigger: 'guild 5').

    The parser raises InvalidAnswer or ValueError; `hint` says what is allowed. The parser must be
    deterministic so the log replays identically; `encode` keeps the cleaned text.
    """

    parser: Callable[[str], Any] = field(default=lambda text: text, compare=False)
    hint: str = ""
    examples: tuple[str, ...] = ()

    def _parse(self, text: str) -> Any:
        try:
            return self.parser(text)
        except InvalidAnswer:
            raise
        except ValueError as error:
            raise InvalidAnswer(text, str(error) or "not understood", self.allowed()) from None

    def encode(self, value: Any) -> str:  # the parser's input, kept by the driver
        raise NotImplementedError("Parsed answers are logged as the text the table typed")

    def allowed(self) -> str:
        return self.hint

    def suggestions(self) -> list[str]:
        return list(self.examples)


def canonical(ask: Ask, raw: str, value: Any) -> str:
    """The text to log for an accepted answer: canonical where the Ask can encode it."""
    if isinstance(ask, Parsed):
        text = clean(raw)
        return text if text else (ask.default or "")
    return ask.encode(value)
