"""Files in and around the data directory: only regular files are read, never more than 16 MB and
never waited on; temporary files are the referee's own, created exclusively and never through a
link; one resolver decides the data directory for every command; listing writes nothing; the
data directory is private; and a wrong but readable index never hides a session."""

from __future__ import annotations

import json
import os
import random
import resource
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from reliability_support import answer_that_fits, child_env

from referee.engine.driver import Driver
from referee.games.blackthorn.game import GAME
from referee.session import LiveSession
from referee.store import Store

PLAYERS = ["Ann", "Bo", "Cy"]
HUGE = 16 * 1024 * 1024 + 1
"""One byte over the largest file the referee reads (referee.safe_files.MAX_BYTES)."""


def limit_memory() -> None:
    """A child that tries to read /dev/zero whole fails in a second instead of filling the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 * 1024, 1536 * 1024 * 1024))


def referee_command(*args: str, home: Path, cwd: Path | None = None, timeout: float = 30,
                    **env: str) -> subprocess.CompletedProcess[str]:
    environment = child_env(REFEREE_HOME=str(home), COLUMNS="200", **env)
    return subprocess.run([sys.executable, "-m", "referee", *args], env=environment, capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, preexec_fn=limit_memory, stdin=subprocess.DEVNULL)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.stdout[-500:], result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("referee: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def played(store: Store, answers: int, seed: int = 1) -> LiveSession:
    live = LiveSession.start(store, GAME, PLAYERS, {})
    rng = random.Random(seed)
    reference = Driver(GAME, PLAYERS, {})
    for _ in range(answers):
        live.answer(answer_that_fits(reference, rng))
    return live


def saved_session(root: Path, answers: int, seed: int = 1) -> str:
    live = played(Store(root), answers, seed)
    live.close()
    live.release()
    return live.meta.id


def snapshot(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every path under root with its kind, size and modification time."""
    if not root.exists():
        return {}
    found = {}
    for path in [root, *root.rglob("*")]:
        info = path.lstat()
        found[str(path.relative_to(root))] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return found


# -- special and oversized files given on the command line ------------------------------------------


def special_file(kind: str, folder: Path) -> Path:
    path = folder / f"input-{kind}.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "device":
        return Path("/dev/zero")
    elif kind == "link-to-device":
        path.symlink_to("/dev/zero")
    elif kind == "huge":
        with open(path, "wb") as handle:
            handle.truncate(HUGE)  # sparse: 16 MB and a byte without writing them
    return path


COMMANDS = {
    "play": ["play", "blackthorn", "-p", "Ann,Bo", "--answers"],
    "score-answers": ["score", "blackthorn", "-p", "Ann,Bo", "--answers"],
    "score-input": ["score", "blackthorn", "--input"],
    "replay": ["replay"],
    "import": ["import"],
    "cards-import": ["cards", "blackthorn", "import"],
}


@pytest.mark.parametrize("kind", ["fifo", "directory", "device", "link-to-device", "huge"])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_files_named_on_the_command_line_must_be_regular_and_small(tmp_path: Path, command: str, kind: str) -> None:
    path = special_file(kind, tmp_path)
    err = one_line(referee_command(*COMMANDS[command], str(path), home=tmp_path / "home", timeout=20))
    assert ("not a regular file" in err or "not a file" in err) if kind != "huge" else "larger than 16 MB" in err


def test_resume_answers_file_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    session_id = saved_session(tmp_path / "home", 2)
    for kind in ("fifo", "device", "huge"):
        path = special_file(kind, tmp_path)
        err = one_line(referee_command("resume", session_id, "--answers", str(path), home=tmp_path / "home",
                                       timeout=20))
        assert "cannot read answers file" in err


