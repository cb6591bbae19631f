"""Where sessions live on disk, written so that an accepted answer is never lost.

Layout under the data directory (referee.data_dir: --db, $REFEREE_HOME, $XDG_DATA_HOME/referee,
~/.local/share/referee), a directory of mode 0700 whose files are 0600:

    index.json              one row per session (game, players, status, winner): a TinyDB document
    index.lock              serialises index updates between processes
    sessions/<id>.json      TinyDB: the session's setup and its folded answer log
    sessions/<id>.journal   answers accepted since the last fold, one JSON line each, fsynced
    sessions/<id>.lock      held (flock) by the one process playing the session; names its PID
    sessions/<id>.set-aside-<time>.json    answers that stopped replaying, kept when resuming
    *.damaged-<time>        a copy of a file found damaged, kept before anything else happens

Every answer is appended to the journal and fsynced before the next question is shown, so its
cost does not grow with the session or with the number of stored sessions. Whole files are
written to a temporary file, fsynced and renamed over the old one, so a crash leaves either the
old or the new file, never a torn one. Every file is read through referee.safe_files: regular
files only (never a link, a FIFO or a device), at most 16 MB. A damaged file is reported in one
line and copied; the other sessions are not affected. The index is only a summary, written when
a session closes: when it is damaged or of the wrong shape, every session file is read instead;
a session it does not name (one not closed yet) is read from its own files. Listing sessions
writes nothing. The store reads only JSON and
never executes anything. docs/reliability.md lists these promises and the tests that check them.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.middlewares import CachingMiddleware
from tinydb.storages import Storage

from referee.data_dir import data_dir
from referee.errors import SessionError
from referee.safe_files import (
    FileTooLarge,
    NotRegularFile,
    check_directory,
    fsync_directory,
    make_private_directory,
    open_regular,
    read_regular,
    remove_cache,
    sweep_temporaries,
    write_all,
    write_atomically,
)

FORMAT_VERSION = 1
SESSION_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
FOLD_EVERY = 500
"""Journal lines after which the log is folded into the session file (keeps resume fast)."""
MAX_SECONDS = 1e300
"""Above any playing time, and below the largest float (a whole number past it cannot be one)."""
UNREADABLE = "unreadable"
"""The status listed for a session whose file cannot be read (the reason follows it)."""


def data_home() -> Path:
    """The data directory the environment names (see referee.data_dir)."""
    return data_dir()


HELD_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold back Ctrl-C (SIGINT) and SIGTERM while a write is under way; they arrive right after.

    The in-memory log and the file on disk then never disagree about the answer being written.
    Blocking the signals in this thread is not enough where the process has other threads (a
    prompt library's helpers): the kernel hands the signal to one of them and Python still runs
    its handler here, at once. So in the main thread the handlers are also swapped for ones that
    only note the signal, and what was noted is raised again once the write is done.
    """
    arrived: list[int] = []
    handlers: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        handlers = {number: signal.signal(number, lambda got, _frame: arrived.append(got)) for number in HELD_SIGNALS}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # what was held arrives now, and is noted
        for number, handler in handlers.items():
            signal.signal(number, handler)
        for got in arrived:
            signal.raise_signal(got)


def read_json(path: Path) -> Any:
    """A store file's JSON: a regular file (no link followed) of at most 16 MB, UTF-8."""
    return json.loads(read_regular(path).decode("utf-8"))


class AtomicJSONStorage(Storage):
    """TinyDB storage that never leaves a half-written file behind and reads only regular files."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            data = read_regular(self.path)
        except FileNotFoundError:
            return None
        if not data.strip():
            return None
        document = json.loads(data.decode("utf-8"))
        if not isinstance(document, dict):
            raise ValueError("not a TinyDB document")
        return document

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # serialise before touching disk
        write_atomically(self.path, text)

    def close(self) -> None:
        pass


def open_db(path: Path, batch: bool = False) -> TinyDB:
    """A TinyDB on atomic storage; `batch` collects every change into one write at close().

    The store writes through TinyDB but reads its documents with `table_rows`, which checks
    every table's shape instead of trusting it."""
    if batch:
        return TinyDB(str(path), storage=CachingMiddleware(AtomicJSONStorage))  # type: ignore[no-untyped-call]
    return TinyDB(str(path), storage=AtomicJSONStorage)


