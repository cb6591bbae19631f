"""Running sessions from the command line: start, resume, replay a scenario (listing: history_cmd.py)."""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.answerers import AnswersEnded, InteractiveAnswerer, ScriptedAnswerer, ScriptRejected
from referee.cli.asking import Answerer, Quit
from referee.cli.failure import error
from referee.cli.loop import SessionLoop
from referee.cli.render import make_console
from referee.cli.session_console import SessionConsole
from referee.cli.styled import styled
from referee.errors import RefereeError
from referee.session import LiveSession
from referee.store import Store
from referee.wording import counted

if TYPE_CHECKING:
    from referee.cli.plain_console import PlainConsole

NO_TERMINAL = "no terminal to ask questions on; give the answers with --answers FILE"



def choose_answerer(answers: Path | None, console: PlainConsole) -> Answerer | None:
    if answers is not None:
        return ScriptedAnswerer.from_file(answers, console)
    if not sys.stdin.isatty():
        error(NO_TERMINAL)
        return None
    return InteractiveAnswerer(console)


def resume_hint(live: LiveSession, db: Path | None) -> str:
    where = f" --db {shlex.quote(str(db))}" if db else ""  # pasted into a shell as it is
    return f"referee resume {live.meta.id}{where}"


def start_session(
    game: str, players: list[str], options: Mapping[str, Any], answers: Path | None, db: Path | None
) -> int:
    console = SessionConsole()
    from referee.cli.loop import COMMANDS

    taken = [name for name in players if name.lower() in COMMANDS]
    if taken:
        error(f"{', '.join(taken)}: a command word at the prompts ({', '.join(COMMANDS)}); choose other names")
        return 2
    try:
        from referee.games.registry import find_game, load_game

        info = find_game(game)  # a mistyped game is said first, with what it may have meant
        answerer = choose_answerer(answers, console)
        if answerer is None:
            return 2
        live = LiveSession.start(Store(db), load_game(info.id), players, options, info.short_name)
    except RefereeError as problem:
        error(str(problem))
        return 2
    console.print(styled((live.game.id, "bold"), " session ", (live.meta.id, "bold"), f": {', '.join(players)}"))
    console.print("Type 'help' or '?' at any question for the rule and the commands.")
    return run_live(live, answerer, console, db)


def resume_session(session_id: str | None, answers: Path | None, db: Path | None, undo: int = 0) -> int:
    console = SessionConsole()
    store = Store(db)
    try:
        if session_id is None:
            unfinished = [meta for meta in store.list() if meta.status == "playing"]
            if not unfinished:
                error("no unfinished session to resume; 'referee sessions' lists them")
                return 2
            session_id = max(unfinished, key=lambda meta: (meta.updated, meta.started)).id
        else:
            from referee.history import resolve

            session_id = resolve(store, session_id).id  # any unique start of an id will do
        answerer = choose_answerer(answers, console)
        if answerer is None:
            return 2
        from referee.games.registry import load_game

        live = LiveSession.resume(store, session_id, load_game)
    except RefereeError as problem:
        error(str(problem))
        return 2
    answered = len(live.driver.entries)
    console.print(styled("Resuming ", (live.meta.id, "bold"), f" ({live.game.id}) after {answered} answers."))
    for notice in live.file.notices:
        console.print(f"Note: {notice}.", style="yellow")
    if live.replay_error:
        console.print(
            f"The stored log stopped fitting after {len(live.driver.entries)} answers "
            f"({live.replay_error}); {counted(live.dropped, 'later answer')} set aside in {live.set_aside_path}. "
            "Continuing from there.",
            style="yellow",
        )
    if undo:
        # e.g. a mistyped last answer that ended the game: take it back and play on
        console.print(f"Undone: {counted(live.undo(undo), 'step')}.")
    live.driver.take_messages()
    SessionLoop(live, answerer, console).show_state()
    return run_live(live, answerer, console, db)


def say_resume(console: PlainConsole, what: str, command: str) -> None:
    """What happened and the command that resumes; the command is never broken across lines by
    the referee (it is copied into a shell): on a narrow terminal it gets a line of its own."""
    line = f"{what} Resume with: {command}"
    if len(line.splitlines()[-1]) <= console.width:
        console.print(line, soft_wrap=True)
    else:
        console.print(f"{what} Resume with:")
        console.print(f"  {command}", soft_wrap=True)


def run_live(live: LiveSession, answerer: Answerer, console: PlainConsole, db: Path | None) -> int:
    code = 0
    sitting = time.monotonic()
    try:
        SessionLoop(live, answerer, console).run()
    except Quit:
        say_resume(console, "Saved.", resume_hint(live, db))
    except KeyboardInterrupt:
        say_resume(console, "\nInterrupted; every answer given is saved.", resume_hint(live, db))
        code = 130
    except EOFError:
        say_resume(console, "\nEnd of input; every answer given is saved.", resume_hint(live, db))
        code = 1
    except AnswersEnded as problem:
        error(f"{problem}; saved. Resume with: {resume_hint(live, db)}")
        code = 1
    except ScriptRejected as problem:
        error(f"{problem}. Saved up to there; resume with: {resume_hint(live, db)}")
        code = 2
    except RefereeError as problem:  # the store could not write (a full disk, a removed directory)
        error(f"{problem}. Every answer before it is saved; resume with: {resume_hint(live, db)}")
        code = 2
    finally:
        live.meta.played_seconds += time.monotonic() - sitting  # the time the table spent with the referee
        try:
            live.close("finished" if live.driver.finished else "playing")
        except RefereeError as problem:  # the journal already holds every saved answer; resume reads it
            error(f"{problem}; every answer given is saved in the session's own files")
            code = code or 2
        finally:
            live.release()
    return code


def replay_scenario(path: Path) -> int:
    from referee.cli.render import show_public, show_scoreboard
    from referee.scenarios import load_scenario, run_scenario

    console = make_console()
    try:
        scenario = load_scenario(path)
        console.print(styled((scenario.title, "bold"), f" ({scenario.game}: {', '.join(scenario.players)})"))
        run = run_scenario(scenario, echo=console.print)
    except RefereeError as problem:
        error(str(problem))
        return 2
    game = run.driver.game
    show_public(console, game.public_view(run.driver.state), game.short_headers)
    if run.driver.report is not None:
        show_scoreboard(console, run.driver.report, game.short_headers)
    if run.failures:
        for failure in run.failures:
            error(f"expectation not met: {failure}")
        return 1
    console.print("Every expectation of the scenario holds.", style="green")
    return 0
