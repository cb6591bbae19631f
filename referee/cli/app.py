"""The `referee` command line. Heavy modules are imported inside the commands that use them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli import rules_cmd

app = typer.Typer(
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    help="A referee for board games played at a real table.",
)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Data directory (default: $REFEREE_HOME, else $XDG_DATA_HOME/referee, "
                              "else ~/.local/share/referee)."),
]


def fail(message: str, code: int = 2) -> typer.Exit:
    from referee.user_text import visible

    typer.echo(f"referee: {visible(message, keep='')}", err=True)
    return typer.Exit(code)


@app.callback()
def root() -> None:
    """A referee for board games played at a real table."""


@app.command()
def games() -> None:
    """List the games, their ids, aliases and player counts."""
    from referee.games.registry import GAMES

    for game in GAMES:
        guided = "guided + score" if game.play_module else "score"
        typer.echo(f"{game.id:<24} {game.name:<48} aliases: {', '.join(game.aliases):<20} "
                   f"players: {game.players_text:<5} {guided}")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id or alias, e.g. council-of-blackthorn or blackthorn.")],
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


@app.command()
def sessions(
    db: DbOption = None,
    show_all: Annotated[bool, typer.Option("--all", help="Every session, not only the latest 20.")] = False,
) -> None:
    """List stored sessions, latest last: id, game, players, started, status, winner."""
    from referee.cli.run import list_sessions

    raise typer.Exit(list_sessions(db, None if show_all else 20))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A scenario file (scenarios/<game>/*.toml).")],
) -> None:
    """Show a scenario as a transcript and check its expected outcome."""
    from referee.cli.run import replay_scenario

    raise typer.Exit(replay_scenario(file))


@app.command()
def score(
    game: Annotated[str, typer.Argument(help="Game id or alias.")],
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
