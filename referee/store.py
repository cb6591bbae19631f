"""Where sessions live on disk, written so that an accepted answer is never lost.

Layout under the data directory ($REFEREE_HOME, else $XDG_DATA_HOME/referee, else
~/.local/share/referee):

    index.json              TinyDB: one row per session (game, players, status, winner)
    sessions/<id>.json      TinyDB: the session's setup and its folded answer log
    sessions/<id>.journal   answers accepted since the last fold, one JSON line each, fsynced
    sessions/<id>.lock      held (flock) by the one process playing the session; names its PID

Every answer is appended to the journal and fsynced before the next question is shown, so its
cost does not grow with the session or with the number of stored sessions. TinyDB files are
written whole to a temporary file, fsynced and renamed over the old one, so a crash leaves either
the old or the new file, never a torn one. The store reads only JSON and never executes anything.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tinydb import Query, TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage

from referee.errors import SessionError

FORMAT_VERSION = 1
SESSION_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
FOLD_EVERY = 500
"""Journal lines after which the log is folded into the session file (keeps resume fast)."""


def data_home() -> Path:
    configured = os.environ.get("REFEREE_HOME")
    if configured:
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG specification says a relative XDG_DATA_HOME is invalid and must be ignored.
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "referee"


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) and SIGTERM while a write is under way; they arrive right after.

    The in-memory log and the file on disk then never disagree about the answer being written.
    """
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def open_private(path: Path, flags: int) -> int:
    """Open a store file without following a symbolic link out of the store (mode from the umask)."""
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)


