"""Every command that takes a path, through one matrix of targets: a regular file, a missing one, a
directory, a link into the data directory and a link out of it, a FIFO nobody writes or reads, a
character device, a file of the store itself, a path that cannot be written (under a file), a
file of 17 MB, /dev/zero, and a file starting with a byte-order mark.

Each run is a child process under a timeout: none hangs, none shows a traceback, a refusal is one
line, and the store's own files are exactly as they were (a command that writes the store only adds
to it). A link out of the data directory keeps its target unless the command writes its output
there, as a shell's `>` would. Device nodes are made inside the test's folder (as root, with
os.mknod): the machine's own devices are never written to."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from history_support import SHORT_GAME, entries_of, store_entries
from reliability_support import child_env

from referee.store import Store

SEVENTEEN_MB = 17 * 1024 * 1024
TARGETS = ("regular", "missing", "directory", "link into the store", "link out", "fifo", "device",
           "a store file", "unwritable", "17 MB", "/dev/zero", "BOM")
COMMANDS: dict[str, tuple[list[str], str]] = {
    # label: (arguments, with PATH for the target and SESSION for the stored session; what the path is)
    "export -o": (["export", "SESSION", "-o", "PATH"], "output"),
    "import": (["import", "PATH"], "export"),
    "cards import": (["cards", "blackthorn", "import", "PATH"], "catalogue"),
    "cards export": (["cards", "blackthorn", "export", "PATH"], "output"),
    "--answers": (["play", "blackthorn", "-p", "Ann,Bo", "--answers", "PATH"], "answers"),
    "--db (sessions)": (["sessions", "--db", "PATH"], "data directory"),
    "--db (play)": (["play", "blackthorn", "-p", "Ann,Bo", "--answers", "ANSWERS", "--db", "PATH"], "data directory"),
}


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, str]]:
    """A store with one finished session, and valid contents for each kind of input."""
    folder = tmp_path_factory.mktemp("source")
    session_id = store_entries(Store(folder / "db"), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    exported = run(["export", session_id, "--db", str(folder / "db")])
    assert exported.returncode == 0, exported.stderr
    contents = {
        "export": exported.stdout,
        "catalogue": json.dumps({"format": 1, "game": "council-of-blackthorn", "cards": []}),
        "answers": "9\n5\nquit\n",
        "output": "an old file of the user's\n",
        "data directory": "a file where a folder would be\n",
    }
    return folder / "db", session_id, contents


def run(arguments: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *arguments], env=env or child_env(COLUMNS="100"),
                          capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def make_target(kind: str, folder: Path, db: Path, session_id: str, content: str, writes: bool,
                directory: bool) -> Path:
    store_file = db / "sessions" / f"{session_id}.json"
    outside = folder / "outside.txt"
    outside.write_text(content, encoding="utf-8")
    if kind == "regular":
        path = folder / "target.txt"
        path.write_text(content, encoding="utf-8")
    elif kind == "missing":
        path = folder / "missing.txt"
    elif kind == "directory":
        path = folder / "a-folder"
        path.mkdir()
    elif kind == "link into the store":
        path = folder / "link-in"
        path.symlink_to(db if directory else store_file)  # (--db: a link to the data directory itself)
    elif kind == "link out":
        path = folder / "link-out"
        path.symlink_to(outside)
    elif kind == "fifo":
        path = folder / "pipe"
        os.mkfifo(path)
    elif kind in ("device", "/dev/zero") and (writes or kind == "device"):
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        path = folder / "zero-device"  # the same device as /dev/zero, but a node of the test's own
        os.mknod(path, 0o600 | stat.S_IFCHR, os.stat("/dev/zero").st_rdev)
    elif kind == "/dev/zero":
        path = Path("/dev/zero")  # read only: it has no end
    elif kind == "a store file":
        path = store_file
    elif kind == "unwritable":
        blocker = folder / "a-file"
        blocker.write_text("not a folder\n")
        path = blocker / "target.txt"
    elif kind == "17 MB":
        path = folder / "huge.txt"
        with open(path, "wb") as handle:
            handle.truncate(SEVENTEEN_MB)
    elif kind == "BOM":
        path = folder / "bom.txt"
        path.write_text("\ufeff" + content, encoding="utf-8")
    else:
        raise AssertionError(kind)
    return path


def store_files(db: Path) -> dict[str, bytes]:
    return {str(path.relative_to(db)): path.read_bytes() for path in sorted(db.rglob("*"))
            if path.is_file() and not path.is_symlink()}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_that_takes_a_path_through_every_target(
        source: tuple[Path, str, dict[str, str]], tmp_path: Path, command: str) -> None:
    import shutil

    arguments, kind_of_path = COMMANDS[command]
    writes = kind_of_path == "output"
    writes_store = command in ("import", "cards import", "--answers", "--db (play)")
    outcomes = {}
    for target in TARGETS:
        folder = tmp_path / target.replace(" ", "-").replace("/", "")
        folder.mkdir()
        db = folder / "db"
        shutil.copytree(source[0], db, symlinks=True)
        session_id, content = source[1], source[2][kind_of_path]
        path = make_target(target, folder, db, session_id, content, writes, kind_of_path == "data directory")
        answers = folder / "answers.txt"
        answers.write_text("9\nquit\n", encoding="utf-8")
        before, kind_before = store_files(db), os.lstat(path).st_mode if os.path.lexists(path) else None
        filled = [str(path) if part == "PATH" else session_id if part == "SESSION" else str(answers)
                  if part == "ANSWERS" else part for part in arguments]
        if "--db" not in filled:
            filled += ["--db", str(db)]
        result = run(filled)
        where = f"{command} at {target}"
        assert "Traceback" not in result.stderr, f"{where}: {result.stderr}"
        assert result.returncode in (0, 1, 2), f"{where}: exit {result.returncode}"
        if result.returncode == 2:
            assert result.stderr.startswith("referee: ") and result.stderr.count("\n") == 1, f"{where}: {result.stderr}"
        after = store_files(db)
        kept = before if not writes_store else {name: data for name, data in before.items()
                                                 if name.startswith("sessions")}  # (the index is rewritten)
        assert {name: data for name, data in after.items() if name in kept} == kept, f"{where} changed the store"
        if kind_before is not None and not stat.S_ISREG(kind_before) and not stat.S_ISLNK(kind_before):
            assert stat.S_IFMT(os.lstat(path).st_mode) == stat.S_IFMT(kind_before), f"{where} replaced the {target}"
        if target == "link out":
            assert os.readlink(path) == str(folder / "outside.txt")
            if not writes:
                assert (folder / "outside.txt").read_text(encoding="utf-8") == content
        if target == "link into the store":
            assert os.path.islink(path)
        outcomes[target] = result.returncode
    print(f"\n{command}: " + ", ".join(f"{target} {code}" for target, code in outcomes.items()))
    if kind_of_path in ("export", "catalogue", "answers"):  # what reads: the good files are read
        assert outcomes["regular"] == outcomes["BOM"] == 0 and outcomes["link out"] == 0
    if writes:
        assert outcomes["regular"] == outcomes["missing"] == outcomes["link out"] == 0
        assert outcomes["a store file"] == outcomes["link into the store"] == outcomes["directory"] == 2
    refused = ("fifo", "device", "/dev/zero") if writes else (
        "directory", "fifo", "device", "17 MB", "/dev/zero", "unwritable")
    if command.startswith("--db"):  # (a data directory under a file has no sessions to list: 0)
        refused = ("regular", "fifo", "device", "a store file", "17 MB", "/dev/zero", "BOM",
                   *(("unwritable",) if writes_store else ()))
        assert outcomes["link into the store"] == 0  # a link to a data directory is the user's to follow
    refused_here = [target for target in refused if not (writes and target in ("device", "/dev/zero"))]
    assert all(outcomes[target] == 2 for target in refused_here), outcomes
