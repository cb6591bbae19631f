"""The card catalogue, on a small game of its own: a card named once is one answer the next time,
a replay does not depend on the catalogue as it is later, and a bad import changes nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from card_game import CARD, GAME

from referee.catalogue import CardCatalogue, CatalogueError
from referee.engine.driver import replay
from referee.errors import InvalidAnswer
from referee.session import LiveSession
from referee.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path)


def play(store: Store, answers: Sequence[str]) -> LiveSession:
    live = LiveSession.start(store, GAME, ["Ann"], {})
    for answer in answers:
        live.answer(answer)
    live.close()
    live.release()
    return live


def test_a_card_named_once_is_one_answer_the_next_time(store: Store) -> None:
    first = play(store, ["card Royal Guard", "red", "4", "card Old Mill", "blue", "2", "blue", "5"])
    assert first.driver.state.coins == 11 and first.driver.finished
    assert "Remembered Royal Guard for next time." in first.notices
    catalogue = CardCatalogue(GAME.id, [CARD], store.root)
    assert [card.name for card in catalogue.cards()] == ["Old Mill", "Royal Guard"]
    second = play(store, ["royal guard", "Old Mill", "Royal Guard"])  # a known name is the whole card
    assert len(second.driver.entries) == 3 and second.driver.finished
    assert (second.driver.state.coins, second.driver.state.red) == (10, 2)
    logged = second.driver.entries[0].answer
    assert logged == 'card Royal Guard {"colour": "red", "value": "4"}'  # the log keeps the card itself


def test_a_replay_does_not_depend_on_the_catalogue_as_it_is_later(store: Store) -> None:
    play(store, ["card Royal Guard", "red", "4", "red", "1", "red", "1"])
    second = play(store, ["Royal Guard", "Royal Guard", "blue", "0"])
    CardCatalogue(GAME.id, [CARD], store.root).remember("card", "Royal Guard", {"value": "9"})  # edited later
    edited = CardCatalogue(GAME.id, [CARD], store.root).as_catalogue()
    assert edited["card"]["Royal Guard"]["value"] == "9"
    rebuilt = replay(GAME, ["Ann"], {}, second.driver.entries, edited)
    assert rebuilt.applied == len(second.driver.entries)
    assert rebuilt.driver.state.coins == second.driver.state.coins == 8


def test_an_unknown_name_is_refused_with_how_to_name_a_new_card(store: Store) -> None:
    live = LiveSession.start(store, GAME, ["Ann"], {})
    with pytest.raises(InvalidAnswer, match="'card NAME' for a new card"):
        live.answer("Royl Guard")
    live.release()


def test_a_malformed_import_is_refused_and_changes_nothing(store: Store, tmp_path: Path) -> None:
    catalogue = CardCatalogue(GAME.id, [CARD], store.root)
    catalogue.remember("card", "Royal Guard", {"colour": "red", "value": "4"})
    before = catalogue.export()
    bad = {"format": 1, "game": GAME.id, "cards": [
        {"kind": "card", "name": "Old Mill", "printed": {"colour": "blue", "value": "2"}},
        {"kind": "card", "name": "Tower", "printed": {"colour": "blue", "value": "12"}},
    ]}
    with pytest.raises(CatalogueError, match=r"card #2 \('Tower'\) refused: field value: out of range"):
        catalogue.import_cards(bad)
    assert catalogue.export() == before
    with pytest.raises(CatalogueError, match="newer"):
        catalogue.import_cards({**before, "format": 2})
    exported = json.loads(json.dumps(before))
    fresh = CardCatalogue(GAME.id, [CARD], tmp_path / "other")
    assert fresh.import_cards(exported).count == 1 and fresh.export() == before
