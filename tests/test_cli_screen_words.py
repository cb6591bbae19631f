"""What the screen says at the table: questions that name their answers, a default said once,
counts and possessives worded right, turns and rounds named as the rulebooks count them, score
columns explained, tables within 80 columns, and long output through the pager at a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from e2e.terminal import Terminal
from history_support import store_entries

from referee.asks import Confirm, TableStep, canonical, choice
from referee.cli.answerers import AnswersEnded, ScriptedAnswerer
from referee.cli.loop import Quit, SessionLoop
from referee.cli.question_text import shown_prompt
from referee.cli.render import make_console
from referee.games.registry import load_game
from referee.scenarios import load_scenario, run_scenario
from referee.session import LiveSession
from referee.store import Store
from referee.wording import counted, possessive, unhedged

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def scenario_screen(tmp_path: Path, name: str, width: int = 80) -> str:
    """A scenario's answers played through the session loop on a console `width` columns wide."""
    scenario = load_scenario(SCENARIOS / name)
    live = LiveSession.start(Store(tmp_path / "home"), load_game(scenario.game), scenario.players, scenario.options)
    console = make_console(file=io.StringIO(), width=width)
    try:
        SessionLoop(live, ScriptedAnswerer(scenario.answers, console), console).run()
    except (Quit, AnswersEnded):  # (a scenario may stop before the game's end)
        pass
    finally:
        live.release()
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


def test_a_yes_or_no_question_names_its_answers_before_its_default() -> None:
    assert shown_prompt(Confirm("Is it Limited?")) == "Is it Limited? [yes/no]"
    assert shown_prompt(Confirm("Delete it?", default="no")) == "Delete it? [yes/no] (Enter = no)"
    assert shown_prompt(choice("Which?", "", ["a", "b"])) == "Which? [1=a 2=b]"
    twelve = choice("Which?", "", [f"o{number}" for number in range(1, 13)])
    assert shown_prompt(twelve) == "Which? [" + " ".join(f"{n}=o{n}" for n in range(1, 13)) + "]"
    many = choice("Which card?", "", [f"a long card name {number}" for number in range(1, 16)])
    assert shown_prompt(many) == "Which card? (15 options: Tab lists them; a number or a name answers)"
    # a default said once: the prompt that says what Enter does is not told it again
    said = "Whispers: no longer a tie; Enter to go on"
    assert shown_prompt(TableStep(said)) == said
    assert shown_prompt(TableStep("Enter the hirelings spent, then confirm.")) == (
        "Enter the hirelings spent, then confirm. (Enter = done)")


def test_cutthroat_at_the_table_says_turns_counts_and_defaults_once(tmp_path: Path) -> None:
    screen = scenario_screen(tmp_path, "cutthroat-kingdoms/setup-and-resources-told.toml")
    assert "Do you play with the Royal Pillow (an optional card dealt at setup)? [yes/no]" in screen
    assert "? Territory in slot 1: its name (Enter = Slot 1)" in screen and "Enter for" not in screen
    # the rulebook counts turns (an event at the end of each), never rounds
    assert "Turn 1 · Ann · resources" in screen and "Round 1" not in screen
    assert "[1=3 copper 2=1 gem]" in screen and "Ann takes a feast card and 1 gem for Three Rivers." in screen
    said = "\n".join(line for line in screen.splitlines() if not line.startswith("?"))  # (not the answers typed)
    assert "gem(s)" not in said and "1 gems" not in said


def test_an_answer_naming_an_option_as_older_logs_do_is_taken_and_logged_as_written() -> None:
    question = choice("Collect?", "", ["3 copper", "1 gem"])
    assert question.parse("1 gems") == "1 gem" and question.parse("1 gem") == "1 gem"
    assert canonical(question, "1 gems", "1 gem") == "1 gems"  # replayed, an older log is the same log
    assert canonical(question, "2", "1 gem") == "1 gem"
    with pytest.raises(Exception, match="not one of the options"):
        choice("Collect?", "", ["3 copper", "2 gems"]).parse("2 gem s")