def test_standard_input_for_score_is_bounded(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zeros:
        result = subprocess.run([sys.executable, "-m", "referee", "score", "blackthorn", "--input", "-"],
                                stdin=zeros, capture_output=True, text=True, timeout=30, preexec_fn=limit_memory,
                                env=child_env(REFEREE_HOME=str(tmp_path)))
    assert "more than 16 MB" in one_line(result)


def test_an_answers_file_may_be_dev_null(tmp_path: Path) -> None:
    """The conventional empty input: it can neither hang nor grow, so it is read as no answers."""
    result = referee_command("play", "blackthorn", "-p", "Ann,Bo", "--answers", os.devnull, home=tmp_path)
    assert result.returncode == 1 and "ended before the game did" in result.stderr


# -- byte-order marks, quoting ------------------------------------------------------------------------


def test_files_starting_with_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("\ufeff9\n5\nquit\n", encoding="utf-8")
    result = referee_command("play", "blackthorn", "-p", "Ann,Bo", "--answers", str(answers), home=tmp_path / "h")
    assert result.returncode == 0, result.stderr
    assert len(Store(tmp_path / "h").list()) == 1 and Store(tmp_path / "h").list()[0].answers == 2
    holdings = tmp_path / "holdings.json"
    example = Path(__file__).parents[1] / "scenarios" / "score" / "blackwood.json"
    holdings.write_text("\ufeff" + example.read_text(encoding="utf-8"), encoding="utf-8")
    scored = referee_command("score", "blackwood", "--input", str(holdings), "--json", home=tmp_path / "h")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["winners"]
    exported = referee_command("export", "--all", home=tmp_path / "h")
    assert exported.returncode == 0, exported.stderr
    backup = tmp_path / "backup.json"
    backup.write_text("\ufeff" + exported.stdout, encoding="utf-8")
    imported = referee_command("import", str(backup), home=tmp_path / "elsewhere")
    assert imported.returncode == 0, imported.stderr
    assert [meta.answers for meta in Store(tmp_path / "elsewhere").list()] == [2]
    catalogue = tmp_path / "cards.json"
    catalogue.write_text('\ufeff{"format": 1, "game": "council-of-blackthorn", "cards": []}', encoding="utf-8")
    cards = referee_command("cards", "blackthorn", "import", str(catalogue), home=tmp_path / "h")
    assert cards.returncode == 0, cards.stderr
    scenario = tmp_path / "bom.toml"
    scenario.write_text('\ufefftitle = "BOM"\ngame = "blackthorn"\nplayers = ["Ann", "Bo"]\nanswers = "9\\n5"\n',
                        encoding="utf-8")
    replayed = referee_command("replay", str(scenario), home=tmp_path / "h")
    assert replayed.returncode == 0, replayed.stderr


def test_the_resume_hint_is_quoted_for_the_shell(tmp_path: Path) -> None:
    db = tmp_path / "my games" / "it's here"
    answers = tmp_path / "answers.txt"
    answers.write_text("9\n5\nquit\n")
    result = referee_command("play", "blackthorn", "-p", "Ann,Bo", "--db", str(db), "--answers", str(answers),
                             home=tmp_path / "unused")
    assert result.returncode == 0, result.stderr
    hint = result.stdout.split("Resume with: ")[1].strip()
    words = shlex.split(hint)
    assert words[:2] == ["referee", "resume"] and words[3:] == ["--db", str(db)]
    quit_now = tmp_path / "quit.txt"
    quit_now.write_text("quit\n")
    again = referee_command(*words[1:], "--answers", str(quit_now), home=tmp_path / "unused")
    assert again.returncode == 0 and "Resuming" in again.stdout


# -- damaged or odd data directories ---------------------------------------------------------------


def test_a_session_folder_that_is_a_file_is_named_as_such(tmp_path: Path) -> None:
    (tmp_path / "sessions").write_text("not a folder")
    for args in (["play", "blackthorn", "-p", "Ann,Bo", "--answers", os.devnull], ["sessions"],
                 ["resume", "--answers", os.devnull]):
        err = one_line(referee_command(*args, home=tmp_path))
        assert "the session folder" in err and "a file, not a directory" in err and "File exists" not in err
    assert (tmp_path / "sessions").read_text() == "not a folder"


def test_a_format_too_large_for_a_number_is_damage_not_a_traceback(tmp_path: Path) -> None:
    session_id = saved_session(tmp_path, 2)
    path = tmp_path / "sessions" / f"{session_id}.json"
    path.write_text(path.read_text().replace('"format":1', '"format":1e999'))
    assert "1e999" in path.read_text()
    err = one_line(referee_command("resume", session_id, "--answers", os.devnull, home=tmp_path))
    assert "damaged" in err and "format" in err


def test_a_store_file_that_links_elsewhere_is_neither_read_nor_copied(tmp_path: Path) -> None:
    root, outside = tmp_path / "store", tmp_path / "passwd"
    outside.write_text("root:x:0:0:secret\n")
    session_id = saved_session(root, 2)
    path = root / "sessions" / f"{session_id}.json"
    path.unlink()
    path.symlink_to(outside)
    err = one_line(referee_command("resume", session_id, "--answers", os.devnull, home=root))
    assert "a symbolic link, not a regular file" in err
    assert not any("secret" in copy.read_text(errors="replace") for copy in root.rglob("*")
                   if copy.is_file() and not copy.is_symlink())
    assert outside.read_text() == "root:x:0:0:secret\n"


# -- the index ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "index",
    ["", "{}", '{"meta": []}', '{"sessions": []}', '{"sessions": {"1": "x"}}', '{"sessions": {"1": {"id": 5}}}',
     '{"sessions": {"1": {"id": "../x", "game": "g", "players": []}}}', "[]", "null", "only one", "1e999",
     '{"sessions": {"1": {"id": "one-only", "game": "g", "players": []}}}'],
    ids=["empty", "braces", "meta-list", "table-list", "row-text", "row-id-number", "row-bad-id", "list", "null",
         "text", "number", "names-another-session"],
)
def test_a_wrong_but_readable_index_hides_no_session(tmp_path: Path, index: str) -> None:
    ids = {saved_session(tmp_path, answers, seed) for answers, seed in ((2, 1), (5, 2))}
    unfinished = played(Store(tmp_path), 3, seed=3)
    unfinished.release()  # three answers in its journal, as after a crash
    ids.add(unfinished.meta.id)
    (tmp_path / "index.json").write_text(index)
    listed = Store(tmp_path).list()
    assert {meta.id for meta in listed} == ids
    assert {meta.id: meta.answers for meta in listed}[unfinished.meta.id] == 3
    listing = referee_command("sessions", home=tmp_path)
    assert listing.returncode == 0 and all(session_id in listing.stdout for session_id in ids)
    assert "No sessions yet" not in listing.stdout
    answers = tmp_path / "quit.txt"
    answers.write_text("quit\n")
    resumed = referee_command("resume", "--answers", str(answers), home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"Resuming {unfinished.meta.id}" in resumed.stdout


def test_an_index_missing_a_session_file_lists_only_what_is_there(tmp_path: Path) -> None:
    kept, removed = saved_session(tmp_path, 2), saved_session(tmp_path, 3, seed=2)
    (tmp_path / "sessions" / f"{removed}.json").unlink()
    assert [meta.id for meta in Store(tmp_path).list()] == [kept]


def test_after_a_crash_the_listed_answer_count_matches_the_log(tmp_path: Path) -> None:
    in_journal = played(Store(tmp_path), 7)
    in_journal.release()  # killed mid-game, never closed: it wrote no index row itself
    folded = played(Store(tmp_path), 4, seed=2)
    folded.close("playing")  # its row says 4 answers; the other's row is read from its files
    folded.answer(next_fitting(folded))
    folded.file.fold()  # killed after folding, before the index was updated
    folded.release()
    counts = {meta.id: meta.answers for meta in Store(tmp_path).list()}
    assert counts == {in_journal.meta.id: 7, folded.meta.id: 5}
    index = json.loads((tmp_path / "index.json").read_text())
    rows = {row["id"]: row["answers"] for row in index["sessions"].values()}
    assert rows == {in_journal.meta.id: 7, folded.meta.id: 4}  # the folded session's row is stale


def next_fitting(live: LiveSession) -> str:
    reference = Driver(GAME, live.meta.players, live.meta.options)
    for entry in live.driver.entries:
        reference.apply(entry)
    return answer_that_fits(reference, random.Random(9))


# -- where files go, and who may read them -------------------------------------------------------------


def test_listing_writes_nothing(tmp_path: Path) -> None:
    empty, absent, full = tmp_path / "empty", tmp_path / "absent", tmp_path / "full"
    empty.mkdir()
    for session in range(2):
        saved_session(full, 2, seed=session)
    before = {folder: snapshot(folder) for folder in (empty, absent, full)}
    for folder in (empty, absent, full):
        assert referee_command("sessions", "--db", str(folder), home=tmp_path / "unused").returncode == 0
        assert referee_command("sessions", "--all", home=folder).returncode == 0
    assert {folder: snapshot(folder) for folder in (empty, absent, full)} == before
    assert not (tmp_path / "unused").exists()


def test_read_only_commands_write_nothing_anywhere(tmp_path: Path) -> None:
    home, fake_home = tmp_path / "data", tmp_path / "home"
    fake_home.mkdir()
    scenario = sorted((Path(__file__).parents[1] / "scenarios" / "council-of-blackthorn").glob("*.toml"))[0]
    example = Path(__file__).parents[1] / "scenarios" / "score" / "blackwood.json"
    env = {"HOME": str(fake_home), "XDG_DATA_HOME": str(fake_home / "xdg")}
    for args in READ_ONLY + (["replay", str(scenario)], ["score", "blackwood", "--input", str(example)]):
        result = referee_command(*args, home=home, **env)
        assert result.returncode in (0, 1, 2) and "Traceback" not in result.stderr, (args, result.stderr)
        assert not home.exists() and list(fake_home.iterdir()) == [], f"{args} wrote {list(fake_home.rglob('*'))}"


READ_ONLY = (
    ["games"], ["sessions"], ["sessions", "--json"], ["sessions", "show", "2026"], ["stats"], ["stats", "--json"],
    ["export", "--all"], ["export", "--all", "-f", "md"], ["export", "--all", "-f", "bgstats"], ["export", "2026"],
    ["rules", "blackwood", "how does the game end"], ["rules", "who goes first"], ["rules", "blackwood"],
    ["rules", "blackwood", "--section", "end-of-game"], ["rules", "--json", "stealth"],
    ["cards", "blackthorn"], ["cards", "blackthorn", "list", "--json"], ["cards", "blackthorn", "show", "Mill"],
)
"""Every command that only reads (run with no data directory, and on a store)."""
CACHES = {("export", "--all"): "export-cache", ("rules",): "cache"}
"""The read-only commands that say in their help that they keep a cache, and the folder they keep."""


def test_read_only_commands_on_a_store_change_nothing_but_the_cache_they_name(tmp_path: Path) -> None:
    home = tmp_path / "data"
    session_id = saved_session(home, 6)
    finished = tmp_path / "finished.txt"
    finished.write_text("9\n5\nquit\n", encoding="utf-8")
    assert referee_command("play", "blackthorn", "-p", "Ann,Bo", "--answers", str(finished), home=home).returncode == 0
    for args in READ_ONLY + (["sessions", "show", session_id], ["export", session_id, "-f", "md"],
                             ["stats", "--session", session_id]):
        before = snapshot(home)
        result = referee_command(*args, home=home)
        assert result.returncode in (0, 1, 2) and "Traceback" not in result.stderr, (args, result.stderr)
        cache = next((folder for start, folder in CACHES.items() if tuple(args[: len(start)]) == start and
                      (start != ("export", "--all") or "-f" not in args)), None)
        changed = {path for path in set(before) | set(snapshot(home)) if before.get(path) != snapshot(home).get(path)}
        allowed = {".", cache} if cache else set()  # (making the cache's folder changes the directory's time)
        assert all(path.split(os.sep)[0] in allowed for path in changed), f"{args} changed {sorted(changed)}"
        if cache:
            help_text = referee_command(*args[: 1], "--help", home=home).stdout
            assert "cache" in help_text, f"{args[0]}'s help does not say it keeps a cache"


def data_dir_of(tmp_path: Path, **env: str) -> str:
    code = "from referee.data_dir import data_dir; from referee.rules import paths; print(data_dir(), paths.data_dir())"
    clean = child_env(HOME=str(tmp_path / "home"), **env)
    for key in {"REFEREE_HOME", "XDG_DATA_HOME"} - set(env):
        clean.pop(key, None)
    result = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, cwd=tmp_path,
                            check=True)
    store_dir, rules_dir = result.stdout.split()
    assert store_dir == rules_dir  # one resolver for the sessions and the rules
    return store_dir


