"""Rich output for sessions and scores: header, public table, messages, final scoreboard.

Every string printed reaches the screen as it is: the consoles (`PlainConsole`, and a session's
`SessionConsole`) never read markup or emoji codes in it and write terminal control characters as
escapes, whether it is a line, a table cell or a rule's title. Styles are given as `style=` or
with `styled`, never as markup.

Nothing here loads rich until it is used: a session's first screen is on the terminal before rich
is loaded (referee/cli/session_console.py).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from referee.cli.styled import escape_code, styled
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
        # (unless the progress names the round its own way)
        parts.append(f"{header.round_name} {header.round}")
    if header.turn and header.turn != header.active:
        parts.append(header.turn)
    if header.active:  # a game counted in turns has said "Turn 12" already: the player is enough
        parts.append(header.active if header.counted_in_turns else f"{header.active}'s turn")
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
        fits_whole = getattr(width, bound) <= console.width
        if fits_whole and (bound == "maximum" or drawn_width(console, table) <= console.width):
            return table
    return measure((abbreviated, True))[0]


def drawn_width(console: PlainConsole, table: RichTable) -> int:
    """How wide rich draws `table` on this console. Below its widest, rich narrows the widest
    columns first and then widens again any column below its minimum width, so a table whose
    minimum fits may still come out wider than the terminal (and be cut at its edge): only the
    widths rich settles on tell (its own `_calculate_column_widths`, as its drawing calls it)."""
    extra = table._extra_width
    widths = table._calculate_column_widths(console, console.options.update_width(console.width - extra))
    return sum(widths) + extra


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

    table = fitted(console, build, short)
    console.print(table)
    for line in view.lines:
        print_marked(console, (" ", ""), line)
    said = " ".join(view.lines)
    legend = shortened_columns(table, [column for column in view.columns if column not in said], short)
    if legend:  # (a column the view's own lines explain needs no second word)
        print_marked(console, (" ", ""), f"Columns: {legend}.")


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
    legend = shortened_columns(table, [part.replace("_", " ") for part in parts], short)
    if legend:
        print_marked(console, (" ", ""), f"Columns: {legend}.")
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


def shortened_columns(table: RichTable, names: Sequence[str], short: Mapping[str, str]) -> str:
    """What each column the table shows under a short header stands for ('single = unmarried
    bonus'), once under the table; '' when every header is shown whole."""
    headers = {str(column.header) for column in table.columns}
    said = [f"{short[name]} = {name}" for name in names
            if name in short and short[name] in headers and name not in headers]
    return "; ".join(said)


ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")
FAST_TABLE_ROWS = 50
"""From this many rows a plain table is written row by row (`print_table`); below it rich draws it."""


def print_table(console: PlainConsole, table: RichTable, rows: Sequence[Sequence[str | Text]]) -> None:
    """Print `table` (its columns; no rows yet) with `rows`, as rich lays it out, but written row by
    row without rich when it is long.

    rich takes about a millisecond a row (it measures and renders every cell through several
    layers), so a session log of 10,000 entries took longer to show than to replay. A table of one
    line plain cells, bordered as rich draws by default, is written here instead: rich draws the
    title, the header and the borders of a stand-in table of two rows, which holds in each column
    the longest cell and the cell with the longest word, so its columns are exactly as wide as the
    whole table's; every row is then wrapped where rich wraps it (rich's own `divide_line`) and
    padded as rich pads it. Any other table is rich's to draw (tests/test_cli_history.py compares
    the two)."""
    lines = fast_table_lines(console, table, rows) if len(rows) >= FAST_TABLE_ROWS and not table.rows else None
    if lines is None:
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return
    console.file.write("".join(line + "\n" for line in lines))
    console.file.flush()


def fast_table_lines(console: PlainConsole, table: RichTable, rows: Sequence[Sequence[str | Text]]) -> list[str] | None:
    """The lines of `table` with `rows` (see `print_table`), or None when rich must draw it."""
    from rich import box
    from rich._wrap import divide_line
    from rich.cells import cell_len
    from rich.table import Table as RichTable
    from rich.text import Text


    if (table.box is not box.HEAVY_HEAD or not table.show_edge or table.show_lines or table.padding !=
            BORDERED_PADDING or table.caption or table.expand or table.leading or not table.columns or
            table.border_style or table.style not in (None, "", "none") or table.row_styles):
        return None
    if any(len(row) != len(table.columns) for row in rows):
        return None
    columns: list[list[tuple[str, str]]] = []
    for place, column in enumerate(table.columns):
        if (column.width is not None or column.ratio is not None or column.max_width is not None or column.style
                or column.vertical != "top" or column.justify not in ("left", "right")):
            return None
        cells = []
        for row in rows:
            cell = row[place]
            if isinstance(cell, str):  # (printed as the console prints a string: as data)
                text, style = visible(cell), ""
            elif isinstance(cell, Text) and not cell.spans and isinstance(cell.style, str):
                text, style = cell.plain, cell.style
            else:
                return None
            if "\n" in text or "\t" in text or not text.isprintable() or (
                    not text.isascii() and cell_len(text) != len(text)):
                return None
            cells.append((text, style))
        columns.append(cells)
    written: dict[str, str] = {}
    if console.color_system is not None:
        for style in {style for cells in columns for _text, style in cells}:
            code = escape_code(style) if style else ""
            if code is None:
                return None
            written[style] = code

    stand_in = RichTable(title=table.title, title_justify=table.title_justify, title_style=table.title_style,
                         header_style=table.header_style, border_style=table.border_style)
    longest_cells, longest_words = [], []
    for column, cells in zip(table.columns, columns, strict=True):
        stand_in.add_column(column.header, justify=column.justify, no_wrap=column.no_wrap,
                            min_width=column.min_width, style=column.style, header_style=column.header_style)
        texts = list({text: None for text, _style in cells}) or [""]  # (a log repeats its questions)
        longest_cells.append(max(texts, key=len))
        longest_words.append(max(texts, key=lambda text: max((len(word) for word in text.split()), default=0)))
    stand_in.add_row(*(Text(text) for text in longest_cells))
    stand_in.add_row(*(Text(text) for text in longest_words))
    with console.capture() as capture:
        console.print(stand_in)
    drawn = capture.get().splitlines()
    plain = [ANSI_CODE.sub("", line) for line in drawn]
    separator = next((index for index, line in enumerate(plain) if line.startswith("┡")), None)
    if separator is None or not plain[-1].startswith("└") or not plain[separator].endswith("┩"):
        return None
    widths = [len(part) - 2 for part in plain[separator][1:-1].split("╇")]
    if len(widths) != len(columns) or min(widths) < 1:
        return None

    lines = drawn[: separator + 1]
    done: dict[tuple[int, str, str], list[str]] = {}
    """A cell's lines by column, text and style: a log asks the same questions and corrections often."""
    for number in range(len(rows)):
        wrapped: list[list[str]] = []
        for place, (column, cells, width) in enumerate(zip(table.columns, columns, widths, strict=True)):
            text, style = cells[number]
            shown = done.get((place, text, style))
            if shown is None:
                pieces = [text] if column.no_wrap or len(text) <= width else split_at(
                    text, divide_line(text, width, fold=column.overflow == "fold"))
                if any(len(piece.rstrip()) > width for piece in pieces):
                    return None  # a word cut short (with an ellipsis, say): rich's to draw
                shown = []
                for piece in pieces:
                    piece = piece.rstrip() if len(piece) > width or column.justify == "right" else piece
                    piece = piece[:width]
                    piece = piece.rjust(width) if column.justify == "right" else piece.ljust(width)
                    shown.append(f"{written[style]}{piece}\x1b[0m" if written.get(style) else piece)
                done[(place, text, style)] = shown
            wrapped.append(shown)
        height = max(len(pieces) for pieces in wrapped)
        for line in range(height):
            cells_of_line = [pieces[line] if line < len(pieces) else " " * width
                             for pieces, width in zip(wrapped, widths, strict=True)]
            lines.append("│" + "│".join(f" {cell} " for cell in cells_of_line) + "│")
    lines.append(drawn[-1])
    return lines


def split_at(text: str, offsets: list[int]) -> list[str]:
    starts = [0, *offsets]
    return [text[start:end] for start, end in zip(starts, [*offsets, len(text)], strict=True)]
