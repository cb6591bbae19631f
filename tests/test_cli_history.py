"""`referee sessions` (filters, show, delete), `edit`, `stats`, `export` and `import` through CliRunner.

Rich's width is pinned (COLUMNS) so tables are laid out the same everywhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from e2e.terminal import table_rows
from history_support import EVERY_GAME, SHORT_GAME, entries_of, store_entries, store_every_game
from typer.testing import CliRunner, Result

from referee.cli.app import app
from referee.history import read_session
from referee.store import Store

ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}


def referee(*args: str, db: Path | None = None) -> Result:
    arguments = [*args, "--db", str(db)] if db is not None else list(args)
    return CliRunner().invoke(app, arguments, env=ENVIRONMENT)


def one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ")
    return line


@pytest.fixture
def short_game(tmp_path: Path) -> tuple[Path, str]:
    """A store holding the short two-player Council of Blackthorn: Ann 37 beats Bo 23."""
    db = tmp_path / "db"
    session_id = store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    return db, session_id


@pytest.fixture(scope="module")
def every_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    db = tmp_path_factory.mktemp("every") / "db"
    return db, store_every_game(db)


# --- referee sessions ----------------------------------------------------------------------------------


def listed(result: Result) -> list[str]:
    assert result.exit_code == 0, result.output
    return [row["id"] for row in json.loads(result.stdout)]


def test_sessions_filters_and_json(tmp_path: Path) -> None:
    db = tmp_path / "db"
    store = Store(db)
    short = entries_of(SHORT_GAME)
    done = store_entries(store, "council-of-blackthorn", ["Ann", "Bo"], short)
    open_game = store_entries(store, "council-of-blackthorn", ["ANN", "Cy"], short[:6])
    assert listed(referee("sessions", "--json", db=db)) == [done, open_game]
    assert listed(referee("sessions", "--player", "ann", "--json", db=db)) == [done, open_game]
    assert listed(referee("sessions", "--player", "cy", "--json", db=db)) == [open_game]
    assert listed(referee("sessions", "--status", "playing", "--json", db=db)) == [open_game]
    assert listed(referee("sessions", "--game", "cob", "--status", "finished", "--json", db=db)) == [done]
    assert listed(referee("sessions", "--game", "got", "--json", db=db)) == []
    assert listed(referee("sessions", "--since", "2000-01-01", "--json", db=db)) == [done, open_game]
    assert listed(referee("sessions", "--since", "2999-01-01", "--json", db=db)) == []
    (row,) = json.loads(referee("sessions", "--status", "finished", "--json", db=db).stdout)
    assert row["winners"] == ["Ann"] and row["summary"]["winners"] == ["Ann"]
    assert [player["total"] for player in row["summary"]["players"]] == [37, 23]
    table = referee("sessions", "--player", "cy", db=db)
    assert [cells[0] for cells in table_rows(table.stdout, "Sessions")] == [open_game]
    assert referee("sessions", "--game", "got", db=db).stdout.strip() == "No session matches these filters."


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--status", "done"], "--status is one of playing, finished, not 'done'"),
        (["--since", "yesterday"], "--since takes a date as YYYY-MM-DD"),
        (["--game", "chess"], "unknown game 'chess'"),
    ],
)
def test_sessions_with_a_bad_filter_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    assert message in one_line_error(referee("sessions", *args, db=tmp_path))


def test_show_gives_every_entry_with_its_round_turn_and_phase(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    result = referee("sessions", "show", session_id[:-3], db=db)  # a unique start of the id
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"Session {session_id}" in out
    assert "Players: Ann, Bo  (in seat order)" in out and "Time played: 1 h 35 min" in out
    assert "Log: 15 entries (12 answers, 3 corrections)" in out
    rulings = {row[0]: row[1:] for row in table_rows(out, "Rulings in force")}
    assert rulings["trigger-after-dice"] == ["after", "default"]
    rows = table_rows(out, "Log")
    assert [row[0] for row in rows] == [str(number) for number in range(1, 16)]
    by_number = {row[0]: row for row in rows}
    assert by_number["3"][1:] == ["-", "-", "setup", "Ann chooses a character", "Queen"]
    assert by_number["5"][1:4] == ["1", "-", "Ann rolls the faction dice"]
    assert by_number["6"][1:] == ["1", "Ann", "play", "(correction)", "adjust Ann noble =13 ; test"]
    assert by_number["12"][1:] == ["1", "Bo", "play", "Bo plays which card?", "peasant"]
    assert by_number["13"][1:3] == ["1", "Ghost"]
    assert by_number["15"][1:4] == ["1", "-", "final"] and by_number["15"][5] == "6"
    score = {row[1]: row for row in table_rows(out, "Final score")}
    assert score["Ann"][0] == "1" and score["Ann"][-2:] == ["37", "winner"]
    assert score["Bo"][-2] == "23"
    assert "note: Treason revealed (lowest influence first): Bo 4, Ann 6" in out  # the tie-breaks applied
    assert "How it ended: Three factions were blocked at the end of" in out and "in round 1" in out
    assert "Visible influence by round" in out and "A Ann 28   B Bo 16" in out


def test_show_prints_names_as_they_were_typed(tmp_path: Path) -> None:
    db = tmp_path / "db"
    session_id = store_entries(Store(db), "council-of-blackthorn", ["[bold]Zed", "Bo"], entries_of(SHORT_GAME)[:3])
    result = referee("sessions", "show", session_id, db=db)
    assert result.exit_code == 0, result.output
    assert "Players: [bold]Zed, Bo" in result.stdout
    assert "[bold]Zed: roll the four faction dice" in result.stdout


def test_show_and_delete_refuse_an_ambiguous_or_unknown_id(tmp_path: Path) -> None:
    db = tmp_path / "db"
    store = Store(db)
    first = store_entries(store, "blackwood", ["Ann", "Bo"], [])
    second = store_entries(store, "blackwood", ["Ann", "Cy"], [])
    common = next(index for index, (a, b) in enumerate(zip(first, second, strict=True)) if a != b)
    line = one_line_error(referee("sessions", "show", first[:common], db=db))
    assert f"starts 2 session ids: {first}, {second}; give more of the id" in line
    assert "no session 'nope'" in one_line_error(referee("sessions", "delete", "nope", "--yes", db=db))


def test_the_data_directory_may_be_given_before_the_subcommand(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    result = CliRunner().invoke(app, ["sessions", "--db", str(db), "show", session_id], env=ENVIRONMENT)
    assert result.exit_code == 0 and f"Session {session_id}" in result.stdout


def test_delete_with_yes_removes_the_session_and_its_row(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    keep = store_entries(Store(db), "blackwood", ["Ann", "Bo"], [])
    aside = db / "sessions" / f"{session_id}.set-aside-20260101-120000.json"
    aside.write_text('{"entries": []}', encoding="utf-8")  # answers once set aside belong to the session too
    result = referee("sessions", "delete", session_id, "--yes", db=db)
    assert result.exit_code == 0, result.output
    assert f"Deleted session {session_id}" in result.stdout and "3 files removed" in result.stdout
    assert [meta.id for meta in Store(db).list()] == [keep]
    assert not list((db / "sessions").glob(f"{session_id}*"))
    Store(db).index_path.unlink()  # a rebuilt index does not bring it back
    assert [meta.id for meta in Store(db).list()] == [keep]


def test_delete_without_a_terminal_or_yes_deletes_nothing(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    line = one_line_error(referee("sessions", "delete", session_id, db=db))
    assert line == "referee: no terminal to confirm on: add --yes to delete without asking"
    assert [meta.id for meta in Store(db).list()] == [session_id]


def test_delete_refuses_a_session_open_in_another_process(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    holder = Store(db).open(session_id)
    try:
        assert "is open in another process" in one_line_error(referee("sessions", "delete", session_id, "--yes", db=db))
    finally:
        holder.unlock()
    assert (db / "sessions" / f"{session_id}.json").exists()


def test_resume_takes_a_unique_start_of_an_id(tmp_path: Path) -> None:
    db = tmp_path / "db"
    session_id = store_entries(Store(db), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME)[:5])
    rest = tmp_path / "rest.txt"
    rest.write_text(SHORT_GAME.split("1 2 0 3\n", 1)[1], encoding="utf-8")
    result = referee("resume", session_id[:-2], "--answers", str(rest), db=db)
    assert result.exit_code == 0, result.output
    assert "Winner: Ann" in result.stdout


def test_taking_back_the_last_answer_of_a_finished_game_clears_its_result(short_game: tuple[Path, str],
                                                                        tmp_path: Path) -> None:
    db, session_id = short_game
    quit_now = tmp_path / "quit.txt"
    quit_now.write_text("quit\n", encoding="utf-8")
    assert referee("resume", session_id, "--undo", "1", "--answers", str(quit_now), db=db).exit_code == 0
    (meta,) = Store(db).list()
    assert (meta.status, meta.winners, meta.summary, meta.answers) == ("playing", [], None, 14)
    assert listed(referee("sessions", "--status", "finished", "--json", db=db)) == []
    assert json.loads(referee("stats", "--json", db=db).stdout)["sessions"] == 0


# --- referee edit -----------------------------------------------------------------------------------------


def stored_log(db: Path, session_id: str) -> list[dict[str, str]]:
    file = Store(db).session_file(session_id)
    file.load()
    return file.entries


def test_edit_in_the_middle_of_a_finished_game_changes_the_winner(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    result = referee("edit", session_id, "--entry", "6", "--value", "Bo noble =13 ; King", db=db)
    assert result.exit_code == 0, result.output
    assert "Entry 6 changed: adjust Ann noble =13 ; test -> adjust Bo noble =13 ; King" in result.stdout
    assert "The winner changes: Bo (was Ann)." in result.stdout
    score = {row[1]: row for row in table_rows(result.stdout, "Final score")}
    assert score["Bo"][-2:] == ["38", "winner"] and score["Ann"][-2] == "22"
    (meta,) = Store(db).list()
    assert (meta.status, meta.winners, meta.answers) == ("finished", ["Bo"], 15)
    assert meta.summary is not None and meta.summary["winners"] == ["Bo"]
    assert stored_log(db, session_id)[5] == {"adjust": "Bo noble =13", "reason": "King"}
    assert meta.edited == 1  # the index keeps the count; the session file the record
    (edit,) = read_session(Store(db), meta.id).edits
    assert edit["entry"] == 6 and edit["why"] == "changed"
    assert edit["old"] == {"adjust": "Ann noble =13", "reason": "test"}
    assert edit["new"] == {"adjust": "Bo noble =13", "reason": "King"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", edit["at"])
    shown = referee("sessions", "show", session_id, db=db).stdout
    (row,) = table_rows(shown, "Edits (entry numbers as they were at the time)")
    assert row[1:] == ["6", "adjust Ann noble =13 ; test", "adjust Bo noble =13 ; King", "changed"]
    stats = json.loads(referee("stats", "--json", db=db).stdout)
    assert {row["player"]: row["wins"] for row in stats["players"]} == {"Ann": 0, "Bo": 1}


def test_edit_asks_again_an_answer_that_no_longer_fits(short_game: tuple[Path, str], tmp_path: Path) -> None:
    db, session_id = short_game
    before = stored_log(db, session_id)
    refused = referee("edit", session_id, "--entry", "3", "--value", "Lord of War", db=db)
    line = one_line_error(refused)
    assert "entry 4 (Lord of War) no longer fits (not one of the options: 'Lord of War'" in line
    assert line.endswith("nothing was changed")
    assert stored_log(db, session_id) == before and Store(db).list()[0].edits == []

    answers = tmp_path / "again.txt"
    answers.write_text("2   # Minister of Coin\n", encoding="utf-8")
    result = referee("edit", session_id, "--entry", "3", "--value", "Lord of War", "--answers", str(answers), db=db)
    assert result.exit_code == 0, result.output
    assert "? Bo chooses a character [1=Queen 2=Minister of Coin" in result.stdout
    assert "Entry 4 asked again: the old value no longer fits: Lord of War -> Minister of Coin" in result.stdout
    assert "the winner stays Ann" in result.stdout
    after = stored_log(db, session_id)
    assert after[2:4] == [{"answer": "Lord of War"}, {"answer": "Minister of Coin"}]
    assert after[4:] == before[4:]  # the rest replayed as it was
    assert [edit["entry"] for edit in read_session(Store(db), session_id).edits] == [3, 4]


def test_edit_refuses_a_value_that_does_not_fit_and_says_what_is_allowed(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    line = one_line_error(referee("edit", session_id, "--entry", "15", "--value", "8", db=db))
    assert "the new value of entry 15 does not fit: out of range: '8'. Allowed: a whole number from 0 to 6" in line
    assert "no entry 16" in one_line_error(referee("edit", session_id, "--entry", "16", "--value", "1", db=db))


def test_edit_without_a_terminal_needs_the_entry_and_value(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    line = one_line_error(referee("edit", session_id, db=db))
    assert "no terminal to ask on: give --entry K --value TEXT" in line


def test_edit_to_the_same_value_changes_nothing(short_game: tuple[Path, str]) -> None:
    db, session_id = short_game
    result = referee("edit", session_id, "--entry", "3", "--value", "1", db=db)  # 1 = Queen, as logged
    assert result.exit_code == 0 and "Entry 3 already has that value: nothing changed." in result.stdout
    assert Store(db).list()[0].edits == []


def test_edit_at_a_question_of_a_running_session(tmp_path: Path) -> None:
    db = tmp_path / "db"
    # After the characters, at the dice question: Ann's character is changed to Lord of War, which
    # takes Bo's away; Bo's choice is asked again (the next line), then the game goes on.
    script = SHORT_GAME.replace("1 2 0 3\n", "edit 3 Lord of War\nMinister of Coin\n1 2 0 3\n")
    answers = tmp_path / "game.txt"
    answers.write_text(script, encoding="utf-8")
    result = referee("play", "blackthorn", "--players", "Ann,Bo", "--answers", str(answers), db=db)
    assert result.exit_code == 0, result.output
    assert "Entry 4 (Lord of War) no longer fits" in result.stdout
    assert "Back to the game." in result.stdout and "Winner: Ann" in result.stdout
    (meta,) = Store(db).list()
    assert meta.status == "finished" and meta.answers == 15
    assert [(edit["entry"], edit["why"]) for edit in read_session(Store(db), meta.id).edits] == [
        (3, "changed"), (4, "asked again: the old value no longer fits")]
    log = stored_log(db, meta.id)
    assert log[2:4] == [{"answer": "Lord of War"}, {"answer": "Minister of Coin"}]


def test_edit_at_a_question_with_a_bad_number_is_refused_like_a_bad_answer(tmp_path: Path) -> None:
    answers = tmp_path / "game.txt"
    answers.write_text("9\nedit 7 Queen\n", encoding="utf-8")
    result = referee("play", "blackthorn", "--players", "Ann,Bo", "--answers", str(answers), db=tmp_path / "db")
    assert result.exit_code == 2
    assert "'edit' takes an entry number from 1 to 1, not '7'" in result.stderr


# --- referee stats ----------------------------------------------------------------------------------------


def test_stats_tables_and_json(every_game: tuple[Path, dict[str, str]]) -> None:
    db, _ = every_game
    result = referee("stats", db=db)
    assert result.exit_code == 0, result.output
    document = json.loads(referee("stats", "--json", db=db).stdout)
    assert document["sessions"] == len(EVERY_GAME)
    summaries = {meta.game: meta.summary for meta in Store(db).list()}
    ann = next(row for row in document["players"] if row["player"] == "Ann")
    wins = sum(1 for summary in summaries.values() if summary and "Ann" in summary["winners"])
    scored = [player["total"] for game, summary in summaries.items() if summary and game != "council-of-serpents"
              for player in summary["players"] if player["name"] == "Ann"]
    assert (ann["games"], ann["wins"]) == (5, wins)
    assert ann["average_score"] == pytest.approx(sum(scored) / len(scored)) and ann["best_score"] == max(scored)
    players = {row[0]: row for row in table_rows(result.stdout, "Players")}
    assert players["Ann"][1:3] == ["5", str(wins)]
    assert players["Ann"][3] == f"{wins / 5:.0%}"
    games = {row[0]: row for row in table_rows(result.stdout, "Games")}
    assert set(games) == {game for game, _ in EVERY_GAME}
    assert games["council-of-serpents"][2:4] == ["-", "-"]  # no points
    assert "Character in council-of-blackthorn" in result.stdout and "House in got-lcg-1e" in result.stdout
    assert "Lord or lady in cutthroat-kingdoms" in result.stdout
    assert "Score progression of" in result.stdout
    assert document["progression"]["charts"]


def test_stats_for_one_player_in_any_case_and_one_game(every_game: tuple[Path, dict[str, str]]) -> None:
    db, ids = every_game
    document = json.loads(referee("stats", "--player", "cY", "--json", db=db).stdout)
    expected = [game for game, players in EVERY_GAME if "Cy" in players]
    assert document["sessions"] == len(expected)
    assert [row["player"] for row in document["players"]] == ["Cy"]
    assert sorted(row["game"] for row in document["players_by_game"]) == sorted(expected)
    got = json.loads(referee("stats", "--game", "got", "--json", db=db).stdout)
    assert [row["game"] for row in got["games"]] == ["got-lcg-1e"]
    assert got["progression"]["session"] == ids["got-lcg-1e"]
    assert got["progression"]["charts"][0]["title"] == "Power"
    chosen = json.loads(referee("stats", "--session", ids["council-of-serpents"][:-2], "--json", db=db).stdout)
    assert [chart["title"] for chart in chosen["progression"]["charts"]] == [
        "House wealth", "House popularity", "House strength"]


def test_stats_with_nothing_finished(tmp_path: Path) -> None:
    result = referee("stats", db=tmp_path / "db")
    assert result.exit_code == 0
    assert "No finished session yet" in result.stdout


# --- referee export and import ------------------------------------------------------------------------------

BGSTATS_PLAY = {"sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int, "comments": str,
                "game": dict, "players": list, "location": str, "board": str}
BGSTATS_GAME = {"name": str, "bggId": int, "highestWins": bool, "noPoints": bool, "sourceGameId": str}
BGSTATS_PLAYER = {"name": str, "sourcePlayerId": str, "score": (int, float), "winner": bool, "startPlayer": bool,
                  "rank": int, "role": str}
"""The fields and value types of BG Stats' documented play import ("Push plays to BG Stats from other
apps or websites"); every field the export writes must be one of them, of its type."""


