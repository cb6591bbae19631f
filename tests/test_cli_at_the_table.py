"""At the table, in a real pseudo-terminal: input that never surprises, and secrets that stay secret.

A single key answers once (the Enter a hand types after it is not the next answer); an answer is
checked on Enter and a refused one leaves an empty box; Tab completes; option numbers stay put;
undo says what it took back and asks before reaching into an earlier turn; redo; a known card is
shown and taken with Enter; `secret` uses the alternate screen and leaves nothing behind.
"""

from __future__ import annotations

import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from at_the_table import set_up_blackthorn_for_two
from e2e.terminal import Terminal, alternate_screen_only, main_screen_only, plain, table_rows
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from referee.cli import answerers, run
from referee.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX only)")

PLAYERS = ["play", "blackthorn", "--players", "Ann,Bo"]
DICE_QUESTION = "Round 1: Ann rolls the faction dice"
CARD_QUESTION = "Ann plays which card?"
CARD_TABLE = Path(__file__).parent / "e2e" / "card_table.py"


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def open_terminal(terminals: list[Terminal], args: list[str], home: Path, **options: object) -> Terminal:
    terminal = Terminal(args, home, **options)  # type: ignore[arg-type]
    terminals.append(terminal)
    return terminal


def logged(home: Path) -> list[str]:
    """The only session's log as it stands on disk: answers, and corrections as 'adjust ...'."""
    (meta,) = Store(home).list()
    session = Store(home).session_file(meta.id)
    session.load()
    return [entry.get("answer") or f"adjust {entry['adjust']}" for entry in session.entries]


def prompt_line(terminal: Terminal, ending: str) -> str:
    """The line the cursor is on, once it ends with `ending` (the program draws as it reads keys)."""
    return terminal.prompt_line(lambda line: line.endswith(ending), f"a prompt line ending {ending!r}")


# --- a single key -----------------------------------------------------------------------------------


