"""`referee sessions`: list (with filters), show one whole, delete one: what a table keeps after the game.

Names and answers are the table's own text: the project's console prints every string as data,
never as markup.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from referee.cli.failure import error
from referee.cli.plain_console import PlainConsole
from referee.cli.render import make_console, plain_text, print_table
from referee.cli.styled import styled
from referee.errors import RefereeError
from referee.history import (
    Filters,
    StoredSession,
    played_time,
    read_date,
    read_session,
    read_status,
    resolve,
    select,
)
from referee.store import SessionMeta, Store
from referee.timeline import walk, where
from referee.user_text import visible
from referee.wording import counted

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.progress import Chart

NO_TERMINAL_DELETE = "no terminal to confirm on: add --yes to delete without asking"




def filters_from(game: str | None, player: str | None, status: str | None, since: str | None) -> Filters:
    """The command line's filters, checked (a game by id or alias, a known status, a real date)."""
    game_id = None
    if game is not None:
        from referee.games.registry import find_game

        game_id = find_game(game).id
    return Filters(
        game_id,
        player.strip() if player and player.strip() else None,
        read_status(status) if status is not None else None,
        read_date(since) if since is not None else None,
    )


# --- referee sessions -------------------------------------------------------------------------------


def list_sessions(db: Path | None, filters: Filters, latest: int | None, as_json: bool) -> int:
    try:
        rows = select(Store(db).list(), filters)
    except RefereeError as problem:
        error(str(problem))
        return 2
    if as_json:
        print(json.dumps([meta.to_json() for meta in rows], ensure_ascii=False))  # compact: indenting is slow
        return 0
    console = make_console()
    if not rows:
        if filters == Filters():
            console.print("No sessions yet. Start one with: referee play GAME --players 'Ann,Bo'")
        else:
            console.print("No session matches these filters.")
        return 0
    hidden = len(rows) - latest if latest is not None and len(rows) > latest else 0
    rows = rows[hidden:]
    table = sessions_table(console, rows)
    console.print(table)
    if hidden:
        console.print(f"{counted(hidden, 'older session')} not shown; 'referee sessions --all' lists every one.")
    return 0


def sessions_table(console: PlainConsole, rows: Sequence[SessionMeta]) -> Table:
    """Every column on a wide terminal; on a narrow one (80 columns) the games by short name and no
    start time (the id begins with it), without borders between columns. The id is never cut:
    it is what 'referee resume ID' takes."""
    from rich import box

    from referee.games.registry import short_name

    def build(narrow: bool) -> Table:
        table = Table(title="Sessions", title_justify="left") if not narrow else Table(
            title="Sessions", title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 0))
        table.add_column("Id", no_wrap=True)
        columns = ("Game", "Players", "Status", "Answers", "Winner") if narrow else (
            "Game", "Players", "Started", "Status", "Answers", "Winner")
        for column in columns:
            table.add_column(column)
        for meta in rows:
            game = short_name(meta.game) if narrow else meta.game
            cells = [meta.id, game, ", ".join(meta.players), meta.started, meta.status, str(meta.answers),
                     ", ".join(meta.winners) or "-"]
            if narrow:
                del cells[3]
            table.add_row(*(plain_text(cell) for cell in cells))  # stored text is data, never markup
        return table

    from rich.measure import Measurement

    wide = build(False)
    if Measurement.get(console, console.options.update(max_width=10_000), wide).maximum <= console.width:
        return wide
    return build(True)


# --- referee sessions show ----------------------------------------------------------------------------


def show_session(db: Path | None, given: str) -> int:
    from referee.games.registry import load_game

    store = Store(db)
    try:
        meta = resolve(store, given)
        stored = read_session(store, meta.id)
        game = load_game(stored.meta.game)
    except RefereeError as problem:
        error(str(problem))
        return 2
    from referee.cli.paging import paged_console

    with paged_console() as console:  # a whole log is long: through the pager at a terminal
        show_stored(console, stored, game)
    return 0


