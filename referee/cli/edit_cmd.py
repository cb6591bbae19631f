"""`referee edit` and the `edit` command at a question: change a past answer, replay the rest.

The work is referee/edit.py's; here are the questions it needs (which entry, its new value, a
later answer asked again) and saving the result: the new log in one atomic write, with the
record of the edit, then the index.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table

from referee.cli.answerers import fits
from referee.cli.asking import Answerer, single_keys
from referee.cli.failure import error
from referee.cli.plain_console import PlainConsole
from referee.cli.question_text import shown_prompt
from referee.cli.render import make_console, plain_text
from referee.engine.driver import Driver, Entry
from referee.errors import RefereeError
from referee.history import resolve
from referee.store import Store
from referee.timeline import walk, where

if TYPE_CHECKING:
    from referee.edit import EditResult, Reask
    from referee.session import LiveSession

NO_TERMINAL_EDIT = "no terminal to ask on: give --entry K --value TEXT (and --answers FILE for questions asked again)"



def edit_session(
    db: Path | None, given: str, number: int | None, value: str | None, answers: Path | None
) -> int:
    from referee.cli.answerers import (
        AnswersEnded,
        InteractiveAnswerer,
        ScriptedAnswerer,
        ScriptRejected,
    )
    from referee.edit import EditError
    from referee.games.registry import load_game
    from referee.session import LiveSession

    console = make_console()
    store = Store(db)
    try:
        meta = resolve(store, given)
        answerer: Answerer | None = None
        if answers is not None:
            answerer = ScriptedAnswerer.from_file(answers, console)
        elif sys.stdin.isatty():
            answerer = InteractiveAnswerer(console)
        if (number is None or value is None) and (answerer is None or not answerer.interactive):
            error(NO_TERMINAL_EDIT)
            return 2
        live = LiveSession.resume(store, meta.id, load_game)
    except RefereeError as problem:
        error(str(problem))
        return 2
    try:
        if live.dropped:
            console.print(plain_text(f"Note: the stored log stopped fitting after {len(live.driver.entries)} entries "
                               f"({live.replay_error}); the rest was set aside in {live.set_aside_path}.",
                               style="yellow"))
        winners = list(live.driver.report.winners) if live.driver.report is not None else None
        if number is None:
            assert answerer is not None
            show_numbered_log(console, live)
            number = ask_entry_number(answerer, len(live.driver.entries))
        if value is None:
            assert answerer is not None
            value = ask_new_value(console, answerer, live, number)
        result = run_edit(live, number, value, reasker(console, answerer, live.meta.id), winners)
        if result is None:
            console.print(f"Entry {number} already has that value: nothing changed.")
            return 0
        commit(live, result)
        tell(console, live, result)
        return 0
    except EditError as problem:
        error(f"{problem}; nothing was changed")
        return 2
    except (AnswersEnded, ScriptRejected) as problem:
        error(f"{problem}; nothing was changed")
        return 2
    except (EOFError, KeyboardInterrupt):
        console.print("\nStopped: nothing was changed.")
        return 1
    except RefereeError as problem:
        error(str(problem))
        return 2
    finally:
        live.release()


def run_edit(live: LiveSession, number: int, value: str, reask: Reask, winners: list[str] | None) -> EditResult | None:
    """The edit of entry `number` (None when the new value is the one it already has)."""
    from referee.edit import CHANGED, edit

    meta = live.meta
    result = edit(live.game, meta.players, meta.options, list(live.driver.entries), number, value, reask, winners,
                  live.driver.questions)
    first = result.records[0]
    if len(result.records) == 1 and first.why == CHANGED and first.old == first.new:
        return None
    return result


def commit(live: LiveSession, result: EditResult) -> None:
    """Save an edit: the new log in one atomic write, the edit records with it, then the index."""
    meta = live.meta
    edits_before, driver_before = list(meta.edits), live.driver
    meta.edits.extend(record.to_json() for record in result.records)
    live.driver = result.driver
    try:
        live.file.rewrite([entry.to_json() for entry in result.entries])
    except RefereeError:
        meta.edits[:], live.driver = edits_before, driver_before
        raise
    live.close("finished" if result.driver.finished else "playing")


def tell(console: PlainConsole, live: LiveSession, result: EditResult, scoreboard: bool = True) -> None:
    from referee.edit import NOT_REACHED
    from referee.edit import describe as value_of

    skipped = [record.entry for record in result.records if record.why == NOT_REACHED]
    for record in result.records:
        if record.why == NOT_REACHED:
            continue
        change = f"{value_of(record.old)} -> {value_of(record.new)}"
        console.print(plain_text(f"Entry {record.entry} {record.why}: {change}"))
    if skipped:
        console.print(f"Entries {skipped[0]} to {skipped[-1]} left out: the game ended before them.")
    report = result.driver.report
    if report is None:
        console.print(plain_text(f"The game has not ended now: continue with 'referee resume {live.meta.id}'."))
        return
    before = result.winners_before
    now = ", ".join(report.winners) or "nobody"
    if before is None:
        console.print(plain_text(f"The game has ended: winner {now}."))
    elif before != list(report.winners):
        console.print(plain_text(f"The winner changes: {now} (was {', '.join(before) or 'nobody'}).", style="bold"))
    else:
        console.print(plain_text(f"Scores recomputed; the winner stays {now}."))
    if scoreboard:
        from referee.cli.render import show_scoreboard

        show_scoreboard(console, report, live.game.short_headers)


def show_numbered_log(console: PlainConsole, live: LiveSession) -> None:
    meta = live.meta
    played = walk(live.game, meta.players, meta.options, live.driver.entries, questions=live.driver.questions)
    table = Table(title=f"Log of {meta.id}", title_justify="left")
    counted, whose = played.steps[0].header.columns() if played.steps else ("Round", "Turn")
    for column in ("#", counted, whose, "Question", "Answer or correction"):
        table.add_column(column, justify="right" if column in ("#", counted) else "left")
    for step in played.steps:
        round_text, turn, _ = where(step.header)
        table.add_row(str(step.number), round_text, plain_text(turn), plain_text(step.question or "(correction)"),
                      plain_text(step.entry.text()))
    console.print(table)


def ask_entry_number(answerer: Answerer, count: int) -> int:
    from referee.asks import Number

    question = Number(f"Which entry do you change (1 to {count})?", minimum=1, maximum=count)
    return int(question.parse(answerer.ask(question.prompt, fits(question))))


def ask_new_value(console: PlainConsole, answerer: Answerer, live: LiveSession, number: int) -> str:
    from referee.edit import driver_before

    meta = live.meta
    old = live.driver.entries[number - 1]
    console.print(plain_text(f"Entry {number} is now: {old.text()}"))
    if old.adjust is not None:
        return answerer.ask("New correction ('WHO FIELD +N|-N|=N ; reason'; without a reason the old one stays)",
                            lambda text: None if text.strip() else "type the new correction")
    waiting = driver_before(live.game, meta.players, meta.options, live.driver.entries, number,
                            live.driver.questions)
    ask = waiting.pending
    assert ask is not None
    return answerer.ask(shown_prompt(ask), fits(ask), ask.default, single_keys(ask))


def reasker(console: PlainConsole, answerer: Answerer | None, session_id: str) -> Reask:
    """How a later entry that no longer fits is asked again: at the terminal, or from --answers."""
    from referee.edit import EditError, with_reason

    last: list[int] = []

    def reask(number: int, old: Entry, problem: str, driver: Driver) -> Entry | None:
        if answerer is None:
            raise EditError(f"entry {number} ({old.text()}) no longer fits ({problem}); give its new value "
                            "with --answers FILE, or run 'referee edit' at a terminal")
        if last and last[-1] == number:
            answerer.rejected(problem)  # the replacement did not fit either (a file's line stops the edit)
        else:
            console.print(plain_text(f"Entry {number} ({old.text()}) no longer fits: {problem}", style="yellow"))
        last.append(number)
        if old.adjust is not None:
            text = answerer.ask("A new correction in its place ('WHO FIELD +N ; reason'), or 'drop' to leave it out",
                                lambda typed: None if typed.strip() else "type a correction or 'drop'")
            return None if text.strip().lower() == "drop" else with_reason(old, text)
        ask = driver.pending
        assert ask is not None
        return Entry(answer=answerer.ask(shown_prompt(ask), fits(ask), ask.default, single_keys(ask)))

    return reask


def edit_at_question(live: LiveSession, answerer: Answerer, console: PlainConsole, rest: str) -> None:
    """The `edit` command at a question of a running session: 'edit', 'edit N' or 'edit N NEW VALUE'."""
    from referee.edit import EditError

    count = len(live.driver.entries)
    number_text, _, value = rest.strip().partition(" ")
    if count == 0:
        answerer.rejected("nothing to edit yet: no answer has been given")
        return
    try:
        if not number_text:
            if not answerer.interactive:
                answerer.rejected("'edit' takes the entry and its new value here: 'edit N NEW VALUE'")
                return
            show_numbered_log(console, live)
            number = ask_entry_number(answerer, count)
        elif number_text.isdecimal() and 1 <= int(number_text) <= count:
            number = int(number_text)
        else:
            answerer.rejected(f"'edit' takes an entry number from 1 to {count}, not {number_text!r}")
            return
        if not value.strip():
            if not answerer.interactive:
                answerer.rejected(f"give the new value: 'edit {number} NEW VALUE'")
                return
            value = ask_new_value(console, answerer, live, number)
        result = run_edit(live, number, value, reasker(console, answerer, live.meta.id), None)
        if result is None:
            console.print(f"Entry {number} already has that value: nothing changed.")
            return
        commit(live, result)
    except EditError as problem:
        answerer.rejected(f"{problem}; nothing was changed")
        return
    tell(console, live, result, scoreboard=False)  # the game's own end shows the scoreboard next
    live.driver.take_messages()
    if not live.driver.finished:
        console.print("Back to the game.")
