"""`referee games`, `play --answers`, `resume`, `sessions` and `replay` through Typer's CliRunner.

Rich's width is pinned (COLUMNS) so tables are laid out the same everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e.terminal import table_rows
from typer.testing import CliRunner, Result

from referee.cli.app import app
from referee.store import Store

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "council-of-blackthorn"
ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}

SET_UP = """\
# Council of Blackthorn, two players: Ann rolls highest and takes the ring
9
5
1   # Ann: Queen
1   # Bo: Lord of War (the Queen is taken)

# round 1
1 2 0 3
"""
CORRECTIONS = """\
adjust Ann noble =13 ; test
adjust Ann guild =13 ; test
adjust Bo legion =13 ; test
"""
REST_OF_GAME = """\
legion     # Legion shows 0: a treason card to Bo, the text triggers
building
4
peasant    # Peasant shows 3: three levels for Bo, two treason cards
noble      # the ghost's card
4          # Bo reveals first (23 influence)
6          # then Ann (37 influence)
"""
SHORT_GAME = SET_UP + CORRECTIONS + REST_OF_GAME


def referee(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=ENVIRONMENT, input=stdin)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def play(db: Path, answers: Path, players: str = "Ann,Bo") -> Result:
    return referee("play", "blackthorn", "--players", players, "--db", str(db), "--answers", str(answers))


def only_session(db: Path) -> tuple[str, str, list[str], int]:
    (meta,) = Store(db).list()
    return meta.id, meta.status, meta.winners, meta.answers


# --- referee games -------------------------------------------------------------------------------


def test_games_lists_ids_aliases_and_player_counts() -> None:
    result = referee("games")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    firsts = {line.split()[0]: line for line in lines[1:] if not line.startswith(" ")}
    # each game by a short name of its own: the two Councils are told apart at a glance
    assert set(firsts) == {"blackthorn", "serpents", "blackwood", "cutthroat", "got"}
    ids = [line.split()[1].rstrip(";") for line in lines if line.strip().startswith("id ")]
    assert ids == ["council-of-blackthorn", "council-of-serpents", "blackwood", "cutthroat-kingdoms", "got-lcg-1e"]
    assert "id council-of-blackthorn; aliases: blackthorn, cob" in result.stdout
    blackthorn = firsts["blackthorn"]
    assert "Council of Blackthorn" in blackthorn and " 2-6 " in blackthorn
    lines = firsts
    assert all("guided" in line for line in lines.values())  # every game has a guided session


# --- referee play --answers ------------------------------------------------------------------------


def test_play_from_a_file_runs_to_the_final_score_and_exits_0(tmp_path: Path) -> None:
    db = tmp_path / "db"
    result = play(db, write(tmp_path / "game.txt", SHORT_GAME))
    assert result.exit_code == 0, result.output
    board = {row[1]: row for row in table_rows(result.stdout, "Final score")}
    assert board["Ann"] == ["1", "Ann", "26", "9", "0", "2", "37", "winner"]
    assert board["Bo"] == ["2", "Bo", "16", "7", "0", "0", "23", ""]
    assert "Winner: Ann" in result.stdout
    # The transcript shows each question with the answer the file gave.
    assert "? Bo plays which card? [1=noble 2=guild 3=legion 4=peasant 5=whispers 6=no card] peasant" in result.stdout
    assert "Correction: Bo Legion 0 -> 13 points (test)" in result.stdout
    session_id, status, winners, answers = only_session(db)
    assert (status, winners, answers) == ("finished", ["Ann"], 15)
    assert session_id in result.stdout


def test_play_stops_at_a_bad_line_with_its_number_question_and_allowed_values(tmp_path: Path) -> None:
    db = tmp_path / "db"
    answers = write(tmp_path / "game.txt", SET_UP.replace("1 2 0 3", "1 2 4 3"))
    result = play(db, answers)
    assert result.exit_code == 2
    (message,) = result.stderr.strip().splitlines()
    session_id, status, _, logged = only_session(db)
    assert message == (
        f"referee: {answers} line 8: 'Round 1: Ann rolls the faction dice. Noble (red), Guild (yellow), "
        "Legion (black), Peasant (white)?': "
        "Legion die cannot show 4: '1 2 4 3'. Allowed: 4 values in the order Noble Guild Legion Peasant, "
        f"each one of 0, 1, 2, 3. Saved up to there; resume with: referee resume {session_id} --db {db}"
    )
    assert (status, logged) == ("playing", 4)  # the four set-up answers before the bad line are kept


def test_a_bad_correction_line_is_refused_like_a_bad_answer(tmp_path: Path) -> None:
    db = tmp_path / "db"
    result = play(db, write(tmp_path / "game.txt", SET_UP + "adjust Ann noble =14 ; misread card\n"))
    assert result.exit_code == 2
    (message,) = result.stderr.strip().splitlines()
    assert "line 9:" in message
    assert "14 is not on the track; values: 0, 1, 2, 3, 4, 5, 7, 9, 13" in message
    assert only_session(db)[1:] == ("playing", [], 5)


def test_a_file_that_ends_early_saves_and_says_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "db"
    result = play(db, write(tmp_path / "game.txt", SET_UP))
    assert result.exit_code == 1
    session_id = only_session(db)[0]
    assert "ended before the game did" in result.stderr
    assert f"referee resume {session_id} --db {db}" in result.stderr
    assert only_session(db)[1:] == ("playing", [], 5)


def test_play_then_resume_from_files_finishes_the_same_game(tmp_path: Path) -> None:
    db = tmp_path / "db"
    assert play(db, write(tmp_path / "first.txt", SET_UP + CORRECTIONS + "quit\n")).exit_code == 0
    session_id = only_session(db)[0]
    listing = table_rows(referee("sessions", "--db", str(db)).stdout, "Sessions")
    assert [row[4] for row in listing] == ["playing"]

    resumed = referee("resume", "--db", str(db), "--answers", str(write(tmp_path / "rest.txt", REST_OF_GAME)))
    assert resumed.exit_code == 0, resumed.output
    assert f"Resuming {session_id} (council-of-blackthorn) after 8 answers." in resumed.stdout
    assert "Winner: Ann" in resumed.stdout
    assert only_session(db) == (session_id, "finished", ["Ann"], 15)
    # Nothing is left to resume.
    again = referee("resume", "--db", str(db), "--answers", str(tmp_path / "rest.txt"))
    assert again.exit_code == 2
    assert again.stderr.strip() == "referee: no unfinished session to resume; 'referee sessions' lists them"


def test_resume_by_id_with_undo_in_the_file(tmp_path: Path) -> None:
    db = tmp_path / "db"
    assert play(db, write(tmp_path / "first.txt", SET_UP + "quit\n")).exit_code == 0
    session_id = only_session(db)[0]
    # 'undo' takes back the roll; the new roll changes what the Noble card gives Ann (2 levels).
    text = "undo\n2 2 0 3\nnoble\nnone\nally\nquit\n"
    result = referee("resume", session_id, "--db", str(db), "--answers", str(write(tmp_path / "more.txt", text)))
    assert result.exit_code == 0, result.output
    assert "Undone: Round 1: Ann rolls the faction dice" in result.stdout  # what was taken back, named
    assert "Ann gains on Noble: 0 -> 2." in result.stdout
    session = Store(db).session_file(session_id)
    session.load()
    assert [entry["answer"] for entry in session.entries][4:] == ["2 2 0 3", "noble", "none", "ally"]


def test_resume_without_an_id_takes_the_latest_unfinished_session(tmp_path: Path) -> None:
    db = tmp_path / "db"
    assert play(db, write(tmp_path / "first.txt", SET_UP + "quit\n")).exit_code == 0
    assert play(db, write(tmp_path / "second.txt", "9\n5\n3\n1\n1\n1\nquit\n"), players="Cy,Di,Ed").exit_code == 0
    latest = next(meta.id for meta in Store(db).list() if meta.players[0] == "Cy")
    result = referee("resume", "--db", str(db), "--answers", str(write(tmp_path / "quit.txt", "quit\n")))
    assert result.exit_code == 0, result.output
    assert f"Resuming {latest} (council-of-blackthorn) after 6 answers." in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess", "--players", "Ann,Bo"], "unknown game 'chess'"),
        (["play", "blackthorn", "--players", "Ann"], "takes 2 to 6 players, not 1"),
        (["play", "blackthorn", "--players", "Ann,ann"], "each player needs a different name"),
        (["play", "blackthorn", "--players", "Ann,Bo", "--ruling", "nonsense"], "--ruling takes NAME=VALUE"),
        (["play", "blackthorn", "--players", "Ann,Bo", "--ruling", "x=y"], "unknown ruling override x=y"),
        (["resume", "no-such-session"], "no session 'no-such-session'"),
        (["resume", "../escape"], "bad session id"),
    ],
)
def test_bad_start_or_resume_is_one_line_and_exit_2(referee_home: Path, args: list[str], message: str) -> None:
    answers = write(referee_home.parent / "answers.txt", SET_UP)
    result = referee(*args, "--answers", str(answers))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ")
    assert message in line
    assert not referee_home.joinpath("sessions").exists() or not list(referee_home.glob("sessions/*.json"))


def test_play_without_a_terminal_or_a_file_says_what_to_do(referee_home: Path) -> None:
    result = referee("play", "blackthorn", "--players", "Ann,Bo")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "referee: no terminal to ask questions on; give the answers with --answers FILE"
    )


def test_play_with_a_missing_answers_file(tmp_path: Path) -> None:
    result = play(tmp_path / "db", tmp_path / "missing.txt")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"referee: cannot read answers file {tmp_path / 'missing.txt'}: No such file or directory"
    )


def test_sessions_are_kept_under_referee_home_by_default(referee_home: Path, tmp_path: Path) -> None:
    result = referee("play", "blackthorn", "--players", "Ann,Bo", "--answers",
                     str(write(tmp_path / "game.txt", SHORT_GAME)))
    assert result.exit_code == 0, result.output
    assert only_session(referee_home)[1:] == ("finished", ["Ann"], 15)



@pytest.mark.parametrize(
    ("variables", "where"),
    [
        ({"REFEREE_HOME": None, "XDG_DATA_HOME": "xdg"}, "xdg/referee"),
        ({"REFEREE_HOME": None, "XDG_DATA_HOME": None, "HOME": "home"}, "home/.local/share/referee"),
    ],
    ids=["xdg-data-home", "home"],
)
def test_data_directory_without_referee_home(tmp_path: Path, variables: dict[str, str | None], where: str) -> None:
    environment = {key: None if value is None else str(tmp_path / value) for key, value in variables.items()}
    answers = write(tmp_path / "game.txt", SET_UP + "quit\n")
    arguments = ["play", "blackthorn", "--players", "Ann,Bo", "--answers", str(answers)]
    result = CliRunner().invoke(app, arguments, env={**ENVIRONMENT, **environment})
    assert result.exit_code == 0, result.output
    assert only_session(tmp_path / where)[1:] == ("playing", [], 5)

# --- referee sessions -------------------------------------------------------------------------------


def test_sessions_when_there_are_none(tmp_path: Path) -> None:
    result = referee("sessions", "--db", str(tmp_path / "db"))
    assert result.exit_code == 0
    assert result.stdout.strip() == "No sessions yet. Start one with: referee play GAME --players 'Ann,Bo'"


def test_sessions_lists_id_game_players_status_and_winner(tmp_path: Path) -> None:
    db = tmp_path / "db"
    assert play(db, write(tmp_path / "done.txt", SHORT_GAME)).exit_code == 0
    assert play(db, write(tmp_path / "open.txt", "9\n5\n3\n1\n1\n1\nquit\n"), players="Cy,Di,Ed").exit_code == 0
    result = referee("sessions", "--db", str(db))
    assert result.exit_code == 0
    rows = {row[2]: row for row in table_rows(result.stdout, "Sessions")}
    ids = {meta.players[0]: meta.id for meta in Store(db).list()}
    finished, playing = rows["Ann, Bo"], rows["Cy, Di, Ed"]
    assert finished[0] == ids["Ann"]
    assert (finished[1], finished[4], finished[5], finished[6]) == ("council-of-blackthorn", "finished", "15", "Ann")
    assert playing[0] == ids["Cy"]
    assert (playing[1], playing[4], playing[5], playing[6]) == ("council-of-blackthorn", "playing", "6", "-")


# --- referee replay -----------------------------------------------------------------------------------


SHORT_SCENARIO = f'''
title = "Three factions blocked in the first round"
game = "council-of-blackthorn"
players = ["Ann", "Bo"]
answers = """
{SHORT_GAME}"""

[expect]
finished = true
winners = ["Ann"]
totals = {{ Ann = 37, Bo = 23 }}
ranks = {{ Ann = 1, Bo = 2 }}
eliminated = []
answers = 15
messages = ["Game over declared: 3 factions are blocked (noble, guild, legion)"]
'''


def test_replay_shows_a_scenario_and_checks_it(tmp_path: Path) -> None:
    result = referee("replay", str(write(tmp_path / "short.toml", SHORT_SCENARIO)))
    assert result.exit_code == 0, result.output
    assert "Three factions blocked in the first round (council-of-blackthorn: Ann, Bo)" in result.stdout
    assert "? Building value printed on the card  4" in result.stdout
    assert "Winner: Ann" in result.stdout
    assert result.stdout.rstrip().endswith("Every expectation of the scenario holds.")


def test_replay_reports_each_unmet_expectation_and_exits_1(tmp_path: Path) -> None:
    wrong = SHORT_SCENARIO.replace('winners = ["Ann"]', 'winners = ["Bo"]').replace("Bo = 23", "Bo = 24")
    result = referee("replay", str(write(tmp_path / "wrong.toml", wrong)))
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "referee: expectation not met: winners: expected ['Bo'], got ['Ann']",
        "referee: expectation not met: total of Bo: expected 24, got 23",
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("title = 'unclosed", "cannot read scenario"),
        ("title = 'no game'\nplayers = ['Ann', 'Bo']\nanswers = ''", "lacks or misstates"),
    ],
)
def test_replay_of_a_broken_scenario_is_one_line_and_exit_2(tmp_path: Path, text: str, problem: str) -> None:
    result = referee("replay", str(write(tmp_path / "broken.toml", text)))
    assert result.exit_code == 2
    (line,) = result.stderr.strip().splitlines()
    assert problem in line


@pytest.mark.parametrize("scenario", sorted(SCENARIOS.glob("*.toml")), ids=lambda path: path.stem)
def test_replay_of_each_shipped_scenario_holds(scenario: Path) -> None:
    result = referee("replay", str(scenario))
    assert result.exit_code == 0, result.output
    assert "Every expectation of the scenario holds." in result.stdout


# --- known problems -----------------------------------------------------------------------------------


def test_sessions_shows_whole_ids_on_an_80_column_terminal(tmp_path: Path) -> None:
    db = tmp_path / "db"
    assert play(db, write(tmp_path / "open.txt", SET_UP + "quit\n")).exit_code == 0
    result = CliRunner().invoke(app, ["sessions", "--db", str(db)], env={**ENVIRONMENT, "COLUMNS": "80"})
    assert only_session(db)[0] in result.stdout  # the id is what 'referee resume ID' needs


def test_a_player_named_like_a_command_is_refused_or_choosable(tmp_path: Path) -> None:
    db = tmp_path / "db"
    # Legion shows 0: Ann passes a treason card and names the opponent who takes it.
    answers = write(tmp_path / "game.txt", "9\n5\n3\n1\n1\n1\n1 1 0 1\nlegion\nQuit\n")
    result = play(db, answers, players="Ann,Quit,Cy")
    if result.exit_code == 2 and not Store(db).list():
        return  # refused before the session started: acceptable
    session = Store(db).session_file(only_session(db)[0])
    session.load()
    assert session.entries[-1] == {"answer": "Quit"}

