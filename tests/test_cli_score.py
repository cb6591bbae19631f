"""`referee score council-of-blackthorn`: from a JSON file, from standard input, and asked at a prompt."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e.terminal import table_rows
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner, Result

from referee.cli.app import app
from referee.cli.scorecmd import run_score

ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}

# Ann is the rulebook's 63-point example (7 + 0 + 3 + 13 on the tracks, 38 in tokens, one building
# under construction). Bo has more treason points than anyone and is beheaded despite 61 influence.
HOLDINGS: dict[str, Any] = {
    "players": [
        {
            "name": "Ann",
            "factions": {"noble": 7, "guild": 0, "legion": 3, "peasant": 13},
            "tokens": 38,
            "under_construction": 1,
            "treason": 2,
        },
        {
            "name": "Bo",
            "factions": {"noble": 9, "guild": 13, "legion": 5, "peasant": 4},
            "tokens": 20,
            "buildings": [4, 6],
            "treason": {"rumor": 1, "poison": 2},
        },
        {
            "name": "Cy",
            "factions": {"noble": 13, "guild": 2, "legion": 1, "peasant": 0},
            "tokens": 12,
            "treason": {"bribe": 1},
        },
    ]
}


def referee(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(app, list(args), env=ENVIRONMENT, input=stdin)


def holdings_file(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "holdings.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_score_from_a_file_as_json(tmp_path: Path) -> None:
    result = referee("score", "council-of-blackthorn", "--input", str(holdings_file(tmp_path, HOLDINGS)), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    players = {player["name"]: player for player in report["players"]}
    assert players["Ann"]["total"] == 63
    assert players["Ann"]["breakdown"] == {"factions": 23, "tokens": 38, "buildings": 0, "under_construction": 2}
    assert players["Bo"]["total"] == 31 + 20 + 10
    assert players["Bo"]["eliminated"] is True
    assert players["Bo"]["reason"] == "beheaded with 6 treason points"
    assert players["Cy"]["total"] == 16 + 12
    assert report["winners"] == ["Ann"]
    assert [players[name]["rank"] for name in ("Ann", "Cy")] == [1, 2]
    assert any(note.startswith("Ruling applied for Cy: Bribe counts 1") for note in report["notes"])


def test_score_from_standard_input_as_a_scoreboard() -> None:
    result = referee("score", "blackthorn", "--input", "-", stdin=json.dumps(HOLDINGS))
    assert result.exit_code == 0, result.output
    board = {row[1]: row for row in table_rows(result.stdout, "Final score")}
    assert board["Ann"] == ["1", "Ann", "23", "38", "0", "2", "63", "winner"]
    assert board["Cy"] == ["2", "Cy", "16", "12", "0", "0", "28", ""]
    assert board["Bo"][-2:] == ["61", "beheaded with 6 treason points"]
    assert "Winner: Ann" in result.stdout


def with_change(path: str, value: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(HOLDINGS))
    target: Any = data
    *parents, last = path.split(".")
    for part in parents:
        target = target[int(part)] if isinstance(target, list) else target[part]
    target[last] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "is not valid JSON (line 1, column 2"),
        (with_change("players.0.factions.guild", 6), "player 'Ann', field 'factions.guild': bad value 6"),
        (with_change("players.2.factions.peasant", 13), "below 13: Ann already holds 13"),
        (with_change("players.1.tokens", -4), "player 'Bo', field 'tokens'"),
        (with_change("players.0.treason", {"dagger": 1}), "dagger"),
        ({"players": HOLDINGS["players"][:1]}, "players"),
    ],
    ids=["not-json", "off-track", "second-13", "negative-tokens", "unknown-card", "one-player"],
)
def test_bad_holdings_give_one_line_and_exit_2(tmp_path: Path, data: Any, message: str) -> None:
    result = referee("score", "council-of-blackthorn", "--input", str(holdings_file(tmp_path, data)), "--json")
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ")
    assert message in line
    assert "Traceback" not in result.output


def test_missing_holdings_file(tmp_path: Path) -> None:
    result = referee("score", "blackthorn", "--input", str(tmp_path / "nope.json"))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"referee: cannot read {tmp_path / 'nope.json'}: No such file or directory"


class TerminalStdin(io.StringIO):
    """Standard input that says it is a terminal, so the command asks its questions."""

    def isatty(self) -> bool:
        return True


ENTER, CLEAR_LINE = "\r", "\x15"


def keystrokes(*answers: str) -> str:
    return "".join(answer + ENTER for answer in answers)


def test_interactive_entry_asks_each_holding_and_refuses_an_off_track_value(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", TerminalStdin())
    typed = (
        # Ann: 6 is not on the track; the answer is refused, cleared and typed again
        keystrokes("6") + CLEAR_LINE + keystrokes("7", "0", "3", "13", "38", "", "1", "2")
        # Bo: 13 on Peasant is Ann's, so it is refused too; Enter takes the default 0 under construction
        + keystrokes("9", "13", "5") + keystrokes("13") + CLEAR_LINE + keystrokes("4", "20", "4 6", "", "6")
    )
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(typed)
        pipe.close()  # everything is typed: running out of keys ends the prompts instead of waiting
        code = run_score("council-of-blackthorn", None, False, "Ann,Bo")
    shown = capsys.readouterr()
    assert code == 0, shown.err
    board = {row[1]: row for row in table_rows(shown.out, "Final score")}
    assert board["Ann"] == ["1", "Ann", "23", "38", "0", "2", "63", "winner"]
    # Two players: 6 treason points is at least twice Ann's 2, so Bo is beheaded.
    assert board["Bo"][-2:] == ["61", "beheaded with 6 treason points"]


def test_interactive_entry_without_a_terminal_points_to_the_file_form(referee_home: Path) -> None:
    result = referee("score", "council-of-blackthorn", "--players", "Ann,Bo")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "referee: no terminal to ask on; give the holdings with --input FILE.json (or - for stdin)"
    )