def test_one_data_directory_resolver(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert data_dir_of(tmp_path, REFEREE_HOME="~/refhome") == str(home / "refhome")
    assert data_dir_of(tmp_path, REFEREE_HOME="rel") == str(tmp_path / "rel")
    assert data_dir_of(tmp_path, XDG_DATA_HOME=str(tmp_path / "x")) == str(tmp_path / "x" / "referee")
    assert data_dir_of(tmp_path, XDG_DATA_HOME="relative/dir") == str(home / ".local" / "share" / "referee")
    assert data_dir_of(tmp_path, XDG_DATA_HOME="~/xdg") == str(home / ".local" / "share" / "referee")
    assert data_dir_of(tmp_path) == str(home / ".local" / "share" / "referee")


def test_every_command_uses_that_directory(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    env = child_env(HOME=str(home), REFEREE_HOME="~/refhome", XDG_DATA_HOME="relative")
    env.pop("REFEREE_RULEBOOKS", None)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "referee", *args], env=env, cwd=work, capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)

    assert run("rules", "blackwood", "potion").returncode == 0
    assert not (home / "refhome").exists()  # a lookup never makes a data directory
    copy = tmp_path / "copy.md"
    copy.write_text("# My copy\n\n## Night market\n\nEvery witch may trade one ingredient.\n")
    assert run("rules", "import", "blackwood", str(copy)).returncode == 0
    assert (home / "refhome" / "rulebooks" / "blackwood.json").is_file()
    assert run("rules", "blackwood", "potion").returncode == 0
    assert (home / "refhome" / "cache" / "rules-index.json").is_file()
    assert run("play", "blackthorn", "-p", "Ann,Bo", "--answers", os.devnull).returncode == 1
    assert len(list((home / "refhome" / "sessions").glob("*.json"))) == 1
    assert list(work.iterdir()) == []  # no './~/refhome' or './relative/referee'
    other = tmp_path / "other db"
    assert run("rules", "--db", str(other), "blackwood", "potion").returncode == 0
    assert not other.exists()
    assert run("rules", "--db", str(other), "import", "got", str(copy)).returncode == 0
    assert (other / "rulebooks" / "got-lcg-1e.json").is_file()
    assert run("rules", "blackwood", "--db", str(other), "--json", "potion").returncode == 0
    assert (other / "cache" / "rules-index.json").is_file()
    assert not (home / "refhome" / "rulebooks" / "got-lcg-1e.json").exists()
    for folder in (home / "refhome", other):
        files = [path for path in folder.rglob("*") if path.is_file()]
        folders = [folder, *(path for path in folder.rglob("*") if path.is_dir())]
        assert {oct(path.stat().st_mode & 0o777) for path in files} == {"0o600"}
        assert {oct(path.stat().st_mode & 0o777) for path in folders} == {"0o700"}