def test_a_scenario_expecting_an_older_wording_still_matches() -> None:
    scenario = load_scenario(SCENARIOS / "cutthroat-kingdoms" / "conquest-pays-copper-or-gems.toml")
    assert "Ann takes 1 gem(s) for conquering Brightwater." in scenario.expect["messages"]
    run = run_scenario(scenario)
    transcript = "\n".join(run.transcript)
    assert "Ann takes 1 gem for conquering Brightwater." in transcript and "gem(s)" not in transcript
    assert run.failures == []
    broken = load_scenario(SCENARIOS / "cutthroat-kingdoms" / "conquest-pays-copper-or-gems.toml")
    broken.expect["messages"] = ["Ann takes 2 gem(s) for conquering Brightwater."]  # still checked
    assert run_scenario(broken).failures == ["message not shown: 'Ann takes 2 gem(s) for conquering Brightwater.'"]


def test_counts_and_possessives() -> None:
    assert [counted(n, "gem") for n in (0, 1, 2)] == ["0 gems", "1 gem", "2 gems"]
    assert counted(1, "ruby") == "1 ruby" and counted(3, "ruby") == "3 rubies" and counted(5, "copper") == "5 copper"
    assert possessive("Three Rivers") == "Three Rivers'" and possessive("Stonehold") == "Stonehold's"
    assert unhedged("holds 0 gem(s), takes 1 gem(s) and 2 card(s)") == "holds 0 gems, takes 1 gem and 2 cards"


def test_the_score_columns_shown_short_are_explained_once(tmp_path: Path) -> None:
    narrow = scenario_screen(tmp_path / "80", "cutthroat-kingdoms/vote-feast-and-score.toml", 80)
    assert narrow.count("Columns: single = unmarried bonus; sets = gem sets; groups = gem groups.") == 1
    wide = scenario_screen(tmp_path / "160", "cutthroat-kingdoms/vote-feast-and-score.toml", 160)
    assert "unmarried bonus" in wide and "Columns:" not in wide  # whole headers need no legend
    table = scenario_screen(tmp_path / "blackwood", "blackwood/full-game-tie-break.toml", 80)
    assert "Columns: Pup. = Puppets home; Forest = Forest cards; Pot. k/s/t = Potions" in table
    assert table.count("Columns: Pup.") == table.count("\nTable")  # under each table drawn short
    cutthroat = scenario_screen(tmp_path / "cutthroat", "cutthroat-kingdoms/setup-and-resources-told.toml", 60)
    assert "s/m/h = Hand" not in cutthroat  # the table's own lines explain 'Hand s/m/h' already


@pytest.mark.parametrize("name", ["got-lcg-1e/melisandre-reaches-fifteen.toml", "got-lcg-1e/melee-three-titles.toml",
                                  "cutthroat-kingdoms/vote-feast-and-score.toml",
                                  "council-of-blackthorn/final-score-63.toml", "blackwood/full-game-tie-break.toml",
                                  "council-of-serpents/four-player-teams.toml"])
def test_every_table_fits_80_columns(tmp_path: Path, name: str) -> None:
    screen = scenario_screen(tmp_path, name, 80)
    tables = [line for line in screen.splitlines() if line[:1] in "┏┃│└" or line.startswith("─")]
    assert tables and max(len(line) for line in tables) <= 80
    # a bordered table drawn whole ends each line with its border: nothing was cut at the edge
    assert all(line.rstrip()[-1] in "┓┃┩│┘" for line in tables if line[:1] in "┏┃│└")
    if "melisandre" in name:
        assert "Plots" in screen.split("\nTable")[-1]  # the last column of the final table is there


def stored_game(home: Path) -> str:
    scenario = load_scenario(SCENARIOS / "council-of-blackthorn" / "final-score-63.toml")
    run = run_scenario(scenario)
    assert run.driver.finished
    return store_entries(Store(home), scenario.game, scenario.players, run.driver.entries)


