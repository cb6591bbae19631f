"""The guided session at the table: ask, check, apply, show; with undo, corrections and help."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee.asks import Ask, Confirm, clean
from referee.cli.answerers import Masked, fits
from referee.cli.asking import Answerer, Quit, prompt_for, single_keys, validator
from referee.cli.changes import changes
from referee.cli.completion import Completions, gather
from referee.cli.question_text import YES_OR_NO, shown_prompt
from referee.cli.render import show_changes, show_header, show_messages, show_public, show_scoreboard
from referee.cli.styled import styled
from referee.engine.cards import Card, CardQuestion
from referee.engine.game import Game, Header, PublicView
from referee.engine.lines import COMMANDS, Line, read_line
from referee.errors import InvalidAdjustment, InvalidAnswer, RefereeError
from referee.session import LiveSession

if TYPE_CHECKING:
    from referee.cli.plain_console import PlainConsole
    from referee.timeline import Step

__all__ = ["COMMANDS", "Answerer", "Quit", "SessionLoop", "command_help", "prompt_for"]


def command_help(game: Game[Any]) -> str:
    """The commands at any question, with this game's own correction example."""
    example = f"e.g. 'adjust {game.correction_example}'" if game.correction_example else "see the forms above"
    return (
        "At any question: 'undo' [N], 'redo' [N], 'state', 'secret NAME', 'help' or '?', 'rules WORDS', "
        f"'adjust WHO FIELD +N|-N|=N ; reason' ({example}), 'edit' [N NEW VALUE] (change a past answer), 'quit'. "
        "Tab completes options, names and commands."
    )


def round_of(header: Header, seats: int = 1) -> object:
    """What ends with a round: the round; in a game counted in turns only, once around the table
    (`seats` turns, Cutthroat Kingdoms' turn count), or each turn where the turns have no number."""
    if header.counted_in_turns and header.round:
        return (header.round - 1) // max(1, seats)
    return header.round if header.round is not None else header.turn


def known_card(ask: Ask[Any], text: str, value: object) -> tuple[str, Mapping[str, str]] | None:
    """The known card a line names at a card question (not an ordinary answer to it), if any;
    `value` is what the line reads as."""
    if not isinstance(ask, CardQuestion) or not isinstance(value, Card) or value.name is None:
        return None
    printed = ask.known.get(value.name)
    if printed is None or clean(text).lower() != value.name.lower() or dict(printed) != value.printed:
        return None
    return value.name, printed


def shown_entry(step: Step) -> str:
    """An entry as the shared screen may tell it: a correction of a hidden field (or one with a
    form of its own, such as a payment between purses) names what it was about, not its amount."""
    entry, read = step.entry, step.entry.read
    if read is not None and read.told_by_name_only:
        owner = f"{read.who}'s " if read.who else ""
        where = f"{step.header.active}: " if step.header.active else ""
        return f"{where}correction of {owner}{read.field.name} (hidden) ({entry.reason})"
    return step.told()


def show_changes_or_table(
    console: PlainConsole, before: PublicView, after: PublicView, show_table: Callable[[], None]
) -> None:
    found = changes(before, after)
    if found.too_many:
        show_table()
    else:
        show_changes(console, found.lines)


