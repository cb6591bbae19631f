"""The guided session at the table: ask, check, apply, show; with undo, corrections and help."""

from __future__ import annotations

from typing import Any, Protocol

from rich.console import Console

from referee.asks import Ask, Choice
from referee.cli.answerers import Validator
from referee.cli.render import show_header, show_messages, show_public, show_scoreboard
from referee.engine.game import Game
from referee.engine.session import LiveSession
from referee.errors import InvalidAdjustment, InvalidAnswer, RefereeError

DIGITS = frozenset("0123456789")
COMMANDS = ("undo", "state", "help", "?", "adjust", "quit", "rules", "secret")
COMMAND_HELP = (
    "At any question: 'undo' [N], 'state', 'secret NAME', 'help' or '?', 'rules WORDS', "
    "'adjust' (a correction, e.g. 'adjust Ann noble +1 ; King card'), 'quit'."
)


class Answerer(Protocol):
    interactive: bool

    def ask(
        self, prompt: str, validate: Validator, default: str | None = None, single_keys: str = ""
    ) -> str: ...

    def rejected(self, message: str) -> None: ...


class Quit(Exception):
    """The table asked to stop; the session is saved."""


def prompt_for(ask: Ask) -> str:
    if isinstance(ask, Choice) and len(ask.options) <= 9:
        options = " ".join(f"{number}={option}" for number, option in enumerate(ask.options, 1))
        return f"{ask.prompt} [{options}]"
    default = f" (Enter = {ask.default})" if ask.default else ""
    return f"{ask.prompt}{default}"


def single_keys(ask: Ask) -> str:
    """Option numbers that answer at a single key press: only when there are at most nine, and
    none when an option's name begins with a digit ('2' of '20 copper' would answer option 2)."""
    if isinstance(ask, Choice) and len(ask.options) <= 9 and not any(
        option.lstrip()[:1] in DIGITS for option in ask.options
    ):
        return "".join(str(number) for number in range(1, len(ask.options) + 1))
    return ""


def is_command(text: str, ask: Ask | None = None) -> bool:
    """A table command rather than an answer; an option named like a command stays an answer."""
    words = text.strip().lower().split()
    if not words or words[0] not in COMMANDS:
        return False
    return not (isinstance(ask, Choice) and text.strip().lower() in (option.lower() for option in ask.options))


def validator(ask: Ask) -> Validator:
    def check(text: str) -> str | None:
        if is_command(text, ask):
            return None
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
            text = self.answerer.ask(prompt_for(ask), validator(ask), ask.default, single_keys(ask))
            if is_command(text, ask):
                self.command(text, ask)
                continue
            try:
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

    def command(self, text: str, ask: Ask) -> None:
        word, _, rest = text.strip().partition(" ")
        word, rest = word.lower(), rest.strip()
        if word == "quit":
            raise Quit()
        if word == "undo":
            if rest and not rest.isdecimal():  # isdigit() also passes "²", which int() refuses
                self.answerer.rejected(f"'undo' takes a number of steps, not {rest!r}: e.g. 'undo' or 'undo 3'")
                return
            steps = int(rest) if rest else 1
            undone = self.live.undo(steps)
            self.console.print(f"Undone: {undone} step(s). Back to the previous question.")
            self._last_turn = None
        elif word == "state":
            self.show_state()
        elif word == "secret":
            self.show_secret(rest)
        elif word in ("help", "?"):
            self.show_help(ask)
        elif word == "rules":
            self.show_rules(rest)
        elif word == "adjust":
            self.adjust(rest)

    def show_secret(self, name: str) -> None:
        try:
            for line in self.game.hidden_view(self.live.driver.state, name):
                self.console.print(line, highlight=False)
        except KeyError:
            self.answerer.rejected(f"no player {name!r}: use 'secret NAME'")

    def show_help(self, ask: Ask) -> None:
        self.console.print(f"Allowed: {ask.allowed()}", highlight=False)
        try:
            from referee.rules import section

            found = section(self.game.rulebook, ask.section)
            from rich.markdown import Markdown

            self.console.print(Markdown(f"**{found.title}** (`{found.id}`)\n\n{found.text}"))
        except (ImportError, RefereeError, KeyError, LookupError):
            self.console.print(f"(rulebook section {ask.section!r} is not available)")
        self.console.print(COMMAND_HELP, highlight=False)

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

    def adjust(self, rest: str) -> None:
        text, _, reason = rest.partition(";")
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
