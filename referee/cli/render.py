"""Rich output for sessions and scores: header, public table, messages, final scoreboard.

Every string printed reaches the screen as it is: the consoles (`PlainConsole`, and a session's
`SessionConsole`) never read markup or emoji codes in it and write terminal control characters as
escapes, whether it is a line, a table cell or a rule's title. Styles are given as `style=` or
with `styled`, never as markup.

Nothing here loads rich until it is used: a session's first screen is on the terminal before rich
is loaded (referee/cli/session_console.py).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from referee.cli.styled import styled
from referee.user_text import visible

if TYPE_CHECKING:
    from rich.measure import Measurement
    from rich.table import Table as RichTable
    from rich.text import Text

    from referee.cli.plain_console import PlainConsole
    from referee.engine.game import Header, PublicView
    from referee.outcome import ScoreReport


NO_SHORT_HEADERS: Mapping[str, str] = MappingProxyType({})


def make_console(**options: Any) -> PlainConsole:
    from referee.cli.plain_console import PlainConsole

    return PlainConsole(highlight=False, **options)


def plain_text(value: str, style: str = "") -> Text:
    """A rich Text of user text as it is: control characters written as escapes (a Text bypasses
    the console's own string handling, so it must be made visible here)."""
    from rich.text import Text

    return Text(visible(value), style=style)


def header_text(header: Header) -> str:
    parts = []
    if header.round and not (header.progress and "round" in header.progress.lower()):
        parts.append(f"Round {header.round}")  # unless the progress names the round its own way
    if header.turn and header.turn != header.active:
        parts.append(header.turn)
    if header.active:
        parts.append(f"{header.active}'s turn")
    if header.phase:
        parts.append(header.phase)
    return " · ".join(parts)


def show_header(console: PlainConsole, header: Header) -> None:
    """A rule with where the game stands, and the game's progress under it; a rule too long for
    the terminal becomes a bold line wrapped at word boundaries (a rule would cut it)."""
    text = header_text(header)
    if text and len(text) + 6 <= console.width:
        console.rule(styled((text, "bold")), align="left")
    elif text:
        console.rule()
        console.print(styled((text, "bold")))
    if header.progress:
        console.print(styled(("  ", ""), (header.progress, "dim")))


def show_messages(console: PlainConsole, messages: list[str]) -> None:
    for message in messages:
        print_marked(console, ("  ›", "cyan"), message)


def show_changes(console: PlainConsole, lines: list[str]) -> None:
    """The table's cells that the last step changed, a line per player."""
    for line in lines:
        print_marked(console, ("  Δ", "yellow"), line)


def print_marked(console: PlainConsole, mark: tuple[str, str], text: str) -> None:
    """A mark and a text wrapped at word boundaries, its later lines under its first."""
    indent = " " * (len(mark[0]) + 1)
    lines = textwrap.wrap(visible(text), max(20, console.width - 1), initial_indent=indent,
                          subsequent_indent=indent, break_on_hyphens=False) or [indent]
    # Lines of plain ASCII already fit (one column a character): rich need not wrap them again,
    # which is most of the cost of printing them. Wider characters are left to rich's wrapping.
    fitted_already = all(line.isascii() for line in lines)
    console.print(styled(mark, lines[0][len(mark[0]):]), soft_wrap=fitted_already)
    for line in lines[1:]:
        console.print(line, soft_wrap=fitted_already)


def longest_word(texts: list[str]) -> int:
    return max((len(word) for text in texts for word in text.split()), default=1)


def fitted(
    console: PlainConsole, build: Callable[[Callable[[str], str], bool], RichTable], short: Mapping[str, str]
) -> RichTable:
    """The table as it reads best on this terminal, built by `build(name_of_column, compact)`:
    with its full headers if it fits whole, else the `short` headers (the game's, for a narrow
    terminal, readable without the long ones beside them); else the cells wrapped, with borders
    while they fit, then without borders between columns. No column is narrower than its longest
    word, so cells wrap at word boundaries and no header is cut short."""

    from rich.measure import Measurement

    def full(header: str) -> str:
        return header

    def abbreviated(header: str) -> str:
        return short.get(header, header)

    whole = words_unbroken(build(full, False))
    widest = widest_plain(whole)
    if widest is not None and widest <= console.width:
        return whole  # it certainly fits whole: no need for rich to measure every cell first

    unbounded = console.options.update(max_width=10_000)  # the table's own widths, not the terminal's
    measured: dict[tuple[Callable[[str], str], bool], tuple[RichTable, Measurement]] = {}

    def measure(key: tuple[Callable[[str], str], bool]) -> tuple[RichTable, Measurement]:
        if key not in measured:  # built only when the layouts before it do not fit
            table = whole if key == (full, False) else words_unbroken(build(*key))
            measured[key] = (table, Measurement.get(console, unbounded, table))
        return measured[key]

    order = [((full, False), "maximum"), ((abbreviated, False), "maximum"), ((full, False), "minimum"),
             ((abbreviated, False), "minimum"), ((abbreviated, True), "maximum"), ((abbreviated, True), "minimum")]
    for key, bound in order:
        table, width = measure(key)
        if getattr(width, bound) <= console.width:
            return table
    return measure((abbreviated, True))[0]


def words_unbroken(table: RichTable) -> RichTable:
    """The table with each column at least as wide as its longest word: cells wrap between words."""
    for column in table.columns:
        cells = [str(cell) for cell in column.cells]
        column.min_width = longest_word([str(column.header), *cells])
    return table


BORDERED_PADDING = (0, 1, 0, 1)
"""rich's default cell padding (top, right, bottom, left): a column to each side of a cell."""


def widest_plain(table: RichTable) -> int | None:
    """For a bordered table of one-line ASCII strings, the width it takes when nothing limits it:
    each column as wide as its longest cell or header (or its minimum width) plus the padding, and
    a border between and around the columns; rich's own measure never comes to more. None for any
    other table."""
    if table.box is None or not table.show_edge or table.padding != BORDERED_PADDING:
        return None
    total = len(table.columns) + 1
    for column in table.columns:
        texts = [column.header, *column.cells]
        plain = [text for text in texts if isinstance(text, str) and text.isascii() and text.isprintable()]
        if len(plain) < len(texts):
            return None
        total += max(*(len(text) for text in plain), column.min_width or 0) + 2
    return total


def new_table(title: str, compact: bool) -> RichTable:
    from rich import box
    from rich.table import Table as RichTable

    if compact:
        return RichTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 0))
    return RichTable(title=title, title_justify="left", show_lines=False)


