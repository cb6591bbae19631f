"""The one place that decides where the user's data lives: sessions, imported rulebooks, caches.

In order: `--db PATH` given to the command, `$REFEREE_HOME`, `$XDG_DATA_HOME/referee`, and
`~/.local/share/referee`. A `~` at the start of `--db` or `REFEREE_HOME` is the user's home.
A relative `XDG_DATA_HOME` (one not starting with `/`) is ignored, as the XDG Base Directory
specification requires. A relative `--db` or `REFEREE_HOME` is taken from the current
directory, and the result is always absolute, so a later change of directory cannot move it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

_chosen: list[Path] = []
"""`--db` of the command being run, for code far from the command line (the rules library)."""


def data_dir(db: Path | str | None = None) -> Path:
    """The data directory: `db` if given, else the one the command chose, else the environment's."""
    if db is not None and str(db):
        return Path(db).expanduser().absolute()
    if _chosen:
        return _chosen[-1]
    configured = os.environ.get("REFEREE_HOME", "")
    if configured:
        return Path(configured).expanduser().absolute()
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"  # relative (even "~/..."): ignored
    return base / "referee"


@contextlib.contextmanager
def chosen(db: Path | str | None) -> Iterator[None]:
    """Run a command with `--db` (when given) as the data directory of everything it calls."""
    if db is None or not str(db):
        yield
        return
    _chosen.append(data_dir(db))
    try:
        yield
    finally:
        _chosen.pop()