def check_bgstats_play(play: dict[str, Any], scored: bool) -> None:
    for document, fields in ((play, BGSTATS_PLAY), (play["game"], BGSTATS_GAME)):
        assert set(document) <= set(fields), set(document) - set(fields)
        for key, value in document.items():
            assert isinstance(value, fields[key]), (key, value)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert {"sourceName", "sourcePlayId", "playDate", "game", "players"} <= set(play)
    assert {"name", "highestWins", "noPoints"} <= set(play["game"])
    assert play["game"]["noPoints"] is (not scored)
    for player in play["players"]:
        assert set(player) <= set(BGSTATS_PLAYER), set(player) - set(BGSTATS_PLAYER)
        for key, value in player.items():
            assert isinstance(value, BGSTATS_PLAYER[key]) and not (key == "score" and isinstance(value, bool))
        assert ("score" in player) is scored
    assert sum(player["startPlayer"] for player in play["players"]) == 1


def test_bgstats_export_has_only_documented_fields(every_game: tuple[Path, dict[str, str]]) -> None:
    db, ids = every_game
    metas = {meta.id: meta for meta in Store(db).list()}
    for game, session_id in ids.items():
        result = referee("export", session_id, "--format", "bgstats", db=db)
        assert result.exit_code == 0, result.output
        play = json.loads(result.stdout)
        check_bgstats_play(play, scored=game != "council-of-serpents")
        meta = metas[session_id]
        summary = meta.summary
        assert summary is not None
        assert play["sourcePlayId"] == session_id and play["playDate"] == meta.started
        assert play["durationMin"] == 95
        assert play["game"]["sourceGameId"] == game and play["game"]["highestWins"] is True
        assert [player["name"] for player in play["players"]] == meta.players
        assert [player["name"] for player in play["players"] if player["winner"]] == [
            name for name in meta.players if name in meta.winners]
        (starter,) = [player["name"] for player in play["players"] if player["startPlayer"]]
        assert starter == summary["start_player"]
        if game != "council-of-serpents":
            assert [player["score"] for player in play["players"]] == [
                player["total"] for player in summary["players"]]
    every = referee("export", "--all", "--format", "bgstats", db=db)
    plays = json.loads(every.stdout)
    assert [play["sourcePlayId"] for play in plays] == list(metas)


