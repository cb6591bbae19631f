"""The `referee` command line. Heavy modules are imported inside the commands that use them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli import cards_cmd, rules_cmd
from referee.cli.help_text import plain_help

app = typer.Typer(
    rich_markup_mode="rich",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},  # every command inherits it
    add_completion=True,  # --install-completion and --show-completion for bash, zsh, fish, PowerShell
    help="A referee for board games played at a real table.",
)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Data directory (default: $REFEREE_HOME, else $XDG_DATA_HOME/referee, "
                              "else ~/.local/share/referee)."),
]


def fail(message: str, code: int = 2) -> typer.Exit:
    """Say what went wrong; the exit to raise with it."""
    from referee.cli.failure import error

    error(message)
    return typer.Exit(code)


def show_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("referee")
        except PackageNotFoundError:  # run from a source tree that was never installed
            from referee import __version__ as number
        typer.echo(f"referee {number}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """A referee for board games played at a real table."""


@app.command()
def games() -> None:
    """List the games: short name, name, player counts, what the referee does; id and aliases."""
    import textwrap

    from referee.games.registry import GAMES

    typer.echo(f"{'Short name':<12}{'Game':<36}{'Players':<9}Referee")
    for game in GAMES:
        short = game.short_name
        guided = "guided + score" if game.guided else "score"
        name_lines = textwrap.wrap(game.name, 34) or [""]
        typer.echo(f"{short:<12}{name_lines[0]:<36}{game.players_text:<9}{guided}")
        for more in name_lines[1:]:
            typer.echo(f"{'':<12}{more}")
        typer.echo(f"{'':<12}id {game.id}; aliases: {', '.join(game.aliases)}")


def game_names(incomplete: str) -> list[str]:
    """Shell completion of a game: its ids and aliases."""
    from referee.games.registry import GAMES

    return [name for game in GAMES for name in (game.id, *game.aliases) if name.startswith(incomplete.lower())]


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id or alias, e.g. council-of-blackthorn or blackthorn.",
                                        autocompletion=game_names)],
    players: Annotated[str, typer.Option("--players", "-p", help="Player names in seat order: 'Ann,Bo,Cy'.")],
    answers: Annotated[
        Path | None, typer.Option("--answers", help="Play from a file: one answer per line, '#' comments.")
    ] = None,
    ruling: Annotated[
        list[str] | None, typer.Option("--ruling", help="Override a ruling: NAME=VALUE (see the rulebook).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Start a guided session."""
    from referee.cli.run import start_session
    from referee.user_text import split_names

    names = split_names(players)
    rulings = {}
    for item in ruling or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise fail(f"--ruling takes NAME=VALUE, not {item!r}")
        rulings[key.strip()] = value.strip()
    options = {"rulings": rulings} if rulings else {}
    raise typer.Exit(start_session(game, names, options, answers, db))


@app.command()
def resume(
    session: Annotated[str | None, typer.Argument(help="Session id (default: the last unfinished one).")] = None,
    answers: Annotated[Path | None, typer.Option("--answers", help="Continue from a file of answers.")] = None,
    undo: Annotated[
        int, typer.Option("--undo", min=0, help="First take back this many answers (also reopens a finished game).")
    ] = 0,
    db: DbOption = None,
) -> None:
    """Continue a session exactly where it stopped."""
    from referee.cli.run import resume_session

    raise typer.Exit(resume_session(session, answers, db, undo))


sessions_app = typer.Typer(
    rich_markup_mode="rich", add_completion=False,
    help="The sessions played: list them (filters, --json), show one whole, delete one.",
)
app.add_typer(sessions_app, name="sessions")

SessionId = Annotated[str, typer.Argument(help="Session id, or any unique start of one.")]


