"""The `referee` command's entry point: `play` with plain arguments starts at once, without
building the Typer command tree (Typer's argument parsing imports pydantic: a tenth of a second
before the first question); everything else goes to the Typer app (referee/cli/app.py)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

PLAY_VALUES = {"--players": "players", "-p": "players", "--answers": "answers", "--db": "db", "--ruling": "ruling"}


def play_fast_path(argv: Sequence[str]) -> int | None:
    """Run `play GAME --players NAMES [--answers F] [--ruling N=V]... [--db D]`; None hands any
    other form (--help, an unknown option, a missing value) to Typer, which explains it."""
    if not argv or argv[0] != "play":
        return None
    game: str | None = None
    values: dict[str, str] = {}
    rulings: dict[str, str] = {}
    arguments = list(argv[1:])
    position = 0
    while position < len(arguments):
        argument = arguments[position]
        name, equals, inline = argument.partition("=")
        if name in PLAY_VALUES:
            if equals:
                value = inline
            elif position + 1 < len(arguments):
                position += 1
                value = arguments[position]
            else:
                return None
            if PLAY_VALUES[name] == "ruling":
                key, sep, chosen = value.partition("=")
                if not sep:
                    return None  # Typer's command says what is wrong with it
                rulings[key.strip()] = chosen.strip()
            else:
                values[PLAY_VALUES[name]] = value
        elif argument.startswith("-") or game is not None:
            return None
        else:
            game = argument
        position += 1
    if game is None or "players" not in values:
        return None
    if "answers" not in values:
        # A session at the terminal: no collection until the first prompt (cli/collector.py).
        from referee.cli.collector import hold_while_starting

        hold_while_starting()
    from referee.cli.run import start_session
    from referee.user_text import split_names

    options = {"rulings": rulings} if rulings else {}
    answers = Path(values["answers"]) if "answers" in values else None
    db = Path(values["db"]) if "db" in values else None
    return start_session(game, split_names(values["players"]), options, answers, db)


def main() -> None:
    status = play_fast_path(sys.argv[1:])
    if status is not None:
        raise SystemExit(status)
    from referee.cli.app import main as typer_main

    typer_main()