def test_a_single_key_and_the_enter_typed_after_it_answer_one_question(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    terminal.answer("Ann: roll the four faction dice", "9")
    terminal.answer("Bo: roll the four faction dice", "5")
    terminal.expect_text("Ann takes the Right Hand of the King")
    terminal.wait_for_question("Ann chooses a character")
    terminal.keys("1\r")  # the key and its Enter in one read: the Enter waits as typeahead
    terminal.wait_for_question("Bo chooses a character")
    terminal.keys("1\r")
    terminal.wait_for_question(DICE_QUESTION)
    terminal.type("1 1 1 1")
    terminal.expect_text("Ann: you may use one action")
    terminal.answer(CARD_QUESTION, "quit")
    assert terminal.finish() == 0
    assert "no answer given" not in terminal.screen()
    assert logged(referee_home) == ["9", "5", "Queen", "Lord of War", "1 1 1 1"]


class HandMovedClock:
    """The clock the swallowed Enter is measured on, moved on only when the test says: by `pause`
    just after it is next read (as a prompt opens), the time a hand then takes."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.pause = 0.0

    def __call__(self) -> float:
        read, self.now, self.pause = self.now, self.now + self.pause, 0.0
        return read


def answers_typed(monkeypatch: pytest.MonkeyPatch, steps: list[tuple[float, str]]) -> list[str]:
    """One question a step, options 1 and 2 each a single key, at a prompt fed by a pipe: as each
    prompt opens the clock moves on by the step's seconds, then its keys are typed. Returns the
    answers taken."""
    clock = HandMovedClock()
    monkeypatch.setattr(answerers, "clock", clock)
    answers: list[str] = []

    def hung(signum: int, frame: object) -> None:
        raise AssertionError(f"a prompt still waits for keys after {steps}: answers so far {answers}")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a prompt that swallowed a meant Enter waits for keys that never come
    try:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            keyboard = answerers.InteractiveAnswerer(run.make_console())
            for seconds, keys in steps:
                clock.pause = seconds
                pipe.send_text(keys)
                answers.append(keyboard.ask("Which one?", lambda text: None, None, "12"))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return answers


def test_the_enter_a_moment_after_a_single_key_is_swallowed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    window = answerers.SWALLOW_SECONDS
    assert answers_typed(monkeypatch, [(0, "1"), (window / 2, "\r2")]) == ["1", "2"]
    assert answers_typed(monkeypatch, [(0, "1\r"), (0, "2")]) == ["1", "2"]  # the Enter typed ahead
    assert answers_typed(monkeypatch, [(0, "1"), (window / 2, "\r\r")]) == ["1", ""]  # a second Enter is meant


def test_a_deliberate_enter_after_a_pause_is_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the Enter right after a single key is swallowed: one pressed later is read as usual, and
    so is the Enter after an answer typed out."""
    window = answerers.SWALLOW_SECONDS
    assert answers_typed(monkeypatch, [(0, "1"), (window * 1.2, "\r")]) == ["1", ""]
    assert answers_typed(monkeypatch, [(0, "1"), (window, "\r")]) == ["1", ""]  # the window is just over
    assert answers_typed(monkeypatch, [(0, "two\r"), (0, "\r")]) == ["two", ""]


# --- checked on Enter -----------------------------------------------------------------------------


def test_an_answer_is_checked_on_enter_and_a_refused_one_leaves_an_empty_box(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    terminal.wait_for_question("Ann: roll the four faction dice")
    for typed in ("6", "60", "600"):  # on the way to 600: nothing is said while typing
        terminal.keys(typed[-1])
        prompt_line(terminal, f"total shown? {typed}")  # each key drawn, after whatever it caused
        assert "out of range" not in terminal.screen()
    terminal.keys("\r")
    terminal.expect_text("out of range: '600'")
    terminal.wait_for_question("Ann: roll the four faction dice")  # asked again, the box empty
    prompt_line(terminal, "total shown?")
    terminal.type("12")
    terminal.wait_for_question("Bo: roll the four faction dice")
    terminal.type("quit")
    assert terminal.finish() == 0
    assert logged(referee_home) == ["12"]


def test_a_refusal_is_wrapped_at_word_boundaries_at_60_columns(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home, columns=60)
    set_up_blackthorn_for_two(terminal)
    terminal.answer(DICE_QUESTION, "1 2 4 3")

    def refusal_then_question(lines: list[str]) -> bool:
        starts = [index for index, line in enumerate(lines) if line.startswith("Legion die cannot show 4")]
        return bool(starts) and any(line.startswith("?") for line in lines[starts[0]:])

    lines = terminal.wait_until(refusal_then_question, "the refusal, then the question asked again")
    first = next(index for index, line in enumerate(lines) if line.startswith("Legion die cannot show 4"))
    refusal = []
    for line in lines[first:]:
        if line.startswith("?"):
            break
        refusal.append(line)
    assert len(refusal) >= 2 and all(len(line) <= 60 for line in refusal)
    # joined with single spaces the lines give the message back whole: no word was cut
    assert " ".join(refusal) == (
        "Legion die cannot show 4: '1 2 4 3'. Allowed: 4 values in the order Noble Guild Legion Peasant, "
        "each one of 0, 1, 2, 3"
    )
    terminal.type("quit")
    assert terminal.finish() == 0


# --- tab completion ---------------------------------------------------------------------------------


def test_tab_completes_options_commands_players_and_fields(referee_home: Path, terminals: list[Terminal]) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    set_up_blackthorn_for_two(terminal)
    terminal.answer(DICE_QUESTION, "3 3 3 3")
    terminal.expect_text("Ann: you may use one action")
    terminal.wait_for_question(CARD_QUESTION)
    terminal.keys("gu\t")
    prompt_line(terminal, "card] guild")  # an option
    terminal.clear_typed_line()
    terminal.keys("adj\t")
    prompt_line(terminal, "card] adjust")  # a command
    terminal.keys("A\t")
    prompt_line(terminal, "card] adjust Ann")  # a player
    terminal.keys("no\t")
    prompt_line(terminal, "card] adjust Ann noble")  # a correction field
    terminal.type("+1 ; the King's text")
    terminal.expect_text("Correction: Ann Noble 0 -> 1")
    terminal.wait_for_question(CARD_QUESTION)
    terminal.keys("qu\t")
    prompt_line(terminal, "card] quit")
    terminal.keys("\r")
    assert terminal.finish() == 0
    assert logged(referee_home)[-1] == "adjust Ann noble +1"


# --- option numbers ------------------------------------------------------------------------------------


def test_option_numbers_are_shown_as_fixed_with_gaps(referee_home: Path, terminals: list[Terminal]) -> None:
    """Cutthroat Kingdoms' actions keep their numbers: the prompt shows them with the gaps."""
    from at_the_table import first_turn, play_lines

    from referee.games.cutthroat.flow.actions import NUMBERS, Deed

    scenario, count = first_turn("cutthroat-kingdoms", "straight-combat")
    terminal = open_terminal(terminals, ["play", "cutthroat", "--players", ",".join(scenario.players)], referee_home)
    play_lines(terminal, scenario.answers[:count])
    terminal.type("quit")
    assert terminal.finish() == 0
    prompts = re.findall(r"action phase: next action\? \[([^\]]+)\]", terminal.screen().replace("\n", " "))
    assert len(set(prompts)) >= 2  # the offer changed during the turn
    for prompt in prompts:
        shown = dict(pair.split("=", 1) for pair in re.findall(r"\d=[a-z ]+?(?= \d=|$)", prompt))
        assert {label: int(number) for number, label in shown.items()} == {
            label: NUMBERS[Deed(label)] for label in shown.values()
        }


# --- undo and redo ------------------------------------------------------------------------------------


def test_undo_names_what_it_took_back_asks_before_an_earlier_turn_and_redo_brings_it_back(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    set_up_blackthorn_for_two(terminal)
    terminal.answer(DICE_QUESTION, "3 3 3 3")
    terminal.answer(CARD_QUESTION, "guild")
    terminal.expect_text("Ann gains on Guild: 0 -> 3.")

    terminal.answer("Bo plays which card?", "undo")
    terminal.expect_text("Undone:")
    terminal.expect_text("Ann: Ann plays which card? -> guild")
    terminal.answer(CARD_QUESTION, "redo")
    terminal.expect_text("Redone:")
    terminal.expect_text("Ann: Ann plays which card? -> guild")

    # Three entries reach back past Bo's turn into the dice and Ann's turn: asked first.
    terminal.answer("Bo plays which card?", "undo 3")
    terminal.answer("Undo 3 entries, back to 'Bo chooses a character'", "n")
    terminal.expect_text("Nothing undone.")
    assert logged(referee_home)[-2:] == ["3 3 3 3", "guild"]
    terminal.answer("Bo plays which card?", "undo 3")
    terminal.answer("Undo 3 entries, back to 'Bo chooses a character'", "y")
    terminal.expect_text("Undone 3 entries:")
    terminal.expect_text("Bo chooses a character -> Lord of War")
    terminal.wait_for_question("Bo chooses a character")
    terminal.type("quit")
    assert terminal.finish() == 0
    assert logged(referee_home) == ["9", "5", "Queen"]


# --- a known card ----------------------------------------------------------------------------------


def test_a_known_card_is_shown_and_enter_takes_it(referee_home: Path, terminals: list[Terminal]) -> None:
    terminal = open_terminal(terminals, [], referee_home, command=[str(CARD_TABLE)])
    terminal.answer("Which card? Its colour", "Royal Guard")
    terminal.expect_text("Royal Guard: colour red, value 4")
    terminal.answer("Enter = Royal Guard, or another answer", "")
    terminal.expect_text("Table")  # a new turn: the table
    # Named again, then corrected by another answer: the card's questions are asked as usual.
    terminal.answer("Which card? Its colour", "royal guard")
    terminal.expect_text("Royal Guard: colour red, value 4")
    terminal.answer("Enter = Royal Guard, or another answer", "blue")
    terminal.answer("Its printed value", "2")
    terminal.expect_text("Table")
    terminal.answer("Which card? Its colour", "quit")
    assert terminal.finish() == 0
    assert table_rows(terminal.screen(), "Table") == [["Ann", "6"]]
    session = Store(referee_home).session_file(Store(referee_home).list()[0].id)
    session.load()
    # one entry for the known card, its printed fields in it; the other card as its two answers
    assert [entry["answer"] for entry in session.entries] == [
        'card Royal Guard {"colour": "red", "value": "4"}', "blue", "2",
    ]


# --- secret -------------------------------------------------------------------------------------------


def test_secret_is_shown_on_the_alternate_screen_and_leaves_nothing_behind(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    set_up_blackthorn_for_two(terminal)
    terminal.answer(DICE_QUESTION, "secret Bo")
    terminal.expect_text("Bo: 3 influence points, 3 treason cards")
    terminal.expect_text("Press any key")
    shown = plain(alternate_screen_only(terminal.raw()))
    assert "Bo: 3 influence points, 3 treason cards" in shown  # on the screen while it is up
    terminal.keys("x")
    terminal.wait_for_question(DICE_QUESTION)  # back at the table, the question asked again
    terminal.type("quit")
    assert terminal.finish() == 0
    table_screen = plain(main_screen_only(terminal.raw()))
    assert "secret Bo" in table_screen  # what was typed stays; the holdings do not
    assert "influence points, 3 treason" not in table_screen
    assert not any("Bo: 3 influence" in line for line in terminal.lines())  # the scrollback as drawn


def test_secret_in_an_answers_file_prints_with_the_transcript(referee_home: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    answers = tmp_path / "answers.txt"
    answers.write_text("9\n5\n1\n1\nsecret Bo\nquit\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "referee", *PLAYERS, "--answers", str(answers)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "REFEREE_HOME": str(referee_home), "COLUMNS": "140"})
    assert done.returncode == 0, done.stderr
    assert "Bo: 3 influence points, 3 treason cards" in done.stdout
    assert "\x1b[?1049h" not in done.stdout


def test_the_amount_of_a_hidden_correction_is_masked_as_it_is_typed(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    """Once the line names a hidden field (Ann's influence), it shows as asterisks: the amount is
    never drawn, not while typed and not after Enter; the correction still takes effect."""
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    set_up_blackthorn_for_two(terminal)
    terminal.wait_for_question(DICE_QUESTION)
    terminal.keys("adjust Ann influence +7 ; bribe")
    prompt_line(terminal, "*" * len("adjust Ann influence +7 ; bribe"))  # every key drawn, as an asterisk
    terminal.keys("\r")
    terminal.expect_text("Ann's influence changed (hidden)")
    terminal.answer(DICE_QUESTION, "adjust Bo hand =4 ; a public correction stays readable")
    terminal.expect_pattern(r"Bo's hand \d+ -> 4")
    terminal.answer(DICE_QUESTION, "quit")  # once the prompt is drawn: keys sent before it reach a cooked terminal
    assert terminal.finish() == 0
    drawn = plain(terminal.raw())
    assert "influence +7" not in drawn and "+7 ; bribe" not in drawn, [
        drawn[max(0, at - 80): at + 20] for at in [drawn.find("+7")]]
    assert "Ann's influence changed (hidden) (bribe)" in drawn  # the reason is the table's to read
    assert "adjust Bo hand =4" in drawn
    assert logged(referee_home)[-2:] == ["adjust Ann influence +7", "adjust Bo hand =4"]
