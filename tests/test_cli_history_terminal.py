"""`referee sessions delete` and `referee edit` in a real pseudo-terminal, as a person answers them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e.terminal import Terminal
from history_support import SHORT_GAME, entries_of, store_entries

from referee.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX only)")


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def open_terminal(terminals: list[Terminal], args: list[str], home: Path) -> Terminal:
    terminal = Terminal(args, home)
    terminals.append(terminal)
    return terminal


def test_delete_asks_first_and_a_no_keeps_the_session(referee_home: Path, terminals: list[Terminal]) -> None:
    session_id = store_entries(Store(referee_home), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    first = open_terminal(terminals, ["sessions", "delete", session_id[:-2]], referee_home)
    first.answer(f"Delete session {session_id} (council-of-blackthorn: Ann, Bo, finished, 15 answers)?", "maybe")
    first.expect_text("not yes or no: 'maybe'")
    first.clear_typed_line()
    first.type("")  # Enter takes the default: no
    first.expect_text("Nothing deleted.")
    assert first.finish() == 0
    assert [meta.id for meta in Store(referee_home).list()] == [session_id]

    second = open_terminal(terminals, ["sessions", "delete", session_id], referee_home)
    second.answer("Delete session", "y")
    second.expect_text(f"Deleted session {session_id}")
    assert second.finish() == 0
    assert Store(referee_home).list() == []


def test_edit_shows_the_numbered_log_and_asks_again_what_no_longer_fits(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    session_id = store_entries(Store(referee_home), "council-of-blackthorn", ["Ann", "Bo"], entries_of(SHORT_GAME))
    terminal = open_terminal(terminals, ["edit", session_id], referee_home)
    terminal.expect_text(f"Log of {session_id}")
    terminal.expect_text("Ann chooses a character")
    terminal.answer("Which entry do you change (1 to 15)?", "16")
    terminal.expect_text("out of range: '16'")
    terminal.clear_typed_line()
    terminal.type("3")
    terminal.expect_text("Entry 3 is now: Queen")
    terminal.press("Ann chooses a character", "2")  # Lord of War, at a single key
    terminal.expect_text("Entry 4 (Lord of War) no longer fits")
    terminal.press("Bo chooses a character", "5")  # Master of Shadows
    terminal.expect_text("Entry 4 asked again: the old value no longer fits: Lord of War -> Master of Shadows")
    terminal.expect_text("the winner stays Ann")
    assert terminal.finish() == 0
    session = Store(referee_home).session_file(session_id)
    session.load()
    assert session.entries[2:4] == [{"answer": "Lord of War"}, {"answer": "Master of Shadows"}]