def test_a_session_folder_left_open_by_an_older_version_is_closed(tmp_path: Path) -> None:
    (tmp_path / "sessions").mkdir()
    for folder in (tmp_path, tmp_path / "sessions"):
        os.chmod(folder, 0o755)
    saved_session(tmp_path, 1)
    assert oct((tmp_path / "sessions").stat().st_mode & 0o777) == "0o700"
    assert oct(tmp_path.stat().st_mode & 0o777) == "0o755"  # the data directory may be the user's own: kept


def test_a_damaged_imported_copy_does_not_break_lookups_in_other_games(tmp_path: Path) -> None:
    copy = tmp_path / "copy.md"
    copy.write_text("# My copy\n\n## Night market\n\nEvery witch may trade one ingredient at midnight.\n")
    home = tmp_path / "home"
    for game in ("blackwood", "got"):
        assert referee_command("rules", "import", game, str(copy), home=home).returncode == 0
    (home / "rulebooks" / "blackwood.json").write_text('{"text": 5')
    assert referee_command("rules", "got", "midnight", home=home).returncode == 0
    every_game = referee_command("rules", "stealth", home=home)
    assert every_game.returncode == 0 and "Traceback" not in every_game.stderr
    assert "damaged" in one_line(referee_command("rules", "blackwood", home=home))


