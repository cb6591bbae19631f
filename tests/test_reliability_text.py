"""User text is data. Player names, answers, command arguments and the contents of files reach the
screen as they were typed: never read as rich markup or emoji codes, never sent to the terminal
as control sequences. Names holding control characters, or empty ones, are refused where they
are given. And a single key press never answers for an option name that begins with a digit.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner, Result

from referee.asks import Ask, Choice
from referee.cli import run
from referee.cli.answerers import InteractiveAnswerer
from referee.cli.app import app
from referee.cli.loop import SessionLoop, single_keys
from referee.engine.simulate import random_answer
from referee.errors import InvalidAnswer, SessionError
from referee.games.registry import GAMES, GameInfo, load_game
from referee.session import LiveSession
from referee.store import SessionMeta, Store

ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
GUIDED = [info for info in GAMES if info.guided]

MARKUP = ["[/x]", "[/green]", "[/bold]y", "[bold red]x", "[link=file:///etc/passwd]a[/link]", ":smile:", "[/]",
          "x[/]", "[b]open", "\\[q]", "[@click=app.quit]z"]
"""Texts rich would read as markup or emoji codes; most end in MarkupError when read so."""
ESCAPES = ["A\x1b[2J", "\x1b]0;title\x07", "B\x1b[31mred", "C\u202edrawkcab", "D\x00", "E\x9b2J", "F\u2028G",
           "H\x08\x08", "I\rJ", "J\tK"]
"""Names and answers a terminal would act on: clear the screen, retitle the window, recolour..."""


def referee(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env=ENVIRONMENT)


def no_traceback(result: Result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.stdout + result.stderr


def one_line_error(result: Result) -> str:
    no_traceback(result)
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stderr.startswith("referee: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


class Keyboard(InteractiveAnswerer):
    """The interactive answerer (its refusals printed as at the terminal), typed at from a list;
    when the list runs out, Ctrl-D."""

    def __init__(self, console: Any, typed: list[str]) -> None:
        super().__init__(console)
        self.typed = list(typed)

    def ask(self, prompt: str, validate: Any, default: str | None = None, single_keys: str = "",
            complete: Any = None, masked: Any = None) -> str:
        if not self.typed:
            raise EOFError
        return self.typed.pop(0)


def screen_of(session: LiveSession, typed: list[str]) -> str:
    """What the table sees when `typed` is entered at the keyboard in this session."""
    console = run.make_console()
    console.file = io.StringIO()
    with pytest.raises(EOFError):
        SessionLoop(session, Keyboard(console, typed), console).run()
    text = console.file.getvalue()
    assert isinstance(text, str)
    return text


@pytest.mark.parametrize(
    ("typed", "shown"),
    [("secret [/x]", "[/x]"), ("undo [/x]", "[/x]"), ("adjust [/x] ; r", "[/x]"), ("rules [/x]", "No section"),
     ("adjust Ann influence +1 ; [/green]", "influence"), ("[/green]", "[/green]"), ("[bold red]x", "[bold red]x"),
     ("9 [/x]", "[/x]"), (":smile:", ":smile:"), ("secret [link=x]Ann", "[link=x]Ann")],
)
def test_markup_typed_at_the_keyboard_is_shown_as_typed(tmp_path: Path, typed: str, shown: str) -> None:
    live = LiveSession.start(Store(tmp_path), load_game("blackthorn"), ["Ann", "Bo"], {})
    try:
        screen = screen_of(live, ["9", "5", typed, "state"])
    finally:
        live.release()
    assert shown in screen
    assert "😄" not in screen


def test_the_resume_hint_shows_a_markup_like_path_as_written(tmp_path: Path) -> None:
    db = tmp_path / "[/x] games" / "[bold red]here"
    answers = write(tmp_path / "answers.txt", "9\n5\nquit\n")
    result = referee("play", "blackthorn", "--players", "Ann,Bo", "--db", str(db), "--answers", str(answers))
    no_traceback(result)
    assert result.exit_code == 0 and f"--db '{db}'" in result.stdout


def test_an_imported_copy_with_escape_sequences_is_shown_escaped(tmp_path: Path) -> None:
    copy = write(tmp_path / "copy.md", "# Copy\n\n## Night market\n\nTrade at \x1b[2Jmidnight \x1b]0;x\x07 [/x].\n")
    env = {**ENVIRONMENT, "REFEREE_HOME": str(tmp_path / "home")}
    assert CliRunner().invoke(app, ["rules", "import", "blackwood", str(copy)], env=env).exit_code == 0
    found = CliRunner().invoke(app, ["rules", "blackwood", "midnight"], env=env)
    assert found.exit_code == 0 and "\x1b" not in found.stdout and "\x07" not in found.stdout
    assert "\\x1b[2Jmidnight" in found.stdout and "[/x]" in found.stdout


def test_markup_in_an_answers_file_is_echoed_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = write(tmp_path / "answers.txt", "9\n5\n[/x] [bold red]y\n")
    code = run.start_session("blackthorn", ["Ann", "Bo"], {}, answers, tmp_path / "db")
    out, err = capsys.readouterr()
    assert code == 2
    assert "[/x] [bold red]y" in out  # the echo of the answer
    assert err.startswith("referee: ") and err.count("\n") == 1 and "[/x]" in err


@pytest.mark.parametrize("name", ["[/bold]y", "[bold red]x", ":smile:", "[/x]", "[link=file:///etc]a"])
def test_a_player_named_in_markup_plays_is_listed_and_resumes(tmp_path: Path, name: str) -> None:
    db = str(tmp_path / "db")
    answers = write(tmp_path / "answers.txt", "9\n5\nquit\n")
    played = referee("play", "blackthorn", "--players", f"{name},B,C", "--db", db, "--answers", str(answers))
    no_traceback(played)
    assert played.exit_code == 0 and name in played.stdout
    listed = referee("sessions", "--db", db)
    no_traceback(listed)
    assert listed.exit_code == 0 and f"{name}, B, C" in listed.stdout
    resumed = referee("resume", "--db", db, "--answers", str(answers))
    no_traceback(resumed)
    assert resumed.exit_code == 0 and "Resuming" in resumed.stdout and name in resumed.stdout
    assert referee("sessions", "--db", db).stdout.count(name) == 1


def valid_score_answers(info: GameInfo, names: list[str], rng: random.Random) -> tuple[list[str], Any]:
    """Answers that fill in every score question of the game, and the holdings they make."""
    flow = info.scoring().ask_holdings(names)
    texts: list[str] = []
    try:
        ask: Ask = next(flow)
        while True:
            for text in [random_answer(ask, rng) for _ in range(30)] + [str(n) for n in range(21)] + ["no"]:
                try:
                    value = ask.parse(text)
                except InvalidAnswer:
                    continue
                break
            else:
                raise AssertionError(f"no answer fits {ask.prompt!r}")
            texts.append(text)
            ask = flow.send(value)
    except StopIteration as done:
        return texts, done.value


@pytest.mark.parametrize("info", GAMES, ids=[info.id for info in GAMES])
def test_score_shows_markup_names_as_written(info: GameInfo, tmp_path: Path) -> None:
    names = ["[/x]", "[bold red]B", ":smile:", "D", "E", "F"][: min(max(2, info.min_players), info.max_players)]
    texts, holdings = valid_score_answers(info, names, random.Random(3))
    answers = write(tmp_path / "answers.txt", "\n".join(texts) + "\n")
    asked = referee("score", info.id, "--players", ",".join(names), "--answers", str(answers))
    no_traceback(asked)
    assert asked.exit_code == 0, asked.stderr
    assert "[/x]" in asked.stdout and "[bold red]B" in asked.stdout
    from_file = referee("score", info.id, "--input", str(write(tmp_path / "h.json", json.dumps(holdings))))
    no_traceback(from_file)
    assert from_file.exit_code == 0 and "[/x]" in from_file.stdout


def test_replay_shows_markup_in_a_scenario_as_written(tmp_path: Path) -> None:
    scenario = write(tmp_path / "odd.toml", 'title = "[/bold]T"\ngame = "blackthorn"\n'
                                           'players = ["[/x]", "[bold red]B"]\nanswers = """\n9\n5\n"""\n')
    result = referee("replay", str(scenario))
    no_traceback(result)
    assert result.exit_code == 0, result.stderr
    assert "[/bold]T" in result.stdout and "[/x]" in result.stdout and "[bold red]B" in result.stdout


# -- control characters and empty names ------------------------------------------------------------


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
@pytest.mark.parametrize("bad", ESCAPES, ids=[repr(bad) for bad in ESCAPES])
def test_names_with_control_characters_are_refused_in_every_game(info: GameInfo, bad: str, tmp_path: Path) -> None:
    names = [bad, "Bo", "Cy", "Di"][: max(3, info.min_players)]
    with pytest.raises(SessionError) as refused:
        LiveSession.start(Store(tmp_path), load_game(info.id), names, {})
    assert "\n" not in str(refused.value)
    result = referee("play", info.id, "--players", ",".join(names), "--db", str(tmp_path / "db"),
                     "--answers", str(write(tmp_path / "a.txt", "1\n")))
    err = one_line_error(result)
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
    assert not (tmp_path / "db" / "sessions").exists() or not list((tmp_path / "db" / "sessions").iterdir())


@pytest.mark.parametrize("info", GAMES, ids=[info.id for info in GAMES])
def test_score_refuses_names_with_control_characters(info: GameInfo, tmp_path: Path) -> None:
    names = ["A\x1b[2J", "B", "C", "D"][: info.min_players]
    err = one_line_error(referee("score", info.id, "--players", ",".join(names),
                                 "--answers", str(write(tmp_path / "a.txt", "1\n"))))
    assert "control characters" in err and "\x1b" not in err
    plain = ["Ann", "Bo", "Cy", "Di"][: info.min_players]
    _texts, holdings = valid_score_answers(info, plain, random.Random(1))
    document = json.dumps(holdings).replace('"Ann"', '"Ann\\u001b]0;x\\u0007"')
    err = one_line_error(referee("score", info.id, "--input", str(write(tmp_path / "h.json", document))))
    assert "\x1b" not in err and "\x07" not in err


@pytest.mark.parametrize("players", ["Ann,,Bo", "Ann,Bo,", ",Ann,Bo", "Ann, ,Bo"])
def test_an_empty_name_is_refused_not_dropped(tmp_path: Path, players: str) -> None:
    answers = str(write(tmp_path / "a.txt", "9\n5\n"))
    err = one_line_error(referee("play", "blackthorn", "--players", players, "--db", str(tmp_path / "db"),
                                 "--answers", answers))
    assert "needs a name" in err
    assert "needs a name" in one_line_error(referee("score", "blackthorn", "--players", players, "--answers", answers))


def test_control_characters_already_stored_are_shown_escaped(tmp_path: Path) -> None:
    """A session written before names were checked (or edited by hand) lists without acting on them."""
    store = Store(tmp_path)
    meta = SessionMeta(store.new_id("council-of-blackthorn"), "council-of-blackthorn", ["A\x1b[2J", "B\u202e"], {},
                       "2024-01-01 10:00:00")
    store.create(meta).unlock()
    listed = referee("sessions", "--db", str(tmp_path))
    no_traceback(listed)
    assert listed.exit_code == 0
    assert "\x1b" not in listed.stdout and "\u202e" not in listed.stdout
    assert "A\\x1b[2J" in listed.stdout and "B\\u202e" in listed.stdout


def test_escape_sequences_in_answers_never_reach_the_terminal(tmp_path: Path) -> None:
    for number, junk in enumerate(ESCAPES):
        answers = write(tmp_path / f"a{number}.txt", f"9\n5\n{junk}\n")
        result = referee("play", "blackthorn", "--players", "Ann,Bo", "--db", str(tmp_path / "db"),
                         "--answers", str(answers))
        no_traceback(result)
        screen = result.stdout + result.stderr
        assert not any(ch in screen for ch in "\x1b\x07\x9b\u202e\x00\x08"), repr(screen[-300:])


# -- single keys -------------------------------------------------------------------------------------


def typed_at_a_prompt(ask: Choice, keys: str) -> str:
    """What the interactive prompt records when `keys` are typed at it, Enter included."""
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        pipe.send_text(keys)
        answer = InteractiveAnswerer(run.make_console()).ask(
            ask.prompt, lambda text: None, None, single_keys(ask))
    return answer


def test_an_option_name_beginning_with_a_digit_is_recorded_whole() -> None:
    resources = Choice("Ann takes what from the territory?", options=("19 copper", "11 gems"))
    assert typed_at_a_prompt(resources, "11 gems\r") == "11 gems"
    assert resources.parse("11 gems") == "11 gems"
    assert single_keys(resources) == ""


def test_a_single_key_still_answers_a_short_list_of_names() -> None:
    factions = Choice("Which faction?", options=("Noble", "Guild", "Legion"))
    assert single_keys(factions) == "123"
    assert typed_at_a_prompt(factions, "2") == "2"  # answered at the key press, no Enter needed
    assert factions.parse("2") == "Guild"


def first_key_answer(ask: Choice, label: str) -> str:
    """What typing `label` at the prompt records: its first key, if that key answers at once."""
    keys = single_keys(ask)
    return str(ask.parse(label[0])) if label and label[0] in keys else str(ask.parse(label))


def test_typing_any_option_name_records_that_option_in_the_games_that_had_digit_names() -> None:
    """The questions found with option names that begin with a digit (Cutthroat's resources,
    Serpents' planning cards and turns): each name typed records that very option."""
    questions = [
        Choice("Take?", options=("19 copper", "11 gems")),
        Choice("Planning card?", options=("1. Least Popularity: Popularity +1",
                                          "2. House Rowel: Strength -1, Popularity +2", "3. Activate all Guild cards")),
        Choice("Serpentess?", options=("1", "2", "3", "4", "windfall", "struggle")),
        Choice("Pick?", options=("2 coins", "1 coin")),
    ]
    for ask in questions:
        for label in ask.options:
            assert first_key_answer(ask, label) == ask.parse(label), (ask.options, label)