def show_public(
    console: PlainConsole, view: PublicView, short: Mapping[str, str] = NO_SHORT_HEADERS, title: str = "Table"
) -> None:
    def build(name: Callable[[str], str], compact: bool) -> RichTable:
        table = new_table(title, compact)
        for column in view.columns:
            table.add_column(name(column), justify="left" if column in ("Player", "Character") else "right")
        for row in view.rows:
            table.add_row(*row)
        return table

    console.print(fitted(console, build, short))
    for line in view.lines:
        print_marked(console, (" ", ""), line)


def show_scoreboard(console: PlainConsole, report: ScoreReport, short: Mapping[str, str] = NO_SHORT_HEADERS) -> None:
    parts: list[str] = []
    for player in report.players:
        for part in player.breakdown:
            if part not in parts:
                parts.append(part)
    ordered = sorted(report.players, key=lambda player: (player.rank is None, player.rank or 0))

    def build(name: Callable[[str], str], compact: bool) -> RichTable:
        table = new_table("Final score", compact)
        table.add_column("Rank" if not compact else "#", justify="right")
        table.add_column("Player")
        for part in parts:
            table.add_column(name(part.replace("_", " ")), justify="right")
        table.add_column("Total", justify="right", style="bold")
        table.add_column(name("Status"))
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
        return table

    table = fitted(console, build, short)
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
        print_marked(console, ("  note:", "dim"), note)
