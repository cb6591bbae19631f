"""Where answers come from: a person at a terminal, or a file of answers."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.collector import collect_after_prompt, settle_before_prompts
from referee.cli.render import print_marked
from referee.cli.styled import styled
from referee.errors import InvalidAnswer, RefereeError
from referee.safe_files import describe, read_user_text

if TYPE_CHECKING:
    from referee.asks import Ask
    from referee.cli.completion import Completions
    from referee.cli.plain_console import PlainConsole

Validator = Callable[[str], str | None]
"""Returns None when the text is acceptable, else the one-line reason it is not."""
Masked = Callable[[str], bool]
"""Whether the line typed so far must be shown masked (it holds a hidden amount)."""


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
    console: PlainConsole
    source: str = "answers"
    position: int = 0
    interactive = False

    @classmethod
    def from_text(cls, text: str, console: PlainConsole, source: str = "answers") -> ScriptedAnswerer:
        lines = []
        for number, line in enumerate(text.splitlines(), 1):
            content = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
            if content:
                lines.append((number, content))
        return cls(lines, console, source)

    @classmethod
    def from_file(cls, path: Path, console: PlainConsole) -> ScriptedAnswerer:
        try:
            text = read_user_text(path)  # a regular file of at most 16 MB, a byte-order mark skipped
        except (OSError, UnicodeDecodeError) as error:
            raise RefereeError(f"cannot read answers file {path}: {describe(error)}") from None
        return cls.from_text(text, console, str(path))

    def ask(
        self,
        prompt: str,
        validate: Validator,
        default: str | None = None,
        single_keys: str = "",
        complete: Completions | None = None,
        masked: Masked | None = None,
    ) -> str:
        if self.position >= len(self.lines):
            raise AnswersEnded(f"{self.source} ended before the game did")
        self.current_line, text = self.lines[self.position]
        self.position += 1
        self.current_prompt = prompt
        # one line per answer, as in the file (a transcript is read and searched line by line)
        self.console.print(styled(("?", "bold"), f" {prompt} ", (text, "green")), soft_wrap=True)
        return text

    def show_private(self, title: str, lines: Sequence[str]) -> None:
        """Hidden holdings asked for in a file of answers: printed with the rest of the transcript."""
        self.console.print(styled((title, "bold")))
        for line in lines:
            self.console.print(line)

    def rejected(self, message: str) -> None:
        raise ScriptRejected(f"{self.source} line {self.current_line}: {self.current_prompt!r}: {message}")


SWALLOW_SECONDS = 1.0
"""How long after a single-key answer an Enter on the next, empty, question is taken as the
habitual Enter after that key rather than an answer of its own."""


def clock() -> float:
    """The time SWALLOW_SECONDS is measured in (monotonic; tests put a clock of their own here)."""
    return time.monotonic()

ROOM_TO_TYPE = 20
"""Columns kept free after the question for the answer; a longer question goes on more lines."""


@dataclass
class InteractiveAnswerer:
    """A person at the terminal, through questionary prompts.

    An answer is checked when Enter is pressed, never while it is typed. A refused answer is
    explained in one line above a fresh, empty prompt (a wrong number is not left in the box for
    the next keys to be added to). Tab completes what `complete` offers."""

    console: PlainConsole
    interactive = True
    swallow_until: float = 0.0
    """Until when an Enter alone on an empty line is the tail of the last single-key answer."""

    def ask(
        self,
        prompt: str,
        validate: Validator,
        default: str | None = None,
        single_keys: str = "",
        complete: Completions | None = None,
        masked: Masked | None = None,
    ) -> str:
        """Ask until the answer passes `validate`. Each of `single_keys`, pressed on an empty line,
        answers at once without Enter (the numbers of a short list of options); the Enter that a
        hand used to pressing it types next is then swallowed, not taken as the next answer.
        While `masked` says so of the line typed so far, the line shows as asterisks (and stays so
        on the screen after Enter)."""
        while True:
            answer, by_key = self.prompt_once(prompt, single_keys, complete, masked)
            problem = validate(answer)
            if problem is None:
                self.swallow_until = clock() + SWALLOW_SECONDS if by_key else 0.0
                return answer
            self.swallow_until = 0.0
            self.rejected(problem)

    def prompt_once(
        self, prompt: str, single_keys: str, complete: Completions | None, masked: Masked | None = None
    ) -> tuple[str, bool]:
        """One prompt: what was typed, and whether a single key answered it."""
        import questionary

        answered_by_key: list[bool] = []
        bindings = single_key_bindings(single_keys, answered_by_key, self.swallow_until)
        extra: dict[str, Any] = {}
        if complete is not None:
            from referee.cli.completion import completer

            extra = {"completer": completer(complete), "complete_while_typing": False}
        if masked is not None:
            from prompt_toolkit.application.current import get_app
            from prompt_toolkit.filters import Condition

            hide = masked
            extra["is_password"] = Condition(lambda: hide(get_app().current_buffer.text))
        # The default is not typed into the box (typing would append to it); an empty answer takes it.
        question = questionary.text(wrap_prompt(prompt, self.console.width), qmark="?", key_bindings=bindings, **extra)
        settle_before_prompts()
        answer: str = question.unsafe_ask()
        del question
        collect_after_prompt()
        return answer, bool(answered_by_key)

    def show_private(self, title: str, lines: Sequence[str]) -> None:
        """Hidden holdings on the terminal's alternate screen until a key is pressed: back on the
        table's screen, nothing of them is left, not even in the scrollback. Where the output is
        not a terminal there is no shared screen to keep them off: they are printed."""
        private = self.console.set_alt_screen(True)
        try:
            self.console.print(styled((title, "bold")))
            for line in lines:
                print_marked(self.console, ("  ", ""), line)
            if not private:
                return
            import questionary

            questionary.press_any_key_to_continue("Press any key to go back to the table.").unsafe_ask()
        finally:
            if private:
                self.console.set_alt_screen(False)

    def rejected(self, message: str) -> None:
        # rich wraps the line at word boundaries to the terminal's width
        self.console.print(message, style="red")


def wrap_prompt(prompt: str, width: int) -> str:
    """The question wrapped at word boundaries for a terminal `width` columns wide, its later lines
    under the first (after questionary's '? '); the answer goes on a line of its own when the last
    line leaves too little room to type."""
    if len(prompt) + 3 + ROOM_TO_TYPE <= width:
        return prompt
    import textwrap

    lines = textwrap.wrap(prompt, max(20, width - 3), break_long_words=False, break_on_hyphens=False)
    if len(lines[-1]) + 3 + ROOM_TO_TYPE > width:
        lines.append("")
    return "\n  ".join(lines)


def single_key_bindings(keys: str, answered: list[bool], swallow_until: float = 0.0) -> Any:
    """prompt_toolkit key bindings: each key, typed on an empty line, is the whole answer (noted in
    `answered`); before `swallow_until`, an Enter on the still empty line does nothing once."""
    from prompt_toolkit.application.current import get_app
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    bindings = KeyBindings()
    line_is_empty = Condition(lambda: get_app().current_buffer.text == "")

    def answer_with(key: str) -> None:
        @bindings.add(key, filter=line_is_empty)
        def _(event: KeyPressEvent) -> None:
            answered.append(True)
            event.current_buffer.text = key
            event.current_buffer.validate_and_handle()

    for key in keys:
        answer_with(key)

    if swallow_until > clock():
        armed = [True]  # once: a second Enter is meant
        swallow = Condition(lambda: armed[0] and clock() < swallow_until)

        @bindings.add("enter", filter=line_is_empty & swallow)
        def _(event: KeyPressEvent) -> None:
            armed[0] = False

    return bindings
