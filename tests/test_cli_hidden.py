"""Nothing hidden reaches the shared screen: every hidden field of every game, corrected at a
question, then undone, then the table shown. The correction takes effect (the player's own
`secret` view changes) but the screen only says that it changed."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from at_the_table import ONE_TURN, first_turn

from referee.cli.answerers import AnswersEnded, ScriptedAnswerer
from referee.cli.loop import Quit, SessionLoop
from referee.cli.render import make_console
from referee.engine.corrections import Counter
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store

HIDDEN = [
    (game, field.name)
    for game in ONE_TURN
    for field in load_game(game).correction_fields()
    if isinstance(field, Counter) and field.hidden
]


def test_the_games_declare_hidden_fields() -> None:
    """Blackthorn's influence and treason cards, Cutthroat's purses: the fields the test walks."""
    assert {("council-of-blackthorn", "influence"), ("council-of-blackthorn", "treason"),
            ("cutthroat-kingdoms", "copper"), ("cutthroat-kingdoms", "silver"),
            ("cutthroat-kingdoms", "gems")} <= set(HIDDEN)


def screen_after(tmp_path: Path, game: str, lines: list[str]) -> tuple[str, LiveSession]:
    scenario, count = first_turn(game)
    live = LiveSession.start(Store(tmp_path), load_game(game), scenario.players, scenario.options)
    console = make_console(file=io.StringIO(), width=120)
    typed = [text for _, text in scenario.answers[:count]] + lines
    answerer = ScriptedAnswerer(list(enumerate(typed, 1)), console)
    try:
        SessionLoop(live, answerer, console).run()
    except (Quit, AnswersEnded):
        pass
    finally:
        live.release()
    return console.file.getvalue(), live  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "field"), HIDDEN, ids=[f"{game}-{field}" for game, field in HIDDEN])
def test_a_hidden_field_corrected_and_undone_never_shows_its_value(tmp_path: Path, game: str, field: str) -> None:
    scenario, count = first_turn(game)
    player = scenario.players[0]
    rules = load_game(game)
    counter = next(item for item in rules.correction_fields() if item.name == field)
    assert isinstance(counter, Counter)
    # Reach the question, then find a change the field's bounds allow.
    probe, live = screen_after(tmp_path / "probe", game, [])
    value = counter.read(live.driver.state, player)
    low, high = counter.bounds(live.driver.state, player)
    change = "+1" if value + 1 <= high else "-1"
    new = value + 1 if change == "+1" else value - 1
    assert low <= new <= high

    before = rules.hidden_view(live.driver.state, player)
    screen, live = screen_after(tmp_path / "play", game, [f"adjust {player} {field} {change} ; a card's text", "quit"])
    assert rules.hidden_view(live.driver.state, player) != before  # the correction took effect
    told = screen.split(f"adjust {player} {field} {change}", 1)[1]
    assert f"{player}'s {field} changed (hidden)" in told
    assert not re.search(rf"{field}\D{{0,12}}\b{new}\b", told, re.IGNORECASE), told

    screen, live = screen_after(tmp_path / "undo", game,
                                [f"adjust {player} {field} {change} ; a card's text", "undo", "state", "quit"])
    told = screen.split(f"adjust {player} {field} {change}", 1)[1]
    assert f"correction of {player}'s {field} (hidden) (a card's text)" in told
    assert not re.search(rf"{field}\D{{0,12}}\b{new}\b", told, re.IGNORECASE), told
    assert change not in told.split("\n", 1)[1]  # the amount typed is not repeated by the referee


@pytest.mark.parametrize(
    "change",
    ["Ann noble +1", "Ann construction +3", "Ghost legion +1", "dice guild 0"],
)
def test_an_undone_correction_of_a_public_field_is_told_whole(tmp_path: Path, change: str) -> None:
    """#hidden-information: faction levels, Buildings in play and the dice are open to all, so the
    undo of their correction says what it was; only a hidden field is told by its name alone."""
    screen, _live = screen_after(tmp_path, "council-of-blackthorn", [f"adjust {change} ; a card's text", "undo",
                                                                    "quit"])
    told = screen.split(f"adjust {change}", 1)[1]
    assert f"correction {change} (a card's text)" in told, told
    assert "(hidden)" not in told
