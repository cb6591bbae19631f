"""The stored sessions as a history: finding one by an id prefix, choosing by filters, reading one.

Everything here reads; nothing writes. A listing uses only the index (one row per session, with the
summary a finished session leaves there), so it costs the same for ten sessions or a thousand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import Any

from referee.engine.driver import Entry
from referee.errors import SessionError
from referee.store import SessionMeta, Store
from referee.summary import Summary, read_summary

STATUSES = ("playing", "finished")
SHOWN_CANDIDATES = 8


def resolve(store: Store, given: str) -> SessionMeta:
    """The session whose id is `given` or starts with it; an ambiguous prefix names the candidates."""
    wanted = given.strip().lower()
    if not wanted:
        raise SessionError("give a session id (or the start of one); 'referee sessions' lists them")
    store.session_file(wanted)  # refuses what no id can be (a path, capitals, spaces)
    metas = store.list()
    exact = [meta for meta in metas if meta.id == wanted]
    if exact:
        return exact[0]
    matching = [meta for meta in metas if meta.id.startswith(wanted)]
    if len(matching) == 1:
        return matching[0]
    if not matching:
        raise SessionError(f"no session {given!r} in {store.sessions_dir}; 'referee sessions' lists them")
    shown = ", ".join(meta.id for meta in matching[:SHOWN_CANDIDATES])
    more = f" and {len(matching) - SHOWN_CANDIDATES} more" if len(matching) > SHOWN_CANDIDATES else ""
    raise SessionError(f"{given!r} starts {len(matching)} session ids: {shown}{more}; give more of the id")


@dataclass(frozen=True)
class Filters:
    """Which stored sessions a listing keeps: by game, player, status and start date; one left unset
    admits every session."""

    game: str | None = None
    """A game id (already resolved from an alias)."""
    player: str | None = None
    """A player's name, any case."""
    status: str | None = None
    since: date | None = None

    def admits(self, meta: SessionMeta) -> bool:
        if self.game is not None and meta.game != self.game:
            return False
        if self.player is not None and not plays(meta, self.player):
            return False
        if self.status is not None and meta.status != self.status:
            return False
        return self.since is None or meta.started[:10] >= self.since.isoformat()


def plays(meta: SessionMeta, name: str) -> bool:
    """The same person across sessions is the same name, ignoring case."""
    wanted = name.strip().casefold()
    return any(player.casefold() == wanted for player in meta.players)


def select(metas: Iterable[SessionMeta], filters: Filters) -> list[SessionMeta]:
    return [meta for meta in metas if filters.admits(meta)]


def read_date(text: str) -> date:
    """A --since date: YYYY-MM-DD."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise SessionError(f"--since takes a date as YYYY-MM-DD (e.g. 2026-01-31), not {text!r}") from None


def read_status(text: str) -> str:
    status = text.strip().lower()
    if status not in STATUSES:
        raise SessionError(f"--status is one of {', '.join(STATUSES)}, not {text!r}")
    return status


def played_time(seconds: float) -> str:
    """A session's playing time for reading: '1 h 35 min', '40 min', 'under a minute'."""
    minutes = round(seconds / 60)
    if seconds and minutes == 0:
        return "under a minute"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"


@dataclass
class StoredSession:
    """One session as it is on disk: its setup, its log and the edits made to it."""

    meta: SessionMeta
    logged: list[dict[str, str]] = field(default_factory=list)
    """The log as stored, every entry checked ({"answer": ...} or {"adjust": ..., "reason": ...})."""

    @cached_property
    def entries(self) -> list[Entry]:
        """The log as the driver reads it (built when asked: an export of the log needs only `logged`)."""
        return [Entry.from_json(entry) for entry in self.logged]

    @property
    def edits(self) -> list[dict[str, Any]]:
        return self.meta.edits


def read_session(store: Store, session_id: str) -> StoredSession:
    """Read a session without taking its lock (it may be open in another process: then this is the
    state of its files, every answer written so far)."""
    file = store.session_file(session_id)
    file.load()
    assert file.meta is not None
    return StoredSession(file.meta, file.entries)


def summary_of(store: Store, meta: SessionMeta) -> Summary | None:
    """A finished session's summary: from the index, or (when an older referee left none) by replay."""
    if meta.status != "finished":
        return None
    found = read_summary(meta.summary)
    if found is not None:
        return found
    return replayed_summary(read_session(store, meta.id))


def replayed_summary(stored: StoredSession) -> Summary | None:
    from referee.engine.driver import replay
    from referee.games.registry import load_game
    from referee.summary import summarise

    meta = stored.meta
    game = load_game(meta.game)
    result = replay(game, meta.players, meta.options, stored.entries, questions=meta.questions)
    if result.driver.report is None:
        return None
    return summarise(game, result.driver)


def summaries(store: Store, metas: Sequence[SessionMeta]) -> list[tuple[SessionMeta, Summary]]:
    """Each finished session with its summary (sessions whose log no longer finishes are left out)."""
    found = []
    for meta in metas:
        try:
            summary = summary_of(store, meta)
        except SessionError:
            continue  # damaged: the store has already said so and kept a copy
        if summary is not None:
            found.append((meta, summary))
    return found
