"""Every file the store writes, damaged in every way: truncated, emptied, replaced by `{}`, by rows
of the wrong types, by a FIFO, by a symbolic link out of the store, by a directory, or grown past
16 MB. After each damage `referee sessions` and `referee resume` must list every session or say in
one line what is wrong, never hang, never show a traceback, and never read or write anything
outside the data directory: no file there is opened by name, the link's target is neither
changed nor read (its access time stays put), and the decoy session it holds is never listed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reliability_support import answer_that_fits
from typer.testing import CliRunner, Result

from referee.cli.app import app
from referee.engine.driver import Driver
from referee.games.blackthorn.game import GAME
from referee.session import LiveSession
from referee.store import Store

HUGE = 16 * 1024 * 1024 + 1
DAMAGES = ("truncated", "empty", "braces", "wrong-types", "fifo", "symlink", "directory", "huge")
WRONG_TYPES = {
    "index.json": '{"sessions": {"1": {"id": "%(id)s", "game": 5, "players": "Ann", "answers": "many"}}}',
    "json": '{"meta": {"1": {"id": "%(id)s", "game": ["x"], "players": 5}}, "log": {"1": {"n": "one", "entry": 7}}}',
    "journal": '{"seq": "1", "op": 5, "entry": []}\n[1, 2]\n{"seq": 2, "op": "add", "entry": {"answer": 9}}\n',
    "lock": "not a PID\n{}\x00",
}
OUTCOMES: Counter[str] = Counter()


@pytest.fixture(scope="module", autouse=True)
def report_outcomes() -> Iterator[None]:
    yield
    if OUTCOMES:
        print("\ndamaged stores: " + ", ".join(f"{what} {count}" for what, count in sorted(OUTCOMES.items())))


# -- watching every file the commands open ---------------------------------------------------------

WATCHED: list[tuple[str, str]] = []
RECORDING = [False]
PATH_EVENTS = ("open", "os.", "shutil.")


def record_paths(event: str, args: tuple[Any, ...]) -> None:
    if not RECORDING[0] or not event.startswith(PATH_EVENTS):
        return
    for argument in args:
        if isinstance(argument, str | bytes | os.PathLike):
            WATCHED.append((event, os.path.abspath(os.fsdecode(argument))))


sys.addaudithook(record_paths)


class Hung(Exception):
    """A command waited on a file instead of refusing it."""


def on_alarm(signum: int, frame: object) -> None:
    raise Hung("the command did not finish within 20 s")


def referee(*args: str) -> Result:
    """One command in this process, every file it names recorded, a hang turned into a failure."""
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(20)
    RECORDING[0] = True
    try:
        return CliRunner().invoke(app, list(args), env={"COLUMNS": "250", "FORCE_COLOR": None})
    finally:
        RECORDING[0] = False
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- the stores ------------------------------------------------------------------------------------


def played(store: Store, answers: int, seed: int, players: list[str]) -> LiveSession:
    live = LiveSession.start(store, GAME, players, {})
    rng, reference = random.Random(seed), Driver(GAME, players, {})
    for _ in range(answers):
        live.answer(answer_that_fits(reference, rng))
    return live


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], Path]:
    """A store with a closed session (folded, empty journal) and one killed mid-game (answers in
    its journal only); and, outside it, a folder holding a decoy session that must never appear."""
    root = tmp_path_factory.mktemp("pristine") / "data"
    closed = played(Store(root), 6, 1, ["Ann", "Bo", "Cy"])
    closed.close()
    closed.release()
    crashed = played(Store(root), 9, 2, ["Di", "Ed"])
    crashed.release()
    outside = tmp_path_factory.mktemp("outside")
    decoy = played(Store(outside / "decoy"), 3, 3, ["Eve", "Mallory"])
    decoy.close()
    decoy.release()
    target = outside / "target.json"
    shutil.copy(outside / "decoy" / "sessions" / f"{decoy.meta.id}.json", target)
    return root, [closed.meta.id, crashed.meta.id], target


def store_files(ids: list[str]) -> list[str]:
    """Every file the store writes and reads again, relative to the data directory."""
    return ["index.json", "index.lock"] + [f"sessions/{session_id}.{suffix}" for session_id in ids
                                           for suffix in ("json", "journal", "lock")]


def damage(path: Path, how: str, session_id: str, target: Path) -> None:
    original = path.read_bytes() if path.is_file() else b""
    if how in ("fifo", "symlink", "directory"):
        path.unlink(missing_ok=True)
    if how == "truncated":
        path.write_bytes(original[: len(original) // 2])
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "braces":
        path.write_text("{}")
    elif how == "wrong-types":
        kind = path.name if path.name.startswith("index.") else path.suffix.lstrip(".")
        path.write_text(WRONG_TYPES.get(kind, WRONG_TYPES["lock"]) % {"id": session_id})
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "symlink":
        path.symlink_to(target)
    elif how == "directory":
        path.mkdir()
        (path / "inside").write_text("{}")
    elif how == "huge":
        with open(path, "ab") as handle:
            handle.truncate(HUGE)


class Outside:
    """The files outside the data directory, watched for any read or write without disturbing them:
    their list and contents are taken first, then their access times are set well before their
    modification times, so that under relatime any read at all moves them."""

    def __init__(self, folder: Path) -> None:
        self.paths = [folder, *sorted(folder.rglob("*"))]
        self.contents = {path: path.read_bytes() for path in self.paths if path.is_file()}
        for path in self.paths:
            info = path.stat()
            os.utime(path, ns=(info.st_mtime_ns - 3600 * 10**9, info.st_mtime_ns))
        self.times = self.stamps()

    def stamps(self) -> dict[Path, tuple[int, int]]:
        return {path: (path.stat().st_atime_ns, path.stat().st_mtime_ns) for path in self.paths}

    def untouched(self) -> bool:
        """Neither read nor written (checked by time first: reading the contents moves the times)."""
        return self.stamps() == self.times and all(path.read_bytes() == data for path, data in self.contents.items())


def check_one_line(result: Result, what: str) -> str:
    """The command finished: 0, or 2 with one line that says why; never a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (what, repr(result.exception))
    assert "Traceback" not in result.stdout + result.stderr, what
    assert result.exit_code in (0, 2), (what, result.exit_code, result.stderr)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert lines and all(line.startswith("referee: ") for line in lines), (what, result.stderr)
    return result.stderr


