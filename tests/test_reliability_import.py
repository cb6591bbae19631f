"""An imported session is checked field by field as if the table had typed it: what the table could
not have typed is refused in one line and nothing is imported; a game named by an alias is stored by
its id. Whatever a stored session holds, every export writes control characters as escapes, as the
screen does."""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from history_support import SHORT_GAME, entries_of, store_entries
from typer.testing import CliRunner, Result

from referee.cli.app import app
from referee.store import Store, open_db

ENVIRONMENT = {"COLUMNS": "100", "NO_COLOR": "1"}
HIDDEN = ("Cc", "Cf", "Cs", "Zl", "Zp")


def referee(*args: str, db: Path) -> Result:
    return CliRunner().invoke(app, [*args, "--db", str(db)], env=ENVIRONMENT)


def one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ")
    return line


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = tmp_path_factory.mktemp("source")
    store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    result = referee("export", "--all", db=db)
    assert result.exit_code == 0, result.output
    return result.stdout


def with_session(exported: str, change: Callable[[dict[str, Any]], None]) -> str:
    document = json.loads(exported)
    change(document["sessions"][0])
    return json.dumps(document, ensure_ascii=False)


def setter(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(session: dict[str, Any]) -> None:
        session[field] = value
    return change


def edit_record(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def change(session: dict[str, Any]) -> None:
        record = {"entry": 3, "old": {"answer": "1"}, "new": {"answer": "1"}, "at": "2026-01-01 10:00:00",
                  "why": "changed", **fields}
        session["edits"] = [record]
    return change


BAD_FIELDS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "played_seconds of 401 digits": (setter("played_seconds", "401 digits"), "playing time"),
    "negative played_seconds": (setter("played_seconds", -5), "playing time"),
    "played_seconds as text": (setter("played_seconds", "95"), "playing time"),
    "escape in started": (setter("started", "\x1b[2J2026-01-01 10:00:00"), "started"),
    "started not a time": (setter("started", "yesterday"), "started"),
    "bidi override in updated": (setter("updated", "2026-01-01 10:00:00\u202e"), "updated"),
    "escape in a player name": (setter("players", ["Ann\x1b[31m", "Bo"]), "control characters"),
    "an option no table gives": (setter("options", {"cheat": True}), "options"),
    "an unknown ruling": (setter("options", {"rulings": {"ghost": "vanishes"}}), "ruling"),
    "escape in an edit's reason": (edit_record(why="changed\x1b]0;owned\x07"), "edit record"),
    "a reason of 120 KB": (edit_record(why="x" * 120_000), "edit record"),
    "an edit time that is not a time": (edit_record(at="\x9b2J"), "edit record"),
    "a bad id": (setter("id", "../../etc"), "bad session id"),
}


@pytest.mark.parametrize("case", list(BAD_FIELDS))
def test_a_field_the_table_could_not_have_typed_is_refused_in_one_line(
        exported: str, tmp_path: Path, case: str) -> None:
    change, words = BAD_FIELDS[case]
    text = with_session(exported, change)
    # (json.dumps cannot write a number of 401 digits as a float: it is put in the text)
    text = text.replace('"played_seconds": "401 digits"', '"played_seconds": ' + "9" * 401)
    path = tmp_path / "import.json"
    path.write_text(text, encoding="utf-8")
    line = one_line_error(referee("import", str(path), db=tmp_path / "target"))
    assert words in line and "Nothing was imported" in line, line
    assert not any(unicodedata.category(ch) in HIDDEN for ch in line), line  # the message shows them escaped
    assert Store(tmp_path / "target").list() == []


def test_a_game_given_by_an_alias_is_stored_by_its_id(exported: str, tmp_path: Path) -> None:
    path = tmp_path / "import.json"
    path.write_text(with_session(exported, setter("game", "Blackthorn")), encoding="utf-8")
    assert referee("import", str(path), db=tmp_path / "target").exit_code == 0
    (meta,) = Store(tmp_path / "target").list()
    assert meta.game == "council-of-blackthorn"
    listed = referee("sessions", "--game", "blackthorn", "--json", db=tmp_path / "target")
    assert [row["id"] for row in json.loads(listed.stdout)] == [meta.id]


def test_the_sessions_as_exported_import_unchanged(exported: str, tmp_path: Path) -> None:
    path = tmp_path / "import.json"
    path.write_text(exported, encoding="utf-8")
    assert referee("import", str(path), db=tmp_path / "target").exit_code == 0
    again = referee("export", "--all", db=tmp_path / "target")
    assert json.loads(again.stdout)["sessions"] == json.loads(exported)["sessions"]


# -- exports of stored text holding control characters --------------------------------------------------


SHOWN_ESCAPED = "Ann's game \x1b[2J\x9b31m\u202e\u2028"
"""An escape sequence, a C1 control, a bidirectional override and a line separator: none may reach a
terminal raw."""


@pytest.fixture
def odd_session(tmp_path: Path) -> tuple[Path, str]:
    """A finished session whose stored start time and edit record hold control characters (an older
    referee, or a hand edit, could have left them: the store reads them as text)."""
    db = tmp_path / "db"
    session_id = store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    document = open_db(Store(db).sessions_dir / f"{session_id}.json")
    meta = document.table("meta")
    meta.update({"started": "2026-01-01 10:00:00" + SHOWN_ESCAPED,
                 "edits": [{"entry": 3, "old": {"answer": "1"}, "new": {"answer": "1"}, "at": SHOWN_ESCAPED,
                            "why": SHOWN_ESCAPED}]})
    document.close()
    # A hand edit comes after the index was written; made within the same clock tick, the file's
    # time would equal the index's and a finished session's row would be trusted as it stands.
    index_time = os.lstat(Store(db).index_path).st_mtime_ns
    os.utime(Store(db).sessions_dir / f"{session_id}.json", ns=(index_time + 10**9, index_time + 10**9))
    return db, session_id


@pytest.mark.parametrize("form", ["md", "json", "bgstats"])
def test_every_export_writes_control_characters_as_escapes(odd_session: tuple[Path, str], form: str) -> None:
    db, session_id = odd_session
    for args in ((session_id,), ("--all",)):
        result = referee("export", *args, "-f", form, db=db)
        assert result.exit_code == 0, result.output
        raw = [ch for ch in result.stdout if ch != "\n" and unicodedata.category(ch) in HIDDEN]
        assert raw == [], f"{form} export writes {raw!r} raw"
        if form == "md":
            assert "x1b" in result.stdout and "u202e" in result.stdout
        elif form == "json":  # JSON's own escapes: the text reads back as it was stored
            (session,) = json.loads(result.stdout)["sessions"]
            assert session["started"].endswith(SHOWN_ESCAPED) and session["edits"][0]["why"] == SHOWN_ESCAPED
        else:
            plays = json.loads(result.stdout)
            assert (plays if isinstance(plays, dict) else plays[0])["playDate"].endswith(SHOWN_ESCAPED)
