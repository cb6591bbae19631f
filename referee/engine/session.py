"""A live session: the driver plus its durable answer log.

A session is its setup (game, players, options) and its log. Every accepted answer is written to
disk before the next question is shown; resume replays the log; undo replays all but the last
entries. The state is always derived from the log, never stored.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from referee.engine.driver import Driver, Entry, ReplayResult, replay
from referee.engine.game import Game
from referee.errors import SessionError
from referee.games.registry import find_game
from referee.store import SessionFile, SessionMeta, Store
from referee.summary import summarise


def load_game(game_id: str) -> Game[Any]:
    info = find_game(game_id)
    module = info.play()
    if module is None:
        raise SessionError(f"{info.name} has no guided session yet; use 'referee score {info.id}'")
    game: Game[Any] = module.GAME
    return game


def saved_at() -> str:
    """A sortable time of saving, fine enough to order two saves in the same second."""
    return datetime.now().isoformat(sep=" ", timespec="microseconds")


class LiveSession:
    def __init__(self, store: Store, file: SessionFile, game: Game[Any], result: ReplayResult) -> None:
        self.store = store
        self.file = file
        self.game = game
        self.driver = result.driver
        self.replay_error = result.error
        """Set when the stored log stopped fitting the rules; the session continues from there."""
        self.dropped = len(file.entries) - result.applied
        self.set_aside_path: Path | None = None
        """Where the answers that no longer replay were kept, when there were any."""

    @property
    def meta(self) -> SessionMeta:
        assert self.file.meta is not None
        return self.file.meta

    @classmethod
    def start(
        cls, store: Store, game_id: str, players: Sequence[str], options: Mapping[str, Any]
    ) -> LiveSession:
        game = load_game(game_id)
        game.check_players(players)
        driver = Driver(game, players, options)  # refuses bad options before anything is written
        meta = SessionMeta(
            store.new_id(game.id), game.id, list(players), dict(options), time.strftime("%Y-%m-%d %H:%M:%S"),
            updated=saved_at(),
        )
        file = store.create(meta)
        return cls(store, file, game, ReplayResult(driver, 0))

    @classmethod
    def resume(cls, store: Store, session_id: str) -> LiveSession:
        file = store.open(session_id)
        try:
            assert file.meta is not None
            game = load_game(file.meta.game)
            entries = [Entry.from_json(entry) for entry in file.entries]
            result = replay(game, file.meta.players, file.meta.options, entries)
            session = cls(store, file, game, result)
            if session.dropped:
                # Continue after the answers that fit; the rest are kept in a file of their own.
                session.set_aside_path = file.set_aside(result.applied, result.error or "no longer fits")
            return session
        except Exception:
            file.unlock()
            raise

    def answer(self, raw: str) -> Entry:
        entry = self.driver.answer(raw)
        self._save(entry)
        self._after_change()
        return entry

    def adjust(self, text: str, reason: str) -> Entry:
        entry = self.driver.adjust(text, reason)
        self._save(entry)
        self._after_change()
        return entry

    def _save(self, entry: Entry) -> None:
        try:
            self.file.add(entry.to_json())
        except SessionError:
            # Not on disk, so not accepted: take it back so that the table and the store agree.
            stored = [Entry.from_json(saved) for saved in self.file.entries]
            self.driver = replay(self.game, self.meta.players, self.meta.options, stored).driver
            self.driver.take_messages()
            raise

    def undo(self, steps: int = 1) -> int:
        """Take back the last `steps` entries (answers or corrections); returns how many."""
        steps = max(0, min(steps, len(self.driver.entries)))
        if steps == 0:
            return 0
        kept = self.driver.entries[: len(self.driver.entries) - steps]
        result = replay(self.game, self.meta.players, self.meta.options, kept)
        self.driver = result.driver
        self.driver.take_messages()
        self.file.truncate(len(kept))
        return steps

    def _after_change(self) -> None:
        if self.driver.finished:
            self.close("finished")

    def close(self, status: str | None = None) -> None:
        meta = self.meta
        if status is not None:
            meta.status = status
        report = self.driver.report
        meta.winners = list(report.winners) if report is not None else []  # an undo can reopen a game
        meta.summary = summarise(self.game, self.driver).to_json() if report is not None else None
        meta.answers = len(self.driver.entries)
        meta.updated = saved_at()
        self.file.fold()
        self.store.update_index(meta)

    def release(self) -> None:
        self.file.unlock()
