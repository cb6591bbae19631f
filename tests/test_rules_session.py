"""`rules WORDS` at a question of a guided session: the session's own game, the answer first."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from referee.cli import run
from referee.cli.answerers import InteractiveAnswerer
from referee.cli.loop import SessionLoop
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store


class Keyboard(InteractiveAnswerer):
    """Typed at from a list; Ctrl-D when it runs out."""

    def __init__(self, console: Any, typed: list[str]) -> None:
        super().__init__(console)
        self.typed = list(typed)

    def ask(self, prompt: str, validate: Any, default: str | None = None, single_keys: str = "",
            complete: Any = None, masked: Any = None) -> str:
        if not self.typed:
            raise EOFError
        return self.typed.pop(0)


def screen_after(tmp_path: Path, typed: list[str]) -> str:
    live = LiveSession.start(Store(tmp_path), load_game("blackthorn"), ["Ann", "Bo"], {})
    console = run.make_console()
    console.file = io.StringIO()
    try:
        with pytest.raises(EOFError):
            SessionLoop(live, Keyboard(console, ["9", "5", *typed]), console).run()
    finally:
        live.release()
    text = console.file.getvalue()
    assert isinstance(text, str)
    return text


def test_rules_words_searches_the_sessions_game_and_shows_the_best_section_first(tmp_path: Path) -> None:
    # "tie" has answers in every game; the session's is Blackthorn's
    screen = screen_after(tmp_path, ["rules who loses their head on a tie"])
    assert screen.index("Beheading") < screen.index("See also:")
    assert "tied for the most are all beheaded" in screen
    assert "witch" not in screen.lower()


def test_a_leading_name_of_the_sessions_game_is_taken_as_naming_it(tmp_path: Path) -> None:
    named = screen_after(tmp_path, ["rules blackthorn whispers"])
    plain = screen_after(tmp_path / "again", ["rules whispers"])
    assert "Whispers cards" in named and named.count("See also:") == plain.count("See also:") == 1


def test_a_question_nothing_answers_says_so(tmp_path: Path) -> None:
    assert "No section of council-of-blackthorn answers 'zeppelin' well." in screen_after(tmp_path, ["rules zeppelin"])