def run_damaged(pristine: tuple[Path, list[str], Path], tmp_path: Path, file: str, how: str) -> None:
    source, ids, target = pristine
    root = tmp_path / "data"
    shutil.copytree(source, root, symlinks=True)
    damage(root / file, how, ids[0], target)
    outside = Outside(target.parent)
    quit_file = tmp_path / "quit.txt"
    quit_file.write_text("quit\n")
    WATCHED.clear()
    what = f"{file} {how}"

    listing = referee("sessions", "--all", "--db", str(root))
    check_one_line(listing, what)
    for session_id in ids:
        listed = session_id in listing.stdout
        explained = session_id in listing.stderr
        OUTCOMES["listed" if listed else "explained" if explained else "missing"] += 1
        assert listed or explained, (what, session_id, listing.stdout, listing.stderr)
    for session_id in ids:
        resumed = referee("resume", session_id, "--db", str(root), "--answers", str(quit_file))
        err = check_one_line(resumed, f"{what}: resume {session_id}")
        OUTCOMES["reopened" if resumed.exit_code == 0 else "refused in one line"] += 1
        if resumed.exit_code == 2:
            assert session_id in err or file.split("/")[-1] in err or "session list" in err, (what, err)
    again = referee("sessions", "--all", "--db", str(root))
    check_one_line(again, what)
    assert all(session_id in again.stdout + again.stderr for session_id in ids), (what, again.stdout)

    shown = listing.stdout + listing.stderr + again.stdout
    assert "Eve" not in shown and "Mallory" not in shown, what  # the decoy behind the link was never read
    assert outside.untouched(), what  # nor opened: its access time did not move
    allowed = (str(root), str(quit_file))
    strays = [(event, path) for event, path in WATCHED
              if path.startswith(str(tmp_path.parent)) and not path.startswith(allowed)]
    assert strays == [] and not any(path.startswith(str(target.parent)) for _, path in WATCHED), (what, strays)
    OUTCOMES["stores damaged"] += 1


