"""Where sessions live on disk, written so that an accepted answer is never lost.

Layout under the data directory ($REFEREE_HOME, else $XDG_DATA_HOME/referee, else
~/.local/share/referee):

    index.json              TinyDB: one row per session (game, players, status, winner)
    sessions/<id>.json      TinyDB: the session's setup and its folded answer log
    sessions/<id>.journal   answers accepted since the last fold, one JSON line each, fsynced
    sessions/<id>.lock      held (flock) by the one process playing the session; names its PID
    sessions/<id>.set-aside-<time>.json    answers that stopped replaying, kept when resuming
    *.damaged-<time>        a copy of a file found damaged, kept before anything else happens

Every answer is appended to the journal and fsynced before the next question is shown, so its
cost does not grow with the session or with the number of stored sessions. TinyDB files are
written whole to a temporary file, fsynced and renamed over the old one, so a crash leaves either
the old or the new file, never a torn one. A damaged file is reported in one line and copied;
the other sessions are not affected. The store reads only JSON and never executes anything.
docs/reliability.md lists these promises and the tests that check them.
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
from collections.abc import Iterable, Iterator
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


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace `path` with `text`: temporary file in the same directory, fsync, rename, fsync dir."""
    data = text.encode("utf-8") if isinstance(text, str) else text  # serialised before any file is touched
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = open_private(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
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
    updated: str = ""
    """When the session was last saved (at quit, end or close): `resume` picks the latest."""
    played_seconds: float = 0.0
    """Time spent playing it (with the referee open), summed over every sitting."""
    summary: dict[str, Any] | None = None
    """A finished session's results, kept in the index so that history, statistics and exports need
    not replay every log (referee/summary.py writes and reads it)."""
    edits: list[dict[str, Any]] = field(default_factory=list)
    """Past answers changed after the fact, oldest first (referee/edit.py): entry, old, new, when."""

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
            "updated": self.updated,
            "played_seconds": self.played_seconds,
            "summary": self.summary,
            "edits": [dict(edit) for edit in self.edits],
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> SessionMeta:
        """Read stored metadata, refusing (ValueError) any field of the wrong shape."""
        options = data.get("options", {})
        rulings = options.get("rulings", {}) if isinstance(options, dict) else None
        if not (isinstance(options, dict) and isinstance(rulings, dict) and all_text(rulings.values())):
            raise ValueError("options are not a mapping of rulings to values")
        answers = data.get("answers", 0)
        if type(answers) is not int or answers < 0:
            raise ValueError("answer count is not a whole number")
        played = data.get("played_seconds", 0.0)
        if type(played) not in (int, float) or not 0 <= played < float("inf"):
            raise ValueError("playing time is not a number of seconds")
        summary = data.get("summary")
        if summary is not None and not isinstance(summary, dict):
            raise ValueError("summary is not a mapping")
        edits = data.get("edits", [])
        if not isinstance(edits, list) or not all(isinstance(edit, dict) for edit in edits):
            raise ValueError("edits are not a list of records")
        return SessionMeta(
            text_field(data["id"]),
            text_field(data["game"]),
            text_list(data["players"]),
            options,
            text_field(data.get("started", "")),
            text_field(data.get("status", "playing")),
            text_list(data.get("winners", [])),
            answers,
            text_field(data.get("updated", data.get("started", ""))),
            float(played),
            summary,
            [dict(edit) for edit in edits],
        )


def text_field(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, found {type(value).__name__}")
    return value


def text_list(value: object) -> list[str]:
    if not isinstance(value, list) or not all_text(value):
        raise ValueError("expected a list of names")
    return list(value)


def all_text(values: Iterable[object]) -> bool:
    return all(isinstance(value, str) for value in values)


class SessionLocked(SessionError):
    """Another live process is playing this session."""


def log_entry(data: object) -> dict[str, str]:
    """A stored log entry, checked: {"answer": text} or {"adjust": text, "reason": text}."""
    if isinstance(data, dict):
        keys = set(data)
        if keys in ({"answer"}, {"adjust", "reason"}) and all(isinstance(v, str) for v in data.values()):
            return {str(key): str(value) for key, value in data.items()}
    raise ValueError("not a log entry")


class SessionFile:
    """One session's folded log plus its journal, held under an exclusive lock."""

    def __init__(self, directory: Path, session_id: str) -> None:
        self.directory = directory
        self.id = session_id
        self.path = directory / f"{session_id}.json"
        self.journal_path = directory / f"{session_id}.journal"
        self.lock_path = directory / f"{session_id}.lock"
        self._lock_fd: int | None = None
        self._journal_fd: int | None = None
        self.meta: SessionMeta | None = None
        self.entries: list[dict[str, str]] = []
        self.notices: list[str] = []
        """What the table should be told on opening (a lock taken over, a damaged journal)."""
        self._sequence = 0
        self._journal_lines = 0
        self._journal_good_bytes = 0
        self._journal_damaged = False

    # -- locking -------------------------------------------------------------------------------

    def lock(self) -> None:
        fd = open_private(self.lock_path, os.O_RDWR | os.O_CREAT)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise SessionLocked(
                f"session {self.id} is open in another process (PID {holder}); close it there first"
            ) from None
        # The kernel drops a flock when its process dies, so a lock left by a dead process is free
        # to take; a PID still written in it means that process ended without closing the session.
        previous = os.read(fd, 64).decode(errors="replace").strip()
        if previous.isdecimal() and int(previous) != os.getpid():
            self.notices.append(
                f"the process that last had session {self.id} open (PID {previous}) ended without "
                "closing it; its lock was taken over"
            )
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._lock_fd = fd

    def unlock(self) -> None:
        if self._journal_fd is not None:
            os.close(self._journal_fd)
            self._journal_fd = None
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(self._lock_fd, 0)
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- reading -------------------------------------------------------------------------------

    def load(self) -> None:
        """Read the folded log and then the journal lines written after it. Never writes."""
        if not self.path.exists():
            raise SessionError(f"no session {self.id}")
        try:
            db = open_db(self.path)
            meta = dict(db.table("meta").all()[0])
            version = int(meta.get("format", FORMAT_VERSION))
            if version > FORMAT_VERSION:
                raise SessionError(
                    f"session {self.id} was written by a newer referee (format {version}, this one reads "
                    f"{FORMAT_VERSION}); upgrade to open it. The file is left as it is."
                )
            self.meta = SessionMeta.from_json(meta)
            rows = sorted(db.table("log").all(), key=lambda row: int(row["n"]))
            if [int(row["n"]) for row in rows] != list(range(1, len(rows) + 1)):
                raise ValueError("log rows out of sequence")
            self.entries = [log_entry(row["entry"]) for row in rows]
            self._sequence = meta.get("sequence", 0)
            if type(self._sequence) is not int or self._sequence < 0:
                raise ValueError("journal position is not a whole number")
        except SessionError:
            raise
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError) as error:
            backup = self.keep_backup(self.path)
            raise SessionError(
                f"session {self.id} is damaged and cannot be opened ({error.__class__.__name__}); "
                f"a copy is kept at {backup}; other sessions are not affected"
            ) from None
        self._read_journal()

    def _read_journal(self) -> None:
        try:
            raw = self.journal_path.read_bytes()
        except FileNotFoundError:
            return
        good = 0
        *complete, _torn = raw.split(b"\n")  # the piece after the last newline was never acknowledged
        for line in complete:
            if not self._replay_line(line):
                self._journal_damaged = True
                break
            good += len(line) + 1
        self._journal_good_bytes = good
        if self._journal_damaged:
            backup = self.keep_backup(self.journal_path)
            self.notices.append(
                f"the journal of session {self.id} is damaged after answer {len(self.entries)}; "
                f"the session opens there and a copy of the journal is kept at {backup}"
            )

    def _replay_line(self, line: bytes) -> bool:
        """Apply one journal line; False when it is damaged or does not follow the one before."""
        try:
            op = json.loads(line)
            sequence = op["seq"]
            if type(sequence) is not int:
                return False
            if sequence <= self._sequence:
                self._journal_lines += 1
                return True  # already folded into the session file
            if sequence != self._sequence + 1:
                return False  # a line is missing: nothing after it can be trusted
            if op["op"] == "add":
                self.entries.append(log_entry(op["entry"]))
            elif op["op"] == "truncate" and type(op["to"]) is int and 0 <= op["to"] <= len(self.entries):
                del self.entries[op["to"] :]
            else:
                return False
        except (ValueError, KeyError, TypeError, RecursionError):
            return False
        self._sequence = sequence
        self._journal_lines += 1
        return True

    def trim_journal(self) -> None:
        """Cut a torn or damaged journal tail so that new lines follow the last good one (locked)."""
        assert self._lock_fd is not None, "trim only a session this process holds"
        with contextlib.suppress(FileNotFoundError):
            if self.journal_path.stat().st_size > self._journal_good_bytes:
                fd = open_private(self.journal_path, os.O_WRONLY)
                try:
                    os.ftruncate(fd, self._journal_good_bytes)
                    os.fsync(fd)
                finally:
                    os.close(fd)

    def keep_backup(self, path: Path) -> Path:
        backup = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        with contextlib.suppress(OSError):
            if not backup.exists():
                write_atomically(backup, path.read_bytes())
        return backup

    # -- writing -------------------------------------------------------------------------------

    def record(self, op: dict[str, Any]) -> None:
        """Append one change to the journal; it is on disk before this returns."""
        line = json.dumps({"seq": self._sequence + 1, **op}, ensure_ascii=False, separators=(",", ":"))
        with uninterrupted():
            try:
                if self._journal_fd is None:
                    self._journal_fd = open_private(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
                fd = self._journal_fd
                end = os.lseek(fd, 0, os.SEEK_END)
                try:
                    write_all(fd, line.encode("utf-8") + b"\n")
                    os.fsync(fd)
                except OSError:
                    with contextlib.suppress(OSError):
                        os.ftruncate(fd, end)  # no half line for the next answer to land after
                    raise
            except OSError as error:
                raise SessionError(
                    f"cannot save to session {self.id}: {reason(error)}; the answer was not kept"
                ) from None
            self._sequence += 1
            self._journal_lines += 1
            if op["op"] == "add":
                self.entries.append(dict(op["entry"]))
            else:
                del self.entries[int(op["to"]) :]
        if self._journal_lines >= FOLD_EVERY:
            self.fold()

    def add(self, entry: dict[str, str]) -> None:
        self.record({"op": "add", "entry": log_entry(entry)})

    def truncate(self, length: int) -> None:
        self.record({"op": "truncate", "to": max(0, min(length, len(self.entries)))})

    def rewrite(self, entries: list[dict[str, str]]) -> None:
        """Replace the whole log at once (a past answer edited): one atomic write of the session file."""
        assert self._lock_fd is not None, "rewrite only a session this process holds"
        self.entries = [log_entry(entry) for entry in entries]  # checked before anything is written
        self.fold()

    def set_aside(self, length: int, reason: str) -> Path:
        """Keep the entries after `length` in a file of their own, then cut the log there."""
        dropped = self.entries[length:]
        aside = self.path.with_name(f"{self.id}.set-aside-{time.strftime('%Y%m%d-%H%M%S')}.json")
        document = {"session": self.id, "after": length, "reason": reason, "entries": dropped}
        write_atomically(aside, json.dumps(document, ensure_ascii=False, indent=1))
        self.truncate(length)
        return aside

    def fold(self) -> None:
        """Write the whole log into the session file, then start an empty journal."""
        assert self.meta is not None
        self.meta.answers = len(self.entries)
        meta = {**self.meta.to_json(), "format": FORMAT_VERSION, "sequence": self._sequence}
        with uninterrupted():
            try:
                db = open_db(self.path, batch=True)
                db.drop_tables()
                db.table("meta").insert(meta)
                db.table("log").insert_multiple(
                    {"n": n, "entry": entry} for n, entry in enumerate(self.entries, 1)
                )
                db.close()  # the one atomic write of the whole file
                # The folded file now holds every journal line; an empty journal is safe to start.
                if self._journal_fd is not None:
                    os.close(self._journal_fd)
                    self._journal_fd = None
                write_atomically(self.journal_path, "")
            except OSError as error:
                raise SessionError(f"cannot save session {self.id}: {reason(error)}") from None
        self._journal_lines = 0
        self._journal_good_bytes = 0


class Store:
    """All sessions under one data directory."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or data_home()).expanduser().resolve()
        self.sessions_dir = self.root / "sessions"
        self.index_path = self.root / "index.json"

    def ensure(self) -> None:
        self.check_root()
        self.sessions_dir.mkdir(parents=True, exist_ok=True)
        self.sweep_orphans()

    def check_root(self) -> None:
        if self.root.exists() and not self.root.is_dir():
            raise SessionError(
                f"the data directory {self.root} is a file, not a directory; point REFEREE_HOME or --db elsewhere"
            )

    def sweep_orphans(self) -> None:
        """Remove temporary files left by writes that a crash interrupted."""
        for directory in (self.root, self.sessions_dir):
            for orphan in directory.glob(".*.tmp"):
                pid = orphan.name.rsplit(".", 2)[-2]
                if not pid.isdecimal() or not pid_alive(int(pid)):
                    with contextlib.suppress(OSError):
                        orphan.unlink()

    def session_file(self, session_id: str) -> SessionFile:
        if not SESSION_ID.match(session_id):
            raise SessionError(f"bad session id {session_id!r}: lowercase letters, digits and '-' only")
        return SessionFile(self.sessions_dir, session_id)

    def new_id(self, game: str) -> str:
        return f"{time.strftime('%Y%m%d-%H%M%S')}-{game.split('-')[0][:8]}-{secrets.token_hex(2)}"

    def create(self, meta: SessionMeta) -> SessionFile:
        """Write a new session; if its id is taken (two starts in the same second), take another."""
        session = self.session_file(meta.id)
        try:
            self.ensure()
            for _attempt in range(8):
                session = self.session_file(meta.id)
                with contextlib.suppress(SessionLocked):
                    session.lock()
                    if not session.path.exists():
                        break
                    session.unlock()
                meta.id = self.new_id(meta.game)
            else:
                raise SessionError(f"could not find a free session id in {self.sessions_dir}")
            session.meta = meta
            session.fold()
            self.update_index(meta)
        except OSError as error:
            session.unlock()
            raise SessionError(f"cannot create session {meta.id} in {self.sessions_dir}: {reason(error)}") from None
        except BaseException:
            session.unlock()
            raise
        return session

    def open(self, session_id: str) -> SessionFile:
        session = self.session_file(session_id)
        try:
            self.ensure()
            if not session.path.exists():
                raise SessionError(f"no session {session_id!r} in {self.sessions_dir}")
            session.lock()
            session.load()
            session.trim_journal()
        except OSError as error:
            session.unlock()
            raise SessionError(f"cannot open session {session_id}: {reason(error)}") from None
        except BaseException:
            session.unlock()
            raise
        return session

    def delete(self, session_id: str) -> list[Path]:
        """Remove a session: its files, the answers set aside from it, and its row in the index.

        Refused (SessionLocked) while another process has it open. Returns the files removed.
        """
        session = self.session_file(session_id)
        listed = any(meta.id == session_id for meta in self.list())
        if not session.path.exists() and not listed:
            raise SessionError(f"no session {session_id!r} in {self.sessions_dir}")
        removed: list[Path] = []
        try:
            self.ensure()
            session.lock()
            try:
                # The session file first: it is the session; an index row without it is only a stale line.
                for path in (session.path, session.journal_path,
                             *sorted(self.sessions_dir.glob(f"{session_id}.set-aside-*.json"))):
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()
                        removed.append(path)
                fsync_directory(self.sessions_dir)
                with self._index_lock(), uninterrupted():
                    if self._index_rows() is not None:
                        open_db(self.index_path).table("sessions").remove(Query().id == session_id)
            finally:
                session.unlock()
                with contextlib.suppress(OSError):
                    session.lock_path.unlink()
        except OSError as error:
            raise SessionError(f"cannot delete session {session_id}: {reason(error)}") from None
        return removed

    # -- the index -----------------------------------------------------------------------------

    @contextlib.contextmanager
    def _index_lock(self) -> Iterator[None]:
        self.root.mkdir(parents=True, exist_ok=True)
        fd = open_private(self.root / "index.lock", os.O_RDWR | os.O_CREAT)
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
        except (ValueError, TypeError, AttributeError, KeyError, RecursionError):
            backup = self.index_path.with_name(f"index.json.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            with contextlib.suppress(OSError):
                os.replace(self.index_path, backup)
            return None

    def update_index(self, meta: SessionMeta) -> None:
        try:
            with self._index_lock(), uninterrupted():
                if self._index_rows() is None:
                    self._rebuild_index()
                open_db(self.index_path).table("sessions").upsert(meta.to_json(), Query().id == meta.id)
        except OSError as error:
            raise SessionError(f"cannot update the session list in {self.root}: {reason(error)}") from None

    def _rebuild_index(self) -> None:
        """Make the index again from the session files themselves (after it was lost or damaged)."""
        rows = []
        for path in sorted(self.sessions_dir.glob("*.json")):
            if not SESSION_ID.match(path.stem):
                continue  # a set-aside file, not a session
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
        self.check_root()
        try:
            rows = self._index_rows()
            if rows is None:
                with self._index_lock(), uninterrupted():
                    self._rebuild_index()
                rows = self._index_rows() or []
        except OSError as error:
            raise SessionError(f"cannot read the session list in {self.root}: {reason(error)}") from None
        metas = []
        for row in rows:
            with contextlib.suppress(KeyError, TypeError, ValueError):
                metas.append(SessionMeta.from_json(row))
        return sorted(metas, key=lambda meta: meta.started)


def reason(error: OSError) -> str:
    """An operating-system error as a few words and the file it concerns."""
    where = f" ({error.filename})" if error.filename else ""
    return f"{error.strerror or error.__class__.__name__}{where}"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
