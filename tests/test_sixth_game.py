"""A sixth game, declared here and nowhere else, reaches every command through one registry row.

Heaps is a toy: each round every player takes 1 to 3 stones from the heap (fewer once it runs
low), or says a correction took some; the most stones wins. Its Game class declares what the
generic layers ask of a game (players, a typed ruling, short headers, a progression chart, the
role a player takes, that it scores points), its Scoring scores holdings on their own, and the
only other thing touched is the registry's list of rows: `play`, `score`, `sessions show`,
`stats`, `export` (and `import`) and the chart then work for it as for the five real games.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

import pytest
from typer.testing import CliRunner, Result

from referee.asks import Builder, Number, Question, ask, choice
from referee.engine.corrections import Counter, Field
from referee.engine.game import Flow, Game, Header, Progression, PublicView, RoleField, Say, Setup, Steps, Values
from referee.engine.rulings import Ruling, RulingSet
from referee.games import registry
from referee.games.registry import GameInfo
from referee.outcome import PlayerScore, ScoreReport, Scoring, Termination, assign_ranks, read_int, read_players
from referee.store import Store

ENVIRONMENT: dict[str, str | None] = {"COLUMNS": "200", "FORCE_COLOR": None, "TTY_COMPATIBLE": None}
STONES = 10
COLOURS = ("black", "white", "grey")

Taking = Literal["up-to-three", "exactly-one"]
TAKING = Ruling[Taking]("taking", get_args(Taking))


@dataclass
class Taker:
    name: str
    colour: str = ""
    stones: int = 0


@dataclass
class Heap:
    players: list[Taker]
    rulings: dict[str, str]
    heap: int = STONES
    round: int = 0
    active: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


SHORT_PARTS = {"stones": "st."}
"""Shorter names of the score's parts, for a narrow terminal."""


def play(heap: Heap, say: Say) -> Steps:
    for taker, colour in zip(heap.players, COLOURS, strict=False):
        taker.colour = yield from ask(choice(f"{taker.name} takes which colour?", "setup", [colour, "grey"]))
    while heap.heap:
        heap.round += 1
        for taker in heap.players:
            if not heap.heap:
                break
            heap.active = taker.name
            taken = yield from ask(how_many(heap, taker))
            taker.stones += taken
            heap.heap -= taken
            say(f"{taker.name} takes {taken}; {heap.heap} left.")


def how_many(heap: Heap, taker: Taker) -> Builder[int]:
    """Bounded by the heap as it is: a correction may have taken stones meanwhile."""

    def build() -> Number:
        most = 1 if TAKING.of(heap.rulings) == "exactly-one" else min(3, heap.heap)
        return Number(f"{taker.name} takes how many?", "take", minimum=1, maximum=most)

    return build


def final_count(heap: Heap, say: Say) -> Flow:
    heap.active = None
    yield from ()
    return score({"players": [{"name": taker.name, "stones": taker.stones} for taker in heap.players]})


def stones_taken(heap: Heap) -> Values:
    return {"Stones": {taker.name: taker.stones for taker in heap.players}}


def write_stones(heap: Heap, who: str, value: int) -> None:
    taker = next(taker for taker in heap.players if taker.name == who)
    heap.heap -= value - taker.stones
    taker.stones = value