class SessionLoop:
    """Ask, check, apply and show, question after question.

    After each step the screen says what changed in a line or two (the game's messages, and the
    table's cells that changed); the whole table is shown when a round ends, on 'state', and when
    more changed than a few lines can say."""

    def __init__(self, live: LiveSession, answerer: Answerer, console: PlainConsole) -> None:
        self.live = live
        self.answerer = answerer
        self.console = console
        self._last_header: tuple[object, ...] | None = None
        self._last_round: object = None

    @property
    def game(self) -> Game[Any]:
        return self.live.game

    def run(self) -> None:
        """Play until the game ends; raises Quit, KeyboardInterrupt, EOFError or AnswersEnded."""
        show_messages(self.console, self.live.driver.take_messages())
        self._last_round = self.round_now()
        while self.live.driver.pending is not None:
            ask = self.live.driver.pending
            self.show_header()
            verbs = self.game.correction_verbs
            text = self.answerer.ask(
                shown_prompt(ask), validator(ask, verbs, self.live.driver.read), ask.default, single_keys(ask),
                complete=self.completions(ask), masked=self.hides_amount("adjust"),
            )
            self.take(text, ask)
        self.show_state()
        report = self.live.driver.report
        if report is not None:
            show_scoreboard(self.console, report, self.game.short_headers)

    def take(self, text: str, ask: Ask[Any]) -> None:
        """One typed line: a command, or an answer applied and its changes shown."""
        verbs = self.game.correction_verbs
        try:
            line = read_line(text, ask, verbs)
            if line.kind != "answer":
                self.command(line, ask)
                return
            reads_a_card = self.answerer.interactive and isinstance(ask, CardQuestion)
            card = known_card(ask, text, self.live.driver.read(text)) if reads_a_card else None
            if card is not None and isinstance(ask, CardQuestion):
                again = self.confirm_card(ask, *card)
                if again:
                    self.take(again, ask)
                    return
                text = card[0]
            before = self.view()
            self.live.answer(text)
        except InvalidAnswer as error:
            self.answerer.rejected(str(error))
            return
        self.show_step(before)

    def round_now(self) -> object:
        return round_of(self.game.header(self.live.driver.state), len(self.live.driver.players))

    def view(self) -> PublicView:
        return self.game.public_view(self.live.driver.state)

    def show_header(self, force: bool = False) -> None:
        """The header when the turn, the round or the progress moved on (or `force`)."""
        header = self.game.header(self.live.driver.state)
        key = (header.round, header.turn, header.active, header.progress)
        if force or key != self._last_header:
            show_header(self.console, header)
            self._last_header = key

    def show_step(self, before: PublicView) -> None:
        """What the last step changed: the game's messages, then the changed cells in a line or
        two; the whole table when a round has ended or when more changed than a few lines say."""
        show_messages(self.console, self.live.driver.take_messages())
        after = self.view()
        current = self.round_now()
        if current != self._last_round or self.live.driver.finished:
            self._last_round = current
            if not self.live.driver.finished:  # the end of the game shows the table once, below
                self.show_state()
            return
        found = changes(before, after)
        if found.too_many:
            self.show_state()
        else:
            show_changes(self.console, found.lines)

    def show_state(self) -> None:
        show_public(self.console, self.view(), self.game.short_headers)

    def completions(self, ask: Ask[Any]) -> Completions:
        state = self.live.driver.state
        return gather(
            ask.suggestions(),
            COMMANDS,
            self.game.player_names(state),
            (target.name for target in self.game.correction_targets(state)),
            (field.name for field in self.game.fields),
            self.game.correction_verbs,
        )

    def hides_amount(self, command: str = "") -> Masked:
        """Whether a line typed so far is a correction of a hidden field (after `command`, when the
        line must start with it): the table should not watch its amount being typed."""
        def hides(typed: str) -> bool:
            word, _, rest = typed.strip().partition(" ")
            if command and word.lower() != command:
                return False
            change = (rest if command else typed).partition(";")[0]
            try:  # read as it is typed; the driver keeps the reading for when it is entered
                return self.live.driver.read_correction(change).keeps_amount_hidden
            except InvalidAdjustment:
                return False

        return hides

    def confirm_card(self, ask: CardQuestion, name: str, printed: Mapping[str, str]) -> str:
        """A known card named at a card question: its printed fields are shown; Enter takes it,
        another answer replaces it. Returns that other answer, or '' for the card."""
        fields = ", ".join(f"{field} {value}" for field, value in printed.items())
        self.console.print(styled(("  ›", "cyan"), f" {name}: {fields}"))
        base = validator(ask, self.game.correction_verbs, self.live.driver.read)
        typed = self.answerer.ask(
            f"Enter = {name}, or another answer", lambda text: None if not text.strip() else base(text),
            complete=self.completions(ask),
        )
        return typed.strip()

    def command(self, line: Line, ask: Ask[Any]) -> None:
        if line.kind == "quit":
            raise Quit()
        if line.kind == "undo":
            self.undo(line.steps)
        elif line.kind == "redo":
            self.redo(line.steps)
        elif line.kind == "edit":
            from referee.cli.edit_cmd import edit_at_question

            edit_at_question(self.live, self.answerer, self.console, line.text)
            self.show_header(force=True)
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

    def undo(self, steps: int) -> None:
        """Take back `steps` entries and say which; more than one reaching into an earlier turn is
        confirmed first at the terminal (an answers file means what it says)."""
        described = self.live.describe_last(steps)
        if not described:
            self.answerer.rejected("nothing to undo")
            return
        header = self.game.header(self.live.driver.state)
        if self.answerer.interactive and len(described) > 1 and described[0].turn != (header.round, header.active):
            first = described[0]
            active = first.header.active
            counted = f"{first.header.round_name.lower()} {first.round}" if first.round else ""
            where = ", ".join(part for part in (counted, f"{active}'s turn" if active else "") if part)
            back_to = f"{where} ({first.asked!r})" if where else repr(first.asked)
            question = Confirm(f"Undo {len(described)} entries, back to {back_to}? {YES_OR_NO}")
            answer = self.answerer.ask(question.prompt, fits(question), complete=gather(["yes", "no"], (), (), (), ()))
            if not question.parse(answer):
                self.console.print("Nothing undone.")
                return
        before = self.view()
        self.live.undo(len(described))
        self.say_entries("Undone", described)
        self.show_header(force=True)
        self._last_round = self.round_now()
        show_changes_or_table(self.console, before, self.view(), self.show_state)

    def redo(self, steps: int) -> None:
        if not self.live.undone:
            self.answerer.rejected("nothing to redo: redo brings back what undo took while nothing new was entered")
            return
        before = self.view()
        redone = self.live.redo(steps)
        self.say_entries("Redone", self.live.describe_last(len(redone)))
        self.show_header(force=True)
        self._last_round = self.round_now()
        show_changes_or_table(self.console, before, self.view(), self.show_state)

    def say_entries(self, what: str, described: Sequence[Step]) -> None:
        texts = [shown_entry(step) for step in described]
        if len(texts) == 1:
            self.console.print(styled((f"{what}:", "bold"), f" {texts[0]}"))
            return
        self.console.print(styled((f"{what} {len(texts)} entries:", "bold")))
        for text in texts:
            self.console.print(f"  {text}")

    def show_secret(self, name: str) -> None:
        try:
            lines = self.game.hidden_view(self.live.driver.state, name)
        except KeyError:
            self.answerer.rejected(f"no player {name!r}: use 'secret NAME'")
            return
        self.answerer.show_private(f"Only {name} looks: hidden holdings", lines)

    def show_help(self, ask: Ask[Any]) -> None:
        """The rule that governs the question, what it allows and the commands: through the pager
        when it is longer than the screen (at a terminal only)."""
        from referee.cli.paging import paged_console

        with paged_console(self.console, self.answerer.interactive) as out:
            out.print(f"Allowed: {ask.allowed()}", highlight=False)
            try:
                from referee.rules import section

                found = section(self.game.rulebook, ask.section)
                from rich.markdown import Markdown

                out.print(Markdown(f"**{found.title}** (`{found.id}`)\n\n{found.text}"))
            except (ImportError, RefereeError, KeyError, LookupError):
                out.print(f"(rulebook section {ask.section!r} is not available)")
            out.print(f"Corrections: {self.game.adjust_help()}", markup=False, highlight=False)
            out.print(command_help(self.game), markup=False, highlight=False)

    def show_rules(self, query: str) -> None:
        """`rules WORDS` at a question: the session's own game is searched (a leading name of that
        game is taken as naming it), the best section shown in full, then what to read next."""
        words = query.split()
        if words and self._names_this_game(words[0]):
            words = words[1:]
        if not words:
            self.answerer.rejected("say what to look up: 'rules WORDS'")
            return
        try:
            from rich.markdown import Markdown

            from referee.rules import library

            results = library.search(" ".join(words), self.game.rulebook, limit=3)
        except (ImportError, RefereeError) as error:
            self.console.print(f"(rules lookup unavailable: {error})")
            return
        if not library.matches_well(results):
            self.console.print(f"No section of {self.game.rulebook} answers {' '.join(words)!r} well.",
                               markup=False, highlight=False)
            if not results:
                return
        best = results[0]
        from referee.cli.paging import paged_console

        with paged_console(self.console, self.answerer.interactive) as out:  # a section may be long
            out.print(Markdown(f"**{best.title}** (`{best.section}`)\n\n{best.text}"))
            if best.related:
                out.print("See also: " + ", ".join(f"{title} ({section})" for section, title in best.related),
                          markup=False, highlight=False)
            if results[1:]:
                out.print("Also matching: " + ", ".join(f"{result.title} ({result.section})"
                                                       for result in results[1:]),
                          markup=False, highlight=False)

    def _names_this_game(self, word: str) -> bool:
        """The session's game by its id, alias or rulebook id (never a prefix: "black" is a word)."""
        from referee.games.registry import GAMES

        wanted = word.lower()
        return wanted == self.game.rulebook or any(
            game.id == self.game.id and (wanted == game.id or wanted in game.aliases) for game in GAMES)

    def adjust(self, text: str, reason: str) -> None:
        if not text.strip() and self.answerer.interactive:
            offer = self.completions(self.live.driver.pending or Confirm(""))
            fields = Completions((), (), offer.targets, offer.fields, prefix="adjust ")
            text = self.answerer.ask(f"Correction ({self.game.adjust_help()})", lambda _: None, complete=fields,
                                     masked=self.hides_amount())
            reason = self.answerer.ask("Reason (the card or ability behind it)", lambda _: None)
        before = self.view()
        try:
            self.live.adjust(text.strip(), reason.strip())
        except InvalidAdjustment as error:
            self.answerer.rejected(str(error))
            return
        problems = self.game.invariant_errors(self.live.driver.state)
        if problems:  # the game's adjust refuses these; reaching here is a bug worth showing
            self.console.print(f"State check failed: {'; '.join(problems)}", style="red")
        self.show_step(before)
