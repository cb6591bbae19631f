"""The benchmark suite in quick mode, so that it cannot rot; no figure is held to a time here."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.long_session import CORRECTED_PLAYER, PLAYERS, build_long_log, padded, random_answers
from benchmarks.measure import percentile, summarise
from benchmarks.report import Row, render_table
from benchmarks.run import QUICK
from referee.engine.driver import Entry, replay
from referee.engine.simulate import play_random_game
from referee.games.registry import load_game

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str]:
    scratch = tmp_path_factory.mktemp("bench")
    output = scratch / "results.json"
    env = dict(os.environ, REFEREE_HOME=str(scratch / "home"), COLUMNS="100")
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "run.py"), "--quick", "--output", str(output)],
        capture_output=True, text=True, env=env, cwd=scratch, check=False, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(output.read_text(encoding="utf-8")), done.stdout


def test_quick_run_measures_every_section(quick_run: tuple[dict[str, Any], str]) -> None:
    document, printed = quick_run
    results = document["results"]
    assert document["quick"] is True
    assert set(results) >= {"startup", "latency", "resume", "throughput", "memory", "rules_lookup", "history",
                            "terminal", "long_history"}
    for section in ("[start-up]", "[answer latency]", "[resume]", "[throughput]", "[memory]", "[rules lookup]",
                    "[history]", "[terminal]", "[long session]"):
        assert section in printed
    assert {row["section"] for row in document["table"]} == {
        "start-up", "answer latency", "resume", "throughput", "memory", "rules lookup", "history", "terminal",
        "long session",
    }


def test_quick_run_times_a_whole_game_at_a_terminal_against_a_bare_prompt(
    quick_run: tuple[dict[str, Any], str]
) -> None:
    terminal = quick_run[0]["results"]["terminal"]
    assert terminal["stored_sessions"] >= QUICK.other_sessions
    for side in ("referee", "floor"):
        figures = terminal["answer_to_prompt"][side]
        assert figures["samples"] == terminal["answers_per_game"] * terminal["games"] > 20
        assert 0 < figures["p50"] <= figures["p95"]
    assert terminal["ratios"]["start"] > 0


def test_quick_run_pairs_every_command_with_its_floor(quick_run: tuple[dict[str, Any], str]) -> None:
    startup = quick_run[0]["results"]["startup"]
    assert startup["ratios"]["referee --help"]["floor"] == "floor --help"
    for label in ("referee games", "referee score blackwood --input F --json"):
        assert startup["ratios"][label]["floor"] == "floor hello Ann"
        assert startup["ratios"][label]["ratio"] > 0
    assert any(label.startswith("referee rules ") for label in startup["ratios"])


def test_quick_run_plays_the_long_session_to_its_end(quick_run: tuple[dict[str, Any], str]) -> None:
    results = quick_run[0]["results"]
    latency = results["latency"]
    assert latency["log_entries"] == QUICK.session_entries
    assert latency["answers_per_run"] == QUICK.tail_answers - 1  # the last answer is timed apart
    full = f"{QUICK.other_sessions} sessions stored"
    assert latency[full]["p50"]["median"] <= latency[full]["p95"]["median"] <= latency[full]["max"]["median"]
    assert results["resume"]["log_entries"] == QUICK.session_entries
    listed = [name for name in results["memory"] if name.startswith("referee sessions: ")]
    assert len(listed) == 1
    assert int(listed[0].split()[2]) >= QUICK.other_sessions  # the stored ones, plus the long ones played


def test_quick_run_covers_every_guided_game(quick_run: tuple[dict[str, Any], str]) -> None:
    from referee.games.registry import GAMES

    throughput = quick_run[0]["results"]["throughput"]
    assert set(throughput) == {game.id for game in GAMES if game.guided}
    blackthorn = throughput["council-of-blackthorn"]
    assert blackthorn["players"] == 4
    assert blackthorn["games_per_second"]["median"] > 0


def test_quick_run_holds_history_commands_to_the_small_store(quick_run: tuple[dict[str, Any], str]) -> None:
    history = quick_run[0]["results"]["history"]
    assert (history["sessions_small"], history["sessions_large"]) == (10, QUICK.history_sessions)
    commands = history["commands"]
    assert set(commands) == {"referee sessions", "referee stats", "referee export --all --format bgstats",
                             "referee export --all --format json"}
    assert all(figures["held_to_target"] for figures in commands.values())
    for figures in commands.values():
        assert figures["ratio"] == figures["large"]["median"] / figures["small"]["median"] > 0
    assert commands["referee export --all --format json"]["first_run"] > 0  # the run that fills the cache


def test_history_store_is_filled_as_finished_sessions_are(tmp_path: Path) -> None:
    from benchmarks.history import GAMES, fill, play_games
    from referee.history import summaries
    from referee.store import Store
    from referee.summary import read_summary

    games = play_games()
    store = Store(tmp_path / "store")
    fill(store, 12, games)
    metas = store.list()
    assert len(metas) == 12 and all(meta.status == "finished" for meta in metas)
    assert {meta.game for meta in metas} == {game for game, _ in GAMES}
    assert all(read_summary(meta.summary) is not None for meta in metas)  # read from the index, not replayed
    found = summaries(store, metas)
    assert len(found) == 12
    for meta, summary in found:
        assert [player.name for player in summary.players] == meta.players
        assert sorted(summary.winners) == sorted(meta.winners)


def test_padding_keeps_the_game_and_reaches_the_length() -> None:
    game = load_game("council-of-blackthorn")
    answers, winners = random_answers(game, PLAYERS, 3)
    entries = padded(answers, 1001)
    assert len(entries) == 1001
    assert [entry.answer for entry in entries if entry.answer is not None] == answers
    corrections = [entry for entry in entries if entry.adjust is not None]
    assert len(corrections) == 1001 - len(answers)
    assert all(entry.adjust.startswith(CORRECTED_PLAYER) for entry in corrections if entry.adjust)
    result = replay(game, PLAYERS, {}, entries)
    assert result.applied == 1001 and result.driver.report is not None
    assert list(result.driver.report.winners) == winners
    plain = replay(game, PLAYERS, {}, [Entry(answer=answer) for answer in answers]).driver
    assert game.to_json(result.driver.state) == game.to_json(plain.state)


def test_long_log_stops_before_its_last_answers() -> None:
    log = build_long_log(400, 12)
    assert len(log.entries) == 400 and len(log.tail) == 12
    game_over = replay(log.game, log.players, {}, [*log.entries, *(Entry(answer=a) for a in log.tail)])
    assert game_over.driver.finished
    assert tuple(game_over.driver.report.winners if game_over.driver.report else ()) == log.winners


def test_padding_refuses_a_log_shorter_than_its_answers() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        padded(["1", "2", "3"], 2)


def test_percentile_is_a_measured_value() -> None:
    values = [float(value) for value in range(1, 101)]
    random.Random(5).shuffle(values)
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 0.50) == 50.0
    assert percentile([7.0], 0.95) == 7.0
    summary = summarise([3.0, 1.0, 2.0, 10.0])
    assert (summary.median, summary.minimum, summary.maximum, summary.runs) == (2.5, 1.0, 10.0, 4)


def test_table_shows_ratio_and_verdict() -> None:
    rows = [Row("start-up", "referee games", "s", 0.26, 0.25, 0.3, "floor hello Ann", 0.2, "<= 1.3x floor", True),
            Row("start-up", "referee rules", "s", 0.3, 0.28, 0.31, "floor hello Ann", 0.2, "<= 1.3x floor", False)]
    assert rows[0].ratio == pytest.approx(1.3)
    table = render_table(rows)
    assert "1.30x" in table and "1.50x" in table and "MISSED" in table
    assert "260.0 ms" in table


def test_random_game_through_the_driver_ends_with_a_report() -> None:
    game = load_game("council-of-blackthorn")
    driver = play_random_game(game, PLAYERS, random.Random(11))
    assert driver.finished and driver.report is not None and driver.report.winners
