"""What `--help` (or `-h`) shows: values named as a table reads them, paragraphs as written.

Typer names an option's value by its Python type (`<bool>`, `<list[str]>`, `<path>`); a player
reads `--players PLAYERS` better, and a flag needs no value at all. Typer's help also keeps the
line breaks of a docstring, so a sentence written over two source lines is shown broken in the
middle: each paragraph is joined into one line here, and the help wraps it to the terminal.
At a terminal, help longer than the screen goes through the pager, as `rules` does.
"""

from __future__ import annotations

import inspect
import io
import sys
from collections.abc import Callable
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

VALUE_NAMES = {"--ruling": "NAME=VALUE", "--set": "FIELD=VALUE", "--db": "DIR", "--since": "DATE",
               "--entry": "N", "--undo": "N", "--limit": "N", "--output": "FILE", "--input": "FILE",
               "--answers": "FILE", "--section": "ID", "--session": "ID"}
"""Values whose option's name alone would not say what they are."""


def value_name(option: TyperOption, ctx: Any) -> str | None:
    """An option's value as the help names it: none for a flag, else its metavar or its name."""
    if option.metavar is not None:
        return option.metavar
    if option.is_flag or option.count:
        return None
    long_names = [name for name in option.opts if name.startswith("--")]
    if not long_names:
        return "VALUE"
    return VALUE_NAMES.get(long_names[0], long_names[0].lstrip("-").upper().replace("-", "_"))


def no_value_type(argument: TyperArgument, ctx: Any) -> str | None:
    """An argument is already named in its own column (`game`, `session`): no type beside it."""
    return None


def joined_paragraphs(text: str) -> str:
    """The text with the lines of each paragraph joined (paragraphs stay apart)."""
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in paragraph.splitlines()) for paragraph in paragraphs)


class TerminalBuffer(io.StringIO):
    """Help drawn as for the terminal it is bound for (its colours), kept to be paged."""

    def isatty(self) -> bool:
        return True


def paged(format_help: Callable[..., None]) -> Callable[..., None]:
    """A command's help printer (typer prints its rich help as it formats it), its help through
    the pager when standard output is a terminal."""

    def format_and_page(*arguments: Any) -> None:
        from referee.cli.paging import to_a_terminal

        if not to_a_terminal():
            format_help(*arguments)
            return
        screen, buffer = sys.stdout, TerminalBuffer()
        sys.stdout = buffer  # (typer's console writes to standard output as it is when it prints)
        try:
            format_help(*arguments)
        finally:
            sys.stdout = screen
        from referee.rules.pager import show

        show(buffer.getvalue(), screen)
        screen.flush()

    setattr(format_and_page, "pages", True)  # noqa: B010
    return format_and_page


def plain_help(app: typer.Typer) -> None:
    """Every command's help in `app` (its groups' too) with values named plainly and whole
    paragraphs, paged at a terminal."""
    setattr(TyperOption, "display_type_rich", value_name)  # noqa: B010 (a method replaced for every option)
    setattr(TyperArgument, "display_type_rich", no_value_type)  # noqa: B010
    for kind in (TyperCommand, TyperGroup):  # (typer's help module loads rich: only when help is asked)
        if not getattr(kind.format_help, "pages", False):  # once, however many apps are made help-plain
            setattr(kind, "format_help", paged(kind.format_help))  # noqa: B010
    infos: list[Any] = [*app.registered_commands]
    if app.registered_callback is not None and not isinstance(app.info.help, str):
        infos.append(app.registered_callback)  # (a group's own help comes before its callback's)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            plain_help(group.typer_instance)
    for info in infos:
        doc = info.help if isinstance(info.help, str) else getattr(info.callback, "__doc__", None)
        if doc:
            info.help = joined_paragraphs(doc)
    if isinstance(app.info.help, str):
        app.info.help = joined_paragraphs(app.info.help)
