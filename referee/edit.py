"""Changing a past answer: the session is replayed with the new answer, and what follows is kept
where it still fits.

Entry k takes its new value; the entries after it are replayed in order. The first one that no
longer fits (a choice no longer offered, a count out of range, a correction the rules now refuse)
is asked again, and the replay goes on after it: later entries that fit again are kept. Entries
the game no longer reaches (the change ended it sooner) are left out. Every change is recorded:
which entry, the old value, the new value, when, and why. Nothing here reads a terminal or writes
a file; the command line supplies the re-asked answers and saves the result.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from referee.asks import MAX_ANSWER_LENGTH
from referee.engine.driver import Driver, Entry, replay
from referee.engine.game import Game
from referee.errors import InvalidAdjustment, InvalidAnswer, RefereeError
from referee.store import log_entry
from referee.user_text import hidden_characters, visible

TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}")
"""An edit record's time, as `now` writes it."""

CHANGED = "changed"
ASKED_AGAIN = "asked again: the old value no longer fits"
LEFT_OUT = "left out: it no longer fits"
NOT_REACHED = "left out: the game ended before it"


class EditError(RefereeError):
    """An edit that cannot be made (no such entry, a value that does not fit its question)."""


@dataclass(frozen=True)
class EditRecord:
    """One change an edit made to the log: which entry, its old and new values, when, and why."""

    entry: int
    old: Entry | None
    new: Entry | None
    at: str
    why: str

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "old": self.old.to_json() if self.old else None,
            "new": self.new.to_json() if self.new else None,
            "at": self.at,
            "why": self.why,
        }


Reask = Callable[[int, Entry, str, Driver], Entry | None]
"""Asked for a replacement of entry n (its old value and why it does not fit, the driver waiting at
its question): a new entry, or None to leave it out. Called again, with the new problem, for as long
as the replacement does not fit either."""


@dataclass
class EditResult:
    """A session after an edit: the replayed driver, a record of every entry changed, asked again or
    left out, and who had won before."""

    driver: Driver
    """The session after the edit: its entries are the new log."""
    records: list[EditRecord] = field(default_factory=list)
    winners_before: list[str] | None = None
    """None when the game had not ended before the edit."""

    @property
    def entries(self) -> list[Entry]:
        return list(self.driver.entries)


def now() -> str:
    return datetime.now().isoformat(sep=" ", timespec="seconds")


def driver_before(
    game: Game[Any], players: Sequence[str], options: Mapping[str, Any], entries: Sequence[Entry], number: int,
    questions: int | None = None,
) -> Driver:
    """The session waiting at entry `number` (1-based), as it stood when that entry was given
    (`questions`: the version of the questions the log answers)."""
    if not 1 <= number <= len(entries):
        raise EditError(f"no entry {number}: the log has entries 1 to {len(entries)}")
    result = replay(game, players, options, entries[: number - 1], questions=questions)
    if result.applied != number - 1 or result.driver.finished:
        raise EditError(f"the log no longer replays up to entry {number} ({result.error}); resume the session first")
    result.driver.take_messages()
    return result.driver


def with_reason(old: Entry, value: str) -> Entry:
    """The new value of entry `old`: an answer, or a correction ('TEXT ; REASON', the old reason kept
    when none is given)."""
    if old.adjust is None:
        return Entry(answer=value)
    text, _, reason = value.partition(";")
    if text.strip().lower().startswith("adjust "):
        text = text.strip()[len("adjust ") :]
    return Entry(adjust=text.strip(), reason=reason.strip() or old.reason or "")


def edit(
    game: Game[Any],
    players: Sequence[str],
    options: Mapping[str, Any],
    entries: Sequence[Entry],
    number: int,
    value: str,
    reask: Reask,
    winners_before: list[str] | None = None,
    questions: int | None = None,
) -> EditResult:
    """Give entry `number` the new `value` and replay the rest (see the module's description)."""
    driver = driver_before(game, players, options, entries, number, questions)
    old = entries[number - 1]
    new = with_reason(old, value)
    try:
        driver.apply(new, typed=True)
    except (InvalidAnswer, InvalidAdjustment) as error:
        raise EditError(f"the new value of entry {number} does not fit: {error}") from None
    result = EditResult(driver, winners_before=winners_before)
    result.records.append(EditRecord(number, old, driver.entries[-1], now(), CHANGED))
    for later, entry in enumerate(entries[number:], number + 1):
        if driver.finished:
            result.records.append(EditRecord(later, entry, None, now(), NOT_REACHED))
            continue
        try:
            driver.apply(entry)
        except (InvalidAnswer, InvalidAdjustment) as error:
            replacement = ask_again(driver, later, entry, str(error), reask)
            why = ASKED_AGAIN if replacement is not None else LEFT_OUT
            result.records.append(EditRecord(later, entry, replacement, now(), why))
        driver.take_messages()
    driver.take_messages()
    return result


def ask_again(driver: Driver, number: int, old: Entry, problem: str, reask: Reask) -> Entry | None:
    """A replacement for entry `number` that fits where the game now stands (or None: left out)."""
    while True:
        replacement = reask(number, old, problem, driver)
        if replacement is None:
            if old.adjust is None:
                problem = "an answer cannot be left out: the game waits for it"
                continue
            return None
        try:
            driver.apply(replacement, typed=True)
        except (InvalidAnswer, InvalidAdjustment) as error:
            problem = str(error)
            continue
        return driver.entries[-1]


def stored_value(data: object) -> str:
    """An edit record's old or new value as stored, for reading ('-' for none or a value not understood)."""
    try:
        return describe(Entry.from_json(log_entry(data)))
    except ValueError:
        return "-"


def check_record(data: object) -> dict[str, Any]:
    """A stored edit record, checked (imports): entry number, old and new values, when, why."""
    if not isinstance(data, dict) or set(data) != {"entry", "old", "new", "at", "why"}:
        raise ValueError("an edit record needs exactly: entry, old, new, at, why")
    if type(data["entry"]) is not int or data["entry"] < 1:
        raise ValueError("an edit record's entry is not a whole number")
    if not isinstance(data["at"], str) or not isinstance(data["why"], str):
        raise ValueError("an edit record's time and reason are text")
    if not TIME.fullmatch(data["at"]):
        raise ValueError(f"an edit record's time is not a time as YYYY-MM-DD HH:MM:SS ({visible(data['at'][:40])!r})")
    if len(data["why"]) > MAX_ANSWER_LENGTH or hidden_characters(data["why"]):
        raise ValueError(f"an edit record's reason is not plain text of at most {MAX_ANSWER_LENGTH} characters")
    for value in (data["old"], data["new"]):
        if value is not None:
            log_entry(value)
    return dict(data)


def describe(entry: Entry | None) -> str:
    """An entry as the table types it, or '(nothing)'."""
    return "(nothing)" if entry is None else entry.text()
