"""A line chart drawn with characters: each series' value at each round, one mark per point.

Plain text first (so it can be tested and written to a file), coloured by the caller. Where two
series share a point the mark is '*'. Long games are thinned to the width available, always
keeping the first and the last round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SHARED = "*"
MAX_HEIGHT = 12


@dataclass(frozen=True)
class Drawn:
    """A chart drawn in characters: its lines of text, each series' mark and the rounds shown."""

    lines: list[str]
    marks: dict[str, str]
    """Series name -> its mark."""
    rounds: list[int]
    """The rounds drawn (after thinning)."""


def marks_for(names: Sequence[str]) -> dict[str, str]:
    """Each series' mark: its initial where the initials differ, else 1, 2, 3 ..."""
    initials = [name[:1].upper() for name in names]
    if len(set(initials)) == len(initials) and all(initial.isalpha() for initial in initials):
        return dict(zip(names, initials, strict=True))
    digits = "123456789abcdefghijklmnopqrstuvwxyz"
    return {name: digits[index % len(digits)] for index, name in enumerate(names)}


def thinned(count: int, room: int) -> list[int]:
    """Indexes of at most `room` evenly spread points, the first and last among them."""
    if count <= room or room < 2:
        return list(range(count))
    step = (count - 1) / (room - 1)
    return sorted({round(index * step) for index in range(room)})


def draw(rounds: Sequence[int], series: Mapping[str, Sequence[int]], width: int = 72) -> Drawn:
    names = list(series)
    marks = marks_for(names)
    values = [value for name in names for value in series[name]]
    if not rounds or not values:
        return Drawn([], marks, [])
    low, high = min(values), max(values)
    label_width = max(len(str(low)), len(str(high)))
    cell = 3
    picked = thinned(len(rounds), max(2, (width - label_width - 3) // cell))
    height = min(MAX_HEIGHT, high - low + 1)

    def row_of(value: int) -> int:
        return 0 if high == low else round((value - low) * (height - 1) / (high - low))

    grid = [[" "] * (len(picked) * cell) for _ in range(height)]
    for name in names:
        for column, index in enumerate(picked):
            row = row_of(series[name][index])
            spot = column * cell + 1
            grid[row][spot] = marks[name] if grid[row][spot] == " " else SHARED
    lines = []
    for row in reversed(range(height)):
        value = low + (high - low) * row / (height - 1) if height > 1 else low
        label = str(round(value)) if row in (0, height - 1) or height <= 6 or row % 2 == 0 else ""
        lines.append(f"{label:>{label_width}} ┤{''.join(grid[row]).rstrip()}")
    axis = "".join("─┬─" for _ in picked)
    lines.append(f"{'':>{label_width}} └{axis}")
    numbers = "".join(f"{rounds[index]:^{cell}}" for index in picked)  # round 0: the end of setup
    lines.append(f"{'':>{label_width}}  {numbers.rstrip()}")
    return Drawn(lines, marks, [rounds[index] for index in picked])
