"""The table's own words: phrasings a table said a section answered, kept for later lookups.

After a lookup at a terminal the table may say which result answered its question; that question
is kept here, for that section, and counts in later lookups as one more player question of the
section (see referee.rules.index): it weighs no more than a shipped question, so it never hides a
section that matches better. The shipped rulebooks and their questions are never changed.

    <data>/rules/learned.json   {"format": 1, "phrasings": [{"game", "section", "text"}, ...]}

The file is private (0600 in a 0700 folder), written whole and renamed under a lock, so two
lookups learning at once lose nothing. Reading never creates the data directory. `referee rules
learned` lists the phrasings, `referee rules unlearn N` removes one, and the card catalogue's
export (`referee cards GAME export FILE`) carries a game's phrasings with its cards.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from referee.rules import paths
from referee.rules.model import RulesError

FORMAT = 1
LONGEST_PHRASING = 300
"""The longest question a lookup takes (referee.rules.library.LONGEST_QUERY)."""
MOST_PHRASINGS = 2000
"""A table teaches a phrase or two a game; more than this is a file that is not ours."""


class Phrasing(NamedTuple):
    """A question as a table asked it, and the section that answered it."""

    game: str
    section: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"game": self.game, "section": self.section, "text": self.text}


def learned_path() -> Path:
    return paths.learned_file()


def normalised(text: str) -> str:
    return " ".join(text.split())


def _parse(data: object) -> list[Phrasing]:
    if not isinstance(data, Mapping) or not isinstance(data.get("phrasings"), list):
        raise ValueError("not a file of learned phrasings")
    version = data.get("format", FORMAT)
    if not isinstance(version, int) or isinstance(version, bool) or version > FORMAT:
        raise ValueError(f"format {version!r} is newer than this referee reads ({FORMAT})")
    found = []
    for row in data["phrasings"]:
        if isinstance(row, Mapping) and all(isinstance(row.get(key), str) and row.get(key)
                                            for key in ("game", "section", "text")):
            found.append(Phrasing(str(row["game"]), str(row["section"]), normalised(str(row["text"]))))
    return found


def phrasings() -> list[Phrasing]:
    """Every learned phrasing, in the order it was learned; none when nothing was ever learned.
    A damaged file is a RulesError naming it (a lookup passes over it: see `for_search`)."""
    path = learned_path()
    if not path.is_file() and not path.is_symlink():
        return []
    from referee.safe_files import read_regular

    try:
        return _parse(json.loads(read_regular(path).decode("utf-8")))
    except (OSError, ValueError, RecursionError) as error:
        detail = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise RulesError(f"the learned phrasings {path} cannot be read ({detail}); "
                         f"`referee rules unlearn all` removes them") from None


def for_search(games: Iterable[str] | None = None) -> dict[tuple[str, str], list[str]]:
    """The phrasings as a lookup weighs them: (game, section) -> texts. A damaged file is passed
    over, so that it never stops a lookup at the table."""
    wanted = None if games is None else set(games)
    try:
        found = phrasings()
    except RulesError:
        return {}
    kept: dict[tuple[str, str], list[str]] = {}
    for phrasing in found:
        if wanted is None or phrasing.game in wanted:
            kept.setdefault((phrasing.game, phrasing.section), []).append(phrasing.text)
    return kept


@contextlib.contextmanager
def _writing() -> Iterator[list[Phrasing]]:
    """The phrasings to change in place, written back whole when the block ends without error."""
    from referee.safe_files import make_private_directory, open_regular, sweep_temporaries, write_atomically
    from referee.store import uninterrupted

    path = learned_path()
    try:
        make_private_directory(paths.data_dir())
        make_private_directory(path.parent)
        fd = open_regular(path.parent / "learned.lock", os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            sweep_temporaries(path.parent)
            try:
                current = phrasings()
            except RulesError:
                current = []  # a damaged file is replaced by what is written now
            yield current
            with uninterrupted():
                write_atomically(path, json.dumps({"format": FORMAT,
                                                   "phrasings": [item.to_json() for item in current]},
                                                  ensure_ascii=False, indent=1) + "\n")
        finally:
            os.close(fd)
    except OSError as error:
        raise RulesError(f"cannot keep the learned phrasings in {path.parent}: "
                         f"{error.strerror or error}") from None


def _checked(game: str, section: str, text: str, sections: Sequence[str]) -> Phrasing:
    text = normalised(text)
    if not text or not any(ch.isalnum() for ch in text):
        raise RulesError("a phrasing is a question in words")
    if len(text) > LONGEST_PHRASING:
        raise RulesError(f"a phrasing of {len(text)} characters; at most {LONGEST_PHRASING}")
    if section not in sections:
        raise RulesError(f"no section {section!r} in {game}")
    return Phrasing(game, section, text)


def learn(game: str, section: str, text: str, sections: Sequence[str]) -> Phrasing:
    """Keep that `text` was answered by `section` of `game` (once: a phrasing already kept is not
    kept twice). `sections` are the game's section ids."""
    phrasing = _checked(game, section, text, sections)
    with _writing() as current:
        if phrasing not in current:
            if len(current) >= MOST_PHRASINGS:
                raise RulesError(f"{MOST_PHRASINGS} phrasings are kept already; remove some with "
                                 f"`referee rules unlearn N`")
            current.append(phrasing)
    return phrasing


