"""The user's card catalogue: each printed card the table has named, learned once.

One TinyDB file per game under the data directory (catalogue/<game>.json), written as durably as a
session (whole file to a temporary, fsynced, renamed) under a lock, so two sessions learning
cards at once lose nothing. A row is {"kind", "name", "printed": {field: text}}; names are unique
per kind, ignoring case. The catalogue ships empty: only what a table entered or imported is there.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.data_dir import data_dir
from referee.engine.cards import CARD_NAME, CardKind, Catalogue
from referee.errors import RefereeError
from referee.safe_files import make_private_directory, open_regular
from referee.store import open_db, read_json, reason, table_rows, uninterrupted

EXPORT_FORMAT = 1


class CatalogueError(RefereeError):
    """A catalogue that cannot be read, written or imported."""


@dataclass(frozen=True)
class KnownCard:
    """A printed card the table has named: its kind, its name and its printed fields as answer
    texts."""

    kind: str
    name: str
    printed: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "printed": dict(self.printed)}


class CardCatalogue:
    """The known cards of one game."""

    def __init__(self, game_id: str, kinds: Sequence[CardKind], root: Path | None = None) -> None:
        self.game_id = game_id
        self.kinds = {kind.id: kind for kind in kinds}
        self.directory = data_dir(root) / "catalogue"
        self.path = self.directory / f"{game_id}.json"

    # --- reading -------------------------------------------------------------------------------

    def cards(self) -> list[KnownCard]:
        """Every known card, by kind and name; rows that do not read are left out."""
        try:
            rows = table_rows(read_json(self.path), "cards")
        except FileNotFoundError:
            return []
        except (OSError, ValueError, TypeError, AttributeError, KeyError, RecursionError) as error:
            raise CatalogueError(f"cannot read the card catalogue {self.path}: {error}") from None
        found = []
        for row in rows:
            with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
                found.append(self._checked(row.get("kind"), row.get("name"), row.get("printed")))
        return sorted(found, key=lambda card: (card.kind, card.name.lower()))

    def as_catalogue(self) -> Catalogue:
        """kind -> name -> printed fields, as the driver offers them at card questions."""
        result: dict[str, dict[str, dict[str, str]]] = {}
        for card in self.cards():
            result.setdefault(card.kind, {})[card.name] = card.printed
        return result

    def find(self, name: str) -> KnownCard | None:
        wanted = name.strip().lower()
        return next((card for card in self.cards() if card.name.lower() == wanted), None)

    # --- writing -------------------------------------------------------------------------------

    def remember(self, kind: str, name: str, printed: Mapping[str, str]) -> KnownCard:
        """Keep a card's printed fields (merged with what was known of it)."""
        card = self._checked(kind, name, printed)
        with self._writing() as table:
            rows = [row for row in table.all() if _same(row, card.kind, card.name)]
            merged = {**(dict(rows[0].get("printed") or {}) if rows else {}), **card.printed}
            kept = KnownCard(card.kind, str(rows[0]["name"]) if rows else card.name, merged)
            table.remove(doc_ids=[row.doc_id for row in rows])
            table.insert(kept.to_json())
        return kept

    def forget(self, name: str) -> int:
        """Forget every card of that name (of any kind); returns how many."""
        with self._writing() as table:
            rows = [row for row in table.all() if str(row.get("name", "")).lower() == name.strip().lower()]
            table.remove(doc_ids=[row.doc_id for row in rows])
        return len(rows)

    def import_cards(self, data: object) -> ImportedCards:
        """Import an exported catalogue: every card is checked first; one bad card refuses the whole
        file, naming it, and nothing changes. The catalogue is then written once, whole (a kill
        leaves the old one or the new one). A card already known, or named twice in the file in
        another case, is merged as `remember` merges: its fields updated, its first name kept."""
        if not isinstance(data, Mapping):
            raise CatalogueError("a catalogue file is a JSON object with 'game' and 'cards'")
        version = data.get("format", EXPORT_FORMAT)
        if not isinstance(version, int) or isinstance(version, bool) or version > EXPORT_FORMAT:
            raise CatalogueError(f"catalogue format {version!r} is newer than this referee reads ({EXPORT_FORMAT})")
        if data.get("game") != self.game_id:
            raise CatalogueError(f"this catalogue is for {data.get('game')!r}, not {self.game_id}")
        cards = data.get("cards")
        if not isinstance(cards, list):
            raise CatalogueError("'cards' is a list of {kind, name, printed}")
        checked = []
        for number, row in enumerate(cards, 1):
            if not isinstance(row, Mapping):
                raise CatalogueError(f"card #{number} is not an object")
            try:
                checked.append(self._checked(row.get("kind"), row.get("name"), row.get("printed")))
            except ValueError as error:
                raise CatalogueError(f"card #{number} ({str(row.get('name'))[:48]!r}) refused: {error}") from None
        result = ImportedCards()
        with self._writing(batch=True) as table:
            rows: list[dict[str, Any]] = [dict(row) for row in table.all()]
            known = {(row.get("kind"), str(row.get("name", "")).lower()): row for row in rows}
            first_in_file: dict[tuple[str, str], str] = {}
            for card in checked:
                key = (card.kind, card.name.lower())
                if key in first_in_file:
                    if card.name != first_in_file[key]:
                        result.same_as.append((card.name, first_in_file[key]))
                else:
                    first_in_file[key] = card.name
                row = known.get(key)
                if row is None:
                    row = known[key] = KnownCard(card.kind, card.name, {}).to_json()
                    rows.append(row)
                    result.new += 1
                elif key not in result.touched:
                    result.updated += 1
                result.touched.add(key)
                row["printed"] = {**dict(row.get("printed") or {}), **card.printed}
            table.truncate()
            table.insert_multiple(rows)  # (a batch: the one write is made when the block ends)
        return result

    def export(self) -> dict[str, Any]:
        return {"format": EXPORT_FORMAT, "game": self.game_id, "cards": [card.to_json() for card in self.cards()]}

    # --- helpers -------------------------------------------------------------------------------

    def _checked(self, kind: object, name: object, printed: object) -> KnownCard:
        if not isinstance(kind, str) or kind not in self.kinds:
            raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(self.kinds) or 'none'}")
        if not isinstance(name, str) or not CARD_NAME.fullmatch(name.strip()):
            raise ValueError(f"bad name {str(name)[:48]!r}: letters, digits and spaces, at most 48 characters")
        if not isinstance(printed, Mapping) or not printed:
            raise ValueError("'printed' is an object of the card's fields")
        return KnownCard(kind, name.strip(), self.kinds[kind].check(printed))

    @contextlib.contextmanager
    def _writing(self, batch: bool = False) -> Iterator[Any]:
        """The catalogue's table under its lock, each change written at once; with `batch`, every
        change is written in one atomic write when the block ends, and none if it fails."""
        try:
            make_private_directory(self.directory)
            fd = open_regular(self.directory / f"{self.game_id}.lock", os.O_RDWR | os.O_CREAT)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                with uninterrupted():
                    db = open_db(self.path, batch=batch)
                    yield db.table("cards")
                    if batch:
                        db.close()  # the one write
            finally:
                os.close(fd)
        except OSError as error:
            raise CatalogueError(f"cannot write the card catalogue {self.path}: {reason(error)}") from None
        except (ValueError, json.JSONDecodeError) as error:
            raise CatalogueError(f"the card catalogue {self.path} is damaged ({error}); export what reads, "
                                 "then remove it") from None


@dataclass
class ImportedCards:
    """What an import did: cards added and cards already known (updated), and the names of the file
    that named a card already named in it in another case (`(this name, the first one)`)."""

    new: int = 0
    updated: int = 0
    same_as: list[tuple[str, str]] = field(default_factory=list)
    touched: set[tuple[str, str]] = field(default_factory=set)

    @property
    def count(self) -> int:
        """The cards of the file, each counted once: what the catalogue now holds of it."""
        return self.new + self.updated


def _same(row: Mapping[str, Any], kind: str, name: str) -> bool:
    return row.get("kind") == kind and str(row.get("name", "")).lower() == name.lower()
