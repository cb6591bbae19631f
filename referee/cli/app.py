"""The `referee` command line."""

from __future__ import annotations

import typer

app = typer.Typer(rich_markup_mode="rich", no_args_is_help=True, add_completion=False,
                  help="A referee for board games played at a real table.")


@app.callback()
def root() -> None:
    """A referee for board games played at a real table."""


@app.command()
def games() -> None:
    """List the games, their ids, aliases and player counts."""
    from referee.games.registry import GAMES

    for game in GAMES:
        typer.echo(f"{game.id}\t{game.name}\t{', '.join(game.aliases)}\t{game.players_text}")


def main() -> None:
    app()
