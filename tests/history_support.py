"""Stored sessions for the history tests: played through the real driver and the real store."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from referee.engine.driver import Entry
from referee.engine.simulate import play_random_game
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store

EVERY_GAME: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("council-of-blackthorn", ("Ann", "Bo", "Cy")),
    ("council-of-serpents", ("Ann", "Bo", "Cy", "Di")),
    ("blackwood", ("Ann", "Bo")),
    ("cutthroat-kingdoms", ("Ann", "Bo", "Cy")),
    ("got-lcg-1e", ("Ann", "Bo", "Cy")),
)

SHORT_GAME = """\
9
5
1
1
1 2 0 3
adjust Ann noble =13 ; test
adjust Ann guild =13 ; test
adjust Bo legion =13 ; test
legion
building
4
peasant
noble
4
6
"""
"""Two-player Council of Blackthorn over in one round (three tracks pushed to 13 by corrections):
Ann 37 influence beats Bo 23; treason revealed Bo 4, Ann 6, nobody beheaded."""


def entries_of(text: str) -> list[Entry]:
    """An answers file's lines as log entries ('adjust TEXT ; REASON' is a correction)."""
    entries = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("adjust "):
            correction, _, reason = line[len("adjust ") :].partition(";")
            entries.append(Entry(adjust=correction.strip(), reason=reason.strip()))
        else:
            entries.append(Entry(answer=line))
    return entries


def store_entries(store: Store, game: str, players: Sequence[str], entries: Sequence[Entry]) -> str:
    """Play `entries` into a new stored session, as `referee play` does; returns its id."""
    live = LiveSession.start(store, load_game(game), players, {})
    try:
        for entry in entries:
            if entry.adjust is not None:
                live.adjust(entry.adjust, entry.reason or "")
            else:
                live.answer(entry.answer or "")
        live.meta.played_seconds += 95 * 60
        live.close("finished" if live.driver.finished else "playing")
    finally:
        live.release()
    return live.meta.id


def store_random_game(store: Store, game: str, players: Sequence[str], seed: int) -> str:

    driver = play_random_game(load_game(game), players, random.Random(seed))
    return store_entries(store, game, players, driver.entries)


def store_every_game(root: Path, seed: int = 3) -> dict[str, str]:
    """One finished random session of every guided game; game id -> session id."""
    store = Store(root)
    return {game: store_random_game(store, game, players, seed) for game, players in EVERY_GAME}


def answers_text(entries: Sequence[Entry]) -> str:
    lines = []
    for entry in entries:
        lines.append(f"adjust {entry.adjust} ; {entry.reason}" if entry.adjust is not None else entry.answer or "")
    return "\n".join(lines) + "\n"
