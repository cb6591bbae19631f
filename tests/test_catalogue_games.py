"""Every game on the card catalogue: a card the table names once is one answer the next time, a
replay does not depend on the catalogue as it is later, and a bad import changes nothing.

The sessions run through LiveSession on a temporary store, as at the table: the catalogue is the
store's own (catalogue/<game>.json), written when a flow remembers a card."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import CardCatalogue, CatalogueError
from referee.engine.cards import CardQuestion
from referee.engine.session import LiveSession, load_game
from referee.errors import InvalidAnswer
from referee.store import Store

Line = str
"""An answer, or 'adjust CHANGE ; reason'."""


def play(store: Store, game_id: str, players: Sequence[str], lines: Sequence[Line]) -> tuple[LiveSession, list[str]]:
    """Play the lines in a new session; returns it (closed) and the prompt each line answered."""
    live = LiveSession.start(store, game_id, players, {})
    asked = []
    for line in lines:
        assert live.driver.pending is not None, f"the game is over before {line!r}"
        if line.startswith("adjust "):
            change, _, reason = line.removeprefix("adjust ").partition(";")
            live.adjust(change.strip(), reason.strip() or "test")
            continue
        asked.append(live.driver.pending.prompt)
        live.answer(line)
    live.close()
    live.release()
    return live, asked


def catalogue(store: Store, game_id: str) -> CardCatalogue:
    return CardCatalogue(game_id, load_game(game_id).card_kinds(), store.root)


def state(live: LiveSession) -> dict[str, Any]:
    result: dict[str, Any] = live.game.to_json(live.driver.state)
    return result


def totals(live: LiveSession) -> dict[str, int]:
    report = live.driver.report
    assert report is not None, "the game did not finish"
    return {player.name: player.total for player in report.players}


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path)


# --- Council of Blackthorn: a whole game, twice --------------------------------------------------

BLACKTHORN = "council-of-blackthorn"
TWO = ["Ann", "Bo"]
OPENING = ["9", "5", "1", "1", "1 2 0 3", "adjust Ann noble =13", "adjust Ann guild =13", "adjust Bo legion =13"]
"""Set-up and the dice (Noble 1, Guild 2, Legion 0, Peasant 3); three tracks topped, so the game
ends with this round."""
COLD = [
    "card Watchtower", "legion", "building", "4",  # Legion shows 0: no trigger asked, a Building of 4
    "card Old Mill", "guild", "legion 5", "ally", "done",  # Guild shows 2: triggered by Bo's 13 Legion
    "noble",  # the ghost's card
    "4", "6",  # treason revealed
]
WARM = ["Watchtower", "Old Mill", "done", "noble", "4", "6"]
FIELD_PROMPTS = {
    "Which faction does the card show?",
    "Is the card an Ally or a Building?",
    "Building value printed on the card",
    "Trigger printed on the card (faction and value, e.g. 'guild 5'), or 'none'",
}


def test_a_blackthorn_game_played_again_with_the_same_cards_takes_one_answer_a_card(store: Store) -> None:
    first, first_asked = play(store, BLACKTHORN, TWO, OPENING + COLD)
    assert first.driver.finished
    assert "Remembered Watchtower for next time." in first.notices
    known = catalogue(store, BLACKTHORN)
    assert {card.name: card.printed for card in known.cards()} == {
        "Old Mill": {"faction": "guild", "trigger": "legion 5", "class": "ally"},
        "Watchtower": {"faction": "legion", "class": "building", "value": "4"},
    }
    second, second_asked = play(store, BLACKTHORN, TWO, OPENING + WARM)
    assert second.driver.finished and totals(second) == totals(first)
    assert state(second) == state(first)
    # The second game asked exactly the first one's questions less the printed fields of the cards:
    assert second_asked == [prompt for prompt in first_asked if prompt not in FIELD_PROMPTS]
    assert len(first.driver.entries) - len(second.driver.entries) == 6
    logged = [entry.answer for entry in second.driver.entries if (entry.answer or "").startswith("card ")]
    assert logged == [
        'card Watchtower {"class": "building", "faction": "legion", "value": "4"}',
        'card Old Mill {"class": "ally", "faction": "guild", "trigger": "legion 5"}',
    ]  # the log keeps each card whole


def test_a_replay_after_the_catalogue_was_edited_gives_the_same_game(store: Store) -> None:
    play(store, BLACKTHORN, TWO, OPENING + COLD)
    second, _ = play(store, BLACKTHORN, TWO, OPENING + WARM)
    known = catalogue(store, BLACKTHORN)
    known.remember("faction-card", "Watchtower", {"value": "9", "faction": "guild"})  # edited afterwards
    known.forget("Old Mill")
    again = LiveSession.resume(store, second.meta.id)
    try:
        assert again.dropped == 0 and again.replay_error is None
        assert totals(again) == totals(second) and state(again) == state(second)
        assert [building["value"] for building in state(again)["players"][0]["buildings"]] == [4]
    finally:
        again.release()


def test_a_card_learns_a_field_the_first_time_it_is_asked_and_knows_it_after(store: Store) -> None:
    play(store, BLACKTHORN, TWO, OPENING + COLD)
    # Watchtower was played on a 0 the first time, so its trigger was never asked; on a 1 it is, once.
    opening = [*OPENING[:4], "0 2 1 3", *OPENING[5:]]
    live = LiveSession.start(store, BLACKTHORN, TWO, {})
    for line in opening:
        if line.startswith("adjust "):
            live.adjust(line.removeprefix("adjust "), "test")
        else:
            live.answer(line)
    live.answer("Watchtower")
    assert live.driver.pending is not None and live.driver.pending.section == "trigger"
    live.answer("noble 2")  # Ann has 13 Noble: triggered; class and value are known
    assert live.driver.state.players[0].buildings[-1].value == 4
    live.release()
    assert catalogue(store, BLACKTHORN).find("watchtower") is not None
    watchtower = catalogue(store, BLACKTHORN).find("Watchtower")
    assert watchtower is not None and watchtower.printed["trigger"] == "noble 2"


def test_a_known_card_that_does_not_fit_the_question_now_is_refused(store: Store) -> None:
    play(store, BLACKTHORN, TWO, OPENING + COLD)
    live = LiveSession.start(store, BLACKTHORN, TWO, {})
    for line in OPENING[:5]:
        live.answer(line)
    live.adjust("Ann hand =0", "the Thief took her last card")  # only 'no card' is left to answer
    with pytest.raises(InvalidAnswer, match="its faction legion does not fit now"):
        live.answer("Watchtower")
    with pytest.raises(InvalidAnswer, match="'card NAME' for a new faction card"):
        live.answer("Watchtowr")
    pending = live.driver.pending
    assert isinstance(pending, CardQuestion) and "Watchtower" in pending.suggestions()
    live.answer("no card")
    live.release()


def test_a_malformed_blackthorn_catalogue_is_refused_with_nothing_changed(store: Store, tmp_path: Path) -> None:
    play(store, BLACKTHORN, TWO, OPENING + COLD)
    known = catalogue(store, BLACKTHORN)
    before = known.export()
    for bad, message in [
        ({"kind": "faction-card", "name": "Keep", "printed": {"faction": "dragon"}}, "field faction: not one of"),
        ({"kind": "faction-card", "name": "Keep", "printed": {"trigger": "guild 14"}}, "field trigger: trigger value"),
        ({"kind": "faction-card", "name": "Keep", "printed": {"value": "100"}}, "field value: out of range"),
        ({"kind": "faction-card", "name": "Keep", "printed": {"colour": "red"}}, "has no field 'colour'"),
        ({"kind": "potion", "name": "Keep", "printed": {"value": "1"}}, "unknown kind 'potion'"),
        ({"kind": "faction-card", "name": "Keep\x1b[2J", "printed": {"value": "1"}}, "bad name"),
    ]:
        good = {"kind": "faction-card", "name": "Gatehouse", "printed": {"faction": "noble", "value": "3"}}
        with pytest.raises(CatalogueError, match=rf"card #2 \('Keep.*'\) refused: .*{message}"):
            known.import_cards({**before, "cards": [good, bad]})
        assert known.export() == before  # not even the good card went in
    shared = json.loads(json.dumps(before))
    other = CardCatalogue(BLACKTHORN, load_game(BLACKTHORN).card_kinds(), tmp_path / "friend")
    assert other.import_cards(shared) == 2 and other.export() == before
