"""Output to a path the user names (`export -o`, `cards export`): written as a shell's `>` would,
never into the referee's own data directory, never renaming over what is not a plain file."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest
from history_support import SHORT_GAME, entries_of, store_entries
from typer.testing import CliRunner, Result

from referee.cli.app import app
from referee.store import Store

ENVIRONMENT = {"COLUMNS": "100", "NO_COLOR": "1"}


def referee(*args: str, db: Path) -> Result:
    return CliRunner().invoke(app, [*args, "--db", str(db)], env=ENVIRONMENT)


def refused(result: Result, words: str) -> None:
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ") and words in line, line


@pytest.fixture
def two_sessions(tmp_path: Path) -> tuple[Path, str, str]:
    db = tmp_path / "db"
    first = store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    second = store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    return db, first, second


def store_bytes(db: Path) -> dict[str, bytes]:
    return {str(path.relative_to(db)): path.read_bytes() for path in sorted(db.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("name", ["{other}.json", "{other}.journal", "{other}.lock", "new-file.json"])
def test_a_path_inside_the_sessions_folder_is_refused_and_no_session_changes(
        two_sessions: tuple[Path, str, str], name: str) -> None:
    db, first, second = two_sessions
    before = store_bytes(db)
    target = db / "sessions" / name.format(other=second)
    refused(referee("export", first, "-o", str(target), db=db), "inside the referee's data directory")
    assert store_bytes(db) == before
    assert referee("sessions", "show", second, db=db).exit_code == 0


def test_a_link_into_the_data_directory_is_refused(two_sessions: tuple[Path, str, str], tmp_path: Path) -> None:
    db, first, second = two_sessions
    before = store_bytes(db)
    link = tmp_path / "looks-harmless.json"
    link.symlink_to(db / "sessions" / f"{second}.json")
    refused(referee("export", first, "-o", str(link), db=db), "inside the referee's data directory")
    hard = tmp_path / "hard-link.json"
    os.link(db / "sessions" / f"{second}.json", hard)
    refused(referee("export", first, "-o", str(hard), db=db), "hard link of a file in the referee's data")
    assert store_bytes(db) == before


def test_a_symbolic_link_keeps_pointing_at_its_target_which_keeps_its_mode(
        two_sessions: tuple[Path, str, str], tmp_path: Path) -> None:
    db, first, _ = two_sessions
    target = tmp_path / "backups" / "latest.json"
    target.parent.mkdir()
    target.write_text("old\n")
    os.chmod(target, 0o644)
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    assert referee("export", first, "-o", str(link), db=db).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["sessions"][0]["id"] == first
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_an_existing_file_keeps_its_mode_and_a_new_one_follows_the_umask(
        two_sessions: tuple[Path, str, str], tmp_path: Path) -> None:
    db, first, _ = two_sessions
    existing = tmp_path / "shared.json"
    existing.write_text("old\n")
    os.chmod(existing, 0o640)
    assert referee("export", first, "-o", str(existing), db=db).exit_code == 0
    assert stat.S_IMODE(existing.stat().st_mode) == 0o640 and first in existing.read_text()
    previous = os.umask(0o027)
    try:
        assert referee("export", first, "-o", str(tmp_path / "new.json"), db=db).exit_code == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640


def test_hard_links_outside_the_store_all_see_the_new_text(two_sessions: tuple[Path, str, str],
                                                           tmp_path: Path) -> None:
    db, first, _ = two_sessions
    one, other = tmp_path / "one.json", tmp_path / "other.json"
    one.write_text("old\n")
    os.link(one, other)
    assert referee("export", first, "-o", str(one), db=db).exit_code == 0
    assert os.stat(one).st_ino == os.stat(other).st_ino
    assert other.read_text() == one.read_text() and first in other.read_text()


def test_a_fifo_with_a_reader_is_written_into_and_one_without_is_refused_at_once(
        two_sessions: tuple[Path, str, str], tmp_path: Path) -> None:
    db, first, _ = two_sessions
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused(referee("export", first, "-o", str(fifo), db=db), "a FIFO that nobody is reading")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)

    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    holder = os.open(fifo, os.O_WRONLY)  # holds the pipe open, so the reader sees its end only after the export
    os.set_blocking(reader, True)
    results: list[Result] = []

    def export() -> None:
        try:
            results.append(referee("export", first, "-o", str(fifo), db=db))
        finally:
            os.close(holder)

    writer = threading.Thread(target=export)
    writer.start()
    chunks = []
    while chunk := os.read(reader, 65536):  # read while the export writes, however long it is
        chunks.append(chunk)
    writer.join()
    os.close(reader)
    assert results[0].exit_code == 0, results[0].output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert json.loads(b"".join(chunks))["sessions"][0]["id"] == first


def test_a_character_device_is_written_into_not_replaced(two_sessions: tuple[Path, str, str],
                                                         tmp_path: Path) -> None:
    db, first, _ = two_sessions
    if os.geteuid() == 0:  # a device of our own, so that the machine's /dev/null is never at stake
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.stat(os.devnull).st_rdev)
    else:
        device = Path(os.devnull)
    assert referee("export", first, "-o", str(device), db=db).exit_code == 0
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_a_directory_is_refused(two_sessions: tuple[Path, str, str], tmp_path: Path) -> None:
    db, first, _ = two_sessions
    refused(referee("export", first, "-o", str(tmp_path), db=db), "a directory, not a regular file")


def test_cards_export_keeps_the_same_rules(tmp_path: Path) -> None:
    db = tmp_path / "db"
    (db / "sessions").mkdir(parents=True)
    before = store_bytes(db)
    refused(referee("cards", "blackthorn", "export", str(db / "sessions" / "x.json"), db=db),
            "inside the referee's data directory")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    refused(referee("cards", "blackthorn", "export", str(fifo), db=db), "a FIFO that nobody is reading")
    assert store_bytes(db) == before
    previous = os.umask(0)
    try:
        assert referee("cards", "blackthorn", "export", str(tmp_path / "cards.json"), db=db).exit_code == 0
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "cards.json").stat().st_mode) == 0o666
    assert json.loads((tmp_path / "cards.json").read_text())["game"] == "council-of-blackthorn"
