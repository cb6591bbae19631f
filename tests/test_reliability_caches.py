"""The data directory's caches (a rulebook's numbers, the rules index, each session's kept export)
can only save time: a cache edited behind the referee's back, or a cache folder replaced by a link,
never changes an answer, a score or an export, and a link is neither read through nor written through.

Each edit below keeps the cache's key (what the cache says it was made from) and changes only what it
holds, so only a check of the cache's own content can catch it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from history_support import SHORT_GAME, entries_of, store_entries, store_random_game
from reliability_support import child_env

from referee.store import Store

SCORE_INPUT = Path(__file__).parents[1] / "scenarios" / "score" / "council-of-blackthorn.json"
RULES_QUESTION = ("rules", "blackwood", "how does the game end")


def referee(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """A fresh process each time: nothing kept in memory, only what the data directory holds."""
    result = subprocess.run([sys.executable, "-m", "referee", *args], env=child_env(REFEREE_HOME=str(home),
                            COLUMNS="100", NO_COLOR="1"), capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def edit_kept_text(path: Path, change: Callable[[str], str]) -> None:
    """Change what a cache file holds (its last line), leaving every line before it (its key) alone."""
    text = path.read_text(encoding="utf-8")
    head, newline, body = text.rpartition("\n")
    edited = change(body)
    assert edited != body, "the edit must change the cached text"
    path.write_text(head + newline + edited, encoding="utf-8")


def add_to_every_number(value: Any, amount: int) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value + amount
    if isinstance(value, dict):
        return {key: add_to_every_number(item, amount) for key, item in value.items()}
    if isinstance(value, list):
        return [add_to_every_number(item, amount) for item in value]
    return value


def without_export_time(text: str) -> Any:
    document = json.loads(text)
    document.pop("exported", None)
    return document


def closed_session(home: Path) -> None:
    """A session played and closed, as at the table: it keeps its rulebook's numbers in the cache."""
    answers = home.parent / "answers.txt"
    answers.write_text("9\n5\nquit\n", encoding="utf-8")
    played = referee("play", "blackthorn", "-p", "Ann,Bo", "--answers", str(answers), home=home)
    assert played.returncode == 0, played.stderr


# -- edited caches -----------------------------------------------------------------------------------


def test_edited_rulebook_numbers_never_change_a_score(tmp_path: Path) -> None:
    home = tmp_path / "home"
    closed_session(home)
    kept = home / "cache" / "numbers-council-of-blackthorn.json"
    assert kept.is_file()
    right = referee("score", "blackthorn", "--input", str(SCORE_INPUT), "--json", home=home)
    assert right.returncode == 0, right.stderr

    def wrong_numbers(body: str) -> str:
        stored = json.loads(body)
        stored["numbers"] = add_to_every_number(stored["numbers"], 891)  # the key is kept as it was
        return json.dumps(stored)

    edit_kept_text(kept, wrong_numbers)
    again = referee("score", "blackthorn", "--input", str(SCORE_INPUT), "--json", home=home)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(right.stdout)
    closed_session(home)  # the next session that closes keeps the right numbers again
    assert "891" not in kept.read_text(encoding="utf-8")


