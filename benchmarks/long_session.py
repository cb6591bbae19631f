"""Long sessions and full stores to measure against, built through the real engine and store.

A 5,000-answer session: a random four-player Council of Blackthorn game (about 200 answers) whose
answers are interleaved with pairs of corrections that cancel out ('Ann influence +1' then
'Ann influence -1', each with a reason). Corrections are log entries like answers: each is
validated on replay and durably written, so the log is as long to store and to resume as 5,000
answers, and the game's course is unchanged. The last answers of the game are kept out of the
stored log: they are the answers the latency benchmark gives.

The stored session sits as a long-played one does: most of the log folded into its session file,
and a journal that is a few answers short of its next fold, so the measured answers include one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.engine.driver import Entry, replay
from referee.engine.game import Game
from referee.engine.simulate import play_random_game
from referee.games.registry import load_game
from referee.store import FOLD_EVERY, SessionMeta, Store

GAME_ID = "council-of-blackthorn"
PLAYERS = ("Ann", "Bo", "Cy", "Di")
CORRECTED_PLAYER = PLAYERS[0]
CORRECTION_REASON = "benchmark padding: a correction and its reversal"


@dataclass(frozen=True)
class LongLog:
    """A stored log of `len(entries)` entries, and the answers that finish the game after it."""

    game: Game[Any]
    players: tuple[str, ...]
    entries: tuple[Entry, ...]
    tail: tuple[str, ...]
    winners: tuple[str, ...]


def random_answers(game: Game[Any], players: Sequence[str], seed: int) -> tuple[list[str], list[str]]:
    """The answers of one random complete game, and its winners."""
    driver = play_random_game(game, players, random.Random(seed))
    assert driver.report is not None
    return [entry.answer or "" for entry in driver.entries], list(driver.report.winners)


def padded(answers: Sequence[str], total: int) -> list[Entry]:
    """The answers with cancelling correction pairs spread evenly before them, `total` entries.

    Corrections go before answers, never after the last one: a finished game takes none.
    """
    corrections = total - len(answers)
    if corrections < 0:
        raise ValueError(f"{len(answers)} answers do not fit in {total} entries")
    pairs, odd = divmod(corrections, 2)
    entries: list[Entry] = []
    if odd:
        entries.append(Entry(adjust=f"{CORRECTED_PLAYER} influence +0", reason=CORRECTION_REASON))
    for index, answer in enumerate(answers):
        for _ in range((index + 1) * pairs // len(answers) - index * pairs // len(answers)):
            entries.append(Entry(adjust=f"{CORRECTED_PLAYER} influence +1", reason=CORRECTION_REASON))
            entries.append(Entry(adjust=f"{CORRECTED_PLAYER} influence -1", reason=CORRECTION_REASON))
        entries.append(Entry(answer=answer))
    return entries


def build_long_log(total: int, tail: int, seed: int = 1) -> LongLog:
    """A log of `total` entries that stops `tail` answers before the end of its game."""
    game = load_game(GAME_ID)
    for attempt in range(seed, seed + 100):
        answers, winners = random_answers(game, PLAYERS, attempt)
        if len(answers) > tail + 20:
            break
    else:
        raise RuntimeError(f"no random game of more than {tail + 20} answers")
    entries = padded(answers[: len(answers) - tail], total)
    check = replay(game, PLAYERS, {}, entries)
    if check.applied != len(entries) or check.driver.finished:
        raise RuntimeError(f"the padded log does not replay: {check.error}")
    return LongLog(game, PLAYERS, tuple(entries), tuple(answers[len(answers) - tail :]), tuple(winners))


def place_session(store: Store, log: LongLog, session_id: str, journal_lines: int) -> None:
    """Store `log` as session `session_id`: folded, then `journal_lines` entries in its journal."""
    store.ensure()
    # The log's answers were played with the game's current questions, so the session says so (as
    # `referee play` records it); without it the session reads as version 1.
    meta = SessionMeta(session_id, log.game.id, list(log.players), {}, time.strftime("%Y-%m-%d %H:%M:%S"),
                       questions=log.game.questions_version)
    file = store.session_file(session_id)
    for stale in (file.path, file.journal_path):
        stale.unlink(missing_ok=True)
    file.lock()
    try:
        file.meta = meta
        split = len(log.entries) - journal_lines
        file.entries = [entry.to_json() for entry in log.entries[:split]]
        file.fold()
        for entry in log.entries[split:]:
            file.add(entry.to_json())
    finally:
        file.unlock()
    store.update_index(meta)


def journal_lines_before_fold(measured_answers: int) -> int:
    """Journal lines to leave so that the next fold falls in the middle of the measured answers."""
    return max(0, FOLD_EVERY - max(1, measured_answers // 2))


def fill_store(store: Store, count: int, distinct_games: int = 10, seed: int = 1000) -> None:
    """Store `count` finished sessions (random complete games), then build the index from them."""
    store.ensure()
    game = load_game(GAME_ID)
    games = [random_answers(game, PLAYERS, seed + offset) for offset in range(min(count, distinct_games))]
    for number in range(count):
        answers, winners = games[number % len(games)]
        meta = SessionMeta(
            f"stored-{number:05d}", game.id, list(PLAYERS), {}, f"2024-01-01 00:{number // 60 % 60:02d}:"
            f"{number % 60:02d}", "finished", winners, len(answers), questions=game.questions_version,
        )
        file = store.session_file(meta.id)
        file.meta = meta
        file.entries = [{"answer": answer} for answer in answers]
        file.fold()
    store.index_path.unlink(missing_ok=True)
    store.rebuild_index()  # the index made from the session files: one write instead of `count`


def session_ids(store: Store) -> list[str]:
    return [meta.id for meta in store.list()]


def answers_file(directory: Path, answers: Sequence[str]) -> Path:
    path = directory / "tail-answers.txt"
    path.write_text("\n".join(answers) + "\n", encoding="utf-8")
    return path
