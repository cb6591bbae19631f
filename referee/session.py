"""A live session: the driver plus its durable answer log.

A session is its setup (game, players, options) and its log. Every accepted answer is written to
disk before the next question is shown; resume replays the log; undo replays all but the last
entries. The state is always derived from the log, never stored.

The session knows games only through what it is handed: the Game of a new session, and for a
stored one the way to load a game by its id (the layer above takes both from the registry).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.catalogue import CardCatalogue, CatalogueError
from referee.engine import facts
from referee.engine.cards import Catalogue
from referee.engine.driver import Driver, Entry, ReplayResult, replay
from referee.engine.game import Game
from referee.errors import SessionError
from referee.store import SessionFile, SessionMeta, Store

if TYPE_CHECKING:
    from referee.timeline import Step

GameLoader = Callable[[str], Game[Any]]
"""The guided game of a stored session's game id (referee.games.registry.load_game)."""


def saved_at() -> str:
    """A sortable time of saving, fine enough to order two saves in the same second."""
    return datetime.now().isoformat(sep=" ", timespec="microseconds")


def open_catalogue(store: Store, game: Game[Any]) -> CardCatalogue | None:
    kinds = game.card_kinds()
    return CardCatalogue(game.id, kinds, store.root) if kinds else None


class LiveSession:
    def __init__(self, store: Store, file: SessionFile, game: Game[Any], result: ReplayResult) -> None:
        self.store = store
        self.file = file
        self.game = game
        self.catalogue = open_catalogue(store, game)
        self.driver = result.driver
        self.driver.learned.clear()  # what a replay re-learned is in the catalogue already
        self.driver.use_catalogue(self.known_cards())
        self.notices: list[str] = []
        """Things worth saying that are not the game's (e.g. the catalogue could not be written)."""
        self.told: set[tuple[str, str]] = set()
        """The cards (kind, name) this session has said it remembers."""
        self.undone: list[Entry] = []
        """What undo took back, latest last, while nothing new has been entered: redo brings it back."""
        self.replay_error = result.error
        """Set when the stored log stopped fitting the rules; the session continues from there."""
        self.dropped = len(file.entries) - result.applied
        self.set_aside_path: Path | None = None
        """Where the answers that no longer replay were kept, when there were any."""

    @property
    def meta(self) -> SessionMeta:
        assert self.file.meta is not None
        return self.file.meta

    @classmethod
    def start(
        cls, store: Store, game: Game[Any], players: Sequence[str], options: Mapping[str, Any],
        label: str | None = None,
    ) -> LiveSession:
        """A new session of `game`; its id names the game by `label` (the registry's short name;
        the game's id when none is given)."""
        game.check_players(players)
        driver = Driver(game, players, options)  # refuses bad options before anything is written
        label = label or game.id
        meta = SessionMeta(
            store.new_id(label), game.id, list(players), dict(options), time.strftime("%Y-%m-%d %H:%M:%S"),
            updated=saved_at(), questions=driver.questions,
        )
        # No index row yet: rewriting the whole index would hold up the first question. The row is
        # written when the session closes; until then listings read the session's own file.
        file = store.create(meta, indexed=False, label=label)
        return cls(store, file, game, ReplayResult(driver, 0))

    @classmethod
    def resume(cls, store: Store, session_id: str, load: GameLoader) -> LiveSession:
        """A stored session, replayed; `load` gives the Game of its stored game id."""
        file = store.open(session_id)
        try:
            assert file.meta is not None
            game = load(file.meta.game)
            entries = [Entry.from_json(entry) for entry in file.entries]
            result = replay(game, file.meta.players, file.meta.options, entries, questions=file.meta.questions)
            session = cls(store, file, game, result)
            if session.dropped:
                # Continue after the answers that fit; the rest are kept in a file of their own.
                session.set_aside_path = file.set_aside(result.applied, result.error or "no longer fits")
            return session
        except Exception:
            file.unlock()
            raise

    def known_cards(self) -> Catalogue:
        if self.catalogue is None:
            return {}
        try:
            return self.catalogue.as_catalogue()
        except CatalogueError:
            return {}  # a damaged catalogue only means the cards are asked again

    def answer(self, raw: str) -> Entry:
        logged = len(self.driver.entries)
        entry = self.driver.answer(raw)
        self.undone.clear()  # something new was answered: what undo took back cannot come back
        for added in self.driver.entries[logged:]:  # an answer at a table step may log its confirmation too
            self._save(added)
        self._learn()
        self._after_change()
        return entry

    def _learn(self) -> None:
        """Keep the cards the table named for the first time; the session log has them anyway."""
        learned, self.driver.learned = self.driver.learned, []
        if self.catalogue is None or not learned:
            return
        try:
            for card in learned:
                self.catalogue.remember(card.kind, card.name, card.printed)
                if (card.kind, card.name) not in self.told:  # once a session, though it learns field by field
                    self.told.add((card.kind, card.name))
                    self._tell(f"Remembered {card.name} for next time.")
        except (CatalogueError, ValueError) as error:  # not written, or a field the kind does not take
            self._tell(f"{error}; the cards are kept in this session's log")
        self.driver.use_catalogue(self.known_cards())

    def _tell(self, notice: str) -> None:
        """Keep a notice, and say it with the messages of the answer that caused it."""
        self.notices.append(notice)
        self.driver.messages.append(notice)

    def adjust(self, text: str, reason: str) -> Entry:
        entry = self.driver.adjust(text, reason)
        self.undone.clear()
        self._save(entry)
        self._after_change()
        return entry

    def _save(self, entry: Entry) -> None:
        try:
            self.file.add(entry.to_json())
        except SessionError:
            # Not on disk, so not accepted: take it back so that the table and the store agree.
            stored = [Entry.from_json(saved) for saved in self.file.entries]
            self.driver = self.replayed(stored).driver
            self.driver.learned.clear()
            self.driver.take_messages()
            raise

    def replayed(self, entries: list[Entry]) -> ReplayResult:
        """This session's setup replayed with `entries`, offering the known cards from there on."""
        meta = self.meta
        return replay(self.game, meta.players, meta.options, entries, self.driver.catalogue, self.driver.questions)

    def undo(self, steps: int = 1) -> int:
        """Take back the last `steps` entries (answers or corrections); returns how many."""
        steps = max(0, min(steps, len(self.driver.entries)))
        if steps == 0:
            return 0
        kept = self.driver.entries[: len(self.driver.entries) - steps]
        taken = self.driver.entries[len(kept) :]
        self.driver = self.replayed(kept).driver
        self.driver.learned.clear()
        self.driver.take_messages()
        self.file.truncate(len(kept))
        self.undone.extend(reversed(taken))
        return steps

    def redo(self, steps: int = 1) -> list[Entry]:
        """Bring back what undo took, latest undo first; returns the entries applied again."""
        redone = []
        for _ in range(min(steps, len(self.undone))):
            entry = self.undone[-1]
            self.driver.apply(entry)
            self.undone.pop()
            self._save(entry)
            redone.append(entry)
        self.driver.take_messages()
        self._after_change()
        return redone

    def describe_last(self, steps: int) -> list[Step]:
        """The last `steps` entries as the table gave them: whose turn, the question, the answer."""
        from referee.timeline import walk  # only an undo or a redo tells its entries back

        entries = self.driver.entries
        first = max(1, len(entries) - steps + 1)
        return walk(self.game, self.meta.players, self.meta.options, entries, first=first,
                    questions=self.driver.questions).steps

    def _after_change(self) -> None:
        if self.driver.finished:
            self.close("finished")

    def close(self, status: str | None = None) -> None:
        meta = self.meta
        if status is not None:
            meta.status = status
        report = self.driver.report
        meta.winners = list(report.winners) if report is not None else []  # an undo can reopen a game
        if report is not None:
            from referee.summary import summarise  # loaded once a game has ended, not at every start

            meta.summary = summarise(self.game, self.driver).to_json()
        else:
            meta.summary = None
        meta.answers = len(self.driver.entries)
        meta.updated = saved_at()
        self.file.fold()
        self.store.update_index(meta)
        self.store.sweep_orphans()  # crashed writes: `create` leaves this to here, not before a first question
        facts.keep_numbers()  # the rulebook's numbers, read without parsing TOML at the next start

    def release(self) -> None:
        self.file.unlock()