@pytest.mark.parametrize("edit", ["players", "cut short", "another session"])
def test_an_edited_kept_export_never_changes_the_export(tmp_path: Path, edit: str) -> None:
    home = tmp_path / "home"
    first = store_entries(Store(home), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    second = store_random_game(Store(home), "blackwood", ["Cy", "Di"], seed=3)
    right = referee("export", "--all", home=home)
    assert right.returncode == 0, right.stderr
    kept = {session: home / "export-cache" / f"{session}.json" for session in (first, second)}
    assert all(path.is_file() for path in kept.values())
    if edit == "players":
        edit_kept_text(kept[first], lambda body: body.replace('"Ann"', '"Zed"'))
    elif edit == "cut short":
        edit_kept_text(kept[first], lambda body: body[: len(body) // 2])  # the export would not be JSON
    else:
        other = kept[second].read_text(encoding="utf-8").rpartition("\n")[2]
        edit_kept_text(kept[first], lambda _body: other)  # the second session's export under the first's key
    again = referee("export", "--all", home=home)
    assert again.returncode == 0, again.stderr
    assert without_export_time(again.stdout) == without_export_time(right.stdout)
    backup = tmp_path / "backup.json"
    backup.write_text(again.stdout, encoding="utf-8")
    restored = referee("import", str(backup), home=tmp_path / "elsewhere")
    assert restored.returncode == 0, restored.stderr
    assert {meta.id: meta.players for meta in Store(tmp_path / "elsewhere").list()} == {
        first: ["Ann", "Bo"], second: ["Cy", "Di"]}


def test_an_edited_rules_index_never_changes_an_answer(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    right = referee(*RULES_QUESTION, home=home)
    assert right.returncode == 0, right.stderr
    kept = home / "cache" / "rules-index.json"
    assert kept.is_file()

    def other_texts(body: str) -> str:
        stored = json.loads(body)
        stored["index"]["docs"] = [[*doc[:3], "Whoever shouts loudest wins.", *doc[4:]]
                                   for doc in stored["index"]["docs"]]
        return json.dumps(stored)

    edit_kept_text(kept, other_texts)
    again = referee(*RULES_QUESTION, home=home)
    assert again.returncode == 0, again.stderr
    assert again.stdout == right.stdout and "shouts" not in again.stdout


# -- cache folders that are links ---------------------------------------------------------------------


def untouched_elsewhere(folder: Path) -> Callable[[], None]:
    """Set every file of `folder` to an access time before its modification time (so a read moves it),
    and return the check that none was read, changed or added."""
    before = {}
    for path in folder.iterdir():
        info = path.stat()
        os.utime(path, ns=(info.st_mtime_ns - 10**9, info.st_mtime_ns))
        before[path.name] = path.stat()
    probe = folder / "probe"
    probe.write_text("x")
    os.utime(probe, ns=(probe.stat().st_mtime_ns - 10**9, probe.stat().st_mtime_ns))
    atime = probe.stat().st_atime_ns
    probe.read_text()
    if probe.stat().st_atime_ns == atime:
        pytest.skip("this file system does not record reads (noatime): a read could not be seen")
    probe.unlink()

    def check() -> None:
        assert sorted(path.name for path in folder.iterdir()) == sorted(before), "a file was written through the link"
        for name, info in before.items():
            now = (folder / name).stat()
            assert (now.st_atime_ns, now.st_mtime_ns, now.st_size) == (
                info.st_atime_ns, info.st_mtime_ns, info.st_size), f"{name} was read or changed through the link"

    return check


def linked_away(folder: Path, elsewhere: Path) -> Callable[[], None]:
    """Move a cache folder out of the data directory and leave a symbolic link to it in its place."""
    shutil.move(folder, elsewhere)
    folder.symlink_to(elsewhere, target_is_directory=True)
    return untouched_elsewhere(elsewhere)


def test_a_cache_folder_that_is_a_link_is_neither_read_nor_written(tmp_path: Path) -> None:
    home = tmp_path / "home"
    closed_session(home)
    right_rules = referee(*RULES_QUESTION, home=home)
    right_score = referee("score", "blackthorn", "--input", str(SCORE_INPUT), "--json", home=home)
    assert {"numbers-council-of-blackthorn.json", "rules-index.json"} <= {p.name for p in (home / "cache").iterdir()}
    check = linked_away(home / "cache", tmp_path / "outside-cache")
    assert referee(*RULES_QUESTION, home=home).stdout == right_rules.stdout
    assert json.loads(referee("score", "blackthorn", "--input", str(SCORE_INPUT), "--json", home=home).stdout) == (
        json.loads(right_score.stdout))
    closed_session(home)  # a session closing would keep its numbers there
    check()
    assert (home / "cache").is_symlink()


def test_an_export_cache_folder_that_is_a_link_is_neither_read_nor_written(tmp_path: Path) -> None:
    home = tmp_path / "home"
    session = store_entries(Store(home), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    right = referee("export", "--all", home=home)
    check = linked_away(home / "export-cache", tmp_path / "outside-exports")
    again = referee("export", "--all", home=home)
    assert again.returncode == 0, again.stderr
    assert without_export_time(again.stdout) == without_export_time(right.stdout)
    deleted = referee("sessions", "delete", session, "--yes", home=home)
    assert deleted.returncode == 0, deleted.stderr
    check()  # the kept export outside was not removed either
