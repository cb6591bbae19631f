"""`referee score`: end-of-game scores from a JSON file, or asked player by player."""

from __future__ import annotations

import json
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

from referee.asks import Notice, Question, build
from referee.cli.failure import error
from referee.errors import InvalidAnswer, RefereeError, ScoreInputError
from referee.games.registry import find_game
from referee.outcome import ScoreReport, Scoring
from referee.safe_files import MAX_BYTES, describe, megabytes, read_user_text
from referee.user_text import name_problem, split_names


def read_input(input_file: str) -> str:
    """The text of the holdings: standard input ('-') or a regular file, at most 16 MB, UTF-8
    with or without a byte-order mark."""
    try:
        if input_file != "-":
            return read_user_text(Path(input_file))
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise RefereeError(f"standard input holds more than {megabytes(MAX_BYTES)}: too much to be holdings")
        return data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as problem:
        raise RefereeError(f"cannot read {input_file}: {describe(problem)}") from None


def read_json(input_file: str) -> Any:
    text = read_input(input_file)
    try:
        return json.loads(text)
    except json.JSONDecodeError as problem:
        raise RefereeError(
            f"{input_file} is not valid JSON (line {problem.lineno}, column {problem.colno}: {problem.msg})"
        ) from None
    except RecursionError:
        raise RefereeError(f"{input_file} nests lists or objects too deeply to be holdings") from None
    except ValueError as problem:  # a number thousands of digits long
        raise RefereeError(f"{input_file} is not usable JSON ({str(problem).split(':')[0]})") from None


def run_asks(flow: Generator[Question, Any, dict[str, Any]], answerer: Any) -> dict[str, Any]:
    """Ask each question until the generator returns; a bad answer is explained and asked again."""
    from referee.cli.asking import Quit, remembering, single_keys, validator
    from referee.cli.question_text import shown_prompt

    try:
        question = next(flow)
        while True:
            assert not isinstance(question, Notice), "the holdings' questions hand nothing to the engine"
            ask = build(question)
            read = remembering(ask.parse)
            text = answerer.ask(shown_prompt(ask), validator(ask, read=read), ask.default, single_keys(ask))
            command = text.strip().lower()
            if command == "quit":
                raise Quit()
            if command in ("help", "?"):
                answerer.rejected(f"Allowed: {ask.allowed()} (rulebook section {ask.section})")
                continue
            try:
                value = read(text)
            except InvalidAnswer as problem:
                answerer.rejected(str(problem))
                continue
            question = flow.send(value)
    except StopIteration as done:
        holdings: dict[str, Any] = done.value
        return holdings


def run_score(
    game_name: str, input_file: str | None, as_json: bool, players: str | None, answers: Path | None = None
) -> int:
    try:
        game = find_game(game_name)
        scoring = game.scoring()
        if input_file is not None:
            report = scoring.score_input(read_json(input_file))
            problem = next(filter(None, (name_problem(player.name) for player in report.players)), None)
            if problem:  # the same rule as for the names of a guided game
                raise RefereeError(problem)
        else:
            report = score_by_questions(game.id, scoring, players, answers)
    except ScoreInputError as problem:
        error(str(problem))
        return 2
    except RefereeError as problem:
        error(str(problem))
        return 2
    except (KeyboardInterrupt, EOFError):
        error("stopped; nothing was scored")
        return 130
    if as_json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        from referee.cli.render import make_console, show_scoreboard

        show_scoreboard(make_console(), report, scoring.short_parts)
    return 0


def score_by_questions(game_id: str, scoring: Scoring, players: str | None, answers: Path | None) -> ScoreReport:
    from referee.cli.answerers import InteractiveAnswerer, ScriptedAnswerer
    from referee.cli.asking import Quit
    from referee.cli.render import make_console

    console = make_console(stderr=True)
    answerer: Any
    if answers is not None:
        answerer = ScriptedAnswerer.from_file(answers, console)
    elif sys.stdin.isatty():
        answerer = InteractiveAnswerer(console)
    else:
        raise RefereeError("no terminal to ask on; give the holdings with --input FILE.json (or - for stdin)")
    if players is None:
        players = answerer.ask("Player names in turn order, separated by commas", lambda text: None)
    names = split_names(players)
    problem = next(filter(None, map(name_problem, names)), None)
    if problem:
        raise RefereeError(problem)
    info = find_game(game_id)
    if not info.min_players <= len(names) <= info.max_players:
        raise RefereeError(f"{info.name} takes {info.players_text} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise RefereeError("each player needs a different name")
    try:
        holdings = run_asks(scoring.ask_holdings(names), answerer)
    except Quit:
        raise RefereeError("stopped; nothing was scored") from None
    return scoring.score_input(holdings)
