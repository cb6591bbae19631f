"""`cards import` writes the catalogue once, whole: a kill at any point leaves the old catalogue or
the new one, a large file imports in well under a second or two, and the count it reports is the
count of cards stored (two names that differ only in case are one card, and it says so)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from reliability_support import child_env
from typer.testing import CliRunner, Result

from referee.cli.app import app

GAME = "council-of-blackthorn"
FACTIONS = ("noble", "guild", "legion", "peasant")


def card(number: int, name: str | None = None) -> dict[str, Any]:
    return {"kind": "faction-card", "name": name or f"Card {number}",
            "printed": {"faction": FACTIONS[number % 4], "class": "building", "trigger": "none",
                        "value": str(number % 90 + 1)}}


def catalogue_file(path: Path, cards: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"format": 1, "game": GAME, "cards": cards}), encoding="utf-8")
    return path


def cards_command(db: Path, *args: str) -> Result:
    return CliRunner().invoke(app, ["cards", "blackthorn", *args, "--db", str(db)], env={"COLUMNS": "200"})


def stored(db: Path) -> list[dict[str, Any]]:
    result = cards_command(db, "list", "--json")
    assert result.exit_code == 0, result.output
    cards: list[dict[str, Any]] = json.loads(result.stdout)["cards"]
    return cards


def test_an_import_is_one_write_of_the_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.store

    db = tmp_path / "db"
    writes: list[Path] = []
    real = referee.store.write_atomically

    def counted(path: Path, *args: Any, **kwargs: Any) -> None:
        writes.append(path)
        real(path, *args, **kwargs)

    monkeypatch.setattr(referee.store, "write_atomically", counted)
    path = catalogue_file(tmp_path / "cards.json", [card(number) for number in range(300)])
    result = cards_command(db, "import", str(path))
    assert result.exit_code == 0, result.output
    assert writes == [db / "catalogue" / f"{GAME}.json"]
    assert len(stored(db)) == 300


def test_fifteen_hundred_cards_import_in_well_under_two_seconds(tmp_path: Path) -> None:
    db = tmp_path / "db"
    path = catalogue_file(tmp_path / "cards.json", [card(number) for number in range(1500)])
    assert cards_command(db, "import", str(catalogue_file(tmp_path / "few.json", [card(9000)]))).exit_code == 0
    started = time.perf_counter()
    result = cards_command(db, "import", str(path))
    took = time.perf_counter() - started
    assert result.exit_code == 0, result.output
    print(f"\n1,500 cards imported in {took:.2f} s")
    assert took < 2.0
    assert len(stored(db)) == 1501


KILLER = """
import os, signal, sys
count, wanted, at = 0, sys.argv[1], int(sys.argv[2])
def hook(event, args):
    global count
    if event == wanted:
        count += 1
        if count == at:
            os.kill(os.getpid(), signal.SIGKILL)
sys.addaudithook(hook)
sys.argv = ["referee", "cards", "blackthorn", "import", sys.argv[3], "--db", sys.argv[4]]
from referee.cli.app import app
app()
"""


@pytest.mark.parametrize(("event", "at"), [("os.rename", 1), ("os.rename", 2), ("os.rename", 5),
                                           ("os.rename", 20), ("open", 40), ("open", 60)])
def test_an_import_killed_at_any_point_leaves_the_old_catalogue_or_the_new(
        tmp_path: Path, event: str, at: int) -> None:
    db = tmp_path / "db"
    old = [card(number) for number in range(5)]
    assert cards_command(db, "import", str(catalogue_file(tmp_path / "old.json", old))).exit_code == 0
    before = stored(db)
    path = catalogue_file(tmp_path / "new.json", [card(number) for number in range(100, 130)])
    child = subprocess.run([sys.executable, "-c", KILLER, event, str(at), str(path), str(db)], env=child_env(),
                           capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert "Traceback" not in child.stderr, child.stderr
    after = stored(db)
    complete = sorted([*before, *stored_form(tmp_path, path)], key=lambda row: (row["kind"], row["name"].lower()))
    assert after in (before, complete), f"killed at {event} #{at}: {len(after)} cards, neither 5 nor 35"


def stored_form(tmp_path: Path, path: Path) -> list[dict[str, Any]]:
    """The cards of `path` as a catalogue stores them (imported alone into an empty one)."""
    scratch = tmp_path / "scratch"
    assert cards_command(scratch, "import", str(path)).exit_code == 0
    return stored(scratch)


def test_names_differing_only_in_case_are_one_card_and_the_count_says_so(tmp_path: Path) -> None:
    db = tmp_path / "db"
    path = catalogue_file(tmp_path / "cards.json", [card(1, "Dup"), card(2, "dup"), card(3, "Other")])
    result = cards_command(db, "import", str(path))
    assert result.exit_code == 0, result.output
    kept = stored(db)
    assert [row["name"] for row in kept] == ["Dup", "Other"]
    assert kept[0]["printed"] == card(2)["printed"]  # the later row of the file wins, as a later edit would
    assert f"Imported {len(kept)} cards" in result.stdout
    assert "'dup' is the same card as 'Dup'" in result.stdout, result.stdout


def test_an_import_into_a_damaged_catalogue_is_refused_and_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "db"
    (db / "catalogue").mkdir(parents=True)
    damaged = db / "catalogue" / f"{GAME}.json"
    damaged.write_text("{not json")
    result = cards_command(db, "import", str(catalogue_file(tmp_path / "cards.json", [card(1)])))
    assert result.exit_code == 2 and "damaged" in result.stderr, result.output
    assert damaged.read_text() == "{not json"