@sessions_app.callback(invoke_without_command=True)
def sessions(
    context: typer.Context,
    db: DbOption = None,
    show_all: Annotated[bool, typer.Option("--all", help="Every session, not only the latest 20.")] = False,
    game: Annotated[str | None, typer.Option("--game", help="Only this game (id or alias).")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Only sessions this player played (any case).")] = None,
    status: Annotated[str | None, typer.Option("--status", help="playing or finished.")] = None,
    since: Annotated[str | None, typer.Option("--since", help="Only sessions started on or after DATE (YYYY-MM-DD).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the matching sessions as one JSON list.")] = False,
) -> None:
    """List stored sessions, latest last: id, game, players, started, status, winner."""
    context.obj = db
    if context.invoked_subcommand is not None:
        return
    from referee.cli.history_cmd import filters_from, list_sessions
    from referee.errors import RefereeError

    try:
        filters = filters_from(game, player, status, since)
    except RefereeError as problem:
        raise fail(str(problem)) from None
    raise typer.Exit(list_sessions(db, filters, None if show_all or as_json else 20, as_json))


@sessions_app.command("show")
def sessions_show(context: typer.Context, session: SessionId, db: DbOption = None) -> None:
    """One session whole: setup, rulings, every answer with its round, turn and phase, the final score,
    how it ended, its running score and its edits."""
    from referee.cli.history_cmd import show_session

    raise typer.Exit(show_session(db or context.obj, session))


@sessions_app.command("delete")
def sessions_delete(
    context: typer.Context,
    session: SessionId,
    yes: Annotated[bool, typer.Option("--yes", help="Delete without asking (for scripts).")] = False,
    db: DbOption = None,
) -> None:
    """Delete a session for good (asks first)."""
    from referee.cli.history_cmd import delete_session

    raise typer.Exit(delete_session(db or context.obj, session, yes))


@app.command()
def edit(
    session: SessionId,
    entry: Annotated[int | None, typer.Option("--entry", min=1, help="The number of the entry to change.")] = None,
    value: Annotated[str | None, typer.Option("--value", help="Its new answer (or correction 'WHO FIELD +N ; why').")]
    = None,
    answers: Annotated[
        Path | None, typer.Option("--answers", help="New answers for later questions asked again, one per line.")
    ] = None,
    db: DbOption = None,
) -> None:
    """Change a past answer: the rest of the game is replayed, and an answer that no longer fits is
    asked again. A finished game gets its scores and winner recomputed."""
    from referee.cli.edit_cmd import edit_session

    raise typer.Exit(edit_session(db, session, entry, value, answers))


@app.command()
def stats(
    game: Annotated[str | None, typer.Option("--game", help="Only this game (id or alias).")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Only this player's games and rows (any case).")]
    = None,
    session: Annotated[
        str | None, typer.Option("--session", help="Draw this session's score progression (default: the latest).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    db: DbOption = None,
) -> None:
    """Games played, wins, win rate, average and best score: per player, per game, per character,
    House or lord; and a score progression chart."""
    from referee.cli.stats_cmd import run_stats

    raise typer.Exit(run_stats(db, game, player, as_json, session))


@app.command()
def export(
    session: Annotated[str | None, typer.Argument(help="Session id or unique start of one (or --all).")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every stored session.")] = False,
    form: Annotated[str, typer.Option("--format", "-f", help="json (re-importable), md (a report) or bgstats.")]
    = "json",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to FILE instead of the screen.")]
    = None,
    db: DbOption = None,
) -> None:
    """Export sessions: JSON (the whole session), Markdown (a game report) or BG Stats plays.

    --all --format json keeps each session's export in the data directory's export-cache/ and uses it
    while the session's files are unchanged (nothing else is written in the data directory)."""
    from referee.cli.export_cmd import run_export

    raise typer.Exit(run_export(db, session, every, form, output))


@app.command("import")
def import_sessions(
    file: Annotated[Path, typer.Argument(help="A file written by 'referee export --format json'.")],
    db: DbOption = None,
) -> None:
    """Import sessions exported as JSON; a session already stored is left as it is."""
    from referee.cli.export_cmd import run_import

    raise typer.Exit(run_import(db, file))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A scenario file (scenarios/<game>/*.toml).")],
) -> None:
    """Show a scenario as a transcript and check its expected outcome."""
    from referee.cli.run import replay_scenario

    raise typer.Exit(replay_scenario(file))


@app.command()
def score(
    game: Annotated[str, typer.Argument(help="Game id or alias.", autocompletion=game_names)],
    input_file: Annotated[
        str | None, typer.Option("--input", "-i", help="JSON holdings file, or '-' for standard input.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    players: Annotated[
        str | None, typer.Option("--players", "-p", help="Player names for interactive entry: 'Ann,Bo,Cy'.")
    ] = None,
    answers: Annotated[
        Path | None, typer.Option("--answers", help="Answer the questions from a file, one per line.")
    ] = None,
) -> None:
    """Compute end-of-game scores: interactive, or from a JSON file."""
    from referee.cli.scorecmd import run_score

    raise typer.Exit(run_score(game, input_file, as_json, players, answers))


rules_cmd.register(app)
cards_cmd.register(app)
plain_help(app)


def main() -> None:
    import os
    import sys

    try:
        # A rules lookup is asked in a hurry: plain `rules` arguments skip building the command tree.
        status = rules_cmd.fast_path(sys.argv[1:])
        if status is not None:
            raise SystemExit(status)
        app()
    except BrokenPipeError:
        # The reader (e.g. `| head`) stopped reading: nothing more to say, and no traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
