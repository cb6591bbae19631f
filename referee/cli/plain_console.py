"""The rich console every command prints on, for which every string is data."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text, TextType

from referee.cli.styled import StyledLine
from referee.user_text import visible


class PlainConsole(Console):
    """A rich console for which every string is data: player names and answers such as
    '[/bold]', ':smile:' or an escape sequence are shown, never interpreted."""

    def render_str(self, text: str, **options: Any) -> Text:
        options.update(markup=False, emoji=False)
        return super().render_str(visible(text), **options)

    def rule(self, title: TextType | StyledLine = "", **options: Any) -> None:
        """A rule; its title may be a styled line (rich's rule takes only its own Text)."""
        super().rule(title.__rich__() if isinstance(title, StyledLine) else title, **options)