CASES = [(file_index, how) for file_index in range(8) for how in DAMAGES]


@pytest.mark.parametrize(("file_index", "how"), CASES, ids=[f"{index}-{how}" for index, how in CASES])
def test_every_store_file_damaged_every_way(
    pristine: tuple[Path, list[str], Path], tmp_path: Path, file_index: int, how: str
) -> None:
    file = store_files(pristine[1])[file_index]
    run_damaged(pristine, tmp_path, file, how)


@pytest.mark.parametrize("how", ["symlink", "file", "fifo"])
def test_a_session_folder_that_is_not_a_folder_is_one_line(
    pristine: tuple[Path, list[str], Path], tmp_path: Path, how: str
) -> None:
    source, _ids, target = pristine
    root = tmp_path / "data"
    shutil.copytree(source, root, symlinks=True)
    shutil.rmtree(root / "sessions")
    if how == "symlink":
        (root / "sessions").symlink_to(target.parent / "decoy" / "sessions")
    elif how == "fifo":
        os.mkfifo(root / "sessions")
    else:
        (root / "sessions").write_text("{}")
    outside = Outside(target.parent)
    WATCHED.clear()
    for args in (["sessions"], ["resume", "--answers", os.devnull], ["play", "blackthorn", "-p", "A,B", "--answers",
                                                                     os.devnull]):
        result = referee(*args, "--db", str(root))
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, (args, result.stderr)
        assert "the session folder" in result.stderr and "Eve" not in result.stdout
    assert outside.untouched()
    assert not any(path.startswith(str(target.parent)) for _, path in WATCHED)


def test_the_journal_of_a_crashed_game_is_counted(pristine: tuple[Path, list[str], Path]) -> None:
    """The pristine store's second session died with nine answers in its journal only (it never
    closed, so the index has no row for it: the listing reads its files)."""
    source, ids, _target = pristine
    listing = referee("sessions", "--db", str(source))
    row = next(line for line in listing.stdout.splitlines() if ids[1] in line)
    indexed = [row["id"] for row in json.loads((source / "index.json").read_text())["sessions"].values()]
    assert " 9 " in row and indexed == [ids[0]]


def run_damaged_together(
    pristine: tuple[Path, list[str], Path], tmp_path: Path, damages: list[tuple[str, str]]
) -> None:
    """Several files damaged at once: still every session listed or explained."""
    source, ids, target = pristine
    root = tmp_path / "data"
    shutil.copytree(source, root, symlinks=True)
    for file, how in damages:
        damage(root / file, how, ids[0], target)
    outside = Outside(target.parent)
    quit_file = tmp_path / "quit.txt"
    quit_file.write_text("quit\n")
    what = str(damages)
    for _round in range(2):
        listing = referee("sessions", "--all", "--db", str(root))
        check_one_line(listing, what)
        assert all(session_id in listing.stdout + listing.stderr for session_id in ids), (what, listing.stdout)
        for session_id in ids:
            check_one_line(referee("resume", session_id, "--db", str(root), "--answers", str(quit_file)), what)
    assert outside.untouched(), what
    OUTCOMES["stores damaged in several files at once"] += 1


@pytest.mark.slow
def test_several_store_files_damaged_at_once(pristine: tuple[Path, list[str], Path],
                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    rng = random.Random(int(os.environ.get("REFEREE_CORRUPTION_SEED", "7")))
    files = store_files(pristine[1])
    for _ in range(200):
        chosen = rng.sample(files, rng.randint(2, 4))
        run_damaged_together(pristine, tmp_path_factory.mktemp("several"),
                             [(file, rng.choice(DAMAGES)) for file in chosen])
