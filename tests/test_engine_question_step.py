"""The engine's question step, on a small game of its own: typed choices, questions built again
after a correction, table steps, one end check, one correction grammar, one reader of lines, and
an answer that the flow fails on is not kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from referee.asks import Builder, Number, TableStep, ask, choice, pick, table_step
from referee.engine.corrections import GAME as OF_THE_GAME
from referee.engine.corrections import Action, Counter, Target
from referee.engine.driver import Driver, replay
from referee.engine.game import Flow, Game, Header, PublicView, Say, Setup, Steps
from referee.engine.lines import read_line
from referee.errors import InternalError, InvalidAdjustment, InvalidAnswer
from referee.outcome import PlayerScore, ScoreReport, Termination

GOAL = 10


@dataclass
class Seat:
    name: str
    coins: int = 0
    secret: int = 0


@dataclass
class Board:
    seats: list[Seat]
    rounds: int = 0
    log: list[str] = field(default_factory=list)
    crash_on: int | None = None

    def seat(self, name: str) -> Seat:
        return next(seat for seat in self.seats if seat.name.lower() == name.lower())


def set_coins(board: Board, who: str, value: int) -> None:
    board.seat(who).coins = value


def set_secret(board: Board, who: str, value: int) -> None:
    board.seat(who).secret = value


def end_rounds(board: Board, who: str, rest: str) -> str:
    if rest:
        raise InvalidAdjustment("'stop' takes nothing after it")
    board.rounds = 99
    return "play stops after this round"


def how_many(taker: Seat) -> Builder[int]:
    """The question as a builder: a correction to the taker's coins changes its text and bound."""
    return lambda: Number(f"How many ({taker.coins} held)?", "take", maximum=GOAL - taker.coins)


class Toy(Game[Board]):
    """Each round: who takes coins (typed choice), how many (bounded by the taker's purse room),
    a table step for a card's text, then the referee pays a bonus the step may have changed."""

    id = "toy"
    rulebook = "toy"
    correction_example = "Ann coins +2 ; a card"

    def check_players(self, players: Sequence[str]) -> None:
        pass

    def initial_state(self, setup: Setup) -> Board:
        return Board([Seat(name) for name in setup.players])

    def play(self, state: Board, say: Say) -> Steps:
        while state.rounds < 3:
            state.rounds += 1
            taker = yield from ask(pick("Who takes?", "take", [(seat.name, seat) for seat in state.seats]))
            amount = yield from ask(how_many(taker))
            if state.crash_on == amount:
                raise RuntimeError("a defect")
            taker.coins += amount
            yield from table_step(f"{taker.name} resolves the card's text")
            if taker.coins >= 5:  # computed after the step: it sees the step's corrections
                state.log.append(f"bonus {taker.name} {taker.coins}")
            again = yield from ask(choice("Go on?", "take", ["yes", "no", "next"]))  # "next" is also a confirmation
            if again == "no":
                return

    def final_count(self, state: Board, say: Say) -> Flow:
        players = [PlayerScore(seat.name, seat.coins) for seat in state.seats]
        best = max(seat.coins for seat in state.seats)
        yield from ()
        return ScoreReport("toy", True, players, [seat.name for seat in state.seats if seat.coins == best])

    def end_check(self, state: Board) -> Termination | None:
        if any(seat.coins >= GOAL for seat in state.seats):
            return Termination("goal-reached", f"somebody has {GOAL} coins")
        return None

    def termination(self, state: Board) -> Termination | None:
        return Termination("rounds-played", "the rounds are played")

    def player_names(self, state: Board) -> Sequence[str]:
        return [seat.name for seat in state.seats]

    def correction_targets(self, state: Board) -> Sequence[Target]:
        return [*super().correction_targets(state)]

    def correction_fields(self) -> Sequence[Counter[Board] | Action[Board]]:
        return [
            Counter("coins", lambda board, who: board.seat(who).coins, set_coins, lambda board, who: (0, GOAL)),
            Counter("secret", lambda board, who: board.seat(who).secret, set_secret, hidden=True),
            Action("stop", end_rounds, form="", kind=OF_THE_GAME),
        ]

    def invariant_errors(self, state: Board) -> list[str]:
        return [f"{seat.name} has {seat.coins}" for seat in state.seats if not 0 <= seat.coins <= GOAL]

    def header(self, state: Board) -> Header:
        return Header(state.rounds)

    def public_view(self, state: Board) -> PublicView:
        return PublicView(["Player", "Coins"], [[seat.name, str(seat.coins)] for seat in state.seats])

    def hidden_view(self, state: Board, player: str) -> list[str]:
        return [f"{player}: {state.seat(player).secret}"]

    def to_json(self, state: Board) -> dict[str, Any]:
        return {"coins": [seat.coins for seat in state.seats], "log": list(state.log), "rounds": state.rounds}


