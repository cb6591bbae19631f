"""The shortcuts that keep `sessions show` and `export -f md` of a long session within 2x of its
resume (benchmarks/long_history.py measures them) show exactly what the long way shows: the log
written row by row is rich's table to the byte, and the charts and the report's tables are read at
the end of each round to the same values as after every entry."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from history_support import EVERY_GAME, SHORT_GAME, entries_of

import referee.cli.render
from referee.cli.history_cmd import show_stored
from referee.cli.render import make_console
from referee.engine.driver import Entry
from referee.engine.simulate import play_random_game
from referee.export import round_views
from referee.games.registry import load_game
from referee.history import StoredSession
from referee.progress import progression
from referee.store import SessionMeta
from referee.timeline import walk

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def random_log(game_id: str, players: tuple[str, ...], seed: int, corrections: bool) -> list[Entry]:
    game = load_game(game_id)
    entries = list(play_random_game(game, list(players), random.Random(seed)).entries)
    if corrections and game_id == "council-of-blackthorn":  # long reasons, which wrap, between the answers
        padded: list[Entry] = []
        for number, entry in enumerate(entries):
            if number % 7 == 3:
                reason = "a card's effect, written out at length " * (number % 3 + 1)
                padded += [Entry(adjust=f"{players[0]} influence +1", reason=reason.strip()),
                           Entry(adjust=f"{players[0]} influence -1", reason="taken back")]
            padded.append(entry)
        entries = padded
    return entries


LOGS = [(game_id, players, seed) for game_id, players in EVERY_GAME for seed in (1, 2)]


def stored(game_id: str, players: tuple[str, ...], entries: list[Entry]) -> StoredSession:
    meta = SessionMeta("20260101-100000-test-0001", game_id, list(players), {}, "2026-01-01 10:00:00",
                       questions=load_game(game_id).questions_version)
    return StoredSession(meta, [entry.to_json() for entry in entries])


def shown(session: StoredSession, width: int, colour: bool, monkeypatch: pytest.MonkeyPatch, fast: bool) -> str:
    monkeypatch.setattr(referee.cli.render, "FAST_TABLE_ROWS", 1 if fast else 10**9)
    options: dict[str, Any] = {"force_terminal": True, "color_system": "standard"} if colour else {}
    console = make_console(file=io.StringIO(), width=width, **options)
    show_stored(console, session, load_game(session.meta.game))
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text


@pytest.mark.parametrize(("game_id", "players", "seed"), LOGS)
def test_the_log_written_row_by_row_is_richs_table(game_id: str, players: tuple[str, ...], seed: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    session = stored(game_id, players, random_log(game_id, players, seed, corrections=True))
    for width in (60, 80, 100, 200):
        assert shown(session, width, False, monkeypatch, fast=True) == shown(session, width, False, monkeypatch,
                                                                            fast=False), width
    coloured = shown(session, 100, True, monkeypatch, fast=True)
    assert "\x1b[33m" in coloured or game_id != "council-of-blackthorn"  # corrections in yellow
    assert ANSI.sub("", coloured) == ANSI.sub("", shown(session, 100, True, monkeypatch, fast=False))


def test_a_table_with_text_rich_must_measure_is_richs_to_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    names = ("Zoë", "Bo")  # one column each: still written row by row; a wide character is not
    entries = entries_of(SHORT_GAME.replace("Ann", "Zoë"))
    for players in (names, ("日本", "Bo")):
        session = stored("council-of-blackthorn", players, [Entry(adjust=entry.adjust.replace("Zoë", players[0]),
                                                                  reason=entry.reason)
                                                            if entry.adjust else entry for entry in entries])
        assert shown(session, 80, False, monkeypatch, fast=True) == shown(session, 80, False, monkeypatch,
                                                                         fast=False)


def every_step(game_id: str, players: tuple[str, ...], entries: list[Entry]) -> tuple[dict[int, Any], dict[int, Any]]:
    """The charted values and public views of each round read after every entry (the long way)."""
    game = load_game(game_id)
    values: dict[int, Any] = {}
    views: dict[int, Any] = {}
    spec = game.progression

    def after(step: Any, driver: Any) -> bool:
        views[step.round] = game.public_view(driver.state)
        if spec is not None:
            values[step.round] = spec.read(driver.state)
        return False

    walk(game, list(players), {}, entries, after)
    return values, views


@pytest.mark.parametrize(("game_id", "players", "seed"), LOGS)
def test_rounds_read_at_their_end_hold_what_every_entry_would_leave(game_id: str, players: tuple[str, ...],
                                                                    seed: int) -> None:
    entries = random_log(game_id, players, seed, corrections=True)
    for length in (len(entries), len(entries) // 2, 1):  # a finished game, one stopped midway, one entry
        values, views = every_step(game_id, players, entries[:length])
        game = load_game(game_id)
        _walked, read = round_views(game, list(players), {}, entries[:length])
        assert read == views
        charts = progression(game, list(players), {}, entries[:length])
        for chart in charts:
            for name, series in chart.series.items():
                assert series[1:] == [values[number][chart.title].get(name, 0) for number in chart.rounds[1:]]
