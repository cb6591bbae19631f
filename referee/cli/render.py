"""Rich output for sessions and scores: header, public table, messages, final scoreboard.

Every string printed reaches the screen as it is: `PlainConsole` never reads markup or emoji
codes in it and writes terminal control characters as escapes, whether it is a line, a table
cell or a rule's title. Styles are given as `style=` or with `styled`, never as markup.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from referee.engine.game import Header, PublicView
from referee.outcome import ScoreReport
from referee.user_text import visible


class PlainConsole(Console):
    """A rich console for which every string is data: player names and answers such as
    '[/bold]', ':smile:' or an escape sequence are shown, never interpreted."""

    def render_str(self, text: str, **options: Any) -> Text:
        options.update(markup=False, emoji=False)
        return super().render_str(visible(text), **options)


def make_console(**options: Any) -> PlainConsole:
    return PlainConsole(highlight=False, **options)


def plain_text(value: str, style: str = "") -> Text:
    """A rich Text of user text as it is: control characters written as escapes (a Text bypasses
    the console's own string handling, so it must be made visible here)."""
    return Text(visible(value), style=style)


def styled(*parts: str | tuple[str, str]) -> Text:
    """One line from pieces shown as they are; a (text, style) pair is shown in that style."""
    return Text.assemble(*((visible(part[0]), part[1]) if isinstance(part, tuple) else visible(part)
                           for part in parts))


def header_text(header: Header) -> str:
    parts = []
    if header.round:
        parts.append(f"Round {header.round}")
    if header.turn and header.turn != header.active:
        parts.append(header.turn)
    if header.active:
        parts.append(f"{header.active}'s turn")
    if header.phase:
        parts.append(header.phase)
    return " · ".join(parts)


def show_header(console: Console, header: Header) -> None:
    text = header_text(header)
    if text:
        console.rule(styled((text, "bold")), align="left")


def show_messages(console: Console, messages: list[str]) -> None:
    for message in messages:
        console.print(styled(("  ›", "cyan"), f" {message}"))


def show_public(console: Console, view: PublicView, title: str = "Table") -> None:
    table = RichTable(title=title, title_justify="left", show_lines=False)
    for column in view.columns:
        table.add_column(column, justify="left" if column in ("Player", "Character") else "right")
    for row in view.rows:
        table.add_row(*row)
    console.print(table)
    for line in view.lines:
        console.print(f"  {line}", highlight=False, markup=False)


def show_scoreboard(console: Console, report: ScoreReport) -> None:
    parts: list[str] = []
    for player in report.players:
        for part in player.breakdown:
            if part not in parts:
                parts.append(part)
    table = RichTable(title="Final score", title_justify="left")
    table.add_column("Rank", justify="right")
    table.add_column("Player")
    for part in parts:
        table.add_column(part.replace("_", " "), justify="right")
    table.add_column("Total", justify="right", style="bold")
    table.add_column("Status")
    ordered = sorted(report.players, key=lambda player: (player.rank is None, player.rank or 0))
    for player in ordered:
        status = player.reason or ("winner" if player.name in report.winners else "")
        if player.eliminated and not player.reason:
            status = "eliminated"
        table.add_row(
            str(player.rank) if player.rank is not None else "-",
            player.name,
            *(str(player.breakdown.get(part, "")) for part in parts),
            "-" if player.total is None else str(player.total),
            status,
        )
    console.print(table)
    if report.teams:
        for team in report.teams:
            total = "-" if team.total is None else team.total
            console.print(f"  Team {' + '.join(team.members)}: {total}", highlight=False, markup=False)
    if report.winners:
        console.print(f"Winner: {', '.join(report.winners)}", style="bold green")
    elif report.ended and any(player.rank is not None and player.rank > 1 for player in report.players):
        console.print("No player wins.", style="bold red")  # a rival who is not a player won (a solo game)
    elif report.ended:
        console.print("Nobody wins.", style="bold red")
    else:
        console.print("The game has not ended.", style="bold")
    for note in report.notes:
        console.print(styled(("  note:", "dim"), f" {note}"))
