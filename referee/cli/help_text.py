"""What `--help` (or `-h`) shows: values named as a table reads them, paragraphs as written.

Typer names an option's value by its Python type (`<bool>`, `<list[str]>`, `<path>`); a player
reads `--players PLAYERS` better, and a flag needs no value at all. Typer's help also keeps the
line breaks of a docstring, so a sentence written over two source lines is shown broken in the
middle: each paragraph is joined into one line here, and the help wraps it to the terminal.
"""

from __future__ import annotations

import inspect
from typing import Any

import typer
from typer.core import TyperArgument, TyperOption

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


def plain_help(app: typer.Typer) -> None:
    """Every command's help in `app` (its groups' too) with values named plainly and whole
    paragraphs."""
    setattr(TyperOption, "display_type_rich", value_name)  # noqa: B010 (a method replaced for every option)
    setattr(TyperArgument, "display_type_rich", no_value_type)  # noqa: B010
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