def test_sessions_show_goes_through_the_pager_at_a_terminal_only(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    home, paged = tmp_path / "home", tmp_path / "paged.txt"
    session = stored_game(home)
    monkeypatch.setenv("PAGER", f"tee {paged}")
    monkeypatch.delenv("LESS", raising=False)
    terminal = Terminal(["sessions", "show", session], home, columns=80)
    try:
        assert terminal.finish() == 0
    finally:
        terminal.close()
    text = paged.read_text(encoding="utf-8")
    assert f"Session {session}" in text and "Final score" in text and "Winner:" in text
    assert "\x1b[" in text  # drawn for the terminal: its colours kept
    paged.unlink()
    piped = subprocess.run([sys.executable, "-m", "referee", "sessions", "show", session], capture_output=True,
                           text=True, timeout=60, env={**os.environ, "REFEREE_HOME": str(home)})
    assert piped.returncode == 0 and "Final score" in piped.stdout and not paged.exists()


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_help_at_a_question_is_paged_when_long_and_only_at_a_terminal(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    paged = tmp_path / "paged.txt"
    monkeypatch.setenv("PAGER", f"cat > {paged}")
    monkeypatch.setenv("LINES", "10")
    live = LiveSession.start(Store(tmp_path / "home"), load_game("council-of-blackthorn"), ["Ann", "Bo"], {})
    try:
        for interactive, screen in ((False, Tty()), (True, io.StringIO()), (True, Tty())):
            console = make_console(file=screen, width=80)
            answerer = ScriptedAnswerer([(1, "help"), (2, "quit")], console)
            answerer.interactive = interactive  # type: ignore[misc]
            monkeypatch.setattr(sys, "stdout", screen)
            with pytest.raises(Quit):
                SessionLoop(live, answerer, console).run()
            shown = screen.getvalue()
            if interactive and isinstance(screen, Tty):
                assert "Allowed:" not in shown and "Allowed:" in paged.read_text(encoding="utf-8")
                assert "At any question: 'undo'" in paged.read_text(encoding="utf-8")
            else:  # a file of answers, or output that is not a terminal: printed in place
                assert "Allowed:" in shown and not paged.exists()
    finally:
        live.release()


def test_cutthroat_shows_the_whole_table_once_around_the_table_and_changes_after_each_turn(tmp_path: Path) -> None:
    import random

    from history_support import answers_text

    from referee.engine.simulate import play_random_game

    players = ["Ann", "Bo", "Cy"]
    game = load_game("cutthroat-kingdoms")
    played = play_random_game(game, players, random.Random(5))
    lines = [line for line in answers_text(played.entries).splitlines() if line]
    live = LiveSession.start(Store(tmp_path / "home"), game, players, {})
    console = make_console(file=io.StringIO(), width=100)
    try:
        SessionLoop(live, ScriptedAnswerer(list(enumerate(lines, 1)), console), console).run()
    finally:
        live.release()
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    turns = len({line.split(" · ")[0] for line in screen.splitlines() if line.startswith("Turn ")})
    tables = screen.count("\nTable")
    assert turns >= 6 and "Winner" in screen
    assert tables < turns  # not after every turn: once around the table (and when a step changes a lot)
    assert screen.count("  Δ ") > turns  # each turn says what changed in a line or two


def test_a_game_counted_in_turns_is_reported_by_turn(tmp_path: Path) -> None:
    import random

    from referee.engine.simulate import play_random_game
    from referee.export import markdown_report
    from referee.history import read_session

    store = Store(tmp_path / "home")
    for game, players in (("cutthroat-kingdoms", ["Ann", "Bo", "Cy"]), ("council-of-blackthorn", ["Ann", "Bo"])):
        played = play_random_game(load_game(game), players, random.Random(2))
        session = store_entries(store, game, players, played.entries)
        report = markdown_report(read_session(store, session))
        if game == "cutthroat-kingdoms":
            assert "## Turn 1\n" in report and "| Player | Phase |" in report and "## Round" not in report
        else:
            assert "## Round 1\n" in report and "| Turn | Phase |" in report
