"""The JSON export of every session keeps each session's export while its files hold the same
bytes, and makes it again as soon as they differ: the export is always what the files say."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from history_support import SHORT_GAME, entries_of, store_entries, store_random_game

from referee.export import json_text, session_json_text
from referee.export_cache import exported
from referee.games.registry import load_game
from referee.history import read_session
from referee.session import LiveSession
from referee.store import Store


def uncached(store: Store) -> str:
    """The export of every session made from the files, as if nothing had been kept."""
    return json_text((session_json_text(read_session(store, meta.id)) for meta in store.list()), "now")


def cached(store: Store) -> str:
    return json_text((exported(store, meta.id) for meta in store.list()), "now")


@pytest.fixture
def store(tmp_path: Path) -> Store:
    store = Store(tmp_path)
    store_random_game(store, "blackwood", ["Ann", "Bo"], seed=1)
    store_random_game(store, "got-lcg-1e", ["Ann", "Bo", "Cy"], seed=2)
    store_entries(store, "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    return store


def kept(store: Store) -> dict[str, str]:
    return {path.stem: path.read_text() for path in sorted(store.export_cache_dir.glob("*.json"))}


def test_the_kept_export_is_the_export_the_files_make(store: Store) -> None:
    first = cached(store)
    assert first == uncached(store)
    assert len(kept(store)) == 3
    assert cached(store) == first  # the second time from what was kept
    assert [session["id"] for session in json.loads(first)["sessions"]] == [meta.id for meta in store.list()]


def test_a_session_that_changed_is_exported_as_it_now_is(store: Store) -> None:
    cached(store)
    session_id = next(meta.id for meta in store.list() if meta.game == "council-of-blackthorn")
    live = LiveSession.resume(store, session_id, load_game)
    try:
        live.undo(1)  # the last answer taken back: the journal changes, the folded file does not
    finally:
        live.release()
    changed = json.loads(cached(store))
    assert cached(store) == uncached(store)
    entries = next(session["entries"] for session in changed["sessions"] if session["id"] == session_id)
    assert len(entries) == len(entries_of(SHORT_GAME)) - 1


def test_a_change_that_keeps_the_size_and_time_of_the_file_is_still_seen(store: Store) -> None:
    cached(store)
    meta = next(meta for meta in store.list() if meta.game == "blackwood")
    path = store.session_file(meta.id).path
    before = os.stat(path)
    text = path.read_text()
    assert '"Ann"' in text
    path.write_text(text.replace('"Ann"', '"Ada"'))  # same length, same time: only the bytes differ
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    document: dict[str, Any] = json.loads(cached(store))
    players = next(session["players"] for session in document["sessions"] if session["id"] == meta.id)
    assert "Ada" in players and "Ann" not in players


@pytest.mark.parametrize("damage", [b"", b"not a digest\n{}", b"\xff\xfe", b"x" * 40 + b"\n"])
def test_a_damaged_kept_export_is_made_again(store: Store, damage: bytes) -> None:
    right = cached(store)
    for path in store.export_cache_dir.glob("*.json"):
        path.write_bytes(damage)
    assert cached(store) == right
    assert all("\n{" in text for text in kept(store).values())  # and kept again, whole


def test_without_room_for_the_cache_the_export_is_still_made(store: Store) -> None:
    store.export_cache_dir.parent.mkdir(parents=True, exist_ok=True)
    store.export_cache_dir.write_text("a file where the cache folder would be")
    assert cached(store) == uncached(store)


def test_deleting_a_session_deletes_its_kept_export(store: Store) -> None:
    cached(store)
    gone = store.list()[0].id
    removed = store.delete(gone)
    assert store.export_cache_dir / f"{gone}.json" in removed
    assert gone not in kept(store) and len(kept(store)) == 2


def test_another_referee_makes_every_kept_export_again(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.export_cache

    cached(store)
    before = kept(store)
    monkeypatch.setattr(referee.export_cache, "__version__", "99.0")
    assert cached(store) == uncached(store)
    after = kept(store)
    assert after.keys() == before.keys()
    # (each kept file: the cache's own digest, the key of the session's files, the export)
    assert all(after[key].split("\n")[1] != before[key].split("\n")[1] for key in after)  # new keys
    assert all(after[key].split("\n")[2] == before[key].split("\n")[2] for key in after)  # same export
