"""Sessions: answers are logged, resume and undo are replays, corrections are answers too."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.engine.driver import Driver, Entry, replay
from referee.engine.simulate import play_random_game
from referee.errors import InvalidAdjustment, InvalidAnswer, SessionError
from referee.games.blackthorn.game import GAME
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store

PLAYERS = ["Ann", "Bo", "Cy"]
OPENING = ["9", "5", "3", "queen", "lord of war", "minister of coin", "1 2 0 3"]


def opened(tmp_path: Path) -> LiveSession:
    live = LiveSession.start(Store(tmp_path), load_game("blackthorn"), PLAYERS, {})
    for answer in OPENING:
        live.answer(answer)
    return live


def test_a_rejected_answer_changes_nothing(tmp_path: Path) -> None:
    live = opened(tmp_path)
    before = GAME.to_json(live.driver.state)
    pending = live.driver.pending
    for bad in ["", "swords", "7", "nobel guild", "\x1b[A"]:
        with pytest.raises(InvalidAnswer):
            live.answer(bad)
    assert GAME.to_json(live.driver.state) == before
    assert live.driver.pending == pending
    assert len(live.driver.entries) == len(OPENING)


def test_dice_answers_are_checked_against_the_faces(tmp_path: Path) -> None:
    live = LiveSession.start(Store(tmp_path), load_game("blackthorn"), PLAYERS, {})
    for answer in OPENING[:-1]:
        live.answer(answer)
    for bad in ["1 2 0 4", "1 2 0", "1 2 0 3 1", "a b c d"]:
        with pytest.raises(InvalidAnswer):
            live.answer(bad)
    live.answer("1,2,0,3")
    assert live.driver.state.dice == {"noble": 1, "guild": 2, "legion": 0, "peasant": 3}


def test_resume_rebuilds_the_same_table(tmp_path: Path) -> None:
    live = opened(tmp_path)
    live.answer("guild")
    live.answer("none")
    live.adjust("Ann influence +2", "Minister's ability")
    state = GAME.to_json(live.driver.state)
    session_id = live.meta.id
    live.close()
    live.release()
    again = LiveSession.resume(Store(tmp_path), session_id, load_game)
    assert GAME.to_json(again.driver.state) == state
    assert [entry.to_json() for entry in again.driver.entries][-1] == {
        "adjust": "Ann influence +2",
        "reason": "Minister's ability",
    }
    again.release()


def test_undo_any_number_of_steps_then_redo(tmp_path: Path) -> None:
    live = opened(tmp_path)
    live.answer("guild")
    state_after_card = GAME.to_json(live.driver.state)
    live.answer("guild 5")
    assert live.undo(3) == 3
    assert len(live.driver.entries) == len(OPENING) - 1
    live.answer("1 2 0 3")
    live.answer("guild")
    assert GAME.to_json(live.driver.state) == state_after_card
    session_id = live.meta.id
    live.release()
    again = LiveSession.resume(Store(tmp_path), session_id, load_game)  # the undo is on disk too
    assert GAME.to_json(again.driver.state) == state_after_card
    again.release()


def test_corrections_are_checked_and_undoable(tmp_path: Path) -> None:
    live = opened(tmp_path)
    before = GAME.to_json(live.driver.state)
    for bad, reason in [
        ("Ann noble +9", "x"),  # off the track
        ("Zed noble +1", "x"),  # no such player
        ("Ann noble +1", ""),  # no reason
        ("Bo treason -4", "x"),  # below zero
        ("dice guild 4", "x"),  # not a face
        ("Ann building -3", "x"),  # no such building
    ]:
        with pytest.raises(InvalidAdjustment):
            live.adjust(bad, reason)
    assert GAME.to_json(live.driver.state) == before
    live.adjust("Ann legion =13", "Queen's ability")
    with pytest.raises(InvalidAdjustment, match="blocked"):
        live.adjust("Bo legion =13", "x")
    live.adjust("dice guild 3", "Lord of War's ability")
    assert live.driver.state.dice["guild"] == 3
    live.undo(2)
    assert GAME.to_json(live.driver.state) == before
    live.release()


def test_a_second_process_cannot_open_a_session_in_use(tmp_path: Path) -> None:
    live = opened(tmp_path)
    with pytest.raises(SessionError, match="PID"):
        LiveSession.resume(Store(tmp_path), live.meta.id, load_game)
    live.release()
    LiveSession.resume(Store(tmp_path), live.meta.id, load_game).release()


def test_a_log_that_stops_fitting_opens_up_to_the_last_answer_that_fits() -> None:
    entries = [Entry(answer=answer) for answer in OPENING] + [Entry(answer="swords"), Entry(answer="none")]
    result = replay(GAME, PLAYERS, {}, entries)
    assert result.applied == len(OPENING)
    assert result.error is not None and "swords" in result.error


def test_sessions_are_listed_with_status_and_winner(tmp_path: Path) -> None:
    store = Store(tmp_path)
    finished = play_random_game(GAME, ["Ann", "Bo"], random.Random(5))
    live = LiveSession.start(store, load_game("council-of-blackthorn"), ["Ann", "Bo"], {})
    for entry in finished.entries:
        live.answer(entry.answer or "")
    assert live.driver.finished
    live.close("finished")
    live.release()
    paused = opened(tmp_path)
    paused.close("playing")
    paused.release()
    rows = {meta.id: meta for meta in store.list()}
    assert rows[live.meta.id].status == "finished"
    assert rows[live.meta.id].winners == (finished.report.winners if finished.report else [])
    assert rows[live.meta.id].answers == len(finished.entries)
    assert rows[paused.meta.id].status == "playing"


def test_bad_setups_are_refused() -> None:
    for players in (["Ann"], ["A", "B", "C", "D", "E", "F", "G"], ["Ann", "ann"], ["Ann", "Ghost"]):
        with pytest.raises(SessionError):
            Driver(GAME, players, {})
    with pytest.raises(SessionError, match="ruling"):
        Driver(GAME, ["Ann", "Bo"], {"rulings": {"trigger-after-dice": "sometimes"}})


def test_ruling_override_trigger_before_dice() -> None:
    driver = Driver(GAME, PLAYERS, {"rulings": {"trigger-after-dice": "before"}})
    for answer in OPENING:
        driver.answer(answer)
    driver.adjust("Ann guild =3", "position")
    driver.answer("guild")  # Guild die 2: 3 -> 5
    driver.answer("guild 5")  # compared with the value before the dice effect: 3
    assert any("Not triggered: Ann has 3 Guild (before" in message for message in driver.take_messages())


def test_resume_without_an_id_takes_the_session_played_last(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from referee.cli.app import app

    store = Store(tmp_path)
    older = opened(tmp_path)
    newer = LiveSession.start(store, load_game("blackthorn"), ["Di", "Ed"], {})
    for live, started, updated in ((older, "2026-01-01 10:00:00", "2026-01-01 12:00:00"),
                                   (newer, "2026-01-01 11:00:00", "2026-01-01 11:00:00")):
        live.close("playing")
        live.release()
        live.meta.started, live.meta.updated = started, updated
        store.update_index(live.meta)
    result = CliRunner().invoke(app, ["resume", "--db", str(tmp_path), "--answers", "/dev/null"])
    assert f"Resuming {older.meta.id}" in result.stdout


def test_a_finished_game_reopens_with_resume_undo(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from referee.cli.app import app

    finished = play_random_game(GAME, ["Ann", "Bo"], random.Random(11))
    live = LiveSession.start(Store(tmp_path), load_game("blackthorn"), ["Ann", "Bo"], {})
    for entry in finished.entries:
        live.answer(entry.answer or "")
    live.release()
    answers = tmp_path / "fix.txt"
    answers.write_text("0\n")  # the last treason total, entered again as 0
    result = CliRunner().invoke(
        app, ["resume", live.meta.id, "--db", str(tmp_path), "--undo", "1", "--answers", str(answers)]
    )
    assert result.exit_code == 0, result.output
    assert "Undone: 1 step." in result.stdout
    stored = Store(tmp_path).session_file(live.meta.id)
    stored.load()
    assert stored.entries[-1] == {"answer": "0"} and len(stored.entries) == len(finished.entries)


def test_a_correction_a_game_trips_on_is_taken_back_and_retells_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    driver = Driver(GAME, PLAYERS, {})
    for answer in OPENING:
        driver.answer(answer)
    driver.take_messages()
    before = GAME.to_json(driver.state)

    def trips(state: object, text: str) -> str:
        driver.state.players[0].influence += 5  # half done when the reader fails
        raise ValueError("unreadable amount")

    monkeypatch.setattr(GAME, "adjust", trips)
    with pytest.raises(InvalidAdjustment, match="unreadable amount"):
        driver.adjust("Ann influence +5", "x")
    assert GAME.to_json(driver.state) == before
    assert driver.take_messages() == []
    assert len(driver.entries) == len(OPENING)


def test_a_new_session_is_indexed_when_it_closes_and_listed_before_it(tmp_path: Path) -> None:
    """Starting and answering write only the session's own files (no question waits for the whole
    index to be rewritten); listings read the new session from them; closing adds its row."""
    import json

    store = Store(tmp_path)
    earlier = LiveSession.start(store, GAME, ["Ann", "Bo"], {})
    earlier.answer("9")
    earlier.close("playing")
    earlier.release()
    live = LiveSession.start(store, GAME, ["Cy", "Di"], {})
    try:
        listed = {meta.id: meta.players for meta in store.list()}
        assert listed == {earlier.meta.id: ["Ann", "Bo"], live.meta.id: ["Cy", "Di"]}
        live.answer("9")
        live.answer("5")
        index = json.loads(store.index_path.read_text())
        assert [row["id"] for row in index["sessions"].values()] == [earlier.meta.id]
        assert {meta.id: meta.answers for meta in store.list()} == {earlier.meta.id: 1, live.meta.id: 2}
        live.close("playing")
        index = json.loads(store.index_path.read_text())
        assert {row["id"]: row["answers"] for row in index["sessions"].values()} == {
            earlier.meta.id: 1, live.meta.id: 2}
    finally:
        live.release()