def fsync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text`: temporary file in the same directory, fsync, rename, fsync dir."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    fsync_directory(path.parent)


class AtomicJSONStorage(Storage):
    """TinyDB storage that never leaves a half-written file behind."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        if not text.strip():
            return None
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("not a TinyDB document")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # serialise before touching disk
        write_atomically(self.path, text)

    def close(self) -> None:
        pass


def open_db(path: Path, batch: bool = False) -> TinyDB:
    """A TinyDB on atomic storage; `batch` collects every change into one write at close()."""
    if batch:
        return TinyDB(str(path), storage=CachingMiddleware(AtomicJSONStorage))  # type: ignore[no-untyped-call]
    return TinyDB(str(path), storage=AtomicJSONStorage)


@dataclass
class SessionMeta:
    id: str
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    started: str = ""
    status: str = "playing"
    winners: list[str] = field(default_factory=list)
    answers: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "started": self.started,
            "status": self.status,
            "winners": list(self.winners),
            "answers": self.answers,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> SessionMeta:
        return SessionMeta(
            str(data["id"]),
            str(data["game"]),
            [str(name) for name in data["players"]],
            dict(data.get("options", {})),
            str(data.get("started", "")),
            str(data.get("status", "playing")),
            [str(name) for name in data.get("winners", [])],
            int(data.get("answers", 0)),
        )


class SessionLocked(SessionError):
    """Another live process is playing this session."""


class SessionFile:
    """One session's folded log plus its journal, held under an exclusive lock."""

    def __init__(self, directory: Path, session_id: str) -> None:
        self.directory = directory
        self.id = session_id
        self.path = directory / f"{session_id}.json"
        self.journal_path = directory / f"{session_id}.journal"
        self.lock_path = directory / f"{session_id}.lock"
        self._lock_fd: int | None = None
        self._journal: Any = None
        self.meta: SessionMeta | None = None
        self.entries: list[dict[str, str]] = []
        self._sequence = 0
        self._folded_sequence = 0
        self._journal_lines = 0

    # -- locking -------------------------------------------------------------------------------

    def lock(self) -> None:
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise SessionLocked(
                f"session {self.id} is open in another process (PID {holder}); close it there first"
            ) from None
        # The kernel drops a flock when its process dies, so a lock left by a dead process is free.
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    def unlock(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._lock_fd, 0)
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> None:
        """Read the folded log and then the journal lines written after it."""
        if not self.path.exists():
            raise SessionError(f"no session {self.id}")
        try:
            db = open_db(self.path)
            meta_rows = db.table("meta").all()
            rows = db.table("log").all()
        except (ValueError, UnicodeDecodeError) as error:
            backup = self.keep_backup()
            raise SessionError(
                f"session {self.id} is unreadable ({error.__class__.__name__}); a copy is kept at {backup}"
            ) from None
        try:
            meta = dict(meta_rows[0])
            version = int(meta.get("format", FORMAT_VERSION))
            if version > FORMAT_VERSION:
                raise SessionError(
                    f"session {self.id} was written by a newer referee (format {version}); upgrade to open it"
                )
            self.meta = SessionMeta.from_json(meta)
            rows.sort(key=lambda row: int(row["n"]))
            self.entries = [{str(key): str(value) for key, value in row["entry"].items()} for row in rows]
            self._folded_sequence = self._sequence = int(meta.get("sequence", 0))
        except SessionError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            backup = self.keep_backup()
            raise SessionError(f"session {self.id} is damaged; a copy is kept at {backup}") from None
        self._read_journal()

    def _read_journal(self) -> None:
        try:
            raw = self.journal_path.read_bytes()
        except FileNotFoundError:
            return
        for line in raw.split(b"\n"):
            try:
                op = json.loads(line)
                sequence = int(op["seq"])
            except (ValueError, KeyError, TypeError):
                continue  # a torn last line: that answer was never acknowledged
            self._journal_lines += 1
            if sequence <= self._sequence:
                continue  # already folded into the session file
            self._apply(op)
            self._sequence = sequence

    def _apply(self, op: dict[str, Any]) -> None:
        if op["op"] == "add":
            self.entries.append(dict(op["entry"]))
        elif op["op"] == "truncate":
            del self.entries[int(op["to"]) :]

    def keep_backup(self) -> Path:
        backup = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        with contextlib.suppress(OSError):
            backup.write_bytes(self.path.read_bytes())
        return backup

    # -- writing -------------------------------------------------------------------------------

    def record(self, op: dict[str, Any]) -> None:
        """Append one change to the journal and make it durable before returning."""
        self._apply(op)
        self._sequence += 1
        if self._journal is None:
            self._journal = open(self.journal_path, "ab")
        line = json.dumps({"seq": self._sequence, **op}, ensure_ascii=False, separators=(",", ":"))
        self._journal.write(line.encode() + b"\n")
        self._journal.flush()
        os.fsync(self._journal.fileno())
        self._journal_lines += 1
        if self._journal_lines >= FOLD_EVERY:
            self.fold()

    def add(self, entry: dict[str, str]) -> None:
        self.record({"op": "add", "entry": entry})

    def truncate(self, length: int) -> None:
        self.record({"op": "truncate", "to": length})

    def fold(self) -> None:
        """Write the whole log into the session file, then start an empty journal."""
        assert self.meta is not None
        self.meta.answers = len(self.entries)
        meta = {**self.meta.to_json(), "format": FORMAT_VERSION, "sequence": self._sequence}
        db = open_db(self.path, batch=True)
        db.drop_tables()
        db.table("meta").insert(meta)
        db.table("log").insert_multiple({"n": n, "entry": entry} for n, entry in enumerate(self.entries, 1))
        db.close()  # the one atomic write of the whole file
        # The folded file now holds every journal line; an empty journal is safe to start.
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        write_atomically(self.journal_path, "")
        self._folded_sequence = self._sequence
        self._journal_lines = 0


class Store:
    """All sessions under one data directory."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or data_home()).expanduser().resolve()
        self.sessions_dir = self.root / "sessions"
        self.index_path = self.root / "index.json"

    def ensure(self) -> None:
        self.sessions_dir.mkdir(parents=True, exist_ok=True)
        self.sweep_orphans()

    def sweep_orphans(self) -> None:
        """Remove temporary files left by writes that a crash interrupted."""
        for directory in (self.root, self.sessions_dir):
            for orphan in directory.glob(".*.tmp"):
                pid = orphan.name.rsplit(".", 2)[-2]
                if not pid.isdigit() or not pid_alive(int(pid)):
                    with contextlib.suppress(OSError):
                        orphan.unlink()

    def session_file(self, session_id: str) -> SessionFile:
        if not SESSION_ID.match(session_id):
            raise SessionError(f"bad session id {session_id!r}: lowercase letters, digits and '-' only")
        return SessionFile(self.sessions_dir, session_id)

    def new_id(self, game: str) -> str:
        return f"{time.strftime('%Y%m%d-%H%M%S')}-{game.split('-')[0][:8]}-{secrets.token_hex(2)}"

    def create(self, meta: SessionMeta) -> SessionFile:
        self.ensure()
        session = self.session_file(meta.id)
        if session.path.exists():
            raise SessionError(f"session {meta.id} exists already")
        session.lock()
        session.meta = meta
        session.fold()
        self.update_index(meta)
        return session

    def open(self, session_id: str) -> SessionFile:
        self.ensure()
        session = self.session_file(session_id)
        if not session.path.exists():
            raise SessionError(f"no session {session_id!r} in {self.sessions_dir}")
        session.lock()
        try:
            session.load()
        except Exception:
            session.unlock()
            raise
        return session

    # -- the index -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _index_lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / "index.lock", os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _index_rows(self) -> list[dict[str, Any]] | None:
        """The index rows, or None when the index is missing or damaged (it is then rebuilt)."""
        if not self.index_path.exists():
            return None
        try:
            return [dict(row) for row in open_db(self.index_path).table("sessions").all()]
        except (ValueError, UnicodeDecodeError, TypeError, AttributeError):
            backup = self.index_path.with_name(f"index.json.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            with contextlib.suppress(OSError):
                os.replace(self.index_path, backup)
            return None

    def update_index(self, meta: SessionMeta) -> None:
        with self._index_lock():
            if self._index_rows() is None:
                self._rebuild_index()
            open_db(self.index_path).table("sessions").upsert(meta.to_json(), Query().id == meta.id)

    def _rebuild_index(self) -> None:
        """Make the index again from the session files themselves (after it was lost or damaged)."""
        rows = []
        for path in sorted(self.sessions_dir.glob("*.json")):
            session = SessionFile(self.sessions_dir, path.stem)
            with contextlib.suppress(SessionError):
                session.load()
                if session.meta:
                    session.meta.answers = len(session.entries)
                    rows.append(session.meta.to_json())
        db = open_db(self.index_path, batch=True)
        db.drop_tables()
        db.table("sessions").insert_multiple(rows)
        db.close()

    def list(self) -> list[SessionMeta]:
        if not self.root.exists():
            return []
        rows = self._index_rows()
        if rows is None:
            with self._index_lock():
                self._rebuild_index()
            rows = self._index_rows() or []
        metas = []
        for row in rows:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                metas.append(SessionMeta.from_json(row))
        return sorted(metas, key=lambda meta: meta.started)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
