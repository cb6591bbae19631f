"""`referee cards GAME ...`: the user's card catalogue of one game (list, show, edit, forget,
import, export). The catalogue itself is referee/catalogue.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.wording import counted

if TYPE_CHECKING:
    from referee.rules.learned import Phrasing

ACTIONS = ("list", "show", "edit", "forget", "import", "export")


def read_catalogue_file(path: Path) -> str:
    """A catalogue file to import, read as every file named on the command line is (a regular file
    of at most 16 MB, never waited on; a byte-order mark allowed)."""
    from referee.errors import RefereeError
    from referee.safe_files import describe, read_user_text

    try:
        return read_user_text(path.expanduser())
    except (OSError, UnicodeDecodeError) as problem:
        raise RefereeError(f"cannot read {path}: {describe(problem)}; nothing was imported") from None


def _with_phrasings(exported: dict[str, Any], rulebook: str) -> dict[str, Any]:
    """The catalogue's export with the rules phrasings the table taught for the game's sections
    (see referee.rules.learned), which travel with the cards."""
    from referee.rules.learned import export

    return {**exported, "phrasings": export(rulebook)}


def _imported_phrasings(rulebook: str, data: object) -> list[Phrasing]:
    """The phrasings an exported catalogue carries, checked against the game's sections (a bad one
    refuses the file, naming it)."""
    if not isinstance(data, dict) or "phrasings" not in data:
        return []
    from referee.rules.learned import checked_rows
    from referee.rules.library import section_ids

    return checked_rows(rulebook, data["phrasings"], section_ids(rulebook))


def register(app: typer.Typer) -> None:
    """Add the `cards` command to the main app."""

    @app.command("cards", epilog="Examples: referee cards blackthorn | referee cards blackthorn show 'Royal Guard' "
                 "| referee cards blackthorn edit 'Royal Guard' --set value=5 | referee cards cutthroat export x.json")
    def cards(
        game: Annotated[str, typer.Argument(help="Game id or alias.")],
        action: Annotated[str, typer.Argument(help="list, show NAME, edit NAME, forget NAME, import FILE, export FILE")]
        = "list",
        target: Annotated[str | None, typer.Argument(help="A card's printed name, or a file.", show_default=False)]
        = None,
        set_fields: Annotated[list[str] | None, typer.Option(
            "--set", help="With edit: FIELD=VALUE (repeatable).", show_default=False)] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
        db: Annotated[Path | None, typer.Option("--db", help="Data directory (default: $REFEREE_HOME ...).")] = None,
    ) -> None:
        """The cards the referee has learned: named once at the table, never asked again."""
        raise typer.Exit(run(game, action, target, set_fields or [], as_json, db))


def run(game_name: str, action: str, target: str | None, set_fields: list[str], as_json: bool, db: Path | None) -> int:
    from rich.table import Table

    from referee.catalogue import CardCatalogue
    from referee.cli.failure import error as say_error
    from referee.cli.render import make_console
    from referee.data_dir import data_dir
    from referee.errors import RefereeError
    from referee.games.registry import load_game

    def fail(message: str) -> int:
        say_error(message)
        return 2

    if action not in ACTIONS:
        return fail(f"unknown action {action!r}; actions: {', '.join(ACTIONS)}")
    if action != "list" and not target:
        return fail(f"'{action}' needs a {'file' if action in ('import', 'export') else 'card name'}")
    try:
        game = load_game(game_name)
        kinds = game.card_kinds()
        if not kinds:
            return fail(f"{game.id} has no printed cards the referee asks about")
        catalogue = CardCatalogue(game.id, kinds, db)
        console = make_console()
        assert target is not None or action == "list"
        if action == "list":
            known = catalogue.cards()
            if as_json:
                print(json.dumps(catalogue.export(), ensure_ascii=False, indent=2))
                return 0
            if not known:
                console.print(f"No {game.id} cards known yet: name a card at the table ('card NAME') to teach one.",
                              markup=False)
                return 0
            table = Table(title=f"Known cards: {game.id}", title_justify="left")
            for column in ("Name", "Kind", "Printed"):
                table.add_column(column)
            for card in known:
                printed = ", ".join(f"{name} {value}" for name, value in card.printed.items())
                table.add_row(card.name, card.kind, printed)
            console.print(table)
        elif action == "show":
            shown = catalogue.find(str(target))
            if shown is None:
                return fail(f"no known card named {target!r}")
            if as_json:
                print(json.dumps(shown.to_json(), ensure_ascii=False, indent=2))
            else:
                console.print(f"{shown.name} ({shown.kind})", markup=False)
                for name, value in shown.printed.items():
                    console.print(f"  {name}: {value}", markup=False)
        elif action == "edit":
            edited = catalogue.find(str(target))
            if edited is None:
                return fail(f"no known card named {target!r}")
            changes = dict(item.partition("=")[::2] for item in set_fields)
            if not changes:
                return fail("say what to change: --set FIELD=VALUE, e.g. --set value=5")
            kept = catalogue.remember(edited.kind, edited.name, {**edited.printed, **changes})
            console.print(f"{kept.name}: " + ", ".join(f"{k} {v}" for k, v in kept.printed.items()), markup=False)
        elif action == "forget":
            count = catalogue.forget(str(target))
            if not count:
                return fail(f"no known card named {target!r}")
            console.print(f"Forgot {target}.", markup=False)
        elif action == "import":
            from referee.rules.learned import keep

            data = json.loads(read_catalogue_file(Path(str(target))))
            phrasings = _imported_phrasings(game.rulebook, data)  # checked before any card is kept
            imported = catalogue.import_cards(data)
            taught = keep(phrasings)
            more = f"; and {counted(taught, 'learned rules phrasing')}" if taught else ""
            console.print(f"Imported {counted(imported.count, 'card')}: {imported.new} new, {imported.updated} already "
                          f"known (their fields updated){more}.", markup=False)
            for name, first in imported.same_as:
                console.print(f"{name!r} is the same card as {first!r} (card names ignore case): its fields "
                              f"were merged into {first!r}.", markup=False)
        else:
            from referee.safe_files import write_user_file

            exported = _with_phrasings(catalogue.export(), game.rulebook)
            text = json.dumps(exported, ensure_ascii=False, indent=2) + "\n"
            write_user_file(Path(str(target)).expanduser(), text, data_dir(db))
            taught = len(exported["phrasings"])
            more = f" and {counted(taught, 'learned rules phrasing')}" if taught else ""
            console.print(f"Exported {counted(len(catalogue.cards()), 'card')}{more} to {target}.", markup=False)
    except ValueError as error:  # json that does not read, or a field that does not fit
        return fail(str(error).splitlines()[0] if str(error) else "not valid JSON")
    except RefereeError as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"cannot use {target}: {error.strerror or error}")
    return 0
