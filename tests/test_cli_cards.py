"""`referee cards GAME ...` through Typer's CliRunner: list, show, edit, forget, import and export of
the cards a table has named, with --json, and every refusal in one line that changes nothing.

The catalogue is filled the way a table fills it: a session played with `referee play --answers`
whose answers name the cards. Rich's width is pinned (COLUMNS) so tables are laid out the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from e2e.terminal import table_rows
from typer.testing import CliRunner, Result

from referee.cli.app import app

ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
OPENING = """\
9
5
1
1
1 2 0 3
adjust Ann noble =13 ; test
adjust Ann guild =13 ; test
adjust Bo legion =13 ; test
"""
COLD = OPENING + """\
card Watchtower   # Legion shows 0: no trigger; the class and value are asked
legion
building
4
card Old Mill     # Guild shows 2: triggered by Bo's 13 Legion
guild
legion 5
ally
done
noble             # the ghost's card
4
6
"""
WARM = OPENING + """\
Watchtower        # every printed field known: one answer
old mill          # a known name in any case
done
noble
4
6
"""


def referee(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env=ENVIRONMENT)


def cards(db: Path, *args: str) -> Result:
    return referee("cards", "blackthorn", *args, "--db", str(db))


def refused(result: Result) -> str:
    """The one line a refusal prints (exit 2, nothing on stdout)."""
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("referee: ")
    return line


def play(db: Path, tmp_path: Path, answers: str) -> Result:
    path = tmp_path / "answers.txt"
    path.write_text(answers)
    return referee("play", "blackthorn", "--players", "Ann,Bo", "--db", str(db), "--answers", str(path))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    result = play(home, tmp_path, COLD)
    assert result.exit_code == 0, result.output
    assert "Remembered Watchtower for next time." in result.stdout
    assert "Remembered Old Mill for next time." in result.stdout
    return home


def exported(db: Path) -> dict[str, Any]:
    result = cards(db, "list", "--json")
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_second_game_names_the_known_cards_once_each(db: Path, tmp_path: Path) -> None:
    result = play(db, tmp_path, WARM)
    assert result.exit_code == 0, result.output
    assert "Remembered" not in result.stdout  # nothing new to learn
    sessions = referee("sessions", "--json", "--db", str(db))
    rows = json.loads(sessions.stdout)
    assert sorted(row["answers"] for row in rows) == [14, 20]  # the same game, six answers fewer
    assert [row["winners"] for row in rows] == [["Ann"], ["Ann"]]


def test_list_shows_each_known_card_with_its_printed_fields(db: Path) -> None:
    result = cards(db)
    assert result.exit_code == 0, result.output
    rows = {row[0]: row[1:] for row in table_rows(result.stdout, "Known cards: council-of-blackthorn")}
    assert rows["Old Mill"] == ["faction-card", "faction guild, trigger legion 5, class ally"]
    assert rows["Watchtower"] == ["faction-card", "faction legion, class building, value 4"]
    assert exported(db) == {"format": 1, "game": "council-of-blackthorn", "cards": [
        {"kind": "faction-card", "name": "Old Mill",
         "printed": {"faction": "guild", "trigger": "legion 5", "class": "ally"}},
        {"kind": "faction-card", "name": "Watchtower",
         "printed": {"faction": "legion", "class": "building", "value": "4"}},
    ]}


def test_an_empty_catalogue_says_how_a_card_is_taught(tmp_path: Path) -> None:
    result = cards(tmp_path / "empty")
    assert result.exit_code == 0
    assert result.stdout.strip() == (
        "No council-of-blackthorn cards known yet: name a card at the table ('card NAME') to teach one."
    )
    assert exported(tmp_path / "empty")["cards"] == []


def test_show_finds_a_card_by_its_name_in_any_case(db: Path) -> None:
    result = cards(db, "show", "watchtower")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "Watchtower (faction-card)", "  faction: legion", "  class: building", "  value: 4"]
    shown = json.loads(cards(db, "show", "Old Mill", "--json").stdout)
    assert shown == {"kind": "faction-card", "name": "Old Mill",
                     "printed": {"faction": "guild", "trigger": "legion 5", "class": "ally"}}
    assert refused(cards(db, "show", "Gatehouse")) == "referee: no known card named 'Gatehouse'"


def test_edit_changes_a_field_within_its_bounds_and_adds_one_not_yet_known(db: Path) -> None:
    result = cards(db, "edit", "Watchtower", "--set", "value=5", "--set", "trigger=noble 2")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Watchtower: faction legion, class building, value 5, trigger noble 2"
    card = json.loads(cards(db, "show", "Watchtower", "--json").stdout)
    assert card["printed"] == {"faction": "legion", "class": "building", "value": "5", "trigger": "noble 2"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("value=100", "field value: out of range: '100'. Allowed: a whole number from 0 to 99"),
        ("faction=dragon", "field faction: not one of the options"),
        ("trigger=guild 14", "field trigger: trigger value above 13"),
        ("colour=red", "faction card has no field 'colour'; fields: faction, class, trigger, value"),
        ("value", "field value: no answer given"),
    ],
)
def test_an_edit_that_does_not_fit_is_refused_in_one_line_and_changes_nothing(
    db: Path, change: str, message: str
) -> None:
    before = exported(db)
    assert message in refused(cards(db, "edit", "Watchtower", "--set", change))
    assert exported(db) == before


def test_edit_needs_a_known_card_and_a_change(db: Path) -> None:
    assert refused(cards(db, "edit", "Gatehouse", "--set", "value=5")) == "referee: no known card named 'Gatehouse'"
    assert "--set FIELD=VALUE" in refused(cards(db, "edit", "Watchtower"))
    assert refused(cards(db, "edit")) == "referee: 'edit' needs a card name"


def test_forget_takes_a_card_out_and_it_is_asked_again(db: Path) -> None:
    result = cards(db, "forget", "old mill")
    assert result.exit_code == 0 and result.stdout.strip() == "Forgot old mill."
    assert [card["name"] for card in exported(db)["cards"]] == ["Watchtower"]
    assert refused(cards(db, "forget", "Old Mill")) == "referee: no known card named 'Old Mill'"


def test_export_then_import_shares_a_catalogue_with_another_table(db: Path, tmp_path: Path) -> None:
    shared = tmp_path / "shared.json"
    result = cards(db, "export", str(shared))
    assert result.exit_code == 0 and result.stdout.strip() == f"Exported 2 cards to {shared}."
    friend = tmp_path / "friend"
    result = cards(friend, "import", str(shared))
    assert result.exit_code == 0
    assert result.stdout.strip() == "Imported 2 cards: 2 new, 0 already known (their fields updated)."
    assert exported(friend) == exported(db)
    again = cards(friend, "import", str(shared))  # importing twice keeps one of each
    assert again.exit_code == 0 and exported(friend) == exported(db)


def test_a_malformed_import_is_refused_naming_the_card_and_changes_nothing(db: Path, tmp_path: Path) -> None:
    before = exported(db)
    bad = tmp_path / "bad.json"
    good = {"kind": "faction-card", "name": "Gatehouse", "printed": {"faction": "noble", "value": "3"}}
    broken = {"kind": "faction-card", "name": "Tower", "printed": {"faction": "legion", "value": "140"}}
    bad.write_text(json.dumps({"format": 1, "game": "council-of-blackthorn", "cards": [good, broken]}))
    assert refused(cards(db, "import", str(bad))) == (
        "referee: card #2 ('Tower') refused: field value: out of range: '140'. "
        "Allowed: a whole number from 0 to 99"
    )
    assert exported(db) == before  # not even Gatehouse went in
    bad.write_text(json.dumps({"format": 1, "game": "blackwood", "cards": [good]}))
    assert refused(cards(db, "import", str(bad))) == (
        "referee: this catalogue is for 'blackwood', not council-of-blackthorn")
    bad.write_text("{not json")
    assert refused(cards(db, "import", str(bad))).startswith("referee: Expecting property name")
    assert refused(cards(db, "import", str(tmp_path))) == (
        f"referee: cannot read {tmp_path}: a directory, not a regular file; nothing was imported")
    assert refused(cards(db, "import", str(tmp_path / "missing.json"))).endswith(
        "missing.json: No such file or directory; nothing was imported")
    assert exported(db) == before


def test_the_command_refuses_what_it_cannot_do_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "home"
    assert refused(cards(db, "shuffle")) == (
        "referee: unknown action 'shuffle'; actions: list, show, edit, forget, import, export")
    assert refused(cards(db, "export")) == "referee: 'export' needs a file"
    assert refused(referee("cards", "chess", "--db", str(db))).startswith("referee: ")


def test_every_guided_game_lists_its_kinds(tmp_path: Path) -> None:
    for game in ("cutthroat", "blackwood", "serpents", "got"):
        result = referee("cards", game, "--json", "--db", str(tmp_path))
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["cards"] == []
