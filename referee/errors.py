"""Errors the referee raises. Each message is one line: what was wrong and what is allowed."""

from __future__ import annotations


class RefereeError(Exception):
    """Base class of every error the referee reports to the table."""


class InvalidAnswer(RefereeError, ValueError):
    """An answer that does not fit the question asked; the question is asked again."""

    def __init__(self, raw: str, problem: str, allowed: str) -> None:
        self.raw = raw
        self.problem = problem
        self.allowed = allowed
        super().__init__(f"{problem}: {raw!r}. Allowed: {allowed}")


class InvalidAdjustment(RefereeError, ValueError):
    """A manual correction that cannot be applied (bad syntax, or it would break a rule)."""


class ScoreInputError(RefereeError, ValueError):
    """Invalid end-of-game holdings given to `referee score`."""

    def __init__(self, player: str | None, field: str, value: object, allowed: str) -> None:
        self.player = player
        self.field = field
        self.value = value
        self.allowed = allowed
        who = f"player {shorten(player)}, " if player is not None else ""
        super().__init__(f"{who}field {shorten(field)}: bad value {shorten(value)}; allowed: {allowed}")


def shorten(value: object, limit: int = 60) -> str:
    """A value's repr, cut short so that a one-line message stays one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class UnknownGame(RefereeError, ValueError):
    """A game name that is neither a game id nor an alias."""


class InternalError(RefereeError):
    """A defect of the referee met while applying an answer; the answer is not kept."""


class SessionError(RefereeError):
    """A session that cannot be opened, resumed or written."""
