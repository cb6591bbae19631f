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
from dataclasses import dataclass
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

    def import_cards(self, data: object) -> int:
        """Import an exported catalogue: every card is checked first; one bad card refuses the whole
        file, naming it, and nothing changes."""
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
        for card in checked:
            self.remember(card.kind, card.name, card.printed)
        return len(checked)

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
    def _writing(self) -> Iterator[Any]:
        try:
            make_private_directory(self.directory)
            fd = open_regular(self.directory / f"{self.game_id}.lock", os.O_RDWR | os.O_CREAT)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                with uninterrupted():
                    yield open_db(self.path).table("cards")
            finally:
                os.close(fd)
        except OSError as error:
            raise CatalogueError(f"cannot write the card catalogue {self.path}: {reason(error)}") from None
        except (ValueError, json.JSONDecodeError) as error:
            raise CatalogueError(f"the card catalogue {self.path} is damaged ({error}); export what reads, "
                                 "then remove it") from None


def _same(row: Mapping[str, Any], kind: str, name: str) -> bool:
    return row.get("kind") == kind and str(row.get("name", "")).lower() == name.lower()
