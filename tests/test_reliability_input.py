"""Bad input everywhere: random text, unicode, control characters, empty lines and huge numbers at
every question each guided game's flow reaches, at every question of every game's score
entry, at `referee score --input` and at `--answers` files. Markup-like text (`[/x]`,
`[bold red]x`, `:smile:`), terminal escape sequences and byte-order marks go through every
command and every kind of question, shown on a real console: they must appear as typed.

Whatever comes in, the only outcomes allowed are: accepted, or refused with InvalidAnswer /
InvalidAdjustment (one line) and the state exactly as it was; at the command line, an exit code
of 0, 1 or 2 and never a traceback. Each test counts the inputs it tried; the module prints the
totals at the end (`pytest -n 0 -s`).
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_support import child_env

from referee.asks import Ask, Choice, clean
from referee.cli.answerers import InteractiveAnswerer, ScriptedAnswerer
from referee.cli.loop import SessionLoop, prompt_for, single_keys, validator
from referee.cli.render import make_console
from referee.cli.run import start_session
from referee.cli.scorecmd import run_score
from referee.engine.driver import Driver
from referee.engine.game import Game
from referee.engine.simulate import random_answer
from referee.errors import InvalidAdjustment, InvalidAnswer, SessionError
from referee.games.blackthorn.game import GAME
from referee.games.registry import GAMES, GameInfo, load_game
from referee.session import LiveSession
from referee.store import Store

TRIED: Counter[str] = Counter()
SCORE_EXAMPLES = sorted(Path(__file__).parents[1].joinpath("scenarios", "score").glob("*.json"))


def examples(count: int) -> settings:
    return settings(
        max_examples=count, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    )


@pytest.fixture(scope="module", autouse=True)
def report_counts() -> Iterator[None]:
    yield
    print("\nbad inputs tried: " + ", ".join(f"{where} {count}" for where, count in sorted(TRIED.items())))


ODD_NUMBERS = (
    "1e9", "0x10", "1_000", "+-1", "--1", "-0", "00", "0000007", "9" * 5000, "-" + "9" * 40, "1.5", "NaN",
    "inf", "١٢", "٣", "Ⅻ", "½", "１２", "𝟗", "1 2 3 4 5 6 7 8 9", "2,,0", "3;;;", "/", ",", "0 0 0 0 0",
)
MARKUP_TEXT = (
    "[/x]", "[/green]", "[/bold]y", "[bold red]x", "[link=file:///etc/passwd]a[/link]", ":smile:", "[/]", "x[/]",
    "[b]", "\\[q]", "[@click=app.quit]z", "[red on blue]", "[/bold", "[[/x]]", "[#ff0000]x", ":1st_place_medal:",
)
"""Text rich reads as markup or emoji codes when it is not told otherwise."""
ESCAPE_TEXT = (
    "\x1b[2J", "\x1b]0;title\x07", "\x1b[31mred", "\u202edrawkcab", "\x9b2J", "\x1bP+q\x1b\\", "\x1b[6n",
    "\x08\x08\x08", "a\rb", "\u2028", "\x1b(0", "\x07",
)
"""Sequences a terminal acts on: clear the screen, retitle the window, recolour, ask for the cursor."""
BOM_TEXT = ("\ufeff9", "\ufeff", "\ufeffyes", "\ufeff1 2 3 4", "9\ufeff")
ODD_TEXT = (
    "", " ", "\t", "   \t  ", "\n", "\r\n", "\x00", "\x1b[2J", "\u202e", "\ufeff", "\ud800", "\U0010ffff",
    "é", "ß", "İ", "ﬀ", "🎲", "Ann\x00", "no\x7f", "yes\u200b", "y e s", "YES!", "help me", "undo undo",
    "' OR 1=1 --", "{}", "[]", "null", "None", "__import__('os')", "../../etc/passwd", "%s%s%n",
    "x" * 201, "a" * 10_000, *MARKUP_TEXT, *ESCAPE_TEXT, *BOM_TEXT,
)
markup_like = st.lists(
    st.sampled_from(["[", "]", "/", "bold", " red", "link=", "=", ":smile:", ":", "\\", "#", "on", "x", "Ann", " ",
                     "\x1b", "[2J", "]0;", "\x07", "\u202e", "\ufeff"]),
    min_size=1, max_size=8,
).map("".join)
"""Random markup-like and escape-sequence text, built from the pieces that mean something to rich
or to a terminal."""


junk_text = st.one_of(
    st.text(max_size=12),
    st.text(max_size=250),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Co", "Zs", "Zl", "Zp", "Mn"]), max_size=8),
    st.text(alphabet=st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6),
    st.integers().map(str),
    st.integers(min_value=-1000, max_value=1000).map(str),
    st.floats().map(str),
    st.sampled_from(ODD_NUMBERS + ODD_TEXT),
    markup_like,
)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40))
def test_an_answer_is_refused_for_control_characters_exactly_when_it_holds_one(text: str) -> None:
    """Any code point: format, surrogate, private-use, unassigned and control characters (but a
    tab) are refused; everything else is trimmed and kept."""
    forbidden = any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text if ch != "\t")
    try:
        kept = clean(text)
    except InvalidAnswer as refusal:
        assert forbidden and refusal.problem == "control characters"
    else:
        assert not forbidden and kept == " ".join(text.split())


@pytest.mark.parametrize("text", ["²", "፩", "①", "1²"])
def test_choice_refuses_digits_int_cannot_read(text: str) -> None:
    from referee.asks import Choice

    with pytest.raises(InvalidAnswer):
        Choice("Which?", options=("first", "second")).parse(text)


def near_miss(valid: str, junk: str, rng: random.Random) -> str:
    """A valid answer bent out of shape: junk around it, a character changed, doubled or cut."""
    forms = (
        lambda: valid + junk,
        lambda: junk + valid,
        lambda: valid + " " + valid,
        lambda: valid[: rng.randint(0, len(valid))],
        lambda: valid.replace(rng.choice(valid) if valid else "x", junk[:1] or "\x00", 1),
        lambda: valid.upper() + "\x00",
    )
    return rng.choice(forms)()


def try_bad_answers(driver: Driver, candidates: list[str]) -> None:
    """Throw each candidate at the pending question: refused changes nothing, accepted moves on."""
    game = driver.game
    for text in candidates:
        if driver.pending is None:
            return
        before, entries = game.to_json(driver.state), list(driver.entries)
        TRIED[f"{game.id} answers"] += 1
        try:
            driver.answer(text)
        except InvalidAnswer as refused:
            assert "\n" not in str(refused)
            assert game.to_json(driver.state) == before and driver.entries == entries
            continue
        driver.take_messages()  # the odd text happened to be a valid answer: the game went on


def try_bad_adjustments(driver: Driver, texts: list[str]) -> None:
    game = driver.game
    for text, reason in zip(texts, reversed(texts), strict=True):
        before, entries = game.to_json(driver.state), list(driver.entries)
        TRIED[f"{game.id} corrections"] += 1
        try:
            driver.adjust(text, reason)
        except InvalidAdjustment as refused:
            assert "\n" not in str(refused)
            assert game.to_json(driver.state) == before and driver.entries == entries
            continue
        assert not game.invariant_errors(driver.state)


FALLBACK_ANSWERS = (*(str(number) for number in range(0, 21)), "none", "no", "yes")
"""Tried when a free-form question gives no examples to draw from."""


def valid_answer(ask: Ask, rng: random.Random) -> str:
    candidates = [random_answer(ask, rng) for _ in range(30)] + rng.sample(FALLBACK_ANSWERS, len(FALLBACK_ANSWERS))
    for text in candidates:
        try:
            ask.parse(text)
        except InvalidAnswer:
            continue
        return text
    raise AssertionError(f"no random answer fits {ask.prompt!r}")


QuestionKind = tuple[str, str]
"""(Ask type, rulebook section): one kind of question a flow asks."""
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
GUIDED = [info for info in GAMES if info.guided]


def guided_game(info: GameInfo) -> Game[Any]:
    assert info.guided is not None
    return info.guided()


GAME_SEEDS = st.integers(0, 2**32)
PLAYER_COUNTS = st.integers(2, 6)
JUNK = st.lists(junk_text, min_size=4, max_size=40)


def throw_bad_answers_through_a_game(info: GameInfo, seed: int, players: int, junk: list[str], longest: int) -> None:
    rng = random.Random(seed)
    count = min(max(players, info.min_players), info.max_players)
    driver = Driver(guided_game(info), NAMES[:count], {})
    position = 0
    while driver.pending is not None:
        if len(driver.entries) >= longest:
            # Junk that happens to be a valid answer plays on: '1' picks Noble at every card, and a game
            # where only Noble is ever played never ends, by the rules. Refusals are what is tested here;
            # the simulations check that games end.
            break
        ask = driver.pending
        valid = valid_answer(ask, rng)
        picks = [junk[(position + step) % len(junk)] for step in range(3)]
        position += 3
        try_bad_answers(driver, [*picks, near_miss(valid, picks[0], rng)])
        if rng.random() < 0.05:
            try_bad_adjustments(driver, picks[:2])
        if driver.pending is ask:
            driver.answer(valid)
            driver.take_messages()
    assert driver.pending is not None or driver.report is not None
    TRIED[f"{info.id} games"] += 1


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
@examples(3)
@given(seed=GAME_SEEDS, players=PLAYER_COUNTS, junk=JUNK)
def test_guided_game_refuses_random_bad_answers_and_changes_nothing(
    info: GameInfo, seed: int, players: int, junk: list[str]
) -> None:
    throw_bad_answers_through_a_game(info, seed, players, junk, longest=250)


@pytest.mark.slow
@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
@examples(30)
@given(seed=GAME_SEEDS, players=PLAYER_COUNTS, junk=JUNK)
def test_guided_game_refuses_random_bad_answers_and_changes_nothing_long(
    info: GameInfo, seed: int, players: int, junk: list[str]
) -> None:
    throw_bad_answers_through_a_game(info, seed, players, junk, longest=600)


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
def test_every_kind_of_question_is_attacked(info: GameInfo) -> None:
    """100 random games over every player count; each kind of question they reach (a rare one
    too) gets the odd inputs until it has had 40 rounds of them."""
    battery = list(ODD_TEXT + ODD_NUMBERS)
    attacked: Counter[QuestionKind] = Counter()
    rng = random.Random(1)
    counts = range(info.min_players, info.max_players + 1)
    for number in range(100):
        driver = Driver(guided_game(info), NAMES[: counts[number % len(counts)]], {})
        while driver.pending is not None:
            ask = driver.pending
            kind = (type(ask).__name__, ask.section)
            check_single_keys(ask)
            valid = valid_answer(ask, rng)
            if attacked[kind] < 40:
                if attacked[kind] < 3:
                    check_shown_as_typed(ask, [*rng.sample(SHOWN_BATTERY, 6), valid])
                attacked[kind] += 1
                odd = rng.sample(battery, 5)
                try_bad_answers(driver, [*odd, near_miss(valid, odd[0], rng)])
            if driver.pending is ask:
                driver.answer(valid)
                driver.take_messages()
    TRIED[f"{info.id} question kinds"] = len(attacked)
    assert len(attacked) >= 3


HIDDEN = ("\x1b", "\x07", "\x9b", "\u202e", "\x00", "\x08", "\u2028", "\ufeff")
"""Characters that must never reach the terminal raw (they come only from user text here: the
consoles below write to memory, so rich itself adds no escape codes)."""
SHOWN_BATTERY = list(MARKUP_TEXT + ESCAPE_TEXT + BOM_TEXT)


def check_single_keys(ask: Ask) -> None:
    """Typing any option's name at the prompt records that very option: a single key that answers
    at once (the option numbers) must not be the first letter of an option named otherwise."""
    if not isinstance(ask, Choice):
        return
    keys = single_keys(ask)
    for label in ask.options:
        try:
            meant = ask.parse(label)
        except InvalidAnswer:  # a name of digits only ('00', typed at a territory question) reads as
            TRIED["option names read as numbers"] += 1  # a number: refused when typed, never misread
            continue
        recorded = label[0] if label and label[0] in keys else label
        assert ask.parse(recorded) == meant, (ask.prompt, ask.options, label)
    TRIED["choice questions checked for single keys"] += 1


def check_shown_as_typed(ask: Ask, texts: list[str]) -> None:
    """Each text echoed as an answers file echoes it, and refused as the keyboard refuses it, on a
    real console: markup-like text shows as typed, no control character reaches the screen."""
    console = make_console(file=io.StringIO(), width=120)
    scripted = ScriptedAnswerer([(number, text) for number, text in enumerate(texts, 1)], console)
    keyboard = InteractiveAnswerer(console)
    check = validator(ask)
    for text in texts:
        scripted.ask(prompt_for(ask), check, ask.default, single_keys(ask))
        problem = check(text)
        if problem is not None:
            keyboard.rejected(problem)
        TRIED["markup, escape and BOM answers shown"] += 1
    screen = console.file.getvalue()
    assert not any(ch in screen for ch in HIDDEN), repr(screen)
    for text in texts:
        if text.isprintable() and text.strip():
            assert text.strip() in screen, (text, screen)


MARKUP_NAMES = ["[/bold]y", "[bold red]x", ":smile:", "[/x]", "[link=x]L", "Flo", "Gus"]


class JunkAtEveryQuestion(ScriptedAnswerer):
    """An answers file written as the game goes: at every question a few markup-like, escape or
    BOM answers and a table command with odd arguments, then a valid answer. Refusals are printed
    as the keyboard prints them, and play goes on."""

    def __init__(self, live: LiveSession, console: Any, rng: random.Random) -> None:
        super().__init__([], console, "junk")
        self.live, self.rng, self.questions = live, rng, 0

    def ask(self, prompt: str, validate: Any, default: str | None = None, single_keys: str = "",
            complete: Any = None, masked: Any = None) -> str:
        if self.position >= len(self.lines):
            assert isinstance(self.lines, list)
            self.lines.extend(enumerate(self.next_lines(), len(self.lines) + 1))
        return super().ask(prompt, validate, default, single_keys)

    def next_lines(self) -> list[str]:
        ask = self.live.driver.pending
        assert ask is not None
        self.questions += 1
        if self.questions > 400:
            raise EOFError  # a long game: enough has been seen
        name = self.rng.choice(self.live.meta.players)
        commands = ["secret [/x]", "undo [/x]", "adjust [/x] ; r", "rules [/x]", f"secret {name}",
                    f"adjust {name} [/x] +1 ; [/green]", "state", "undo \x1b[2J", "secret \x1b]0;t\x07"]
        lines = [*self.rng.sample(SHOWN_BATTERY, 2), self.rng.choice(commands), valid_answer(ask, self.rng)]
        TRIED["markup, escape and BOM lines through the session loop"] += len(lines)
        return lines

    def rejected(self, message: str) -> None:
        InteractiveAnswerer(self.console).rejected(message)


def markup_names_for(info: GameInfo, count: int, tmp_path: Path) -> list[str]:
    """Markup-like names where the game allows them (Cutthroat Kingdoms takes letters only)."""
    game = guided_game(info)
    for candidates in (MARKUP_NAMES, NAMES):
        names = candidates[:count]
        try:
            game.check_players(names)
        except SessionError:
            continue
        return names
    raise AssertionError("no names fit")


def play_through_the_loop(info: GameInfo, seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    count = rng.randint(max(2, info.min_players), min(4, info.max_players))
    names = markup_names_for(info, count, tmp_path)
    live = LiveSession.start(Store(tmp_path / f"db-{seed}"), load_game(info.id), names, {})
    console = make_console(file=io.StringIO(), width=140)
    try:
        SessionLoop(live, JunkAtEveryQuestion(live, console, rng), console).run()
    except EOFError:
        pass
    finally:
        live.release()
    screen = console.file.getvalue()
    assert not any(ch in screen for ch in HIDDEN), repr(screen[-2000:])
    assert all(name in screen for name in names), names
    TRIED["games through the session loop"] += 1


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
def test_markup_escapes_and_boms_at_every_question_of_the_session_loop(info: GameInfo, tmp_path: Path) -> None:
    play_through_the_loop(info, 0, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
def test_markup_escapes_and_boms_through_the_session_loop_long(info: GameInfo, tmp_path: Path) -> None:
    for seed in range(1, 31):
        play_through_the_loop(info, seed, tmp_path)


# -- every command ------------------------------------------------------------------------------------


def run_command(*args: str) -> str:
    """One command in this process: 0, 1 or 2, never a traceback, never a control character shown."""
    from typer.testing import CliRunner

    from referee.cli.app import app

    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "160", "FORCE_COLOR": None})
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    screen = result.stdout + result.stderr
    assert result.exit_code in (0, 1, 2) and "Traceback" not in screen, (args, result.exit_code, screen[-800:])
    assert not any(ch in screen for ch in HIDDEN), (args, repr(screen[-800:]))
    if result.exit_code == 2:  # (score's questions are echoed on stderr before the one line)
        assert result.stderr.strip().splitlines()[-1].startswith("referee: "), (args, result.stderr)
    TRIED["commands given markup-like or escape text"] += 1
    return screen


def through_every_command(names: list[str], answer: str, folder: Path) -> None:
    db = str(folder / "db")
    players = ",".join(names)
    answers = folder / "answers.txt"
    answers.write_text(f"\ufeff9\n5\n{answer}\nquit\n", encoding="utf-8", errors="surrogatepass")
    stop = folder / "quit.txt"
    stop.write_text("quit\n")
    holdings = json.loads((Path(__file__).parents[1] / "scenarios" / "score" / "blackwood.json").read_text())
    for player, name in zip(holdings["players"], names, strict=False):
        player["name"] = name
    holdings_file = folder / "holdings.json"
    holdings_file.write_text("\ufeff" + json.dumps(holdings, ensure_ascii=False), encoding="utf-8",
                             errors="surrogatepass")
    scenario = folder / "odd.toml"
    scenario.write_text(f"title = {json.dumps(answer, ensure_ascii=False)}\ngame = \"blackthorn\"\n"
                        f"players = {json.dumps(names, ensure_ascii=False)}\n"
                        f"answers = {json.dumps(['9', '5', answer], ensure_ascii=False)}\n",
                        encoding="utf-8", errors="surrogatepass")
    run_command("play", "blackthorn", "--players", players, "--db", db, "--answers", str(answers))
    run_command("sessions", "--all", "--db", db)
    run_command("resume", "--db", db, "--answers", str(stop))
    run_command("resume", answer, "--db", db, "--answers", str(stop))
    run_command("score", "blackwood", "--players", players, "--answers", str(answers))
    run_command("score", "blackwood", "--input", str(holdings_file))
    run_command("score", "blackwood", "--input", str(holdings_file), "--json")
    run_command("replay", str(scenario))
    run_command("rules", answer, "--db", db)
    run_command("rules", "blackwood", "--section", answer, "--db", db)
    copy = folder / f"copy {answer.replace('/', '|')}.md"
    copy.write_text(f"# {answer}\n\n## {answer} night\n\nTrade {answer} at midnight.\n", encoding="utf-8",
                    errors="surrogatepass")
    run_command("rules", "import", "blackwood", str(copy), "--db", db)
    run_command("rules", "blackwood", "--db", db)
    run_command("rules", "blackwood", "midnight", "--db", db)
    run_command("rules", "forget", "blackwood", "--db", db)
    run_command("play", answer, "--players", players, "--db", db, "--answers", str(answers))
    run_command("play", "blackthorn", "--players", "Ann,Bo", "--ruling", f"{answer}={answer}", "--db", db,
                "--answers", str(answers))


@examples(5)
@given(names=st.lists(markup_like, min_size=2, max_size=3), answer=markup_like)
def fuzz_every_command(names: list[str], answer: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    through_every_command(names, answer, tmp_path_factory.mktemp("commands"))


def test_markup_and_escapes_through_every_command(tmp_path_factory: pytest.TempPathFactory) -> None:
    for names in (["[/bold]y", "B", "C"], ["[bold red]x", ":smile:"], ["A\x1b[2J", "\x1b]0;t\x07"]):
        through_every_command(names, "[/x]", tmp_path_factory.mktemp("fixed"))
    fuzz_every_command(tmp_path_factory)  # type: ignore[call-arg]


@pytest.mark.slow
@examples(300)
@given(names=st.lists(markup_like, min_size=2, max_size=3), answer=markup_like)
def test_markup_and_escapes_through_every_command_long(
    names: list[str], answer: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    through_every_command(names, answer, tmp_path_factory.mktemp("commands"))


def test_refused_answer_leaves_the_session_files_alone(tmp_path: Path) -> None:
    live = LiveSession.start(Store(tmp_path), GAME, ["Ann", "Bo"], {})
    sessions = tmp_path / "sessions"
    journal = sessions / f"{live.meta.id}.journal"
    refused = 0
    try:
        for text in ("9", *ODD_TEXT, *ODD_NUMBERS):
            before = {path.name: path.read_bytes() for path in sessions.iterdir()}
            lines = journal.read_bytes().count(b"\n")
            TRIED["session answers"] += 1
            try:
                live.answer(text)
            except InvalidAnswer:
                refused += 1
                assert {path.name: path.read_bytes() for path in sessions.iterdir()} == before
                continue
            assert journal.read_bytes().count(b"\n") == lines + 1  # an accepted one is on disk at once
    finally:
        live.release()
    assert refused > len(ODD_TEXT)


# -- every game's score entry -----------------------------------------------------------------


def player_names(info: GameInfo, count: int) -> list[str]:
    return ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:count]


@pytest.mark.parametrize("info", GAMES, ids=[info.id for info in GAMES])
@examples(40)
@given(data=st.data(), junk=st.lists(junk_text, min_size=4, max_size=40))
def test_score_entry_refuses_bad_answers_at_every_question(
    info: GameInfo, data: st.DataObject, junk: list[str]
) -> None:
    scoring = info.scoring()
    count = data.draw(st.integers(info.min_players, info.max_players), label="players")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    flow = scoring.ask_holdings(player_names(info, count))
    position = 0
    try:
        ask = next(flow)
        while True:
            valid = valid_answer(ask, rng)
            for text in [junk[position % len(junk)], junk[(position + 1) % len(junk)], near_miss(valid, junk[0], rng)]:
                TRIED[f"{info.id} score questions"] += 1
                try:
                    ask.parse(text)
                except InvalidAnswer as refused:
                    assert "\n" not in str(refused)
            position += 2
            ask = flow.send(ask.parse(valid))
    except StopIteration as done:
        holdings = done.value
    report = scoring.score_input(holdings)  # what the questions collected always scores
    assert sorted(player.name for player in report.players) == sorted(player_names(info, count))


# -- referee score --input ----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | junk_text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(junk_text, inner, max_size=5),
    max_leaves=20,
)


def bent(document: Any, rng: random.Random, replacement: Any) -> Any:
    """A copy of a valid input with one value somewhere replaced, or one key dropped or added."""
    copy = json.loads(json.dumps(document))
    holders: list[Any] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict | list) and node:
            holders.append(node)
            for child in node.values() if isinstance(node, dict) else node:
                walk(child)

    walk(copy)
    if not holders:
        return replacement
    node = rng.choice(holders)
    key = rng.choice(list(node.keys()) if isinstance(node, dict) else range(len(node)))
    action = rng.random()
    if action < 0.6:
        node[key] = replacement
    elif action < 0.8:
        del node[key]
    elif isinstance(node, dict):
        node[str(replacement)[:20]] = replacement
    else:
        node.append(replacement)
    return copy


def score_once(info: GameInfo, text: str, path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    code = run_score(info.id, str(path), as_json=True, players=None)
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.startswith("referee: ") and err.count("\n") == 1, err
        assert "Traceback" not in err
    else:
        assert json.loads(out)["winners"] is not None


@pytest.mark.parametrize("info", GAMES, ids=[info.id for info in GAMES])
@examples(60)
@given(value=json_values, seed=st.integers(0, 2**32))
def test_score_input_never_crashes(
    info: GameInfo, value: Any, seed: int, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path_factory.mktemp("input") / "holdings.json"
    rng = random.Random(seed)
    examples = [example for example in SCORE_EXAMPLES if example.name.startswith(info.id)]
    documents: list[str] = [json.dumps(value)]
    if examples:
        valid = json.loads(rng.choice(examples).read_text())
        documents.append(json.dumps(bent(valid, rng, value)))
        documents.append(json.dumps(bent(bent(valid, rng, value), rng, rng.choice([-1, 10**30, "", None]))))
    for text in documents:
        score_once(info, text, path, capsys)
        TRIED["score --input documents"] += 1


@pytest.mark.parametrize(
    "text",
    ["", "{", "[" * 100_000, '{"players": ' + "[" * 5000 + "]" * 5000 + "}", "\x00", '{"players": NaN}',
     '{"players": [{"name": "A", "reputation": 1e999}]}', '"' + "a" * 100 + '"', "1" * 5000],
    ids=["empty", "unclosed", "deep", "deep-players", "nul", "nan", "huge-float", "string", "long-number"],
)
def test_score_input_odd_documents(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for info in GAMES:
        score_once(info, text, tmp_path / "holdings.json", capsys)
        TRIED["score --input documents"] += 1


def test_score_input_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "holdings.json"
    path.write_bytes(b'{"players": "\xff\xfe"}')
    assert run_score("blackwood", str(path), as_json=True, players=None) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert run_score("blackwood", str(tmp_path / "missing.json"), as_json=True, players=None) == 2
    assert "cannot read" in capsys.readouterr().err


# -- --answers files ---------------------------------------------------------------------------

session_commands = st.builds(
    lambda word, argument: f"{word} {argument}",
    st.sampled_from(["undo", "state", "secret", "help", "?", "rules", "adjust"]),
    junk_text,
)
answer_lines = st.lists(
    st.one_of(junk_text, session_commands, st.sampled_from(["9", "5", "yes", "1", "# note", "quit", "undo"])),
    max_size=30,
)


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
@examples(30)
@given(lines=answer_lines, raw=st.binary(max_size=60), bom=st.booleans())
def test_answers_files_never_crash_play(
    info: GameInfo, lines: list[str], raw: bytes, bom: bool, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path_factory.mktemp("answers")
    answers = folder / "answers.txt"
    mark = "\ufeff".encode() if bom else b""  # some editors start a UTF-8 file with a byte-order mark
    answers.write_bytes(mark + "\n".join(lines).encode("utf-8", errors="surrogatepass") + raw)
    names = NAMES[: max(info.min_players, 3)]
    code = start_session(info.id, names, {}, answers, folder / "db")
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), code
    assert "Traceback" not in out + err
    if code != 0:
        assert err.startswith("referee: ") and err.count("\n") == 1, err
    TRIED["--answers files"] += 1


@pytest.mark.parametrize("info", GAMES, ids=[info.id for info in GAMES])
@examples(25)
@given(lines=answer_lines, bom=st.booleans())
def test_answers_files_never_crash_score(
    info: GameInfo, lines: list[str], bom: bool, tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    answers = tmp_path_factory.mktemp("answers") / "answers.txt"
    answers.write_text("\ufeff" * bom + "\n".join(lines), encoding="utf-8", errors="surrogatepass")
    names = ",".join(player_names(info, info.min_players))
    code = run_score(info.id, None, as_json=True, players=names, answers=answers)
    out, err = capsys.readouterr()
    assert code in (0, 2), (code, err)
    assert "Traceback" not in out + err
    if code == 2:
        assert err.strip().splitlines()[-1].startswith("referee: ")
    TRIED["--answers files"] += 1


@pytest.mark.parametrize("command", ["undo ²", "undo ፩", "undo 99999999999999999999", "undo -1", "secret ²"])
def test_session_commands_with_odd_arguments(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text(f"9\n5\n{command}\n", encoding="utf-8")
    code = start_session("blackthorn", ["Ann", "Bo"], {}, answers, tmp_path / "db")
    out, err = capsys.readouterr()
    assert code in (1, 2) and "Traceback" not in out + err
    assert err.startswith("referee: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("document", "stdin"),
    [("[" * 50_000, False), ('{"players": [{"name": "Ann", "reputation": "many"}]}', False), ("\x00{", True)],
    ids=["deep", "wrong-type", "stdin-garbage"],
)
def test_score_input_from_the_command_line_exits_2_with_one_line(tmp_path: Path, document: str, stdin: bool) -> None:
    path = tmp_path / "holdings.json"
    path.write_text(document)
    result = subprocess.run(
        [sys.executable, "-m", "referee", "score", "blackwood", "--input", "-" if stdin else str(path)],
        input=document if stdin else None, capture_output=True, text=True, env=child_env(), timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("referee: ") and result.stderr.count("\n") == 1, result.stderr