class Heaps(Game[Heap]):
    id = "heaps"
    rulebook = "heaps"  # no rulebook: the help at a question says its section is not available
    title = "Heaps"
    player_counts = (1, 3)
    reserved_names = ("heap",)
    rulings = RulingSet(None, (TAKING,), {TAKING.name: TAKING.values})
    short_headers = {"Stones": "St.", "Colour": "Col.", **SHORT_PARTS}
    progression = Progression("round", stones_taken, "stones taken")
    role = RoleField("Colour", "players", "colour")
    correction_example = "Ann stones +1 ; a stone fell"
    play = staticmethod(play)
    final_count = staticmethod(final_count)

    def initial_state(self, setup: Setup) -> Heap:
        return Heap([Taker(name) for name in setup.players], setup.rulings)

    def termination(self, state: Heap) -> Termination | None:
        return Termination("heap-empty", "the heap is empty")

    def player_names(self, state: Heap) -> Sequence[str]:
        return [taker.name for taker in state.players]

    def correction_fields(self) -> Sequence[Field[Heap]]:
        read = lambda heap, who: next(taker.stones for taker in heap.players if taker.name == who)  # noqa: E731
        return [Counter("stones", read, write_stones, lambda heap, who: (0, STONES))]

    def invariant_errors(self, state: Heap) -> list[str]:
        held = sum(taker.stones for taker in state.players)
        return [] if held + state.heap == STONES and state.heap >= 0 else ["stones do not add up"]

    def header(self, state: Heap) -> Header:
        return Header(state.round or None, state.active, "take", state.active, f"{state.heap} stones left")

    def public_view(self, state: Heap) -> PublicView:
        return PublicView(["Player", "Colour", "Stones"],
                          [[taker.name, taker.colour or "-", str(taker.stones)] for taker in state.players],
                          [f"Heap: {state.heap}"])

    def hidden_view(self, state: Heap, player: str) -> list[str]:
        return [f"{player}: nothing is hidden"]


def score(data: object) -> ScoreReport:
    players = [PlayerScore(entry["name"], read_int(entry, "stones", entry["name"], 0, STONES),
                           {"stones": read_int(entry, "stones", entry["name"], 0, STONES)})
               for entry in read_players(data, 1, 3)]
    assign_ranks(players, lambda player: -(player.total or 0))
    return ScoreReport("heaps", True, players, [player.name for player in players if player.rank == 1])


def ask_stones(names: list[str]) -> Generator[Question, Any, dict[str, Any]]:
    players = []
    for name in names:
        stones = yield from ask(Number(f"{name}: stones taken", "take", maximum=STONES))
        players.append({"name": name, "stones": stones})
    return {"players": players}


HEAPS = Heaps()
SCORING = Scoring(score, ask_stones, SHORT_PARTS)
ROW = GameInfo("heaps", "Heaps", ("hp",), 1, 3, lambda: SCORING, lambda: HEAPS)
"""The one registry row: everything else is above, in this test."""


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "GAMES", (*registry.GAMES, ROW))


def referee(*args: str) -> Result:
    return CliRunner().invoke(app_of_referee(), list(args), env=ENVIRONMENT)


def app_of_referee() -> Any:
    from referee.cli.app import app

    return app


GAME_LINES = """\
black    # Ann
white    # Bo
3
3
adjust Ann stones +1 ; a stone fell
3        # the heap is empty: Ann 7, Bo 3
"""


@dataclass
class Played:
    db: Path
    session: str
    files: dict[str, Path] = field(default_factory=dict)


@pytest.fixture
def played(tmp_path: Path) -> Played:
    answers = tmp_path / "heaps.txt"
    answers.write_text(GAME_LINES, encoding="utf-8")
    db = tmp_path / "db"
    result = referee("play", "hp", "--players", "Ann,Bo", "--db", str(db), "--answers", str(answers))
    assert result.exit_code == 0, result.output
    assert "Winner: Ann" in result.output
    (meta,) = Store(db).list()
    return Played(db, meta.id)


def test_the_sixth_game_is_listed_and_played_to_its_end(played: Played) -> None:
    assert "heaps" in referee("games").output
    (meta,) = Store(played.db).list()
    assert meta.status == "finished" and meta.winners == ["Ann"] and "-heaps-" in meta.id
    assert meta.summary is not None and meta.summary["role_label"] == "Colour"
    assert [(player["name"], player["total"], player["role"]) for player in meta.summary["players"]] == [
        ("Ann", 7, "black"), ("Bo", 3, "white")]


