"""How a question is put to whoever answers it: the Answerer (a person or a file), the prompt with
its options, the keys that answer it at a press, and what the answer line may be.

Shared by the guided session (loop.py), the edit of a past answer (edit_cmd.py) and `referee score`
(scorecmd.py): each asks through an Answerer, which keeps asking until the line passes the check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from referee.asks import Ask, Choice
from referee.engine.lines import COMMANDS
from referee.errors import InvalidAnswer

if TYPE_CHECKING:
    from referee.cli.answerers import Masked, Validator
    from referee.cli.completion import Completions

DIGITS = frozenset("0123456789")


class Answerer(Protocol):
    interactive: bool

    def ask(
        self,
        prompt: str,
        validate: Validator,
        default: str | None = None,
        single_keys: str = "",
        complete: Completions | None = None,
        masked: Masked | None = None,
    ) -> str: ...

    def rejected(self, message: str) -> None: ...

    def show_private(self, title: str, lines: Sequence[str]) -> None:
        """One player's hidden holdings, kept off the shared screen where there is one."""


class Quit(Exception):
    """The table asked to stop; the session is saved."""


def prompt_for(ask: Ask[Any]) -> str:
    if isinstance(ask, Choice) and max(ask.numbers) <= 9:
        options = " ".join(f"{number}={option}" for number, option in zip(ask.numbers, ask.options, strict=True))
        return f"{ask.prompt} [{options}]"
    default = f" (Enter = {ask.default})" if ask.default else ""
    return f"{ask.prompt}{default}"


def single_keys(ask: Ask[Any]) -> str:
    """Option numbers that answer at a single key press: only when every number is one digit, and
    none when an option's name begins with a digit ('2' of '20 copper' would answer option 2)."""
    if isinstance(ask, Choice) and max(ask.numbers) <= 9 and not any(
        option.lstrip()[:1] in DIGITS for option in ask.options
    ):
        return "".join(str(number) for number in ask.numbers)
    return ""


def remembering(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """`parse`, keeping its last reading: a line checked as it is typed is not read again to be
    used (a refusal is not kept)."""
    last: list[tuple[str, Any]] = []

    def read(text: str) -> Any:
        if last and last[0][0] == text:
            return last[0][1]
        value = parse(text)
        last[:] = [(text, value)]
        return value

    return read


def validator(
    ask: Ask[Any], correction_verbs: tuple[str, ...] = (), read: Callable[[str], object] | None = None
) -> Validator:
    """What a line at `ask` may be: a command, or an answer that `read` (the driver's, which keeps
    what it read for when the answer is given; else the question's own parse) takes."""
    reader = read or ask.parse

    def check(text: str) -> str | None:
        if text.strip().lower().partition(" ")[0] in (*COMMANDS, *correction_verbs):
            return None  # a command (or an option named like one): the loop reads it and explains a refusal
        if ask.passes_on(text):
            return None  # the driver takes it as the answer to the question after the step
        try:
            reader(text)
        except InvalidAnswer as error:
            return str(error)
        return None

    return check
