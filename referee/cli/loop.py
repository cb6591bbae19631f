"""The guided session at the table: ask, check, apply, show; with undo, corrections and help."""

from __future__ import annotations

from typing import Any, Protocol

from rich.console import Console

from referee.asks import Ask, Choice, TableStep
from referee.cli.answerers import Validator
from referee.cli.render import show_header, show_messages, show_public, show_scoreboard
from referee.engine.game import Game
from referee.engine.lines import COMMANDS, Line, read_line
from referee.engine.session import LiveSession
from referee.errors import InvalidAdjustment, InvalidAnswer, RefereeError

DIGITS = frozenset("0123456789")
__all__ = ["COMMANDS", "Answerer", "Quit", "SessionLoop", "command_help"]


def command_help(game: Game[Any]) -> str:
    """The commands at any question, with this game's own correction example."""
    example = f"e.g. 'adjust {game.correction_example}'" if game.correction_example else "see the forms above"
    return (
        "At any question: 'undo' [N], 'state', 'secret NAME', 'help' or '?', 'rules WORDS', "
        f"'adjust WHO FIELD +N|-N|=N ; reason' ({example}), 'edit' [N NEW VALUE] (change a past answer), 'quit'."
    )


class Answerer(Protocol):
    interactive: bool

    def ask(
        self, prompt: str, validate: Validator, default: str | None = None, single_keys: str = ""
    ) -> str: ...

    def rejected(self, message: str) -> None: ...


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


def validator(ask: Ask[Any], correction_verbs: tuple[str, ...] = ()) -> Validator:
    def check(text: str) -> str | None:
        if text.strip().lower().partition(" ")[0] in (*COMMANDS, *correction_verbs):
            return None  # a command (or an option named like one): the loop reads it and explains a refusal
        if isinstance(ask, TableStep):
            return None  # the driver also takes the answer to the question after the step
        try:
            ask.parse(text)
        except InvalidAnswer as error:
            return str(error)
        return None

    return check


class SessionLoop:
    def __init__(self, live: LiveSession, answerer: Answerer, console: Console) -> None:
        self.live = live
        self.answerer = answerer
        self.console = console
        self._last_turn: tuple[int | None, str | None] | None = None

    @property
    def game(self) -> Game[Any]:
        return self.live.game

    def run(self) -> None:
        """Play until the game ends; raises Quit, KeyboardInterrupt, EOFError or AnswersEnded."""
        show_messages(self.console, self.live.driver.take_messages())
        while self.live.driver.pending is not None:
            ask = self.live.driver.pending
            header = self.game.header(self.live.driver.state)
            turn = (header.round, header.active)
            if turn != self._last_turn:
                if self._last_turn is not None:
                    self.show_state()
                show_header(self.console, header)
                self._last_turn = turn
            verbs = self.game.correction_verbs
            text = self.answerer.ask(prompt_for(ask), validator(ask, verbs), ask.default, single_keys(ask))
            try:
                line = read_line(text, ask, verbs)
                if line.kind != "answer":
                    self.command(line, ask)
                    continue
                self.live.answer(text)
            except InvalidAnswer as error:
                self.answerer.rejected(str(error))
                continue
            show_messages(self.console, self.live.driver.take_messages())
        self.show_state()
        report = self.live.driver.report
        if report is not None:
            show_scoreboard(self.console, report)

    def show_state(self) -> None:
        show_public(self.console, self.game.public_view(self.live.driver.state))

    def command(self, line: Line, ask: Ask[Any]) -> None:
        if line.kind == "quit":
            raise Quit()
        if line.kind == "undo":
            undone = self.live.undo(line.steps)
            self.console.print(f"Undone: {undone} step(s). Back to the previous question.")
            self._last_turn = None
        elif line.kind == "redo":
            self.answerer.rejected("nothing to redo")
        elif line.kind == "edit":
            from referee.cli.edit_cmd import edit_at_question

            edit_at_question(self, line.text)
            self._last_turn = None
        elif line.kind == "state":
            self.show_state()
        elif line.kind == "secret":
            self.show_secret(line.text)
        elif line.kind == "help":
            self.show_help(ask)
        elif line.kind == "rules":
            self.show_rules(line.text)
        elif line.kind == "adjust":
            self.adjust(line.text, line.reason)

    def show_secret(self, name: str) -> None:
        try:
            for line in self.game.hidden_view(self.live.driver.state, name):
                self.console.print(line, highlight=False)
        except KeyError:
            self.answerer.rejected(f"no player {name!r}: use 'secret NAME'")

    def show_help(self, ask: Ask[Any]) -> None:
        self.console.print(f"Allowed: {ask.allowed()}", highlight=False)
        try:
            from referee.rules import section

            found = section(self.game.rulebook, ask.section)
            from rich.markdown import Markdown

            self.console.print(Markdown(f"**{found.title}** (`{found.id}`)\n\n{found.text}"))
        except (ImportError, RefereeError, KeyError, LookupError):
            self.console.print(f"(rulebook section {ask.section!r} is not available)")
        self.console.print(f"Corrections: {self.game.adjust_help()}", markup=False, highlight=False)
        self.console.print(command_help(self.game), markup=False, highlight=False)

    def show_rules(self, query: str) -> None:
        if not query:
            self.answerer.rejected("say what to look up: 'rules WORDS'")
            return
        try:
            from rich.markdown import Markdown

            from referee.rules import search

            results = search(query, self.game.rulebook, limit=2)
        except (ImportError, RefereeError) as error:
            self.console.print(f"(rules lookup unavailable: {error})")
            return
        if not results:
            self.console.print("No section matches.")
        for result in results:
            self.console.print(Markdown(f"**{result.title}** (`{result.section}`)\n\n{result.text}"))

    def adjust(self, text: str, reason: str) -> None:
        if not text.strip() and self.answerer.interactive:
            text = self.answerer.ask(f"Correction ({self.game.adjust_help()})", lambda _: None)
            reason = self.answerer.ask("Reason (the card or ability behind it)", lambda _: None)
        try:
            self.live.adjust(text.strip(), reason.strip())
        except InvalidAdjustment as error:
            self.answerer.rejected(str(error))
            return
        problems = self.game.invariant_errors(self.live.driver.state)
        if problems:  # the game's adjust refuses these; reaching here is a bug worth showing
            self.console.print(f"State check failed: {'; '.join(problems)}", style="red")
        show_messages(self.console, self.live.driver.take_messages())