def test_bgstats_of_an_unfinished_session_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "db"
    session_id = store_entries(Store(db), "blackwood", ["Ann", "Bo"], [])
    assert "has not ended" in one_line_error(referee("export", session_id, "--format", "bgstats", db=db))
    result = referee("export", "--all", "--format", "bgstats", db=db)
    assert result.exit_code == 0 and json.loads(result.stdout) == []
    assert "1 unfinished session left out" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--all", "--format", "csv"], "--format is one of json, md, bgstats, not 'csv'"),
        ([], "give one session id, or --all (not both)"),
    ],
)
def test_export_with_bad_arguments_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    assert message in one_line_error(referee("export", *args, db=tmp_path))


def test_markdown_report(short_game: tuple[Path, str], tmp_path: Path) -> None:
    db, session_id = short_game
    output = tmp_path / "report.md"
    result = referee("export", session_id, "--format", "md", "-o", str(output), db=db)
    assert result.exit_code == 0, result.output
    text = output.read_text(encoding="utf-8")
    assert text.startswith(f"# Council of Blackthorn: session {session_id}\n")
    assert "- Players, in seat order: Ann, Bo" in text and "- Winner: Ann" in text
    assert "## Setup" in text and "## Round 1" in text and "## Final score" in text
    assert "| 3 | - | setup | Ann chooses a character | Queen |" in text
    assert "| 1 | Ann | 26 | 9 | 0 | 2 | 37 | winner |" in text
    assert "How it ended: Three factions were blocked" in text
    assert "- Treason revealed (lowest influence first): Bo 4, Ann 6" in text


