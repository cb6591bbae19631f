"""Editing a past answer (referee/edit.py): the rest replayed, what no longer fits asked again."""

from __future__ import annotations

import random

import pytest
from history_support import SHORT_GAME, entries_of

from referee.edit import ASKED_AGAIN, CHANGED, LEFT_OUT, NOT_REACHED, EditError, edit
from referee.engine.driver import Driver, Entry, replay
from referee.engine.simulate import play_random_game
from referee.games.registry import load_game

GAME = load_game("council-of-blackthorn")
PLAYERS = ["Ann", "Bo"]
ENTRIES = replay(GAME, PLAYERS, {}, entries_of(SHORT_GAME)).driver.entries
"""As the session log keeps them: an option by its name ('Queen', not '1')."""


def never_asked(number: int, old: Entry, problem: str, driver: Driver) -> Entry | None:
    raise AssertionError(f"entry {number} was asked again: {problem}")


def test_the_short_game_as_it_was_played() -> None:
    driver = replay(GAME, PLAYERS, {}, ENTRIES).driver
    assert driver.report is not None
    assert driver.report.winners == ["Ann"]
    assert {player.name: player.total for player in driver.report.players} == {"Ann": 37, "Bo": 23}


def test_an_edit_in_the_middle_of_a_finished_game_changes_the_winner() -> None:
    # Entry 6 gave Ann the Noble 13 (13 points); given to Bo instead, Ann has 37 - 13 = 24 before the
    # change in her token count and Bo 23 + 13. Every later answer still fits: the final reveal now
    # asks Ann first (the lower influence), and her 4 and Bo's 6 treason points behead nobody.
    result = edit(GAME, PLAYERS, {}, ENTRIES, 6, "Bo noble =13 ; test", never_asked, winners_before=["Ann"])
    report = result.driver.report
    assert report is not None and result.driver.finished
    assert report.winners == ["Bo"]
    scores = {player.name: player for player in report.players}
    assert scores["Bo"].total == 38 and scores["Ann"].total == 22
    assert scores["Bo"].breakdown["factions"] == 29 and scores["Ann"].breakdown["factions"] == 13
    assert report.notes[0] == "Treason revealed (lowest influence first): Ann 4, Bo 6"
    assert [record.why for record in result.records] == [CHANGED]
    (record,) = result.records
    assert (record.entry, record.old, record.new) == (6, ENTRIES[5], Entry(adjust="Bo noble =13", reason="test"))
    assert record.at[:2] == "20" and len(record.at) == len("2026-01-01 12:00:00")
    # The new log is the old one with entry 6 changed, and it replays to the same result on its own.
    assert result.entries == [*ENTRIES[:5], Entry(adjust="Bo noble =13", reason="test"), *ENTRIES[6:]]
    again = replay(GAME, PLAYERS, {}, result.entries).driver.report
    assert again is not None and again.winners == ["Bo"]


def test_an_edit_that_makes_a_later_answer_impossible_asks_it_again_and_replays_the_rest() -> None:
    # Ann now takes the Lord of War, so Bo's logged choice (entry 4) is no longer offered.
    asked: list[tuple[int, str, tuple[str, ...]]] = []

    def reask(number: int, old: Entry, problem: str, driver: Driver) -> Entry | None:
        options = getattr(driver.pending, "options", ())
        asked.append((number, old.answer or "", options))
        return Entry(answer="Minister of Coin")

    result = edit(GAME, PLAYERS, {}, ENTRIES, 3, "Lord of War", reask, winners_before=["Ann"])
    assert asked == [(4, "Lord of War", ("Queen", "Minister of Coin", "Lord of the Tower", "Seventh Vigil",
                                         "Master of Shadows"))]
    assert [(record.entry, record.why) for record in result.records] == [(3, CHANGED), (4, ASKED_AGAIN)]
    assert result.records[1].new == Entry(answer="Minister of Coin")
    # Entries 5 to 15 fitted again and were kept as they were: the game finished on them.
    assert result.entries[4:] == ENTRIES[4:]
    assert result.entries[2:4] == [Entry(answer="Lord of War"), Entry(answer="Minister of Coin")]
    state = result.driver.state
    assert [player.character for player in state.players] == ["Lord of War", "Minister of Coin"]
    assert result.driver.report is not None and result.driver.report.winners == ["Ann"]


def test_a_replacement_that_does_not_fit_is_asked_for_again() -> None:
    tries = iter(["Lord of War", "Queen"])  # the first is still not offered to Bo

    problems: list[str] = []

    def reask(number: int, old: Entry, problem: str, driver: Driver) -> Entry | None:
        problems.append(problem)
        return Entry(answer=next(tries))

    result = edit(GAME, PLAYERS, {}, ENTRIES, 3, "Lord of War", reask)
    assert len(problems) == 2 and all("not one of the options: 'Lord of War'" in problem for problem in problems)
    assert result.entries[3] == Entry(answer="Queen")


def test_entries_a_game_no_longer_reaches_are_left_out() -> None:
    # A Game of Thrones ends at once when a correction brings a player to 15 power: a padding
    # correction early in a random game, edited to +15, ends it there, before every later entry.
    got = load_game("got-lcg-1e")
    players = ["Ann", "Bo"]
    played = play_random_game(got, players, random.Random(4))
    answers = list(played.entries)
    entries = [*answers[:20], Entry(adjust="Ann house +0", reason="padding"), *answers[20:]]
    assert replay(got, players, {}, entries).driver.finished
    result = edit(got, players, {}, entries, 21, "Ann house +15 ; a card text", never_asked)
    report = result.driver.report
    assert report is not None and report.winners == ["Ann"]
    assert result.entries == [*answers[:20], Entry(adjust="Ann house +15", reason="a card text")]
    assert [record.entry for record in result.records if record.why == NOT_REACHED] == list(
        range(22, len(entries) + 1))
    assert all(record.new is None for record in result.records[1:])


def test_a_correction_that_no_longer_fits_may_be_left_out() -> None:
    # With Bo on the Noble 13, Ann's own 'noble =13' is refused (a blocked faction): left out.
    entries = [*ENTRIES[:5], Entry(adjust="Bo noble =13", reason="x"), *ENTRIES[5:]]
    result = edit(GAME, PLAYERS, {}, entries, 6, "Bo noble =13 ; y", lambda *_: None)
    assert [(record.entry, record.why) for record in result.records] == [(6, CHANGED), (7, LEFT_OUT)]
    assert result.records[1].old == ENTRIES[5] and result.records[1].new is None
    assert len(result.entries) == len(ENTRIES)


def test_a_new_value_that_does_not_fit_its_own_question_is_refused() -> None:
    with pytest.raises(EditError, match="the new value of entry 15 does not fit: out of range: '8'"):
        edit(GAME, PLAYERS, {}, ENTRIES, 15, "8", never_asked)
    with pytest.raises(EditError, match="no entry 16: the log has entries 1 to 15"):
        edit(GAME, PLAYERS, {}, ENTRIES, 16, "1", never_asked)


def test_a_correction_keeps_its_reason_when_none_is_given() -> None:
    result = edit(GAME, PLAYERS, {}, ENTRIES, 8, "adjust Bo legion =13", never_asked)
    assert result.records[0].new == Entry(adjust="Bo legion =13", reason="test")