def table_rows(document: object, name: str) -> list[dict[str, Any]]:
    """The rows of one table of a TinyDB document, refusing (ValueError) anything of another shape."""
    if not isinstance(document, dict):
        raise ValueError("not a TinyDB document")
    table = document.get(name, {})
    if not isinstance(table, dict) or not all(isinstance(row, dict) for row in table.values()):
        raise ValueError(f"its {name} table is not a table of rows")
    return list(table.values())


@dataclass
class SessionMeta:
    """What the store keeps of a session besides its log: game, players and rulings, status and
    winners, times, summary and edits."""

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
    """Past answers changed after the fact, oldest first (referee/edit.py): entry, old, new, when.
    Kept in the session file only: a row of the index has none (see `edited`)."""
    questions: int = 1
    """The version of its game's questions the session is played with (Game.questions_version);
    a session stored before versions were recorded is version 1."""
    edited: int = 0
    """How many edits were made: what the index keeps of them (`len(edits)` once they are read)."""

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
            "questions": self.questions,
            "edited": len(self.edits) or self.edited,
        }

    def index_row(self) -> dict[str, Any]:
        """The row of the index: a summary, the edit records left to the session file (every
        listing reads the whole index, so nothing in it grows with a session's history)."""
        return {**self.to_json(), "edits": []}

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
        if type(played) not in (int, float) or not 0 <= played < float("inf") or played > MAX_SECONDS:
            raise ValueError("playing time is not a number of seconds")  # (an int of 400 digits is no float)
        summary = data.get("summary")
        if summary is not None and not isinstance(summary, dict):
            raise ValueError("summary is not a mapping")
        edits = data.get("edits", [])
        if not isinstance(edits, list) or not all(isinstance(edit, dict) for edit in edits):
            raise ValueError("edits are not a list of records")
        questions = data.get("questions", 1)
        if type(questions) is not int or questions < 1:
            raise ValueError("the questions' version is not a whole number from 1")
        edited = data.get("edited", len(edits))
        if type(edited) is not int or edited < 0:
            raise ValueError("edit count is not a whole number")
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
            questions,
            len(edits) or edited,
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


class SessionDamaged(SessionError):
    """A session file that cannot be read as a session. `copy` says whether a copy can be kept."""

    def __init__(self, session_id: str, detail: str, copy: bool) -> None:
        self.session_id = session_id
        self.detail = detail
        self.copy = copy
        super().__init__(f"session {session_id} is damaged and cannot be opened ({detail}); "
                         "other sessions are not affected")


def log_entry(data: object) -> dict[str, str]:
    """A stored log entry, checked: {"answer": text} or {"adjust": text, "reason": text}.

    Every session read checks every entry this way, so the check is kept to a few lookups."""
    if type(data) is dict:
        if len(data) == 1:
            answer = data.get("answer")
            if type(answer) is str:
                return {"answer": answer}
        elif len(data) == 2:
            adjust, why = data.get("adjust"), data.get("reason")
            if type(adjust) is str and type(why) is str:
                return {"adjust": adjust, "reason": why}
    raise ValueError("not a log entry")