GAME = Toy()


def driver(*entries: str, players: Sequence[str] = ("Ann", "No")) -> Driver:
    playing = Driver(GAME, players, {})
    for entry in entries:
        if entry.startswith("adjust "):
            text, _, reason = entry[len("adjust ") :].partition(";")
            playing.adjust(text.strip(), reason.strip() or "test")
        else:
            playing.answer(entry)
    return playing


def test_a_typed_choice_gives_the_value_and_logs_the_label() -> None:
    playing = driver("no")  # a player named like an option word is chosen by name
    assert playing.entries[-1].answer == "No"
    playing.answer("4")
    assert playing.state.seats[1].coins == 4


def test_a_correction_rebuilds_the_pending_question() -> None:
    playing = driver("Ann")
    assert playing.pending is not None and "(0 held)" in playing.pending.prompt
    playing.adjust("Ann coins +7", "a card")
    assert "(7 held)" in playing.pending.prompt
    with pytest.raises(InvalidAnswer):
        playing.answer("4")  # 7 + 4 would pass the goal: the rebuilt bound refuses it
    playing.answer("3")
    assert playing.state.seats[0].coins == 10


def test_the_step_after_a_table_step_sees_its_corrections() -> None:
    playing = driver("Ann", "2")
    assert isinstance(playing.pending, TableStep)
    playing.adjust("Ann coins +3", "the card's text")
    playing.answer("")  # Enter confirms
    assert playing.state.log == ["bonus Ann 5"]


def test_an_answer_at_a_table_step_confirms_it_and_answers_the_next_question() -> None:
    explicit = driver("Ann", "2", "done", "yes")
    implicit = driver("Ann", "2", "yes")
    assert GAME.to_json(implicit.state) == GAME.to_json(explicit.state)
    assert [entry.answer for entry in implicit.entries] == ["Ann", "2", "yes"]
    at_step = driver("Ann", "2")
    with pytest.raises(InvalidAnswer, match="after the table step"):
        at_step.answer("maybe")
    assert isinstance(at_step.pending, TableStep) and len(at_step.entries) == 2


def test_an_answer_that_reads_as_a_confirmation_logs_the_confirmation_too() -> None:
    playing = driver("Ann", "2", "nex")  # at the table step: confirms it and answers "next"
    assert [entry.answer for entry in playing.entries] == ["Ann", "2", "done", "next"]
    rebuilt = replay(GAME, ["Ann", "No"], {}, playing.entries)
    assert rebuilt.applied == 4 and GAME.to_json(rebuilt.driver.state) == GAME.to_json(playing.state)


def test_the_end_check_runs_after_every_entry_and_says_how_the_game_ended() -> None:
    by_answer = driver("Ann", "9", "done", "no")
    assert by_answer.report is not None and by_answer.report.termination is not None
    assert by_answer.report.termination.code == "rounds-played"
    by_correction = driver("Ann", "2", "adjust Ann coins =10 ; a card")
    assert by_correction.finished and by_correction.report is not None
    assert by_correction.report.termination == Termination("goal-reached", "somebody has 10 coins")
    assert by_correction.report.winners == ["Ann"]