def export_all(db: Path) -> dict[str, Any]:
    result = referee("export", "--all", "--format", "json", db=db)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    document.pop("exported")
    return document


def test_json_round_trip_over_a_session_of_every_game(every_game: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    db, ids = every_game
    source = tmp_path / "source"
    (source / "sessions").mkdir(parents=True)
    for path in (db / "sessions").glob("*.json"):  # a copy, to add an edited session without touching the module's
        (source / "sessions" / path.name).write_bytes(path.read_bytes())
    edited = store_entries(Store(source), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    assert referee("edit", edited, "--entry", "6", "--value", "Bo noble =13", db=source).exit_code == 0
    exported = tmp_path / "all.json"
    assert referee("export", "--all", "-o", str(exported), db=source).exit_code == 0

    target = tmp_path / "target"
    result = referee("import", str(exported), db=target)
    assert result.exit_code == 0, result.output
    assert f"Imported {len(ids) + 1} sessions; 0 already present." in result.stdout
    assert export_all(target) == export_all(source)
    assert {meta.id: meta.summary for meta in Store(target).list()} == {
        meta.id: meta.summary for meta in Store(source).list()}
    assert referee("stats", "--json", db=target).stdout == referee("stats", "--json", db=source).stdout
    (edited_meta,) = [meta for meta in Store(target).list() if meta.id == edited]
    assert edited_meta.winners == ["Bo"] and edited_meta.edited == 1
    assert len(read_session(Store(target), edited).edits) == 1

    again = referee("import", str(exported), db=target)
    assert again.exit_code == 0 and f"Imported 0 sessions; {len(ids) + 1} already present." in again.stdout
    assert len(Store(target).list()) == len(ids) + 1  # nothing duplicated


def test_import_refuses_a_newer_format_and_imports_nothing(short_game: tuple[Path, str], tmp_path: Path) -> None:
    db, _ = short_game
    document = export_all(db)
    document["version"] = 2
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(document), encoding="utf-8")
    line = one_line_error(referee("import", str(newer), db=tmp_path / "target"))
    assert "written by a newer referee (format version 2; this one reads up to 1)" in line
    assert Store(tmp_path / "target").list() == []


def test_import_refuses_a_log_that_does_not_replay(short_game: tuple[Path, str], tmp_path: Path) -> None:
    db, session_id = short_game
    document = export_all(db)
    document["sessions"][0]["entries"][2] = {"answer": "King of Nowhere"}
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    line = one_line_error(referee("import", str(broken), db=tmp_path / "target"))
    assert f"session 1 ({session_id}): its log does not replay: entry 3" in line and "Nothing was imported" in line
    assert Store(tmp_path / "target").list() == []


def test_import_refuses_an_edit_record_of_the_wrong_shape(short_game: tuple[Path, str], tmp_path: Path) -> None:
    db, session_id = short_game
    document = export_all(db)
    document["sessions"][0]["edits"] = [{"entry": 3, "old": {"answer": "Queen"}, "new": {"oops": 1},
                                         "at": "2026-01-01 10:00:00", "why": "changed"}]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document), encoding="utf-8")
    assert f"session 1 ({session_id}): not a log entry" in one_line_error(referee("import", str(broken), db=db / "x"))


@pytest.mark.parametrize(("text", "problem"), [("[1, 2]", "not a referee export"), ("{", "is not JSON")])
def test_import_of_something_else_is_one_line(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "other.json"
    path.write_text(text, encoding="utf-8")
    assert problem in one_line_error(referee("import", str(path), db=tmp_path / "db"))
