"""What changed after a step, in a line or two."""

from __future__ import annotations

from referee.cli.changes import changes
from referee.engine.game import PublicView

COLUMNS = ["Player", "Noble", "Guild", "Hand"]


def view(rows: list[list[str]], lines: list[str] | None = None) -> PublicView:
    return PublicView(COLUMNS, rows, lines or [])


def test_each_player_with_a_changed_cell_gets_one_line() -> None:
    before = view([["* Ann", "0", "3", "5"], ["Bo", "1", "0", "5"]], ["Dice: Noble 1"])
    after = view([["* Ann", "0", "5", "4"], ["Bo", "1", "0", "5"]], ["Dice: Noble 1", "Blocked: Guild"])
    found = changes(before, after)
    assert found.lines == ["Ann: Guild 3 -> 5, Hand 5 -> 4", "Blocked: Guild"]
    assert not found.too_many


def test_nothing_changed_says_nothing_and_a_big_change_asks_for_the_whole_table() -> None:
    same = view([["Ann", "0", "3", "5"]])
    assert changes(same, same).none
    wide = changes(view([["Ann", "0", "0", "0"], ["Bo", "0", "0", "0"], ["Cy", "0", "0", "0"]]),
                   view([["Ann", "1", "1", "1"], ["Bo", "1", "1", "1"], ["Cy", "1", "1", "1"]]))
    assert wide.too_many
    assert changes(view([["Ann", "0", "0", "0"]]), view([["Ann", "0", "0", "0"], ["Bo", "0", "0", "0"]])).too_many


def test_a_mark_moving_to_another_player_is_said() -> None:
    found = changes(view([["* Ann", "0", "0", "0"], ["Bo", "0", "0", "0"]]),
                    view([["Ann", "0", "0", "0"], ["* Bo", "0", "0", "0"]]))
    assert found.lines == ["Ann: mark passed on", "Bo: now marked"]
