"""What changed on the table after a step, in a line or two, instead of the whole table again.

The public view before and after a step are compared cell by cell: each player's changed cells
make one line ("Bo: Guild 3 -> 5, Built+new 0 + 0 -> 0 + 1"), and a board line that is new is
shown as it is. When more changed than a few lines can say, the caller shows the whole table.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.game import PublicView

MOST_CELLS = 6
"""More changed cells than this, and the whole table says it better than a list."""


@dataclass(frozen=True)
class Changes:
    """What changed on the table after a step, as lines to show; or so much that the whole table
    says it better."""

    lines: list[str]
    too_many: bool

    @property
    def none(self) -> bool:
        return not self.lines and not self.too_many


def row_name(row: list[str]) -> str:
    """A row's player, without the marks a view puts before the name (e.g. '* ' for a holder)."""
    return row[0].lstrip("*>+ ").strip() if row else ""


def changes(before: PublicView, after: PublicView) -> Changes:
    if before.columns != after.columns or len(before.rows) != len(after.rows):
        return Changes([], True)
    lines = []
    cells = 0
    for old, new in zip(before.rows, after.rows, strict=True):
        changed = [
            f"{column} {was} -> {now}"
            for column, was, now in zip(after.columns[1:], old[1:], new[1:], strict=False)
            if was != now
        ]
        if old[0] != new[0] and row_name(old) == row_name(new):
            changed.append("now marked" if len(new[0]) > len(old[0]) else "mark passed on")
        cells += len(changed)
        if changed:
            lines.append(f"{row_name(new)}: {', '.join(changed)}")
    lines.extend(line for line in after.lines if line not in before.lines)
    return Changes(lines, cells > MOST_CELLS)