def unlearn(numbers: Sequence[int] | None) -> list[Phrasing]:
    """Remove the phrasings of those numbers (1 is the first of `referee rules learned`), or all of
    them when `numbers` is None; returns what was removed."""
    if numbers is not None and not numbers:
        return []
    if not learned_path().exists() and not learned_path().is_symlink():
        if numbers is None:
            return []  # nothing to remove: the data directory is not made for it
        raise RulesError(f"no learned phrasing {numbers[0]}: nothing is learned yet")
    with _writing() as current:
        if numbers is None:
            removed = list(current)
            current.clear()
            return removed
        wrong = [number for number in numbers if not 1 <= number <= len(current)]
        if wrong:
            allowed = f"1 to {len(current)}" if current else "none: nothing is learned"
            raise RulesError(f"no learned phrasing {wrong[0]}; allowed: {allowed} (`referee rules learned`)")
        removed = [current[number - 1] for number in sorted(set(numbers))]
        current[:] = [item for item in current if item not in removed]
    return removed


def export(game: str) -> list[dict[str, str]]:
    """A game's phrasings as the card catalogue's export carries them: [{"section", "text"}]."""
    return [{"section": item.section, "text": item.text} for item in phrasings() if item.game == game]


def checked_rows(game: str, rows: object, sections: Sequence[str]) -> list[Phrasing]:
    """A game's exported phrasings, every row checked: one bad row refuses them all, naming it."""
    if not isinstance(rows, list):
        raise RulesError("'phrasings' is a list of {section, text}")
    checked: list[Phrasing] = []
    for number, row in enumerate(rows, 1):
        if not isinstance(row, Mapping) or not isinstance(row.get("section"), str) \
                or not isinstance(row.get("text"), str):
            raise RulesError(f"phrasing #{number} is not an object of 'section' and 'text'")
        try:
            checked.append(_checked(game, str(row["section"]), str(row["text"]), sections))
        except RulesError as error:
            raise RulesError(f"phrasing #{number} refused: {error}") from None
    return checked


def keep(found: Sequence[Phrasing]) -> int:
    """Keep phrasings (checked ones: see `checked_rows`); returns how many were new."""
    if not found:
        return 0
    added = 0
    with _writing() as current:
        for phrasing in found:
            if phrasing not in current:
                current.append(phrasing)
                added += 1
    return added


def numbered(game: str | None = None) -> list[tuple[int, Phrasing]]:
    """The phrasings (of one game, or all) with the numbers `unlearn` takes: 1 is the first learned."""
    return [(number, item) for number, item in enumerate(phrasings(), 1) if game is None or item.game == game]


def describe(found: Sequence[tuple[int, Phrasing]], titles: Mapping[tuple[str, str], str]) -> list[str]:
    """One line per numbered phrasing."""
    return [f"{number:3d}. {item.game} #{item.section} ({titles.get((item.game, item.section), '?')}): "
            f"{item.text!r}" for number, item in found]


def as_json(found: Sequence[tuple[int, Phrasing]]) -> list[dict[str, Any]]:
    return [dict(item.to_json(), number=number) for number, item in found]