def show_stored(console: PlainConsole, stored: StoredSession, game: Game[Any]) -> None:
    from referee.cli.render import show_scoreboard
    from referee.games.registry import find_game
    from referee.progress import RoundValues

    meta = stored.meta
    values = RoundValues(game, meta.players, meta.options, meta.questions)  # the charts, read in the same walk
    played = walk(game, meta.players, meta.options, stored.entries, values.after, questions=meta.questions)
    console.rule(plain_text(f"Session {meta.id}"), align="left")
    corrections = sum(1 for entry in stored.entries if entry.adjust is not None)
    facts = [
        ("Game", find_game(meta.game).name),
        ("Players", ", ".join(meta.players) + "  (in seat order)"),
        ("Started", meta.started),
        ("Status", meta.status),
        ("Time played", played_time(meta.played_seconds) if meta.played_seconds else "not recorded"),
        ("Log", f"{len(stored.entries)} entries ({len(stored.entries) - corrections} answers, "
                f"{corrections} corrections)"),
    ]
    for label, value in facts:
        console.print(styled((f"{label}: ", "bold"), value))
    show_rulings(console, game.to_json(played.driver.state), meta.options)

    log = Table(title="Log", title_justify="left")
    counted, whose = played.steps[0].header.columns() if played.steps else ("Round", "Turn")
    for column in ("#", counted, whose, "Phase"):
        log.add_column(column, justify="right" if column in ("#", counted) else "left", no_wrap=column == "#")
    log.add_column("Question")
    log.add_column("Answer or correction")
    rows: list[tuple[str | Text, ...]] = []
    for step in played.steps:  # (strings are data to the console; a Text only where a style is needed)
        round_text, turn, phase = where(step.header)
        answer = step.entry.text()
        rows.append((str(step.number), round_text, turn, phase, step.question or "(correction)",
                     answer if step.entry.adjust is None else plain_text(answer, style="yellow")))
    print_table(console, log, rows)  # (a long log is written row by row: rich takes a millisecond a row)
    if played.error:
        console.print(plain_text(f"The log stops replaying here: {played.error}", style="yellow"))

    report = played.driver.report
    if report is not None:
        show_scoreboard(console, report, game.short_headers)
        from referee.summary import summarise

        console.print(styled(("How it ended: ", "bold"), summarise(game, played.driver).ending))
    else:
        console.print("The game has not ended: no final score yet.")
    show_charts(console, values.charts(played))
    show_edits(console, stored.edits)


def show_rulings(console: PlainConsole, state: dict[str, Any], options: dict[str, Any]) -> None:
    rulings = state.get("rulings")
    if not isinstance(rulings, dict) or not rulings:
        return
    overridden = options.get("rulings", {})
    table = Table(title="Rulings in force", title_justify="left")
    table.add_column("Ruling")
    table.add_column("Value")
    table.add_column("Set by")
    for name, value in rulings.items():
        set_by = "the table (--ruling)" if name in overridden else "default"
        table.add_row(plain_text(str(name)), plain_text(str(value)), set_by)
    console.print(table)


def show_charts(console: PlainConsole, charts: Sequence[Chart]) -> None:
    from referee.cli.chart import draw

    for chart in charts:
        title = f"{chart.title} by {chart.round_label} ({chart.note}; {chart.round_label} 0 = after setup)"
        console.print(plain_text(title, style="bold"))
        drawn = draw(chart.rounds, chart.series, width=min(console.width, 100))
        for line in drawn.lines:
            console.print(plain_text(line))
        legend = plain_text("  ")
        for name, mark in drawn.marks.items():
            legend.append(f"{mark} ", style="bold")
            legend.append(visible(f"{name} {chart.series[name][-1]}   "))
        console.print(legend)


def show_edits(console: PlainConsole, edits: Sequence[dict[str, Any]]) -> None:
    if not edits:
        return
    from referee.edit import stored_value

    table = Table(title="Edits (entry numbers as they were at the time)", title_justify="left")
    for column in ("When", "Entry", "Old", "New", "Why"):
        table.add_column(column)
    for record in edits:
        table.add_row(
            plain_text(str(record.get("at", ""))), plain_text(str(record.get("entry", ""))),
            plain_text(stored_value(record.get("old"))), plain_text(stored_value(record.get("new"))),
            plain_text(str(record.get("why", ""))),
        )
    console.print(table)


# --- referee sessions delete ----------------------------------------------------------------------------


def delete_session(db: Path | None, given: str, yes: bool) -> int:
    store = Store(db)
    console = make_console()
    try:
        meta = resolve(store, given)
        if not yes:
            if not sys.stdin.isatty():
                error(NO_TERMINAL_DELETE)
                return 2
            if not confirm(console, meta):
                console.print("Nothing deleted.")
                return 0
        removed = store.delete(meta.id)
    except (EOFError, KeyboardInterrupt):
        console.print("\nNothing deleted.")
        return 1
    except RefereeError as problem:
        error(str(problem))
        return 2
    console.print(plain_text(f"Deleted session {meta.id} ({meta.game}: {', '.join(meta.players)}); "
                       f"{counted(len(removed), 'file')} removed."))
    return 0


def confirm(console: PlainConsole, meta: SessionMeta) -> bool:
    from referee.asks import Confirm
    from referee.cli.answerers import InteractiveAnswerer, fits
    from referee.cli.question_text import shown_prompt

    question = Confirm(
        f"Delete session {meta.id} ({meta.game}: {', '.join(meta.players)}, {meta.status}, "
        f"{meta.answers} answers)? It cannot be undone.",
        default="no",
    )
    text = InteractiveAnswerer(console).ask(shown_prompt(question), fits(question), question.default)
    return bool(question.parse(text))
