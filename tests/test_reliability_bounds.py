"""Every text the referee stores is bounded the way an answer is (referee/asks.py: MAX_ANSWER_LENGTH,
no control characters): a correction and its reason, at the table, in an edit or in an import; a
player's name (at most MAX_NAME_LENGTH). And the index stays a summary: an edit adds its record to
the session file, never to index.json, which every listing reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from history_support import SHORT_GAME, entries_of, store_entries
from typer.testing import CliRunner, Result

from referee.asks import MAX_ANSWER_LENGTH
from referee.cli.app import app
from referee.engine.driver import Driver
from referee.errors import InvalidAdjustment
from referee.games.blackthorn.game import GAME
from referee.store import Store
from referee.user_text import MAX_NAME_LENGTH

ENVIRONMENT = {"COLUMNS": "100", "NO_COLOR": "1"}
CORRECTION = "Ann influence +1"


def referee(*args: str, db: Path) -> Result:
    return CliRunner().invoke(app, [*args, "--db", str(db)], env=ENVIRONMENT)


def one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ")
    return line


@pytest.mark.parametrize(("text", "reason", "words"), [
    (CORRECTION, "x" * 120_000, f"at most {MAX_ANSWER_LENGTH} characters"),
    (CORRECTION, "x" * (MAX_ANSWER_LENGTH + 1), f"at most {MAX_ANSWER_LENGTH} characters"),
    (CORRECTION + " " * 300, "a card", f"at most {MAX_ANSWER_LENGTH} characters"),
    (CORRECTION, "a card\x1b[2J", "control characters"),
    (CORRECTION, "a card\u202e", "control characters"),
])
def test_a_correction_is_bounded_like_an_answer(text: str, reason: str, words: str) -> None:
    driver = Driver(GAME, ["Ann", "Bo"], {})
    with pytest.raises(InvalidAdjustment, match=words):
        driver.adjust(text, reason)
    assert driver.entries == []
    entry = driver.adjust(CORRECTION, "x" * MAX_ANSWER_LENGTH)  # the longest reason allowed
    assert entry.reason == "x" * MAX_ANSWER_LENGTH


def test_a_correction_reason_of_120_kb_is_refused_at_the_table(tmp_path: Path) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text(f"9\nadjust {CORRECTION} ; {'x' * 120_000}\nquit\n", encoding="utf-8")
    result = referee("play", "blackthorn", "-p", "Ann,Bo", "--answers", str(answers), db=tmp_path / "db")
    assert f"at most {MAX_ANSWER_LENGTH} characters" in result.output
    (meta,) = Store(tmp_path / "db").list()
    assert meta.answers == 1  # the 9 only


@pytest.fixture
def short_game(tmp_path: Path) -> tuple[Path, str]:
    db = tmp_path / "db"
    return db, store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))


def test_an_edit_with_a_reason_of_120_kb_is_refused_and_changes_nothing(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    session_file = Store(db).sessions_dir / f"{session_id}.json"
    before = session_file.read_bytes()
    line = one_line_error(referee("edit", session_id, "--entry", "6", "--value",
                                  f"adjust Ann noble =13 ; {'x' * 120_000}", db=db))
    assert f"at most {MAX_ANSWER_LENGTH} characters" in line
    assert session_file.read_bytes() == before


def test_a_player_name_is_bounded(tmp_path: Path) -> None:
    long_name = "A" * (MAX_NAME_LENGTH + 1)
    answers = tmp_path / "answers.txt"
    answers.write_text("9\nquit\n", encoding="utf-8")
    line = one_line_error(referee("play", "blackthorn", "-p", f"{long_name},Bo", "--answers", str(answers),
                                  db=tmp_path / "db"))
    assert f"at most {MAX_NAME_LENGTH} characters" in line
    assert Store(tmp_path / "db").list() == []
    fits = referee("play", "blackthorn", "-p", f"{'A' * MAX_NAME_LENGTH},Bo", "--answers", str(answers),
                   db=tmp_path / "db")
    assert fits.exit_code == 0, fits.output


def test_an_edit_leaves_its_record_in_the_session_file_and_the_index_as_it_was(
        short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    store = Store(db)
    sizes = []
    for number in range(4):
        reason = f"edit {number} " + "r" * (MAX_ANSWER_LENGTH - 10)
        result = referee("edit", session_id, "--entry", "6", "--value", f"adjust Ann noble =13 ; {reason}", db=db)
        assert result.exit_code == 0, result.output
        sizes.append(store.index_path.stat().st_size)
    assert max(sizes) - min(sizes) <= 2, f"index.json grew with each edit: {sizes}"
    shown = referee("sessions", "show", session_id, db=db)
    assert "edit 3 " in shown.stdout and "Edits" in shown.stdout  # the detail is in the session file
    (row,) = json.loads(store.index_path.read_text())["sessions"].values()
    assert row["edited"] == 4 and row["edits"] == []
    exported = json.loads(referee("export", session_id, db=db).stdout)
    assert len(exported["sessions"][0]["edits"]) == 4


def test_a_session_stored_before_the_bound_still_resumes_but_is_not_imported(tmp_path: Path) -> None:
    """The bound holds for what the table types from now on: a log written before it keeps its long
    reason and replays whole, while an import, checked as if typed, refuses it in one line."""
    from referee.games.registry import load_game
    from referee.session import LiveSession

    db = tmp_path / "db"
    store = Store(db)
    session_id = store_entries(store, "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    path = db / "sessions" / f"{session_id}.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    rows = document["log"]
    (row,) = [row for row in rows.values() if "adjust" in row["entry"]][:1]
    row["entry"]["reason"] = "a very long story " * 40  # 720 characters, as an older version kept it
    path.write_text(json.dumps(document), encoding="utf-8")

    live = LiveSession.resume(Store(db), session_id, load_game)
    try:
        assert live.replay_error is None and live.driver.finished
        assert any(entry.reason == ("a very long story " * 40).strip() for entry in live.driver.entries)
    finally:
        live.release()
    exported = tmp_path / "old.json"
    assert referee("export", session_id, "-o", str(exported), db=db).exit_code == 0
    line = one_line_error(referee("import", str(exported), db=tmp_path / "other"))
    assert "reason is too long" in line and f"at most {MAX_ANSWER_LENGTH} characters" in line