def test_the_sixth_game_scores_on_its_own(tmp_path: Path) -> None:
    holdings = tmp_path / "stones.json"
    holdings.write_text(json.dumps({"players": [{"name": "Ann", "stones": 4}, {"name": "Bo", "stones": 6}]}))
    result = referee("score", "heaps", "--input", str(holdings), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["winners"] == ["Bo"] and [player["total"] for player in report["players"]] == [4, 6]
    answers = tmp_path / "asked.txt"
    answers.write_text("2\n1\n", encoding="utf-8")
    asked = referee("score", "heaps", "--players", "Ann,Bo", "--answers", str(answers))
    assert asked.exit_code == 0 and "Winner: Ann" in asked.output


def test_the_sixth_game_shows_its_session_whole_with_its_chart(played: Played) -> None:
    result = referee("sessions", "show", played.session, "--db", str(played.db))
    assert result.exit_code == 0, result.output
    assert "Ann stones +1 ; a stone fell" in result.output  # the correction, as typed
    assert "How it ended: The heap is empty." in result.output
    assert "Stones by round (stones taken; round 0 = after setup)" in result.output
    assert "taking" in result.output and "up-to-three" in result.output  # the ruling in force


def test_the_sixth_game_has_its_statistics_and_its_progression(played: Played) -> None:
    result = referee("stats", "--db", str(played.db), "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert {(row["player"], row["wins"]) for row in stats["players"]} == {("Ann", 1), ("Bo", 0)}
    assert {(row["role"], row["role_kind"]) for row in stats["roles"]} == {("black", "Colour"), ("white", "Colour")}
    chart = stats["progression"]["charts"][0]
    assert chart["title"] == "Stones" and chart["series"] == {"Ann": [0, 3, 7], "Bo": [0, 3, 3]}
    drawn = referee("stats", "--db", str(played.db))
    assert "Score progression of" in drawn.output and "Colour in heaps" in drawn.output


def test_the_sixth_game_exports_and_imports(played: Played, tmp_path: Path) -> None:
    report = referee("export", played.session, "--format", "md", "--db", str(played.db))
    assert report.exit_code == 0 and "# Heaps: session" in report.output and "| St." not in report.output
    exported = referee("export", played.session, "--db", str(played.db))
    assert exported.exit_code == 0
    assert json.loads(exported.output)["sessions"][0]["questions"] == 1
    plays = json.loads(referee("export", played.session, "--format", "bgstats", "--db", str(played.db)).output)
    assert plays["game"]["name"] == "Heaps" and not plays["game"]["noPoints"]
    (tmp_path / "export.json").write_text(exported.output, encoding="utf-8")
    other = tmp_path / "other"
    assert referee("import", str(tmp_path / "export.json"), "--db", str(other)).exit_code == 0
    (imported,) = Store(other).list()
    assert imported.winners == ["Ann"] and imported.status == "finished"


def test_the_sixth_games_typed_ruling_and_narrow_headers(tmp_path: Path) -> None:
    answers = tmp_path / "one.txt"
    answers.write_text("black\nwhite\n" + "1\n" * 10, encoding="utf-8")
    result = CliRunner().invoke(
        app_of_referee(),
        ["play", "heaps", "--players", "Ann,Bo", "--ruling", "taking=exactly-one", "--db", str(tmp_path / "db"),
         "--answers", str(answers)],
        env={**ENVIRONMENT, "COLUMNS": "26"},
    )
    assert result.exit_code == 0, result.output
    assert "Winner: Ann, Bo" in result.output  # one stone a turn: five each
    assert "St." in result.output and "Col." in result.output  # the game's own short headers, on a narrow screen
    refused = referee("play", "heaps", "--players", "Ann,Bo", "--ruling", "taking=all", "--db", str(tmp_path / "db"),
                      "--answers", str(answers))
    assert refused.exit_code == 2 and "taking=up-to-three|exactly-one" in refused.output
