"""A session is played with one version of its game's questions, and a stored session is replayed
with the version it recorded: so when a game's questions change, older logs still replay to the
same state.

Tally is a toy whose version 2 merged the two questions of version 1 (how many, then how many
more) into one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.asks import Number, ask
from referee.engine.driver import Entry, replay
from referee.engine.game import Flow, Game, Header, PublicView, Say, Setup, Steps
from referee.errors import SessionError
from referee.outcome import PlayerScore, ScoreReport
from referee.session import LiveSession
from referee.store import SessionMeta, Store


@dataclass
class Count:
    name: str
    questions: int
    total: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def play(count: Count, say: Say) -> Steps:
    if count.questions == 1:
        count.total += yield from ask(Number("How many?", "count"))
        count.total += yield from ask(Number("How many more?", "count"))
    else:
        count.total += yield from ask(Number("How many in all?", "count", maximum=198))


def final_count(count: Count, say: Say) -> Flow:
    yield from ()
    return ScoreReport("tally", True, [PlayerScore(count.name, count.total)], [count.name])


class Tally(Game[Count]):
    id = "tally"
    rulebook = "tally"
    title = "Tally"
    player_counts = (1, 1)
    questions_version = 2
    play = staticmethod(play)
    final_count = staticmethod(final_count)

    def initial_state(self, setup: Setup) -> Count:
        return Count(setup.players[0], setup.questions)

    def player_names(self, state: Count) -> Sequence[str]:
        return [state.name]

    def invariant_errors(self, state: Count) -> list[str]:
        return []

    def header(self, state: Count) -> Header:
        return Header()

    def public_view(self, state: Count) -> PublicView:
        return PublicView(["Player", "Total"], [[state.name, str(state.total)]])

    def hidden_view(self, state: Count, player: str) -> list[str]:
        return []


TALLY = Tally()


def load(game_id: str) -> Game[Any]:
    assert game_id == TALLY.id
    return TALLY


def stored_meta(store: Store, session_id: str) -> dict[str, Any]:
    document = json.loads((store.sessions_dir / f"{session_id}.json").read_text(encoding="utf-8"))
    meta: dict[str, Any] = next(iter(document["meta"].values()))
    return meta


def test_a_new_session_records_the_version_it_is_played_with(tmp_path: Path) -> None:
    store = Store(tmp_path)
    live = LiveSession.start(store, TALLY, ["Ann"], {})
    assert live.driver.pending is not None and live.driver.pending.prompt == "How many in all?"
    live.answer("12")
    live.close()
    live.release()
    assert live.meta.questions == 2 and stored_meta(store, live.meta.id)["questions"] == 2
    again = LiveSession.resume(store, live.meta.id, load)
    again.release()
    assert again.driver.report is not None and again.driver.report.players[0].total == 12


def test_a_session_stored_without_a_version_is_version_1_and_replays_as_it_was_played(tmp_path: Path) -> None:
    store = Store(tmp_path)
    old = SessionMeta.from_json({"id": "20240101-100000-tally-beef", "game": "tally", "players": ["Ann"]})
    assert old.questions == 1
    file = store.create(old)
    file.add({"answer": "5"})
    file.add({"answer": "7"})
    file.unlock()
    live = LiveSession.resume(store, old.id, load)
    live.release()
    assert live.dropped == 0 and live.driver.questions == 1
    assert live.driver.state.questions == 1 and live.driver.report is not None
    assert live.driver.report.players[0].total == 12
    assert [step.question for step in live.describe_last(2)] == ["How many?", "How many more?"]


def test_every_replay_hands_the_recorded_version_to_the_game() -> None:
    log = [Entry(answer="5"), Entry(answer="7")]
    assert replay(TALLY, ["Ann"], {}, log, questions=1).driver.state.total == 12
    assert replay(TALLY, ["Ann"], {}, log).applied == 1  # version 2 asks one question: the second entry is too many


def test_a_version_newer_than_the_game_is_refused_in_one_line(tmp_path: Path) -> None:
    store = Store(tmp_path)
    newer = SessionMeta("20990101-100000-tally-beef", "tally", ["Ann"], questions=3)
    store.create(newer).unlock()
    with pytest.raises(SessionError, match="version 3 of the questions; this referee asks versions 1 to 2"):
        LiveSession.resume(store, newer.id, load)
