"""Sessions out of the referee and back in: JSON (the whole session, re-importable), a Markdown game
report, and BG Stats plays.

JSON carries each session's setup, its log and its edits: everything the session is. Import
replays every log before it writes anything, so a file that does not replay is refused whole;
a session already in the store is left as it is (never duplicated), and a file written by a
newer referee is refused with its version named.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from referee.asks import text_problem
from referee.edit import check_record, stored_value
from referee.engine.driver import Driver, Entry, replay
from referee.engine.game import Game, PublicView
from referee.errors import RefereeError, SessionError
from referee.history import StoredSession, played_time
from referee.store import SESSION_ID, SessionMeta, Store, log_entry
from referee.summary import Summary, summarise
from referee.timeline import Step, Walk, walk
from referee.user_text import json_visible, visible

EXPORT_FORMAT = "referee-sessions"
EXPORT_VERSION = 1
SOURCE_NAME = "referee"
ENTRY_TEXTS = {"answer": "answer", "adjust": "correction", "reason": "reason"}
"""What each text of a log entry is called when it is refused."""


class ImportRefused(RefereeError):
    """A file that cannot be imported: not an export, a newer format, or a session that does not replay."""


# --- JSON --------------------------------------------------------------------------------------------


def session_json(stored: StoredSession) -> dict[str, Any]:
    meta = stored.meta
    return {
        "id": meta.id,
        "game": meta.game,
        "players": list(meta.players),
        "options": dict(meta.options),
        "started": meta.started,
        "updated": meta.updated,
        "status": meta.status,
        "played_seconds": meta.played_seconds,
        "winners": list(meta.winners),
        "entries": stored.logged,  # checked as read, and written out as they are
        "edits": [dict(edit) for edit in meta.edits],
        "questions": meta.questions,
    }


def json_document(sessions: Sequence[StoredSession], exported_at: str) -> dict[str, Any]:
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported": exported_at,
        "sessions": [session_json(stored) for stored in sessions],
    }


def session_json_text(stored: StoredSession) -> str:
    """One session's part of `json_document`, written compactly (on one line), control characters as
    JSON escapes."""
    return json_visible(json.dumps(session_json(stored), ensure_ascii=False))


def json_text(sessions: Iterable[str], exported_at: str) -> str:
    """`json_document` written compactly from each session's `session_json_text`, one at a time: an
    export of every session never holds every log at once."""
    head = json.dumps(json_document([], exported_at), ensure_ascii=False)
    assert head.endswith("[]}")
    return f"{head[:-2]}{', '.join(sessions)}]}}\n"


@dataclass
class Checked:
    """A session read from an export and replayed: ready to be written."""

    meta: SessionMeta
    entries: list[dict[str, str]]


@dataclass
class ImportResult:
    """What an import did: the sessions it wrote, and those already in the store."""

    imported: list[str] = field(default_factory=list)
    present: list[str] = field(default_factory=list)
    """Already in the store: left as they are."""


def check_document(document: object) -> list[Checked]:
    """Every session of an export, checked and replayed; ImportRefused names the first problem."""
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise ImportRefused(f"not a referee export (a JSON object with \"format\": \"{EXPORT_FORMAT}\")")
    version = document.get("version")
    if type(version) is not int or version < 1:
        raise ImportRefused("the export has no valid format version")
    if version > EXPORT_VERSION:
        raise ImportRefused(
            f"the export was written by a newer referee (format version {version}; this one reads up to "
            f"{EXPORT_VERSION}); upgrade to import it. Nothing was imported."
        )
    sessions = document.get("sessions")
    if not isinstance(sessions, list):
        raise ImportRefused("the export has no list of sessions")
    checked = []
    seen: set[str] = set()
    for index, data in enumerate(sessions, 1):
        try:
            session = check_session(data)
        except (RefereeError, ValueError, KeyError, TypeError) as problem:
            name = data.get("id") if isinstance(data, dict) else None
            raise ImportRefused(f"session {index} ({name or 'no id'}): {problem}. Nothing was imported.") from None
        if session.meta.id in seen:
            raise ImportRefused(f"session {session.meta.id} appears twice in the file. Nothing was imported.")
        seen.add(session.meta.id)
        checked.append(session)
    return checked


MAX_PLAYED_SECONDS = 366 * 24 * 60 * 60
"""A year: the longest playing time an imported session may say it has (no table plays longer)."""
TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?")
"""How the referee writes a time: 2026-01-31 20:15:00, when saving with microseconds."""
OPTIONS = frozenset({"rulings"})
"""What a session's options hold: the table's --ruling overrides, nothing else."""


def check_time(value: str, name: str, empty: bool = False) -> str:
    """A time as the referee writes it; ValueError (naming the field) for anything else."""
    if empty and value == "":
        return value
    try:
        if TIME.fullmatch(value):
            datetime.fromisoformat(value)
            return value
    except ValueError:
        pass
    raise ValueError(f"'{name}' is not a time as YYYY-MM-DD HH:MM:SS ({visible(value[:40], keep='')!r})")


def check_session(data: object) -> Checked:
    """One exported session, every field checked as if the table had typed it: the id, the game
    (an alias is stored as the game's id), the players, the options (rulings only, each a ruling of
    the game), the times, the playing time, the log (replayed) and the edit records. What the log
    decides (status, winners, summary) is derived again, not taken from the file."""
    from referee.games.registry import load_game

    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    meta = SessionMeta.from_json({key: value for key, value in data.items() if key not in ("entries",)})
    if not SESSION_ID.match(meta.id):
        raise ValueError(f"bad session id {visible(meta.id[:70], keep='')!r}: lowercase letters, digits and '-' only")
    meta.started = check_time(meta.started, "started")
    meta.updated = check_time(meta.updated, "updated", empty=True)
    if not 0 <= meta.played_seconds <= MAX_PLAYED_SECONDS:
        raise ValueError(f"its playing time ('played_seconds') is not a number of seconds from 0 to "
                         f"{MAX_PLAYED_SECONDS:,}")
    unknown = sorted(set(meta.options) - OPTIONS)
    if unknown:
        raise ValueError(f"its options hold {visible(', '.join(unknown)[:70], keep='')}: only rulings are options")
    raw_entries = data.get("entries")
    if not isinstance(raw_entries, list):
        raise ValueError("no list of entries")
    entries = [log_entry(entry) for entry in raw_entries]
    for number, entry in enumerate(entries, 1):  # as the table must type them now (a replay is not held to it)
        problem = next(filter(None, (text_problem(text, ENTRY_TEXTS[key]) for key, text in entry.items())), None)
        if problem:
            raise ValueError(f"entry {number}: {problem}")
    meta.edits = [check_record(record) for record in meta.edits]
    game = load_game(meta.game)
    meta.game = game.id  # a game given by an alias is stored as the table's own sessions are
    game.check_players(meta.players)
    result = replay(game, meta.players, meta.options, [Entry.from_json(entry) for entry in entries],
                    questions=meta.questions)
    if result.applied != len(entries):
        raise SessionError(f"its log does not replay: entry {result.applied + 1}: {result.error}")
    report = result.driver.report
    # What follows from the log is derived again, not taken from the file.
    meta.status = "finished" if report is not None else "playing"
    meta.winners = list(report.winners) if report is not None else []
    meta.summary = summarise(game, result.driver).to_json() if report is not None else None
    meta.answers = len(entries)
    return Checked(meta, [dict(entry) for entry in entries])


def import_checked(store: Store, sessions: Sequence[Checked]) -> ImportResult:
    """Write the checked sessions that are not in the store yet."""
    result = ImportResult()
    store.ensure()
    for session in sessions:
        file = store.session_file(session.meta.id)
        file.lock()
        try:
            if file.path.exists():
                result.present.append(session.meta.id)
                continue
            file.meta = session.meta
            file.rewrite(session.entries)
            store.update_index(session.meta)
        finally:
            file.unlock()
        result.imported.append(session.meta.id)
    return result


# --- BG Stats ----------------------------------------------------------------------------------------

# The play format BG Stats documents for importing a play from another app ("Push plays to BG Stats
# from other apps or websites", https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
# The fields relied on: sourceName, sourcePlayId, playDate ("YYYY-MM-DD HH:MM:SS"), durationMin,
# comments; game: name, sourceGameId, highestWins, noPoints; players: name, sourcePlayerId, score,
# winner, startPlayer, rank, role. bggId is left out: the referee does not know the games'
# BoardGameGeek ids, and a wrong one would match the wrong game. location and board stay unset.
BGSTATS_PLAY_FIELDS = frozenset({"sourceName", "sourcePlayId", "playDate", "durationMin", "comments", "game",
                                 "players"})
BGSTATS_GAME_FIELDS = frozenset({"name", "sourceGameId", "highestWins", "noPoints"})
BGSTATS_PLAYER_FIELDS = frozenset({"name", "sourcePlayerId", "score", "winner", "startPlayer", "rank", "role"})


def bgstats_play(meta: SessionMeta, summary: Summary, game_name: str) -> dict[str, Any]:
    """One finished session as one BG Stats play."""
    players = []
    for result in summary.players:
        player: dict[str, Any] = {
            "name": result.name,
            "sourcePlayerId": result.name.casefold(),  # the same person in every session: the name, any case
            "winner": result.winner,
            "startPlayer": summary.start_player is not None and result.name == summary.start_player,
            "role": result.role or "",
        }
        if summary.scored and result.total is not None:
            player["score"] = result.total
        if result.rank is not None:
            player["rank"] = result.rank
        players.append(player)
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": meta.id,
        "playDate": meta.started,
        "game": {
            "name": game_name,
            "sourceGameId": meta.game,
            "highestWins": True,  # every scored game here is won by the most points
            "noPoints": not summary.scored,
        },
        "players": players,
        "comments": summary.ending,
    }
    minutes = round(meta.played_seconds / 60)
    if minutes > 0:
        play["durationMin"] = minutes
    return play


# --- Markdown -----------------------------------------------------------------------------------------

MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


def md(text: object) -> str:
    """Table text as data: on one line, control characters as escapes (`\\x1b`, as the screen shows
    them), Markdown's punctuation escaped."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", visible(" ".join(str(text).split()), keep=""))


