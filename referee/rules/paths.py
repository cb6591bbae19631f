"""Where rulebooks, imported copies and the search cache live."""

from __future__ import annotations

from pathlib import Path

from referee.rulebook_files import builtin_dir

__all__ = ["builtin_dir", "cache_file", "data_dir", "imported_dir"]


def data_dir() -> Path:
    """The user's data directory, decided in one place for every command (referee.data_dir)."""
    from referee.data_dir import data_dir as resolve

    return resolve()


def imported_dir() -> Path:
    return data_dir() / "rulebooks"


def cache_file() -> Path:
    return data_dir() / "cache" / "rules-index.json"


def learned_file() -> Path:
    """The phrasings the table taught the lookup (referee.rules.learned)."""
    return data_dir() / "rules" / "learned.json"
