"""Where answers come from: a person at a terminal, or a file of answers."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from referee.cli.render import styled
from referee.errors import InvalidAnswer, RefereeError
from referee.safe_files import describe, read_user_text

if TYPE_CHECKING:
    from referee.asks import Ask

Validator = Callable[[str], str | None]
"""Returns None when the text is acceptable, else the one-line reason it is not."""


def fits(ask: Ask[Any]) -> Validator:
    """A validator that takes only answers to `ask` (no table commands: for questions outside play)."""

    def check(text: str) -> str | None:
        try:
            ask.parse(text)
        except InvalidAnswer as problem:
            return str(problem)
        return None

    return check


class AnswersEnded(RefereeError):
    """A file of answers ran out before the game ended."""


class ScriptRejected(RefereeError):
    """A line of an answers file does not fit the question it answers."""


@dataclass
class ScriptedAnswerer:
    """Answers read from a file: one per line; blank lines and '#' comments are skipped."""

    lines: Sequence[tuple[int, str]]
    console: Console
    source: str = "answers"
    position: int = 0
    interactive = False

    @classmethod
    def from_text(cls, text: str, console: Console, source: str = "answers") -> ScriptedAnswerer:
        lines = []
        for number, line in enumerate(text.splitlines(), 1):
            content = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
            if content:
                lines.append((number, content))
        return cls(lines, console, source)

    @classmethod
    def from_file(cls, path: Path, console: Console) -> ScriptedAnswerer:
        try:
            text = read_user_text(path)  # a regular file of at most 16 MB, a byte-order mark skipped
        except (OSError, UnicodeDecodeError) as error:
            raise RefereeError(f"cannot read answers file {path}: {describe(error)}") from None
        return cls.from_text(text, console, str(path))

    def ask(
        self, prompt: str, validate: Validator, default: str | None = None, single_keys: str = ""
    ) -> str:
        if self.position >= len(self.lines):
            raise AnswersEnded(f"{self.source} ended before the game did")
        self.current_line, text = self.lines[self.position]
        self.position += 1
        self.current_prompt = prompt
        self.console.print(styled(("?", "bold"), f" {prompt} ", (text, "green")), soft_wrap=True)  # the answer whole
        return text

    def rejected(self, message: str) -> None:
        raise ScriptRejected(f"{self.source} line {self.current_line}: {self.current_prompt!r}: {message}")


@dataclass
class InteractiveAnswerer:
    """A person at the terminal, through questionary prompts that check each answer as it is typed."""

    console: Console
    interactive = True

    def ask(
        self, prompt: str, validate: Validator, default: str | None = None, single_keys: str = ""
    ) -> str:
        """Ask until the answer passes `validate`. Each of `single_keys`, pressed on an empty line,
        answers at once without Enter (the numbers of a short list of options)."""
        import questionary

        def check(text: str) -> bool | str:
            problem = validate(text)
            return True if problem is None else problem

        # The default is not typed into the box (typing would append to it); an empty answer takes it.
        question = questionary.text(prompt, validate=check, qmark="?", key_bindings=single_key_bindings(single_keys))
        answer: str = question.unsafe_ask()
        return answer

    def rejected(self, message: str) -> None:
        self.console.print(message, style="red")


def single_key_bindings(keys: str) -> Any:
    """prompt_toolkit key bindings: each key, typed on an empty line, is the whole answer."""
    from prompt_toolkit.application.current import get_app
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    bindings = KeyBindings()
    line_is_empty = Condition(lambda: get_app().current_buffer.text == "")

    def answer_with(key: str) -> None:
        @bindings.add(key, filter=line_is_empty)
        def _(event: KeyPressEvent) -> None:
            event.current_buffer.text = key
            event.current_buffer.validate_and_handle()

    for key in keys:
        answer_with(key)
    return bindings