def md_table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(md(column) for column in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(md(cell) for cell in row) + " |" for row in rows]
    return lines


def round_views(game: Game[Any], players: Sequence[str], options: Mapping[str, Any],
                entries: Sequence[Entry], questions: int | None = None) -> tuple[Walk, dict[int, PublicView]]:
    """The log walked, and the public view (nothing hidden) at the end of each round: read as the
    round's last entry is replayed (the next one is in another round), not after every entry."""
    views: dict[int, PublicView] = {}

    def after(step: Step, driver: Driver) -> bool:
        if (game.header(driver.state).round or 0) != step.round:
            views[step.round] = game.public_view(driver.state)
        return False

    played = walk(game, players, options, entries, after, questions=questions)
    if played.steps:
        views[played.steps[-1].round] = game.public_view(played.driver.state)
    return played, views


def markdown_report(stored: StoredSession) -> str:
    """A readable report of one session: players, setup, round by round, the final scoreboard."""
    from referee.games.registry import find_game, load_game
    from referee.timeline import where

    meta = stored.meta
    game = load_game(meta.game)
    played, views = round_views(game, meta.players, meta.options, stored.entries, meta.questions)
    report = played.driver.report
    lines = [f"# {md(find_game(meta.game).name)}: session {md(meta.id)}", ""]
    lines.append(f"- Players, in seat order: {md(', '.join(meta.players))}")
    lines.append(f"- Started: {md(meta.started)}")
    if meta.played_seconds:
        lines.append(f"- Time played: {played_time(meta.played_seconds)}")
    lines.append(f"- Status: {md(meta.status)}")
    if report is not None:
        lines.append(f"- Winner: {md(', '.join(report.winners) or 'nobody')}")
    rulings = game.to_json(played.driver.state).get("rulings", {})
    overrides = meta.options.get("rulings", {})
    if rulings:
        lines.append("- Rulings: " + "; ".join(
            f"{md(name)} = {md(value)}{' (set by the table)' if name in overrides else ''}"
            for name, value in rulings.items()))
    by_round: dict[int, list[Step]] = {}
    for step in played.steps:
        by_round.setdefault(step.round, []).append(step)
    for number, steps in by_round.items():
        counted, whose = steps[-1].header.columns()  # (a game counted in turns names its turns)
        lines += ["", "## Setup" if number == 0 else f"## {counted} {number}", ""]
        lines += md_table(
            ("#", whose, "Phase", "Question", "Answer or correction"),
            [(step.number, where(step.header)[1], where(step.header)[2], step.question or "(correction)",
              step.entry.text()) for step in steps],
        )
        view = views.get(number)
        if view is not None:
            lines += ["", "At the end of it:" if number else "After setup:", ""]
            lines += md_table(view.columns, view.rows)
    if played.error:
        lines += ["", f"The log stops replaying here: {md(played.error)}"]
    if report is not None:
        lines += ["", "## Final score", ""]
        parts: list[str] = []
        for player in report.players:
            parts += [part for part in player.breakdown if part not in parts]
        ordered = sorted(report.players, key=lambda player: (player.rank is None, player.rank or 0))
        lines += md_table(
            ("Rank", "Player", *(part.replace("_", " ") for part in parts), "Total", "Status"),
            [(player.rank if player.rank is not None else "-", player.name,
              *(player.breakdown.get(part, "") for part in parts),
              "-" if player.total is None else player.total,
              player.reason or ("winner" if player.name in report.winners else ("eliminated" if player.eliminated
                                                                               else "")))
             for player in ordered],
        )
        lines += ["", f"How it ended: {md(summarise(game, played.driver).ending)}"]
        if report.notes:
            lines += ["", "Tie-breaks and rulings applied:", ""] + [f"- {md(note)}" for note in report.notes]
    else:
        lines += ["", "The game has not ended."]
    if meta.edits:
        lines += ["", "## Edits", ""]
        lines += md_table(("When", "Entry", "Old", "New", "Why"), [
            (edit.get("at", ""), edit.get("entry", ""), stored_value(edit.get("old")), stored_value(edit.get("new")),
             edit.get("why", "")) for edit in meta.edits])
    return "\n".join(lines) + "\n"
