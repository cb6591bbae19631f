"""The store under faults: two writers, stale locks, damaged, truncated and newer files, logs that
no longer replay, and the per-answer cost as history grows."""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_support import answer_that_fits, child_env, make_script

from referee.engine.driver import Driver
from referee.errors import RefereeError, SessionError
from referee.games.blackthorn.game import GAME
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import FOLD_EVERY, SessionLocked, Store

PLAYERS = ["Ann", "Bo", "Cy"]


def referee_command(*args: str, home: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = child_env(REFEREE_HOME=str(home), COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], env=env, input=stdin, capture_output=True, text=True,
        timeout=60,
    )


def next_answer(live: LiveSession, rng: random.Random) -> str:
    """A random answer that fits the live session's pending question (found on a copy)."""
    reference = Driver(GAME, live.meta.players, live.meta.options)
    for entry in live.driver.entries:
        reference.apply(entry)
    return answer_that_fits(reference, rng)


def played(store: Store, answers: int, seed: int = 1) -> LiveSession:
    """A live session (lock held) with `answers` random valid answers given."""
    live = LiveSession.start(store, GAME, PLAYERS, {})
    rng = random.Random(seed)
    for _ in range(answers):
        live.answer(next_answer(live, rng))
    return live


def saved_session(root: Path, answers: int, seed: int = 1) -> tuple[str, list[dict[str, str]]]:
    live = played(Store(root), answers, seed)
    log = [entry.to_json() for entry in live.driver.entries]
    live.close()
    live.release()
    return live.meta.id, log


def stored_log(root: Path, session_id: str) -> list[dict[str, str]]:
    session = Store(root).session_file(session_id)
    session.load()
    return session.entries


# -- two writers ---------------------------------------------------------------------------------


def test_second_opener_in_another_process_is_refused_naming_the_holder(tmp_path: Path) -> None:
    live = played(Store(tmp_path), 5)
    try:
        result = referee_command("resume", live.meta.id, "--answers", os.devnull, home=tmp_path)
        assert result.returncode == 2
        assert f"PID {os.getpid()}" in result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
        with pytest.raises(SessionLocked, match=f"PID {os.getpid()}"):
            Store(tmp_path).open(live.meta.id)  # a second opener in the same process too
        live.answer(next_answer(live, random.Random(0)))  # the holder carries on undisturbed
    finally:
        live.release()
    assert len(stored_log(tmp_path, live.meta.id)) == 6  # the refused openers wrote nothing


RACE_OPENER = """
import sys
from pathlib import Path
from referee.session import LiveSession
from referee.errors import RefereeError, SessionError
from referee.games.registry import load_game
from referee.store import Store
try:
    live = LiveSession.resume(Store(Path(sys.argv[1])), sys.argv[2], load_game)
except SessionError as error:
    print("refused", error)
    raise SystemExit(0)
print("opened")
sys.stdout.flush()
sys.stdin.read()  # holds the session until the test closes this end
live.release()
"""
"""Opens the session and says so; the one that opens it holds it until its standard input is closed."""


def test_simultaneous_openers_exactly_one_wins(tmp_path: Path) -> None:
    session_id, _ = saved_session(tmp_path, 3)
    for _ in range(5):
        openers = [
            subprocess.Popen([sys.executable, "-c", RACE_OPENER, str(tmp_path), session_id],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env())
            for _ in range(4)
        ]
        # every opener has answered while the winner still holds the session, however slowly each started
        firsts = [opener.stdout.readline() if opener.stdout else "" for opener in openers]
        outputs = [first + opener.communicate(timeout=60)[0] for first, opener in zip(firsts, openers, strict=True)]
        assert sum(out.startswith("opened") for out in outputs) == 1, outputs
        assert all(out.startswith(("opened", "refused session")) for out in outputs), outputs
        assert all("PID" in out for out in outputs if out.startswith("refused"))


