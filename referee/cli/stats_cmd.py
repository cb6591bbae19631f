"""`referee stats`: per player, per game and per role, as rich tables or JSON, with the score
progression of one session (the latest finished one of a game that keeps a running score, or
the one named with --session) drawn in the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from referee.cli.failure import error
from referee.cli.plain_console import PlainConsole
from referee.cli.render import make_console, plain_text
from referee.errors import RefereeError
from referee.history import Filters, StoredSession, read_session, resolve, select, summaries
from referee.stats import Statistics, Tally, gather, ordered
from referee.store import SessionMeta, Store
from referee.wording import counted


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def number(value: float | int | None) -> str:
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.1f}"


def run_stats(
    db: Path | None, game: str | None, player: str | None, as_json: bool, session: str | None
) -> int:
    from referee.cli.history_cmd import filters_from

    store = Store(db)
    try:
        filters = filters_from(game, player, "finished", None)
        finished = summaries(store, select(store.list(), filters))
        stats = gather(finished, filters.player)
        charted = chart_session(store, session, [meta for meta, _ in finished])
    except RefereeError as problem:
        error(str(problem))
        return 2
    charts = progression_of(charted) if charted is not None else []
    if as_json:
        document = stats.to_json()
        if charted is not None:
            document["progression"] = {"session": charted.meta.id, "charts": [chart.to_json() for chart in charts]}
        print(json.dumps(document, ensure_ascii=False, indent=1))
        return 0
    console = make_console()
    if not stats.sessions:
        console.print("No finished session matches." if filters != Filters(status="finished")
                      else "No finished session yet: statistics start with the first game played to its end.")
        return 0
    show_tables(console, stats)
    if charted is not None:
        from referee.cli.history_cmd import show_charts

        meta = charted.meta
        console.print(plain_text(f"Score progression of {meta.id} ({meta.game}, {meta.started}: "
                           f"{', '.join(meta.players)})", style="bold"))
        show_charts(console, progression_of(charted))
    return 0


def chart_session(store: Store, given: str | None, finished: list[SessionMeta]) -> StoredSession | None:
    """The session whose progression is drawn: the one asked for, else the latest finished one
    of a game with a running score (None when there is none)."""
    from referee.games.registry import load_game

    if given is not None:
        return read_session(store, resolve(store, given).id)
    charted: dict[str, bool] = {}
    for meta in reversed(finished):
        if meta.game not in charted:
            try:
                charted[meta.game] = load_game(meta.game).progression is not None
            except RefereeError:  # a game this referee does not guide: nothing to chart
                charted[meta.game] = False
        if charted[meta.game]:
            return read_session(store, meta.id)
    return None


def progression_of(stored: StoredSession) -> list[Any]:
    from referee.games.registry import load_game
    from referee.progress import progression

    meta = stored.meta
    return progression(load_game(meta.game), meta.players, meta.options, stored.entries, meta.questions)


def tally_table(title: str, first: str, rows: list[tuple[str, Tally]], extra: str | None = None) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column(first)
    if extra:
        table.add_column(extra)
    for column in ("Games", "Wins", "Win rate", "Average", "Best"):
        table.add_column(column, justify="right")
    for label, tally in rows:
        cells: list[str | Text] = [plain_text(tally.label)]
        if extra:
            cells.append(plain_text(label))
        cells += [str(tally.games), str(tally.wins), percent(tally.win_rate), number(tally.average),
                  number(tally.best)]
        table.add_row(*cells)
    return table


def show_tables(console: PlainConsole, stats: Statistics) -> None:
    console.print(f"{counted(stats.sessions, 'finished session')}. Averages and best scores count games with points.")
    console.print(tally_table("Players", "Player", [("", tally) for tally in ordered(list(stats.players.values()))]))

    games = Table(title="Games", title_justify="left")
    games.add_column("Game")
    for column in ("Plays", "Average", "Best", "Best by", "Winning avg", "Minutes avg"):
        games.add_column(column, justify="right" if column != "Best by" else "left")
    for tally in sorted(stats.games.values(), key=lambda game: (-game.plays, game.game)):
        figures = tally.to_json()
        games.add_row(
            tally.game, str(tally.plays), number(figures["average_score"]), number(figures["best_score"]),
            plain_text(figures["best_by"] or "-"), number(figures["average_winning_score"]),
            number(figures["average_minutes"]),
        )
    console.print(games)

    by_game = [(game, tally) for (_, game), tally in stats.player_games.items()]
    by_game.sort(key=lambda row: (row[0], -row[1].wins, -row[1].games, row[1].label))
    console.print(tally_table("Players by game", "Player", by_game, extra="Game"))

    for game in sorted({game for game, _ in stats.roles}):
        label = stats.games[game].role_label or "Role"
        rows = ordered([tally for (of, _), tally in stats.roles.items() if of == game])
        console.print(tally_table(f"{label} in {game}", label, [("", tally) for tally in rows]))
