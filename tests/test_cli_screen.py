"""The screen at the table and the command line around it: what changed after a step, the whole
table only when it says more, progress in the header, Tab's candidates, short game names, undo in
a file of answers, --version, shell completion and "did you mean"."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from at_the_table import ONE_TURN, first_turn
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.answerers import ScriptedAnswerer, wrap_prompt
from referee.cli.app import app
from referee.cli.completion import candidates, gather
from referee.cli.loop import Quit, SessionLoop
from referee.cli.render import make_console, new_table, show_header, widest_plain, words_unbroken
from referee.engine.driver import Driver
from referee.engine.lines import COMMANDS
from referee.games.registry import load_game, short_name
from referee.scenarios import load_scenario
from referee.session import LiveSession
from referee.store import SessionMeta, Store

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}


def played(tmp_path: Path, game: str, players: list[str], lines: list[str], width: int = 100) -> str:
    live = LiveSession.start(Store(tmp_path), load_game(game), players, {})
    console = make_console(file=io.StringIO(), width=width)
    try:
        SessionLoop(live, ScriptedAnswerer(list(enumerate(lines, 1)), console), console).run()
    except Quit:
        pass
    finally:
        live.release()
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


def test_a_whole_game_shows_changes_per_step_and_the_table_once_a_round(tmp_path: Path) -> None:
    scenario = load_scenario(SCENARIOS / "council-of-blackthorn" / "two-player-ghost.toml")
    screen = played(tmp_path, scenario.game, scenario.players, [text for _, text in scenario.answers])
    rounds = screen.count("End of round")
    tables = screen.count("\nTable")
    answers = len(scenario.answers)
    # after setup, at the end of each round and at the end of the game; never after every answer
    assert rounds == 4 and tables <= rounds + 2 < answers // 3
    assert "  Δ Ann: Noble 0 -> 3" in screen  # one line for what a card changed
    assert "Winner: Ann" in screen


def test_every_game_keeps_its_progress_in_the_header(tmp_path: Path) -> None:
    expected = {
        "council-of-blackthorn": "faction blocked",
        "council-of-serpents": "Influence deck",
        "blackwood": "expedition 1 of 3, round 1 of 5",
        "cutthroat-kingdoms": "events left: 5 of 6",  # the turn's event is drawn
        "got-lcg-1e": "power to 15:",
    }
    for game in ONE_TURN:
        scenario, count = first_turn(game)
        rules = load_game(game)
        driver = Driver(rules, scenario.players, scenario.options)
        for _, text in scenario.answers[: count - 1]:
            driver.answer(text)
        header = rules.header(driver.state)
        assert header.progress is not None and expected[game] in header.progress, (game, header)
        console = make_console(file=io.StringIO(), width=60)
        show_header(console, header)
        assert header.progress in console.file.getvalue()  # type: ignore[attr-defined]


def test_blackthorn_progress_names_the_blocked_factions_and_no_hidden_value() -> None:
    rules = load_game("council-of-blackthorn")
    driver = Driver(rules, ["Ann", "Bo"], {})
    for text in ("9", "5", "1", "1", "3 3 3 3"):
        driver.answer(text)
    driver.adjust("Ann noble =13", "test")
    driver.adjust("Ann influence =47", "test")
    progress = rules.header(driver.state).progress
    assert progress == "blocked: noble"
    assert "47" not in str(rules.header(driver.state))


def test_tab_candidates_cover_options_commands_players_and_fields() -> None:
    offer = gather(["Master of Shadows", "Minister of Coin", "noble"], COMMANDS, ["Ann", "Bo"],
                   ["Ann", "Bo", "dice"], ["noble", "influence"], ["pay"])
    assert candidates("mas", offer) == [("Master of Shadows", -3)]
    assert [text for text, _ in candidates("m", offer)] == ["Master of Shadows", "Minister of Coin"]
    assert candidates("und", offer) == [("undo ", -3)]
    assert candidates("secret b", offer) == [("Bo ", -1)]
    assert candidates("adjust Ann inf", offer) == [("influence ", -3)]
    assert candidates("pay A", offer) == [("Ann ", -1)]
    assert candidates("rules no", offer) == []


def test_a_long_question_wraps_at_words_and_leaves_room_for_the_answer() -> None:
    prompt = "Ann chooses a character [1=Queen 2=Lord of War 3=Minister of Coin 4=Lord of the Tower]"
    assert wrap_prompt("Short question?", 60) == "Short question?"
    wrapped = wrap_prompt(prompt, 60).split("\n")
    assert " ".join(part.strip() for part in wrapped).strip() == prompt
    assert all(len(line) + 2 <= 60 for line in wrapped)


def test_undo_of_several_turns_in_a_file_of_answers_just_undoes(tmp_path: Path) -> None:
    screen = played(tmp_path, "council-of-blackthorn", ["Ann", "Bo"],
                    ["9", "5", "1", "1", "3 3 3 3", "guild", "undo 3", "quit"])
    assert "Undone 3 entries:" in screen and "Undo 3 entries" not in screen
    (meta,) = Store(tmp_path).list()
    assert meta.answers == 3


def test_new_ids_tell_the_councils_apart_and_old_ids_still_open(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert "-blackthorn-" in store.new_id(short_name("council-of-blackthorn"))
    assert "-serpents-" in store.new_id(short_name("council-of-serpents"))
    assert "-blackwood-" in store.new_id(short_name("blackwood"))
    old = SessionMeta("20250101-100000-council-beef", "council-of-serpents", ["Ann"], {}, "2025-01-01 10:00:00")
    store.create(old).unlock()
    live = LiveSession.resume(store, "20250101-100000-council-beef", load_game)
    live.release()
    assert live.game.id == "council-of-serpents"


def test_sessions_fit_80_columns_with_whole_ids(tmp_path: Path) -> None:
    store = Store(tmp_path)
    for game, players in (("council-of-blackthorn", ["Ann", "Bo", "Cy"]), ("council-of-serpents", ["Di", "Ed"])):
        meta = SessionMeta(store.new_id(short_name(game)), game, players, {}, "2026-01-01 10:00:00")
        store.create(meta).unlock()
    result = CliRunner().invoke(app, ["sessions", "--db", str(tmp_path)], env={**ENVIRONMENT, "COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for meta in store.list():
        assert meta.id in result.stdout
    assert any(" blackthorn " in line for line in lines) and any(" serpents " in line for line in lines)


def test_version_completion_and_did_you_mean(tmp_path: Path) -> None:
    runner = CliRunner()
    version = runner.invoke(app, ["--version"], env=ENVIRONMENT)
    assert version.exit_code == 0 and version.stdout.startswith("referee ")
    helped = runner.invoke(app, ["--help"], env=ENVIRONMENT)
    assert "--install-completion" in helped.stdout
    completed = runner.invoke(app, [], prog_name="referee", env={
        **ENVIRONMENT, "_REFEREE_COMPLETE": "complete_bash", "COMP_WORDS": "referee play cut", "COMP_CWORD": "2"})
    assert completed.stdout.split() == ["cutthroat-kingdoms", "cutthroat"]
    env = {**os.environ, "REFEREE_HOME": str(tmp_path)}
    game = subprocess.run([sys.executable, "-m", "referee", "play", "blackthron", "-p", "Ann,Bo"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert game.returncode == 2 and "unknown game 'blackthron' (did you mean blackthorn?)" in game.stderr
    command = runner.invoke(app, ["plya"], env=ENVIRONMENT)
    assert command.exit_code == 2 and "Did you mean 'play'" in command.output


@pytest.mark.parametrize("width", [60, 140])
def test_the_final_score_fits_the_terminal(tmp_path: Path, width: int) -> None:
    scenario = load_scenario(SCENARIOS / "council-of-blackthorn" / "two-player-ghost.toml")
    screen = played(tmp_path, scenario.game, scenario.players, [text for _, text in scenario.answers], width)
    board = screen[screen.index("Final score"):]
    assert all(len(line) <= width for line in board.splitlines())
    assert "…" not in board and "Winner: Ann" in board


CELL = st.text(st.sampled_from("ab Z9-+/."), max_size=14)


@settings(max_examples=200, deadline=None)
@given(headers=st.lists(CELL, min_size=1, max_size=9), rows=st.lists(st.lists(CELL, min_size=9, max_size=9),
                                                                     max_size=5))
def test_a_table_counted_without_rich_is_exactly_as_wide_as_rich_measures_it(headers: list[str],
                                                                            rows: list[list[str]]) -> None:
    """A table that fits whole by this count is drawn without rich measuring it first: the count
    must be rich's own widest layout, never less."""
    from rich.measure import Measurement

    table = new_table("Table", compact=False)
    for header in headers:
        table.add_column(header, justify="right")
    for row in rows:
        table.add_row(*row[: len(headers)])
    words_unbroken(table)
    console = make_console(file=io.StringIO(), width=80)
    measured = Measurement.get(console, console.options.update(max_width=10_000), table)
    assert widest_plain(table) == measured.maximum
    assert widest_plain(words_unbroken(new_table("Table", compact=True))) is None  # counted only with borders