def numbered_entries(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The entries of a session file's log rows ({"n": k, "entry": ...}), in order, each checked.

    Rows are numbered 1, 2, ... with no gap; every listing and export reads every entry of every
    session this way, so the usual case (rows already in order) costs one pass."""
    numbers = [row.get("n") for row in rows]
    if not all(type(number) is int for number in numbers):
        raise ValueError("its log rows are not numbered")
    expected = list(range(1, len(rows) + 1))
    if numbers != expected:
        rows = sorted(rows, key=lambda row: int(row["n"]))
        if [row["n"] for row in rows] != expected:
            raise ValueError("its log rows are out of sequence")
    return [log_entry(row.get("entry")) for row in rows]


def file_problem(error: OSError) -> str:
    """Why a store file was not read, for a message: 'a FIFO, not a regular file'."""
    if isinstance(error, NotRegularFile | FileTooLarge):
        return str(error.strerror)
    return reason(error)


def open_lock(path: Path, refused: str, holder: str) -> int:
    """A lock file opened to be locked (flock), made when missing. One that is not a regular file
    (a link, a FIFO, a device) is refused: '<refused><path> is a FIFO; remove it if no referee is
    <holder>'."""
    try:
        return open_regular(path, os.O_RDWR | os.O_CREAT)
    except NotRegularFile as error:
        raise SessionError(f"{refused}{path} is {error.strerror}; remove it if no referee is {holder}") from None


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
        self.journal_problem: str | None = None
        """Set by load() when the journal could not be read whole: why, and where it stopped."""
        self._journal_unusable = False
        self._sequence = 0
        self._journal_lines = 0
        self._journal_good_bytes = 0

    # -- locking -------------------------------------------------------------------------------

    def lock(self) -> None:
        fd = open_lock(self.lock_path, f"session {self.id} cannot be opened: its lock ", "playing the session")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip()
            os.close(fd)
            holder = holder if holder.isdecimal() else "unknown"
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
        """Read the folded log, then the journal lines written after it. Never writes anything:
        a damaged session file raises SessionDamaged, a damaged journal sets `journal_problem`."""
        if not os.path.lexists(self.path):
            raise SessionError(f"no session {self.id}")
        try:
            document = read_json(self.path)
            metas = table_rows(document, "meta")
            if not metas:
                raise ValueError("it holds no setup")
            meta = metas[0]
            version = meta.get("format", FORMAT_VERSION)
            if type(version) is not int:
                raise ValueError("its format is not a whole number")
            if version > FORMAT_VERSION:
                raise SessionError(
                    f"session {self.id} was written by a newer referee (format {version}, this one reads "
                    f"{FORMAT_VERSION}); upgrade to open it. The file is left as it is."
                )
            self.meta = SessionMeta.from_json(meta)
            self.entries = numbered_entries(table_rows(document, "log"))
            self._sequence = meta.get("sequence", 0)
            if type(self._sequence) is not int or self._sequence < 0:
                raise ValueError("its journal position is not a whole number")
        except SessionError:
            raise
        except (NotRegularFile, FileTooLarge) as error:
            raise SessionDamaged(self.id, f"{self.path.name} is {error.strerror}", copy=False) from None
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError) as error:
            detail = str(error) if isinstance(error, ValueError) and str(error).startswith("its ") else ""
            raise SessionDamaged(self.id, detail or error.__class__.__name__, copy=True) from None
        self._read_journal()

    def _read_journal(self) -> None:
        try:
            raw = read_regular(self.journal_path)
        except FileNotFoundError:
            return
        except (NotRegularFile, FileTooLarge) as error:
            self._journal_unusable = True
            self.journal_problem = f"is {error.strerror}"
            return
        good = 0
        *complete, _torn = raw.split(b"\n")  # the piece after the last newline was never acknowledged
        for line in complete:
            if not self._replay_line(line):
                self.journal_problem = f"is damaged after answer {len(self.entries)}"
                break
            good += len(line) + 1
        self._journal_good_bytes = good

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

    def repair_journal(self) -> None:
        """After load(), with the lock held: keep a damaged journal aside and cut it back to its
        last good line, so that new lines follow it (a torn tail is just cut)."""
        assert self._lock_fd is not None, "repair only a session this process holds"
        if self._journal_unusable:
            # Not a file the journal can be appended to: move it out of the way, whole.
            aside = self.journal_path.with_name(f"{self.journal_path.name}.damaged-{stamp()}")
            os.replace(self.journal_path, aside)
            self.notices.append(
                f"the journal of session {self.id} {self.journal_problem}; it was moved to {aside} "
                f"and the session opens at answer {len(self.entries)}"
            )
            return
        if self.journal_problem is not None:
            backup = self.keep_backup(self.journal_path)
            self.notices.append(
                f"the journal of session {self.id} {self.journal_problem}; "
                f"the session opens there and a copy of the journal is kept at {backup}"
            )
        with contextlib.suppress(FileNotFoundError):
            if os.lstat(self.journal_path).st_size > self._journal_good_bytes:
                fd = open_regular(self.journal_path, os.O_WRONLY)
                try:
                    os.ftruncate(fd, self._journal_good_bytes)
                    os.fsync(fd)
                finally:
                    os.close(fd)

    def keep_backup(self, path: Path) -> Path | None:
        """A copy of a damaged store file beside it; None when it is no regular file to copy."""
        backup = path.with_name(f"{path.name}.damaged-{stamp()}")
        try:
            data = read_regular(path)
            if not os.path.lexists(backup):
                write_atomically(backup, data)
        except OSError:
            return None
        return backup

    # -- writing -------------------------------------------------------------------------------

    def record(self, op: dict[str, Any]) -> None:
        """Append one change to the journal; it is on disk before this returns."""
        line = json.dumps({"seq": self._sequence + 1, **op}, ensure_ascii=False, separators=(",", ":"))
        with uninterrupted():
            try:
                if self._journal_fd is None:
                    self._journal_fd = open_regular(self.journal_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
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
        aside = self.path.with_name(f"{self.id}.set-aside-{stamp()}.json")
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


def stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


class Store:
    """All sessions under one data directory."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = data_dir(root).resolve()
        self.sessions_dir = self.root / "sessions"
        self.index_path = self.root / "index.json"
        self.index_lock_path = self.root / "index.lock"
        self.export_cache_dir = self.root / "export-cache"
        """Each session's JSON export, kept for the next export (referee/export_cache.py)."""

    def ensure(self, sweep: bool = True) -> None:
        """Make the data directory and its session folder (0700) and sweep crashed writes (unless
        `sweep` is False: the sweep lists the whole folder)."""
        self.check_root()
        try:
            make_private_directory(self.root)  # may be the user's own folder (--db ~): left as it is
            make_private_directory(self.sessions_dir, tighten=True)
        except NotRegularFile as error:
            raise self.not_a_folder(error) from None
        if sweep:
            self.sweep_orphans()

    def check_root(self) -> None:
        """Refuse a data directory or session folder that is something other than a directory."""
        if self.root.exists() and not self.root.is_dir():
            raise SessionError(
                f"the data directory {self.root} is a file, not a directory; point REFEREE_HOME or --db elsewhere"
            )
        try:
            check_directory(self.sessions_dir)
        except NotRegularFile as error:
            raise self.not_a_folder(error) from None

    def not_a_folder(self, error: NotRegularFile) -> SessionError:
        return SessionError(
            f"the session folder {self.sessions_dir} is {error.strerror}; move it away (nothing in it "
            "is read) and the referee makes a new one"
        )

    def sweep_orphans(self) -> None:
        """Remove the store's own temporary files left by writes that a crash interrupted."""
        for directory in (self.root, self.sessions_dir, self.export_cache_dir):
            sweep_temporaries(directory)

    def session_file(self, session_id: str) -> SessionFile:
        if not SESSION_ID.match(session_id):
            raise SessionError(f"bad session id {session_id!r}: lowercase letters, digits and '-' only")
        return SessionFile(self.sessions_dir, session_id)

    def new_id(self, label: str) -> str:
        """When it started, what it is (`label`: the game's short name, so that the two Councils
        differ) and four random hex digits. Ids of other forms (older sessions named
        '...-council-...') still open."""
        return f"{time.strftime('%Y%m%d-%H%M%S')}-{label[:10]}-{secrets.token_hex(2)}"

    def create(self, meta: SessionMeta, indexed: bool = True, label: str | None = None) -> SessionFile:
        """Write a new session; if its id is taken (two starts in the same second), take another
        (named by `label`, else by the game's id).

        `indexed=False` leaves its row in the index to the caller (a session started at the table
        gets it when it closes: the index is rewritten whole, and the table need not wait for
        that); until then listings, and index updates, read the session from its own file."""
        session = self.session_file(meta.id)
        try:
            # No sweep before a new session's first question: the folder is swept when it closes.
            self.ensure(sweep=False)
            for _attempt in range(8):
                session = self.session_file(meta.id)
                with contextlib.suppress(SessionLocked):
                    session.lock()
                    if not os.path.lexists(session.path):
                        break
                    session.unlock()
                meta.id = self.new_id(label or meta.game)
            else:
                raise SessionError(f"could not find a free session id in {self.sessions_dir}")
            session.meta = meta
            session.fold()
            if indexed:
                self.update_index(meta)
        except OSError as error:
            session.unlock()
            raise SessionError(f"cannot create session {meta.id} in {self.sessions_dir}: {reason(error)}") from None
        except BaseException:
            session.unlock()
            raise
        return session

    def open(self, session_id: str) -> SessionFile:
        """Lock and read a session for play; a damaged file is copied first and reported in one line."""
        session = self.session_file(session_id)
        try:
            self.ensure()
            if not os.path.lexists(session.path):
                raise SessionError(f"no session {session_id!r} in {self.sessions_dir}")
            session.lock()
            try:
                session.load()
            except SessionDamaged as damaged:
                backup = session.keep_backup(session.path) if damaged.copy else None
                kept = f"; a copy is kept at {backup}" if backup else "; the file is left as it is"
                raise SessionError(f"session {session_id} is damaged and cannot be opened ({damaged.detail})"
                                   f"{kept}; other sessions are not affected") from None
            session.repair_journal()
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
                kept_export = self.export_cache_dir / f"{session_id}.json"
                if remove_cache(kept_export, self.root):  # (never through a link in the folder's place)
                    removed.append(kept_export)
                fsync_directory(self.sessions_dir)
                with self._index_lock(), uninterrupted():
                    metas, _ = self._read_index()
                    if metas is not None:
                        self._write_index(meta for meta in metas if meta.id != session_id)
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
        make_private_directory(self.root)
        fd = open_lock(self.index_lock_path, "cannot update the session list: ", "running")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _read_index(self) -> tuple[list[SessionMeta] | None, bool]:
        """The index's sessions, or None when it is missing or unusable; and whether it exists."""
        try:
            rows = table_rows(read_json(self.index_path), "sessions")
            metas = [SessionMeta.from_json(row) for row in rows]
        except FileNotFoundError:
            return None, False
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None, True
        ids = [meta.id for meta in metas]
        if len(set(ids)) != len(ids) or not all(SESSION_ID.match(session_id) for session_id in ids):
            return None, True
        return metas, True

    def _session_ids(self) -> set[str]:
        """The ids of the session files in the session folder (set-aside and damaged copies aside)."""
        try:
            names = os.listdir(self.sessions_dir)
        except FileNotFoundError:
            return set()
        return {name[:-5] for name in names if name.endswith(".json") and SESSION_ID.match(name[:-5])}

    def _from_files(self, ids: Iterable[str]) -> list[SessionMeta]:
        """A row for every session file, read from the file itself; a file that cannot be read
        gets a row that says why, so that it is still listed."""
        return [self._from_file(session_id) for session_id in sorted(ids)]

    def _from_file(self, session_id: str, fallback: SessionMeta | None = None) -> SessionMeta:
        session = SessionFile(self.sessions_dir, session_id)
        try:
            session.load()
        except SessionDamaged as damaged:
            problem = damaged.detail
        except SessionError as refused:
            problem = str(refused).removeprefix(f"session {session_id} ")
        except OSError as error:
            problem = file_problem(error)
        else:
            assert session.meta is not None
            session.meta.answers = len(session.entries)
            return session.meta
        if fallback is not None:
            return fallback
        return SessionMeta(session_id, "-", [], status=f"{UNREADABLE}: {problem}")

    def _refreshed(self, metas: list[SessionMeta]) -> list[SessionMeta]:
        """Index rows, each re-read from its session files when they changed after the index was
        written (a crash before the index was updated, or a game being played elsewhere)."""
        try:
            written = os.lstat(self.index_path).st_mtime_ns
        except OSError:
            written = 0
        fresh = []
        directory = os.fspath(self.sessions_dir)  # (plain strings: a listing stats every session)
        for meta in metas:
            unfinished = meta.status != "finished"
            changed = False
            for suffix in (".json", ".journal"):  # SessionFile's path and journal_path
                with contextlib.suppress(OSError):
                    info = os.lstat(os.path.join(directory, meta.id + suffix))
                    # File times advance by the kernel's clock tick, so a change made in the same
                    # tick as the index has the index's time: for a game still being played that
                    # counts as a change (a finished one is folded, then indexed, within one tick).
                    changed = changed or info.st_mtime_ns > written or (
                        unfinished and info.st_mtime_ns == written) or (
                        suffix == ".journal" and info.st_size > 0 and unfinished)
            fresh.append(self._from_file(meta.id, fallback=meta) if changed else meta)
        return fresh

    def _write_index(self, metas: Iterable[SessionMeta]) -> None:
        db = open_db(self.index_path, batch=True)
        db.drop_tables()
        db.table("sessions").insert_multiple(meta.index_row() for meta in metas)
        db.close()  # one atomic write of the whole index

    def update_index(self, meta: SessionMeta) -> None:
        """Write `meta` into the index, which also comes to name exactly the sessions in the
        session folder: an unusable index is rebuilt from every session file; a readable one
        loses the rows whose files are gone and gains, read from their files, the sessions it
        does not name yet (one started elsewhere and not answered yet, or left by a crash)."""
        try:
            with self._index_lock(), uninterrupted():
                metas, exists = self._read_index()
                on_disk = self._session_ids() - {meta.id}
                if metas is None:
                    if exists:
                        os.replace(self.index_path, self.index_path.with_name(f"index.json.damaged-{stamp()}"))
                    metas = self._from_files(on_disk)
                else:
                    indexed = {row.id for row in metas}
                    metas = [row for row in metas if row.id in on_disk] + self._from_files(on_disk - indexed)
                rows = [row for row in metas if row.id != meta.id] + [meta]
                self._write_index(rows)
        except OSError as error:
            raise SessionError(f"cannot update the session list in {self.root}: {reason(error)}") from None

    def rebuild_index(self) -> None:
        """Write the index again from the session files (a tool for benchmarks and repairs)."""
        try:
            with self._index_lock(), uninterrupted():
                self._write_index(self._from_files(self._session_ids()))
        except OSError as error:
            raise SessionError(f"cannot update the session list in {self.root}: {reason(error)}") from None

    def list(self) -> list[SessionMeta]:
        """Every stored session, oldest first. Reads only: an absent store stays absent, and an
        index that cannot be trusted is read around (from the session files), not rewritten."""
        if not self.root.exists():
            return []
        self.check_root()
        try:
            on_disk = self._session_ids()
            metas, _exists = self._read_index()
            if metas is None:
                metas = self._from_files(on_disk)
            else:
                # Rows of sessions whose files are gone are dropped; sessions the index does not
                # name yet (just started, or written before a crash) are read from their files.
                indexed = {meta.id for meta in metas}
                metas = self._refreshed([meta for meta in metas if meta.id in on_disk])
                metas += self._from_files(on_disk - indexed)
        except OSError as error:
            raise SessionError(f"cannot read the session list in {self.root}: {reason(error)}") from None
        return sorted(metas, key=lambda meta: meta.started)


def reason(error: OSError) -> str:
    """An operating-system error as a few words and the file it concerns."""
    where = f" ({error.filename})" if error.filename else ""
    return f"{error.strerror or error.__class__.__name__}{where}"
