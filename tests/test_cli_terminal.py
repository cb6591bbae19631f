"""End to end in a real pseudo-terminal: a short two-player Council of Blackthorn typed as a person would.

The game is kept short with corrections: three tracks are pushed to 13 during Ann's first turn,
so three factions are blocked when her turn ends and the game ends with the first round.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect  # type: ignore[import-untyped]  # ships no type information
import pytest
from at_the_table import set_up_blackthorn_for_two
from e2e.terminal import Terminal, table_rows

from referee.store import Store

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX only)")

PLAYERS = ["play", "blackthorn", "--players", "Ann,Bo"]
CARD_QUESTION = "Ann plays which card?"
DICE_QUESTION = "Round 1: Ann rolls the faction dice"


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    """Every terminal opened by a test; any still running at the end is stopped."""
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def open_terminal(terminals: list[Terminal], args: list[str], home: Path) -> Terminal:
    terminal = Terminal(args, home)
    terminals.append(terminal)
    return terminal


def logged_answers(home: Path, session_id: str) -> list[dict[str, str]]:
    """The session's log as it stands on disk (read without taking the session's lock)."""
    session = Store(home).session_file(session_id)
    session.load()
    return session.entries


def test_short_game_with_wrong_die_undo_quit_resume_to_the_scoreboard(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    first = open_terminal(terminals, PLAYERS, referee_home)
    session_id = first.expect_pattern(r"session {style}([a-z0-9-]+)").group(1)
    set_up_blackthorn_for_two(first)

    # A Legion die has no 4: the answer is refused with one line and the question stays open.
    first.wait_for_question(DICE_QUESTION)
    first.type("1 2 4 3")
    first.expect_text(
        "Legion die cannot show 4: '1 2 4 3'. Allowed: 4 values in the order Noble Guild Legion Peasant, "
        "each one of 0, 1, 2, 3"
    )
    assert len(logged_answers(referee_home, session_id)) == 4  # the refused roll was never logged
    first.clear_typed_line()
    first.type("3 3 3 3")
    first.expect_text("Ann: you may use one action")

    # The roll was misread: undo takes it back and the dice are asked again.
    first.wait_for_question(CARD_QUESTION)
    first.type("undo")
    first.expect_text("Undone:")
    first.expect_text("Round 1: Ann rolls the faction dice. Noble (red), Guild (yellow), Legion (black), "
                      "Peasant (white)? -> 3 3 3 3")
    first.answer(DICE_QUESTION, "1 2 0 3")
    first.expect_text("Ann: you may use one action")
    first.answer(CARD_QUESTION, "adjust Ann noble =13 ; test")
    first.expect_text("Correction: Ann Noble 0 -> 13 points (test)")

    first.answer(CARD_QUESTION, "quit")
    resume_command = first.expect_pattern(r"Resume with: (referee resume [a-z0-9-]+)").group(1)
    assert first.finish() == 0
    assert resume_command == f"referee resume {session_id}"
    assert [entry.get("answer") or entry.get("adjust") for entry in logged_answers(referee_home, session_id)] == [
        "9", "5", "Queen", "Lord of War", "1 2 0 3", "Ann noble =13",
    ]

    # `referee resume` with no id picks the unfinished session and asks the question it stopped at.
    second = open_terminal(terminals, ["resume"], referee_home)
    assert second.expect_pattern(r"Resuming {style}([a-z0-9-]+)").group(1) == session_id
    second.expect_text("after 6 answers")
    second.answer(CARD_QUESTION, "adjust Ann guild =13 ; test")
    second.expect_text("Correction: Ann Guild 0 -> 13 points (test)")
    second.answer(CARD_QUESTION, "adjust Bo legion =13 ; test")
    second.expect_text("Correction: Bo Legion 0 -> 13 points (test)")
    # Legion shows 0: Ann's treason card goes to Bo (the only opponent) and the text triggers.
    second.answer(CARD_QUESTION, "legion")
    second.expect_text("Bo takes a random treason card from Ann")
    second.answer("Is the card an Ally or a Building?", "building")
    second.answer("Building value printed on the card", "4")
    second.expect_text("Ann scores 6 influence for control (noble 2, guild 2, buildings 2).")
    second.expect_text("Game over declared: 3 factions are blocked (noble, guild, legion)")
    # Peasant shows 3: three levels (0 -> 3 points), two treason cards, no text.
    second.answer("Bo plays which card?", "peasant")
    second.expect_text("Bo gains on Peasant: 0 -> 3.")
    second.expect_text("Bo scores 4 influence for control (legion 2, peasant 2).")
    second.answer("The ghost's turn", "noble")
    second.expect_text("Ghost gains on Noble: 0 -> 1.")
    # The reveal runs from the lowest influence up: Bo 13+3 + 3+4 = 23, Ann 13+13 + 3+6 + 2 = 37.
    second.answer("Bo (23 influence) reveals 6 treason cards", "4")
    second.answer("Ann (37 influence) reveals 2 treason cards", "6")
    second.expect_text("Winner: Ann")
    assert second.finish() == 0

    screen = second.screen()
    board = {row[1]: row for row in table_rows(screen, "Final score")}
    assert board["Ann"] == ["1", "Ann", "26", "9", "0", "2", "37", "winner"]
    assert board["Bo"] == ["2", "Bo", "16", "7", "0", "0", "23", ""]
    assert "Nobody is beheaded." in screen
    stored = Store(referee_home).list()
    assert [(meta.id, meta.status, meta.winners, meta.answers) for meta in stored] == [
        (session_id, "finished", ["Ann"], 15)
    ]


def test_ctrl_c_at_a_question_exits_130_and_resume_keeps_every_answer(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    first = open_terminal(terminals, PLAYERS, referee_home)
    set_up_blackthorn_for_two(first)
    first.answer(DICE_QUESTION, "2 2 1 0")
    first.expect_text("Ann: you may use one action")
    first.wait_for_question(CARD_QUESTION)
    first.keys("guil")  # half typed when the table breaks off
    first.interrupt()
    hint = first.expect_pattern(r"Interrupted; every answer given is saved\. Resume with: (referee resume \S+)")
    assert first.finish() == 130
    session_id = hint.group(1).split()[-1]

    second = open_terminal(terminals, ["resume", session_id], referee_home)
    second.expect_text("after 5 answers")
    second.answer(CARD_QUESTION, "guild")
    second.expect_text("Ann gains on Guild: 0 -> 2.")  # two levels from the Guild die: 0 -> 1 -> 2
    second.answer("Trigger printed on the card", "none")
    second.answer("Is the card an Ally or a Building?", "ally")
    second.answer("Resolve the ally's text now", "")  # Enter: the table has carried the text out
    second.expect_text("Ann scores 2 influence for control (guild 2).")
    second.wait_for_question("Bo plays which card?")
    second.type("quit")
    assert second.finish() == 0
    assert [entry.get("answer") for entry in logged_answers(referee_home, session_id)] == [
        "9", "5", "Queen", "Lord of War", "2 2 1 0", "guild", "none", "ally", "done",
    ]


def test_secret_shows_hidden_counts_only_when_asked(referee_home: Path, terminals: list[Terminal]) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    set_up_blackthorn_for_two(terminal)
    terminal.wait_for_question(DICE_QUESTION)
    before = terminal.screen()
    assert "treason cards" not in before.split("the ghost takes four unused character tokens")[-1]
    terminal.type("secret Bo")
    terminal.expect_text("Bo: 3 influence points, 3 treason cards")  # on a screen of its own
    terminal.expect_text("Press any key")
    terminal.keys(" ")
    terminal.answer(DICE_QUESTION, "quit")
    assert terminal.finish() == 0


def test_a_killed_session_loses_no_answer_and_its_lock_is_freed(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    first = open_terminal(terminals, PLAYERS, referee_home)
    session_id = first.expect_pattern(r"session {style}([a-z0-9-]+)").group(1)
    set_up_blackthorn_for_two(first)
    first.answer(DICE_QUESTION, "0 1 2 3")
    first.expect_text("Ann: you may use one action")
    first.wait_for_question(CARD_QUESTION)

    # While the first process plays, a second one may not open the same session.
    answers = referee_home.parent / "empty.txt"
    answers.write_text("", encoding="utf-8")
    blocked = subprocess.run(
        [sys.executable, "-m", "referee", "resume", session_id, "--answers", str(answers)],
        env={**os.environ, "REFEREE_HOME": str(referee_home)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert blocked.returncode == 2
    assert blocked.stderr.strip() == (
        f"referee: session {session_id} is open in another process (PID {first.child.pid}); close it there first"
    )

    first.child.kill(signal.SIGKILL)
    first.child.expect(pexpect.EOF)
    first.child.close()
    assert first.child.signalstatus == signal.SIGKILL

    second = open_terminal(terminals, ["resume", session_id], referee_home)
    second.expect_text("after 5 answers")
    second.answer(CARD_QUESTION, "quit")
    assert second.finish() == 0


def test_end_of_input_at_a_question_saves_and_exits_1(referee_home: Path, terminals: list[Terminal]) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    terminal.answer("Ann: roll the four faction dice", "9")
    terminal.wait_for_question("Bo: roll the four faction dice")
    terminal.child.sendcontrol("d")
    hint = terminal.expect_pattern(r"End of input; every answer given is saved\. Resume with: referee resume (\S+)")
    assert terminal.finish() == 1
    assert [entry["answer"] for entry in logged_answers(referee_home, hint.group(1))] == ["9"]


def test_score_asked_at_a_terminal(referee_home: Path, terminals: list[Terminal]) -> None:
    terminal = open_terminal(terminals, ["score", "blackthorn", "--players", "Ann,Bo"], referee_home)
    for name, tracks, tokens, buildings, under_construction, treason in (
        ("Ann", ("7", "0", "3", "13"), "38", "", "1", "2"),
        ("Bo", ("9", "13", "5", "4"), "20", "4 6", "", "3"),
    ):
        for faction, value in zip(("Noble", "Guild", "Legion", "Peasant"), tracks, strict=True):
            terminal.answer(f"{name}: points on the {faction} track", value)
        terminal.answer(f"{name}: influence token points", tokens)
        # Enter alone takes the default these two questions offer ('none' and 0).
        terminal.answer(f"{name}: values of completed buildings", buildings)
        terminal.answer(f"{name}: buildings still under construction", under_construction)
        terminal.answer(f"{name}: treason points revealed", treason)
    terminal.expect_text("Winner: Ann")
    assert terminal.finish() == 0
    board = {row[1]: row for row in table_rows(terminal.screen(), "Final score")}
    assert board["Ann"] == ["1", "Ann", "23", "38", "0", "2", "63", "winner"]
    assert board["Bo"] == ["2", "Bo", "31", "20", "10", "0", "61", ""]


def test_commands_at_a_question_help_adjust_secret_rules_and_undo(
    referee_home: Path, terminals: list[Terminal]
) -> None:
    terminal = open_terminal(terminals, PLAYERS, referee_home)
    session_id = terminal.expect_pattern(r"session {style}([a-z0-9-]+)").group(1)
    terminal.answer("Ann: roll the four faction dice", "9")
    terminal.answer("Bo: roll the four faction dice", "5")
    terminal.expect_text("Ann takes the Right Hand of the King")
    terminal.press("Ann chooses a character", "3")  # Minister of Coin
    terminal.press("Bo chooses a character", "1")  # Queen
    terminal.expect_text("the ghost takes four unused character tokens")

    terminal.answer(DICE_QUESTION, "?")
    terminal.expect_text("Allowed: 4 values in the order Noble Guild Legion Peasant, each one of 0, 1, 2, 3")
    terminal.expect_pattern(r"\({style}round-dice{style}\)")  # the rulebook section behind the question

    # 'adjust' alone asks for the correction and its reason.
    terminal.answer(DICE_QUESTION, "adjust")
    terminal.answer("Correction (", "Ann influence +3")
    terminal.answer("Reason", "Minister of Coin")
    terminal.expect_text("Correction: Ann's influence changed (hidden) (Minister of Coin)")
    terminal.answer(DICE_QUESTION, "secret Ann")
    terminal.expect_text("Ann: 6 influence points, 3 treason cards")
    terminal.expect_text("Press any key")
    terminal.keys(" ")

    terminal.answer(DICE_QUESTION, "rules blocked")
    terminal.expect_pattern(r"\({style}blocking{style}\)")

    # Two steps back: the correction and Bo's character.
    # Two steps back, into the setup: asked first, then each entry taken back is named (the
    # correction of a hidden field without its amount).
    terminal.answer(DICE_QUESTION, "undo 2")
    terminal.answer("Undo 2 entries, back to", "y")
    terminal.expect_text("Undone 2 entries:")
    terminal.expect_text("correction of Ann's influence (hidden) (Minister of Coin)")
    terminal.press("Bo chooses a character", "2")  # Lord of War this time
    terminal.answer(DICE_QUESTION, "secret Ann")
    terminal.expect_text("Ann: 3 influence points, 3 treason cards")
    terminal.expect_text("Press any key")
    terminal.keys(" ")
    terminal.answer(DICE_QUESTION, "quit")
    assert terminal.finish() == 0
    assert [entry.get("answer") for entry in logged_answers(referee_home, session_id)] == [
        "9", "5", "Minister of Coin", "Lord of War",
    ]


def test_ctrl_c_while_scoring_stops_without_a_score(referee_home: Path, terminals: list[Terminal]) -> None:
    terminal = open_terminal(terminals, ["score", "blackthorn", "--players", "Ann,Bo"], referee_home)
    terminal.answer("Ann: points on the Noble track", "7")
    terminal.wait_for_question("Ann: points on the Guild track")
    terminal.interrupt()
    terminal.expect_text("referee: stopped; nothing was scored")
    assert terminal.finish() == 130
    assert "Final score" not in terminal.screen()