# -- temporary files ---------------------------------------------------------------------------------


def test_temporary_files_are_never_written_through_a_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Links planted at the names the referee once used for its temporary files, and at the very
    name it is about to use: no outside file is written, and the write is refused or goes elsewhere."""
    home, outside = tmp_path / "home", tmp_path / "outside.txt"
    outside.write_text("keep me")
    pid = os.getpid()
    (home / "cache").mkdir(parents=True)
    (home / "rulebooks").mkdir()
    (home / "sessions").mkdir()
    for planted in (home / "cache" / f"rules-index.json.{pid}.tmp", home / "rulebooks" / f"blackwood.json.{pid}.tmp",
                    home / f".index.json.{pid}.tmp"):
        planted.symlink_to(outside)
    monkeypatch.setenv("REFEREE_HOME", str(home))
    from referee.cli.rules_cmd import run as rules
    from referee.rules import library

    monkeypatch.setattr(library, "_memory", None)
    copy = tmp_path / "copy.md"
    copy.write_text("# My copy\n\n## Night market\n\nEvery witch may trade one ingredient.\n")
    assert rules(["import", "blackwood", str(copy)]) == 0
    assert rules(["blackwood", "potion"]) == 0
    saved_session(home, 2)
    assert outside.read_text() == "keep me"

    import referee.safe_files
    from referee.safe_files import write_atomically

    target = home / "target.json"
    planted = home / "planted.tmp"
    planted.symlink_to(outside)
    monkeypatch.setattr(referee.safe_files, "temporary_name", lambda path: planted)
    with pytest.raises(FileExistsError):
        write_atomically(target, "new text")
    assert outside.read_text() == "keep me" and not target.exists() and planted.is_symlink()