def test_one_correction_grammar() -> None:
    playing = driver("Ann")
    with pytest.raises(InvalidAdjustment, match=r"\+N \(add\), -N \(take away\) or =N \(set\)"):
        playing.adjust("Ann coins 3", "bare number")
    with pytest.raises(InvalidAdjustment, match="allowed: 0 to 10"):
        playing.adjust("Ann coins -1", "below the bounds")
    with pytest.raises(InvalidAdjustment, match="no field"):
        playing.adjust("Ann gold +1", "unknown field")
    with pytest.raises(InvalidAdjustment, match="starts with who"):
        playing.adjust("Zed coins +1", "unknown player")
    playing.adjust("Ann secret +12", "hidden")
    said = playing.take_messages()
    assert said == ["Correction: Ann's secret changed (hidden) (hidden)"]
    assert "12" not in " ".join(said)
    playing.adjust("stop", "the table agrees")
    assert playing.state.rounds == 99
    assert GAME.adjust_help().startswith("adjust <player> <coins|secret> <+N|-N|=N>; or stop ; reason")


def test_an_error_inside_the_flow_keeps_nothing_and_names_the_entry() -> None:
    playing = driver("Ann")
    playing.state.crash_on = 3
    with pytest.raises(InternalError, match=r"entry 2 \('3'\).*RuntimeError"):
        playing.answer("3")
    assert [entry.answer for entry in playing.entries] == ["Ann"]
    assert playing.pending is not None and playing.pending.prompt == "How many (0 held)?"
    playing.answer("4")
    assert playing.state.seats[0].coins == 4


def test_replay_rebuilds_the_same_game() -> None:
    playing = driver("Ann", "adjust No coins +1 ; a card", "2", "yes", "No", "3", "done", "no")
    rebuilt = replay(GAME, ["Ann", "No"], {}, playing.entries)
    assert rebuilt.applied == len(playing.entries)
    assert GAME.to_json(rebuilt.driver.state) == GAME.to_json(playing.state)


@pytest.mark.parametrize(
    ("line", "kind", "text", "steps", "reason"),
    [
        ("undo", "undo", "", 1, ""),
        ("undo 3", "undo", "", 3, ""),
        ("?", "help", "", 1, ""),
        ("adjust Ann coins +1 ; King", "adjust", "Ann coins +1", 1, "King"),
        ("state", "state", "", 1, ""),
        ("secret Ann", "secret", "Ann", 1, ""),
        ("3", "answer", "3", 1, ""),
    ],
)
def test_one_reader_of_lines(line: str, kind: str, text: str, steps: int, reason: str) -> None:
    assert read_line(line, None) == read_line(line, None)
    read = read_line(line, None)
    assert (read.kind, read.text, read.steps, read.reason) == (kind, text, steps, reason)


def test_undo_with_a_word_is_refused_everywhere() -> None:
    with pytest.raises(InvalidAnswer, match="takes a number of steps"):
        read_line("undo two", None)
    assert read_line("undo", choice("?", "", ["undo", "keep"])).kind == "answer"


def test_numbered_options_keep_their_numbers_and_an_ambiguous_prefix_names_the_candidates() -> None:
    from referee.asks import pick_numbered

    actions = pick_numbered("Next?", "", [(1, "attack", "A"), (3, "buy", "B"), (5, "end the phase", "E")])
    assert actions.parse("5") == "E" and actions.parse("3") == "B"
    with pytest.raises(InvalidAnswer, match="no option with that number"):
        actions.parse("2")
    assert actions.allowed() == "1=attack, 3=buy, 5=end the phase"
    ministers = choice("Who?", "", ["Master of Shadows", "Minister of Coin"])
    with pytest.raises(InvalidAnswer, match="Master of Shadows or Minister of Coin"):
        ministers.parse("m")
