"""A user's own copy of a rulebook: imported into the data directory, searchable, removable.

The copy is stored whole (its text and original file name) as `<data>/rulebooks/<game>.json` and
cut into sections when the index is built, so a better cutting rule applies to old imports too.
A copy may carry the players' questions its sections answer: a file in the format of
`rulebooks/<game>.questions.toml` (referee.rules.asked), keyed by the copy's own section ids
(`referee rules GAME` lists them), checked when it is imported and stored with the copy.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.rules import paths
from referee.rules.model import IMPORTED_PREFIX, Rulebook, RulesError
from referee.rules.parse import parse_copy
from referee.safe_files import (
    FileTooLarge,
    NotRegularFile,
    make_private_directory,
    read_regular,
    sweep_temporaries,
    write_atomically,
)

TEXT_SUFFIXES = (".txt", ".text", ".md", ".markdown")
LARGEST_COPY = 5_000_000
"""Bytes; a rulebook's text is far smaller, so anything larger is not one."""


def registered_game(name: str) -> str:
    """The id of a game the referee knows, from its id or alias."""
    from referee.games.registry import find_game

    try:
        return find_game(name).id
    except ValueError as error:
        raise RulesError(str(error)) from None


def stored_path(game_id: str) -> Path:
    return paths.imported_dir() / f"{game_id}.json"


def read_copy_file(file: Path) -> str:
    """The text of a user's rulebook file, refused with a clear reason if it is not usable text."""
    if not file.exists():
        raise RulesError(f"file not found: {file}")
    if not file.is_file():
        raise RulesError(f"not a file: {file}")
    if file.suffix.lower() not in TEXT_SUFFIXES:
        raise RulesError(f"{file.name}: unsupported file type {file.suffix or '(none)'!r}; "
                         f"allowed: {', '.join(TEXT_SUFFIXES)} (plain text or Markdown)")
    try:
        data = read_regular(file, LARGEST_COPY, follow=True)  # a FIFO or a device is refused, not read
    except FileTooLarge:
        size = file.stat().st_size
        raise RulesError(f"{file.name}: {size} bytes is too large for a rulebook; at most {LARGEST_COPY}") from None
    except NotRegularFile as error:
        raise RulesError(f"not a file: {file} ({error.strerror})") from None
    except OSError as error:
        raise RulesError(f"cannot read {file}: {error.strerror}") from None
    if b"\0" in data:
        raise RulesError(f"{file.name}: binary data, not text; allowed: a .txt or .md text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RulesError(f"{file.name}: not UTF-8 text; save it as UTF-8 and import it again") from None
    if not any(ch.isalpha() for ch in text):
        raise RulesError(f"{file.name}: no text in the file")
    return text


LARGEST_QUESTIONS = 1_000_000
"""Bytes of a questions file: a few lines a section."""


def read_questions_file(file: Path, rulebook: Rulebook) -> str:
    """The text of a questions file for a copy, checked against the copy's sections."""
    from referee.rules.asked import parse_asked

    if not file.is_file():
        raise RulesError(f"not a file: {file}")
    try:
        text = read_regular(file, LARGEST_QUESTIONS, follow=True).decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise RulesError(f"cannot read {file}: {reason}") from None
    parse_asked(text, file.name, {section.id for section in rulebook.sections})
    return text


def import_copy(game: str, file: Path, questions: Path | None = None) -> Rulebook:
    """Store a user's copy of a game's rulebook (and the questions its sections answer, if given)
    and return it cut into sections."""
    game_id = registered_game(game)
    text = read_copy_file(file)
    markdown = file.suffix.lower() in (".md", ".markdown")
    rulebook = parse_copy(text, game_id, IMPORTED_PREFIX + file.name, markdown=markdown)
    stored: dict[str, object] = {"game": game_id, "file": file.name, "markdown": markdown, "text": text}
    if questions is not None:
        stored["questions"] = read_questions_file(questions, rulebook)
    target = stored_path(game_id)
    try:
        make_private_directory(paths.data_dir())
        make_private_directory(target.parent)
        sweep_temporaries(target.parent)
        write_atomically(target, json.dumps(stored))
    except OSError as error:
        raise RulesError(f"cannot store the copy in {target.parent}: {error.strerror}") from None
    return rulebook


def read_stored(path: Path) -> object:
    """A stored copy's JSON: a regular file in the data directory (no link followed)."""
    return json.loads(read_regular(path, LARGEST_COPY * 4).decode("utf-8"))  # JSON escapes lengthen text


def forget(game: str) -> str:
    """Remove a user's imported copy; returns the file name it was imported from."""
    game_id = registered_game(game)
    target = stored_path(game_id)
    if not target.is_file() and not target.is_symlink():
        raise RulesError(f"no imported copy of {game_id} to forget")
    try:
        stored = read_stored(target)
        name = str(stored.get("file", target.name)) if isinstance(stored, dict) else target.name
    except (OSError, ValueError, RecursionError):
        name = target.name
    try:
        target.unlink()
    except OSError as error:
        raise RulesError(f"cannot remove {target}: {error.strerror}") from None
    return name


def load_imported(game_id: str) -> Rulebook | None:
    """The user's imported copy of a game's rulebook, if there is one."""
    path = stored_path(game_id)
    if not path.is_file() and not path.is_symlink():
        return None
    try:
        stored = read_stored(path)
        if not isinstance(stored, dict) or not all(isinstance(stored.get(key), str) for key in ("text", "file")):
            raise ValueError("not a stored copy")
        copy = parse_copy(stored["text"], game_id, IMPORTED_PREFIX + stored["file"],
                          markdown=bool(stored.get("markdown")))
        if isinstance(stored.get("questions"), str):
            from referee.rules.asked import parse_asked

            copy.asked = parse_asked(stored["questions"], stored["file"], {section.id for section in copy.sections})
        return copy
    except (OSError, ValueError, KeyError, TypeError, RecursionError, RulesError) as error:
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise RulesError(f"imported copy {path} is damaged ({detail}); "
                         f"remove it with `referee rules forget {game_id}`") from None
