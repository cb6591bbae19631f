"""Sessions played with earlier versions of a game's questions still resume to the same state.

Each file of tests/fixtures/questions-v1/ is a whole realistic game (benchmarks/realistic/) as the
first version of each game's questions logged it, with the state and the scores it reached. As
questions go away or merge, a session stored with those logs must resume exactly there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.engine.driver import Entry
from referee.games.registry import load_game, short_name
from referee.session import LiveSession
from referee.store import SessionMeta, Store

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "questions-v1").glob("*.json"))


def stored_as_version_one(store: Store, logged: dict[str, Any]) -> str:
    """A session file as the first version wrote it: setup and entries, no questions version."""
    meta = SessionMeta(store.new_id(short_name(logged["game"])), logged["game"], logged["players"], logged["options"],
                       "2026-11-30 20:00:00")
    file = store.create(meta, indexed=False)
    for entry in logged["entries"]:
        file.add(entry)
    file.fold()
    file.unlock()
    return meta.id


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_a_version_one_session_resumes_to_the_state_it_reached(path: Path, tmp_path: Path) -> None:
    logged = json.loads(path.read_text(encoding="utf-8"))
    store = Store(tmp_path)
    live = LiveSession.resume(store, stored_as_version_one(store, logged), load_game)
    try:
        assert live.replay_error is None and live.dropped == 0
        driver = live.driver
        stored = [Entry.from_json(entry).to_json() for entry in logged["entries"]]
        assert [entry.to_json() for entry in driver.entries] == stored
        assert driver.finished and driver.report is not None
        assert {player.name: player.total for player in driver.report.players} == logged["totals"]
        assert sorted(driver.report.winners) == logged["winners"]
        assert driver.game.to_json(driver.state) == logged["state"]
    finally:
        live.release()