def test_lock_of_a_killed_process_is_taken_over(tmp_path: Path) -> None:
    session_id, log = saved_session(tmp_path, 4)
    holder = subprocess.Popen([sys.executable, "-c", RACE_OPENER, str(tmp_path), session_id],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=child_env())
    assert holder.stdout is not None and holder.stdout.readline().startswith("opened")
    with pytest.raises(SessionLocked, match=f"PID {holder.pid}"):
        Store(tmp_path).open(session_id)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert holder.stdin is not None
    holder.stdin.close()
    lock_text = (tmp_path / "sessions" / f"{session_id}.lock").read_text()
    assert lock_text == str(holder.pid)  # the dead process never cleaned up
    live = LiveSession.resume(Store(tmp_path), session_id, load_game)
    try:
        assert [entry.to_json() for entry in live.driver.entries] == log
        assert any(f"PID {holder.pid}" in notice and "taken over" in notice for notice in live.file.notices)
    finally:
        live.release()
    assert (tmp_path / "sessions" / f"{session_id}.lock").read_text() == ""  # released cleanly


# -- damaged files -------------------------------------------------------------------------------


def test_truncated_session_file_at_every_length_gives_a_clear_error_and_a_backup(tmp_path: Path) -> None:
    damaged_id, _ = saved_session(tmp_path, 6, seed=1)
    intact_id, intact_log = saved_session(tmp_path, 9, seed=2)
    path = tmp_path / "sessions" / f"{damaged_id}.json"
    original = path.read_bytes()
    lengths = sorted(set(range(0, len(original), max(1, len(original) // 150))))
    for length in lengths:
        path.write_bytes(original[:length])
        with pytest.raises(SessionError) as caught:
            LiveSession.resume(Store(tmp_path), damaged_id, load_game)
        message = str(caught.value)
        assert "damaged" in message and "\n" not in message
        backup = Path(message.split("a copy is kept at ")[1].split(";")[0])
        assert backup.read_bytes() == original[:length]
        backup.unlink()
        assert stored_log(tmp_path, intact_id) == intact_log  # the other session is untouched
        assert {meta.id for meta in Store(tmp_path).list()} == {damaged_id, intact_id}
    assert len(lengths) > 100


def test_session_from_a_newer_version_is_refused_and_left_alone(tmp_path: Path) -> None:
    session_id, _ = saved_session(tmp_path, 3)
    path = tmp_path / "sessions" / f"{session_id}.json"
    document = json.loads(path.read_text())
    document["meta"]["1"]["format"] = 99
    path.write_text(json.dumps(document))
    before = path.read_bytes()
    result = referee_command("resume", session_id, "--answers", os.devnull, home=tmp_path)
    assert result.returncode == 2
    assert "newer referee (format 99" in result.stderr and "Traceback" not in result.stderr
    assert path.read_bytes() == before
    assert referee_command("sessions", home=tmp_path).returncode == 0


def test_damaged_journal_line_opens_at_the_last_good_answer(tmp_path: Path) -> None:
    live = played(Store(tmp_path), 10)
    session_id = live.meta.id
    log = [entry.to_json() for entry in live.driver.entries]
    live.release()  # no fold: the ten answers live in the journal only
    journal = tmp_path / "sessions" / f"{session_id}.journal"
    lines = journal.read_bytes().split(b"\n")
    lines[6] = lines[6][:5] + b"\x00\xff" + lines[6][7:]  # a damaged seventh answer
    journal.write_bytes(b"\n".join(lines))
    damaged = journal.read_bytes()
    live = LiveSession.resume(Store(tmp_path), session_id, load_game)
    try:
        assert [entry.to_json() for entry in live.driver.entries] == log[:6]
        notice = next(notice for notice in live.file.notices if "journal" in notice)
        assert "after answer 6" in notice
        assert Path(notice.split("kept at ")[1]).read_bytes() == damaged
        live.answer(log[6]["answer"])  # new answers follow the last good one
    finally:
        live.release()
    assert stored_log(tmp_path, session_id) == log[:7]


def test_torn_journal_tail_does_not_swallow_the_next_answer(tmp_path: Path) -> None:
    live = played(Store(tmp_path), 5)
    session_id = live.meta.id
    log = [entry.to_json() for entry in live.driver.entries]
    live.release()
    journal = tmp_path / "sessions" / f"{session_id}.journal"
    with open(journal, "ab") as handle:
        handle.write(b'{"seq":6,"op":"add","entry":{"ans')  # a write a power cut interrupted
    live = LiveSession.resume(Store(tmp_path), session_id, load_game)
    try:
        assert [entry.to_json() for entry in live.driver.entries] == log
        live.answer(next_answer(live, random.Random(3)))
        log = [entry.to_json() for entry in live.driver.entries]
    finally:
        live.release()
    assert stored_log(tmp_path, session_id) == log  # the answer after the torn line is there


def test_log_that_no_longer_replays_opens_at_the_last_fitting_answer(tmp_path: Path) -> None:
    session_id, log = saved_session(tmp_path, 12)
    path = tmp_path / "sessions" / f"{session_id}.json"
    document = json.loads(path.read_text())
    document["log"]["8"]["entry"] = {"answer": "a move no rule allows"}  # as after a rule fix
    path.write_text(json.dumps(document))
    result = referee_command("resume", session_id, "--answers", os.devnull, home=tmp_path)
    assert "stopped fitting after 7 answers" in result.stdout
    assert "5 later answers set aside in" in result.stdout
    aside = sorted((tmp_path / "sessions").glob(f"{session_id}.set-aside-*.json"))
    assert len(aside) == 1
    kept = json.loads(aside[0].read_text())
    assert kept["after"] == 7 and kept["entries"] == [{"answer": "a move no rule allows"}, *log[8:]]
    assert stored_log(tmp_path, session_id) == log[:7]
    (tmp_path / "index.json").unlink()  # a rebuilt index lists the session, not the set-aside file
    assert [meta.id for meta in Store(tmp_path).list()] == [session_id]
    assert not list((tmp_path / "sessions").glob("*.damaged-*"))


def test_damaged_index_is_rebuilt_from_the_sessions(tmp_path: Path) -> None:
    ids = {saved_session(tmp_path, answers, seed)[0] for answers, seed in ((2, 1), (4, 2), (6, 3))}
    (tmp_path / "index.json").write_text('{"sessions": {"1": ')
    assert {meta.id for meta in Store(tmp_path).list()} == ids  # read from the session files
    listing = referee_command("sessions", home=tmp_path)
    assert listing.returncode == 0 and "Traceback" not in listing.stderr
    assert (tmp_path / "index.json").read_text() == '{"sessions": {"1": '  # listing writes nothing
    ids.add(saved_session(tmp_path, 1, seed=4)[0])  # the next write keeps a copy and rebuilds it
    assert [path.read_text() for path in tmp_path.glob("index.json.damaged-*")] == ['{"sessions": {"1": ']
    assert {row["id"] for row in json.loads((tmp_path / "index.json").read_text())["sessions"].values()} == ids


def test_orphaned_temporary_files_are_swept(tmp_path: Path) -> None:
    saved_session(tmp_path, 1)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    sessions = tmp_path / "sessions"
    orphan = sessions / f".referee-tmp-{dead}-0123abcd-x.json.tmp"
    live_one = sessions / f".referee-tmp-{os.getpid()}-0123abcd-y.json.tmp"
    orphan.write_text("{")
    live_one.write_text("{")
    Store(tmp_path).ensure()
    assert not orphan.exists() and live_one.exists()  # a live process's write in progress is kept


def test_a_session_sweeps_crashed_writes_when_it_closes_not_before_its_first_question(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.ensure()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    orphan = store.sessions_dir / f".referee-tmp-{dead}-0123abcd-x.json.tmp"
    orphan.write_text("{")
    live = LiveSession.start(store, GAME, ["Ann", "Bo"], {})
    assert orphan.exists()  # starting lists nothing: the first question is not kept waiting
    live.close()
    live.release()
    assert not orphan.exists() and live.file.path.exists()


def test_the_sweep_leaves_files_it_did_not_write(tmp_path: Path) -> None:
    """With `--db ~` the data directory is the user's home: only the store's own names go."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    theirs = [f".notes.{dead}.tmp", f".x.{dead}.tmp", ".vimrc.tmp", f".referee-tmp-{dead}-zz-x.tmp",
              f".referee-tmp-{dead}-0123abcd-x.json"]
    for name in theirs:
        (tmp_path / name).write_text("mine")
    outside_folder = tmp_path / "projects"
    outside_folder.mkdir()
    ours_elsewhere = outside_folder / f".referee-tmp-{dead}-0123abcd-x.json.tmp"
    ours_elsewhere.write_text("mine")
    linked = tmp_path / f".referee-tmp-{dead}-0123abcd-link.json.tmp"
    linked.symlink_to(outside_folder / "target")
    Store(tmp_path).ensure()
    assert all((tmp_path / name).read_text() == "mine" for name in theirs)
    assert ours_elsewhere.read_text() == "mine"  # not one of the store's folders
    assert linked.is_symlink()  # only regular files are swept


# -- the cost of an answer -----------------------------------------------------------------------


def file_stamps(root: Path) -> dict[Path, tuple[int, int, int]]:
    return {path: (path.stat().st_size, path.stat().st_mtime_ns, path.stat().st_ino)
            for path in root.rglob("*") if path.is_file()}


def backdate(root: Path) -> None:
    """Every file's modification time set an hour back, so that any write, however soon, changes it."""
    for path in root.rglob("*"):
        if path.is_file():
            stamp = path.stat().st_mtime_ns - 3600 * 10**9
            os.utime(path, ns=(stamp, stamp))


def test_an_answer_writes_only_its_own_journal(tmp_path: Path) -> None:
    for seed in range(3):
        saved_session(tmp_path, 4, seed)
    live = played(Store(tmp_path), 3)
    try:
        text = next_answer(live, random.Random(5))
        backdate(tmp_path)
        before = file_stamps(tmp_path)
        live.answer(text)
        after = file_stamps(tmp_path)
    finally:
        live.release()
    changed = {path.name for path in after if before.get(path) != after[path]}
    assert changed == {f"{live.meta.id}.journal"}


@dataclass
class Work:
    """What one answer did to the file system: the names it opened, renamed or listed (relative to
    the store, the session's id as SESSION), and the bytes it wrote."""

    touched: list[str] = field(default_factory=list)
    written: int = 0


WATCHED = ("open", "os.rename", "os.listdir", "os.scandir", "os.remove")
WATCHING: list[tuple[Path, str, Work]] = []
"""The store root, session id and record of the answer under way, while one is watched."""


def note_file_event(event: str, args: tuple[Any, ...]) -> None:
    if WATCHING and event in WATCHED and isinstance(args[0], str | Path):
        root, session_id, work = WATCHING[0]
        name = os.path.relpath(os.fspath(args[0]), root).replace(session_id, "SESSION")
        work.touched.append(f"{event} {name}")


sys.addaudithook(note_file_event)


def answers_work(live: LiveSession, answers: list[str], monkeypatch: pytest.MonkeyPatch) -> list[Work]:
    """Each answer given to `live`, and the work it did (files through audit events, bytes through
    the store's one writing function)."""
    import referee.safe_files
    import referee.store

    works: list[Work] = []
    real_write_all = referee.safe_files.write_all

    def counted_write_all(fd: int, data: bytes) -> None:
        works[-1].written += len(data)
        real_write_all(fd, data)

    monkeypatch.setattr(referee.safe_files, "write_all", counted_write_all)
    monkeypatch.setattr(referee.store, "write_all", counted_write_all)
    for text in answers:
        works.append(Work())
        WATCHING.append((live.store.root, live.meta.id, works[-1]))
        try:
            live.answer(text)
        finally:
            WATCHING.clear()
    monkeypatch.undo()
    return works


def fitting_answers(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    reference = Driver(GAME, PLAYERS, {})
    answers = []
    while len(answers) < count and not reference.finished:
        answers.append(answer_that_fits(reference, rng))
    return answers


def test_an_answer_does_the_same_work_beside_a_thousand_stored_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same answers open, rename and write the same files, byte for byte, in an empty store and
    beside 1000 other sessions: nothing an answer does depends on what else is stored (the time it
    takes is measured in benchmarks/latency.py)."""
    small, big = tmp_path / "small", tmp_path / "big"
    template_id, _ = saved_session(big, 150, seed=5)  # one long finished game to copy
    sessions = big / "sessions"
    template = (sessions / f"{template_id}.json").read_text()
    for number in range(1000):
        copy_id = f"copy-{number:04d}"
        (sessions / f"{copy_id}.json").write_text(template.replace(template_id, copy_id))
    (big / "index.json").unlink()
    assert len(Store(big).list()) == 1001  # the index rebuilt with every session in it

    answers = fitting_answers(60, seed=9)
    empty_store = played(Store(small), 0)
    crowded_store = played(Store(big), 0)
    try:
        quiet = answers_work(empty_store, answers, monkeypatch)
        crowded = answers_work(crowded_store, answers, monkeypatch)
    finally:
        empty_store.release()
        crowded_store.release()
    assert len(crowded) == len(answers) == 60
    assert crowded == quiet
    assert all(work.written > 0 for work in crowded)  # every answer was saved, and was seen being saved
    touched = {name.split(" ", 1)[1] for work in crowded for name in work.touched}
    assert touched <= {"sessions/SESSION.journal"}, touched


def test_an_answer_late_in_a_game_does_no_more_work_than_one_early(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each answer appends its own journal lines and nothing else, however long the log already is:
    no file is reopened, rewritten or listed (the journal is folded only every FOLD_EVERY lines, more
    than a game holds; the time an answer takes is measured in benchmarks/latency.py)."""
    script = make_script(random.Random(11), undo_chance=0, adjust_chance=0)
    answers = [step[1] for step in script.steps][:-1]  # the last answer ends the game and closes the session
    assert len(answers) < FOLD_EVERY
    live = LiveSession.start(Store(tmp_path), GAME, script.players, {})
    journal = tmp_path / "sessions" / f"{live.meta.id}.journal"
    try:
        works = answers_work(live, answers[:1], monkeypatch)
        lines_before = len(live.driver.entries)
        size_before = journal.stat().st_size
        works += answers_work(live, answers[1:], monkeypatch)
        lines = len(live.driver.entries) - lines_before
    finally:
        live.release()
    assert len(works) == len(answers) > 100
    assert all(work.touched == [] for work in works[1:]), [work.touched for work in works if work.touched]
    assert sum(work.written for work in works[1:]) == journal.stat().st_size - size_before
    assert journal.read_text().count("\n") >= lines  # each answer's entries, one line each


# -- where files go ------------------------------------------------------------------------------


@pytest.mark.parametrize("bad_id", ["../escape", "/etc/passwd", "a/b", "", ".", "..", "UPPER", "x" * 65, "a\x00b"])
def test_session_ids_cannot_leave_the_store(tmp_path: Path, bad_id: str) -> None:
    with pytest.raises(SessionError, match="bad session id"):
        Store(tmp_path).session_file(bad_id)
    if "\x00" not in bad_id and bad_id:
        result = referee_command("resume", bad_id, "--answers", os.devnull, home=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr
    assert not any(tmp_path.parent.glob("escape*"))


def test_a_symlinked_journal_is_not_followed_out_of_the_store(tmp_path: Path) -> None:
    root, outside = tmp_path / "store", tmp_path / "outside.txt"
    outside.write_text("keep me")
    live = played(Store(root), 2)
    session_id, log = live.meta.id, [entry.to_json() for entry in live.driver.entries]
    live.close()
    live.release()
    journal = root / "sessions" / f"{session_id}.journal"
    journal.unlink()
    journal.symlink_to(outside)
    live = LiveSession.resume(Store(root), session_id, load_game)
    try:
        assert [entry.to_json() for entry in live.driver.entries] == log  # the folded log
        notice = next(notice for notice in live.file.notices if "journal" in notice)
        assert "a symbolic link, not a regular file; it was moved to" in notice
        live.answer(next_answer(live, random.Random(1)))
    finally:
        live.release()
    assert outside.read_text() == "keep me"
    assert not journal.is_symlink() and len(stored_log(root, session_id)) == 3


def test_data_directory_follows_referee_home_then_xdg(tmp_path: Path) -> None:
    code = "from referee.store import data_home; print(data_home())"

    def home_for(**env: str) -> str:
        clean = child_env(HOME=str(tmp_path / "home"), **env)
        for key in {"REFEREE_HOME", "XDG_DATA_HOME"} - set(env):
            clean.pop(key, None)
        return subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True).stdout.strip()

    assert home_for(REFEREE_HOME=str(tmp_path / "r")) == str(tmp_path / "r")
    assert home_for(XDG_DATA_HOME=str(tmp_path / "x")) == str(tmp_path / "x" / "referee")
    assert home_for(XDG_DATA_HOME="relative/dir") == str(tmp_path / "home" / ".local" / "share" / "referee")
    assert home_for() == str(tmp_path / "home" / ".local" / "share" / "referee")


def test_command_line_writes_only_under_referee_home(tmp_path: Path) -> None:
    home, fake_home = tmp_path / "data", tmp_path / "home"
    fake_home.mkdir()
    script = make_script(random.Random(2), undo_chance=0, adjust_chance=0)
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(step[1] for step in script.steps[:20]))
    env = child_env(REFEREE_HOME=str(home), HOME=str(fake_home), XDG_DATA_HOME=str(fake_home))
    result = subprocess.run(
        [sys.executable, "-m", "referee", "play", "blackthorn", "-p", ",".join(script.players),
         "--answers", str(answers)],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 1 and "ended before the game did" in result.stderr
    assert list(fake_home.iterdir()) == []
    assert len(list((home / "sessions").glob("*.json"))) == 1


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_the_data_directory_is_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    """Session logs hold hidden holdings: the directories are 0700 and the files 0600."""
    code = (
        "import os, sys; from pathlib import Path; os.umask(int(sys.argv[2], 8));"
        "from referee.session import LiveSession; from referee.store import Store;"
        "from referee.games.registry import load_game;"
        "live = LiveSession.start(Store(Path(sys.argv[1])), load_game('blackthorn'), ['Ann', 'Bo'], {});"
        "live.answer('9'); live.close(); live.release()"
    )
    root = tmp_path / "data"
    subprocess.run([sys.executable, "-c", code, str(root), oct(umask)[2:]], check=True, timeout=60,
                   env=child_env())
    files = [path for path in root.rglob("*") if path.is_file()]
    folders = [root, *(path for path in root.rglob("*") if path.is_dir())]
    assert len(files) >= 4 and len(folders) == 2
    assert {oct(path.stat().st_mode & 0o777) for path in files} == {oct(0o600)}
    assert {oct(path.stat().st_mode & 0o777) for path in folders} == {oct(0o700)}


def test_store_neither_unpickles_nor_executes() -> None:
    import ast

    import referee.session
    import referee.store

    forbidden_modules = {"pickle", "marshal", "shelve", "dill", "subprocess", "importlib", "runpy", "code"}
    forbidden_builtins = {"eval", "exec", "compile", "__import__", "open_code"}
    forbidden_methods = {"system", "popen", "execv", "execvp", "spawnv", "startfile"}
    for module in (referee.store, referee.session):
        tree = ast.parse(Path(str(module.__file__)).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not {alias.name.split(".")[0] for alias in node.names} & forbidden_modules
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] not in forbidden_modules
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in forbidden_builtins, f"{module.__name__} calls {node.func.id}"
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                assert node.func.attr not in forbidden_methods, f"{module.__name__} calls {node.func.attr}"


def test_copying_a_store_keeps_it_readable(tmp_path: Path) -> None:
    session_id, log = saved_session(tmp_path / "a", 7)
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    assert stored_log(tmp_path / "b", session_id) == log


# -- random damage ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


def damaged_copy(document: Any, rng: random.Random, replacement: Any) -> Any:
    """The document with one value replaced or one key removed, somewhere at random."""
    copy = json.loads(json.dumps(document))
    holders: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict | list) and node:
            holders.append(node)
            for child in node.values() if isinstance(node, dict) else node:
                walk(child)

    walk(copy)
    node = rng.choice(holders)
    key = rng.choice(list(node) if isinstance(node, dict) else range(len(node)))
    if rng.random() < 0.75:
        node[key] = replacement
    else:
        del node[key]
    return copy


@pytest.fixture(scope="module")
def pristine_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    root = tmp_path_factory.mktemp("pristine")
    live = played(Store(root), 8)
    session_id = live.meta.id
    live.release()  # answers 1-8 in the journal, the setup in the session file
    other_id, _ = saved_session(root, 5, seed=2)
    return root, session_id, other_id


DAMAGE_TRIED: list[int] = [0]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(replacement=json_values, seed=st.integers(0, 2**32), garbage=st.binary(max_size=40))
def test_randomly_damaged_session_opens_or_says_why(
    pristine_store: tuple[Path, str, str], tmp_path_factory: pytest.TempPathFactory,
    replacement: Any, seed: int, garbage: bytes,
) -> None:
    rng = random.Random(seed)
    root = tmp_path_factory.mktemp("damaged")
    shutil.copytree(pristine_store[0], root, dirs_exist_ok=True)
    session_id, other_id = pristine_store[1], pristine_store[2]
    sessions = root / "sessions"
    target = rng.choice(["json", "journal", "index"])
    path = root / "index.json" if target == "index" else sessions / f"{session_id}.{target}"
    if target == "journal":
        lines = path.read_bytes().split(b"\n")
        spot = rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines[spot] = json.dumps(damaged_copy(json.loads(lines[spot] or b"{}") or {"x": 0}, rng,
                                                  replacement)).encode()
        else:
            lines[spot] = lines[spot][: rng.randrange(len(lines[spot]) + 1)] + garbage
        path.write_bytes(b"\n".join(lines))
    elif rng.random() < 0.7:
        path.write_text(json.dumps(damaged_copy(json.loads(path.read_text()), rng, replacement)))
    else:
        original = path.read_bytes()
        cut = rng.randrange(len(original) + 1)
        path.write_bytes(original[:cut] + garbage + original[cut + len(garbage):])
    DAMAGE_TRIED[0] += 1
    try:
        live = LiveSession.resume(Store(root), session_id, load_game)
    except RefereeError as refused:
        assert "\n" not in str(refused)
    else:
        try:
            assert GAME.to_json(live.driver.state) is not None
            live.answer(next_answer(live, rng)) if live.driver.pending is not None else None
        finally:
            live.release()
    assert len(stored_log(root, other_id)) == 5  # the other session is untouched and readable
    Store(root).list()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("options", {"rulings": "x"}), ("options", {"rulings": [1]}), ("options", []), ("players", 5),
        ("players", [None, {}]), ("players", []), ("game", 42), ("game", "no-such-game"), ("status", None),
        ("winners", 3), ("answers", "x"), ("sequence", "x"), ("sequence", -5), ("format", None),
        ("format", "7"), ("id", ["x"]),
    ],
)
def test_setup_of_the_wrong_shape_is_refused_in_one_line(tmp_path: Path, field: str, value: Any) -> None:
    session_id, _ = saved_session(tmp_path, 2)
    path = tmp_path / "sessions" / f"{session_id}.json"
    document = json.loads(path.read_text())
    document["meta"]["1"][field] = value
    path.write_text(json.dumps(document))
    with pytest.raises(RefereeError) as refused:
        LiveSession.resume(Store(tmp_path), session_id, load_game)
    assert "\n" not in str(refused.value)
    result = referee_command("resume", session_id, "--answers", os.devnull, home=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_a_full_disk_refuses_the_answer_and_keeps_everything_before_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import errno

    import referee.store
    from referee.cli.run import start_session

    script = make_script(random.Random(4), undo_chance=0, adjust_chance=0)
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(step[1] for step in script.steps))
    real_write_all = referee.store.write_all
    writes = [0]

    def fills_up(fd: int, data: bytes) -> None:
        writes[0] += 1
        if writes[0] > 12:  # the disk fills up after a dozen writes
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_write_all(fd, data)

    monkeypatch.setattr(referee.store, "write_all", fills_up)
    code = start_session("blackthorn", script.players, {}, answers, tmp_path / "db")
    err = capsys.readouterr().err
    assert code == 2
    assert "No space left on device" in err and "Traceback" not in err
    monkeypatch.setattr(referee.store, "write_all", real_write_all)
    session_id = next((tmp_path / "db" / "sessions").glob("*.json")).stem
    log = stored_log(tmp_path / "db", session_id)
    assert log == script.logs[len(log)] and len(log) >= 8
    live = LiveSession.resume(Store(tmp_path / "db"), session_id, load_game)
    try:
        assert GAME.to_json(live.driver.state) == script.states[len(log)]
    finally:
        live.release()


def test_an_answer_the_disk_refused_is_taken_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import referee.store

    live = played(Store(tmp_path), 6)
    try:
        before = GAME.to_json(live.driver.state)
        text = next_answer(live, random.Random(1))

        def refuses(fd: int, data: bytes) -> None:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        monkeypatch.setattr(referee.store, "write_all", refuses)
        with pytest.raises(SessionError, match="the answer was not kept"):
            live.answer(text)
        assert GAME.to_json(live.driver.state) == before and len(live.driver.entries) == 6
        monkeypatch.undo()
        live.answer(text)  # the disk works again: the same answer goes through
    finally:
        live.release()
    assert len(stored_log(tmp_path, live.meta.id)) == 7


CREATOR = """
import sys
from pathlib import Path
from referee.session import LiveSession
from referee.games.registry import load_game
from referee.store import Store
for _ in range(3):
    live = LiveSession.start(Store(Path(sys.argv[1])), load_game('blackthorn'), ['Ann', 'Bo'], {})
    live.answer('9')
    live.close()
    live.release()
"""


def test_sessions_created_at_the_same_time_all_reach_the_index(tmp_path: Path) -> None:
    creators = [subprocess.Popen([sys.executable, "-c", CREATOR, str(tmp_path)], env=child_env())
                for _ in range(6)]
    assert [creator.wait(timeout=120) for creator in creators] == [0] * 6
    listed = Store(tmp_path).list()
    assert len(listed) == 18 and all(meta.answers == 1 for meta in listed)
    assert len(list((tmp_path / "sessions").glob("*.json"))) == 18


def test_a_session_id_already_taken_gets_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first_id, log = saved_session(tmp_path, 3)
    ids = iter([first_id, first_id, "20990101-000000-council-beef"])
    monkeypatch.setattr(Store, "new_id", lambda self, game: next(ids))
    live = LiveSession.start(Store(tmp_path), GAME, PLAYERS, {})
    live.release()
    assert live.meta.id == "20990101-000000-council-beef"
    assert stored_log(tmp_path, first_id) == log  # the older session was not overwritten


@pytest.mark.parametrize(
    "args",
    [["sessions"], ["play", "blackthorn", "-p", "A,B", "--answers", os.devnull], ["resume", "--answers", os.devnull],
     ["resume", "abc", "--answers", os.devnull]],
    ids=["sessions", "play", "resume-last", "resume-id"],
)
def test_data_directory_that_is_a_file_is_one_line(tmp_path: Path, args: list[str]) -> None:
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("mine")
    result = referee_command(*args, home=not_a_directory)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "is a file, not a directory" in result.stderr
    assert not_a_directory.read_text() == "mine"


@pytest.mark.parametrize("other_thread", [False, True], ids=["one-thread", "with-a-helper-thread"])
def test_ctrl_c_during_a_write_waits_until_the_answer_is_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, other_thread: bool
) -> None:
    """With a helper thread alive (as a prompt library may leave one), the kernel hands the signal
    to that thread, since the writing thread holds it back; Python still runs the handler in the
    main thread, so the write must be protected there too.

    The signal goes to a chosen thread (pytest's workers have threads of their own, and the kernel
    would pick any of them). To the writing thread, it stays pending until the write is done; to
    the helper, the write goes on only once Python's own handler has taken it there, which it
    reports on the wakeup file descriptor."""
    import threading

    import referee.store

    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    if other_thread:
        helper.start()
    live = played(Store(tmp_path), 4)
    real_write_all = referee.store.write_all
    taken, noted = os.pipe()
    os.set_blocking(noted, False)
    previous_wakeup = signal.set_wakeup_fd(noted)
    # Ctrl-C as the command line has it, whatever an earlier test in this process left behind (a
    # handler that ignores it would swallow the KeyboardInterrupt raised once the write is done)
    previous_handler = signal.signal(signal.SIGINT, signal.default_int_handler)

    def interrupted_write(fd: int, data: bytes) -> None:
        # Ctrl-C arrives halfway through the write
        if other_thread:
            assert helper.ident is not None
            signal.pthread_kill(helper.ident, signal.SIGINT)
            ready, _, _ = select.select([taken], [], [], 60)  # only a guard against a hang
            assert ready and os.read(taken, 1) == bytes([signal.SIGINT]), "the helper never took the signal"
        else:
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
            assert signal.SIGINT in signal.sigpending()  # held back for as long as the write takes
        real_write_all(fd, data)

    try:
        text = next_answer(live, random.Random(2))
        monkeypatch.setattr(referee.store, "write_all", interrupted_write)
        with pytest.raises(KeyboardInterrupt):
            live.answer(text)
        monkeypatch.undo()
        assert len(live.driver.entries) == 5 and len(live.file.entries) == 5
    finally:
        signal.signal(signal.SIGINT, previous_handler)
        signal.set_wakeup_fd(previous_wakeup)
        os.close(taken)
        os.close(noted)
        live.release()
        stop.set()
    assert len(stored_log(tmp_path, live.meta.id)) == 5  # the interrupted answer is whole on disk
