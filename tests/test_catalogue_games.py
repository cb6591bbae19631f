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
from referee.errors import InvalidAnswer
from referee.games.registry import load_game
from referee.session import LiveSession
from referee.store import Store

Line = str
"""An answer, or 'adjust CHANGE ; reason'."""


def play(store: Store, game_id: str, players: Sequence[str], lines: Sequence[Line]) -> tuple[LiveSession, list[str]]:
    """Play the lines in a new session; returns it (closed) and the prompt each line answered."""
    live = LiveSession.start(store, load_game(game_id), players, {})
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
    again = LiveSession.resume(store, second.meta.id, load_game)
    try:
        assert again.dropped == 0 and again.replay_error is None
        assert totals(again) == totals(second) and state(again) == state(second)
        assert [building["value"] for building in state(again)["players"][0]["buildings"]] == [4]
    finally:
        again.release()


def test_undo_and_resume_in_the_session_that_taught_a_card_replay_it_as_it_was(store: Store) -> None:
    """'card Watchtower' in a log is the new card whose fields follow it there, though the
    catalogue knows the card by then: undo (a replay with the catalogue) and resume agree."""
    live = LiveSession.start(store, load_game(BLACKTHORN), TWO, {})
    for line in OPENING + COLD[:5]:  # up to 'card Old Mill': Watchtower is remembered by now
        if line.startswith("adjust "):
            live.adjust(line.removeprefix("adjust "), "test")
        else:
            live.answer(line)
    assert catalogue(store, BLACKTHORN).find("Watchtower") is not None
    before = state(live)
    assert live.undo(1) == 1
    assert live.driver.pending is not None and live.driver.pending.prompt == "Bo plays which card?"
    live.answer("card Old Mill")
    assert state(live) == before
    assert [(step.question, step.entry.answer) for step in live.describe_last(4)] == [
        ("Which faction does the card show?", "legion"), ("Is the card an Ally or a Building?", "building"),
        ("Building value printed on the card", "4"), ("Bo plays which card?", "card Old Mill")]
    session_id = live.meta.id
    live.release()
    again = LiveSession.resume(store, session_id, load_game)
    try:
        assert again.dropped == 0 and state(again) == before
        assert again.driver.pending is not None and again.driver.pending.prompt == "Which faction does the card show?"
    finally:
        again.release()


def test_a_card_learns_a_field_the_first_time_it_is_asked_and_knows_it_after(store: Store) -> None:
    play(store, BLACKTHORN, TWO, OPENING + COLD)
    # Watchtower was played on a 0 the first time, so its trigger was never asked; on a 1 it is, once.
    opening = [*OPENING[:4], "0 2 1 3", *OPENING[5:]]
    live = LiveSession.start(store, load_game(BLACKTHORN), TWO, {})
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
    live = LiveSession.start(store, load_game(BLACKTHORN), TWO, {})
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
    assert other.import_cards(shared).count == 2 and other.export() == before


# --- Cutthroat Kingdoms: territories named at setup, hirelings named at their cost ----------------

CUTTHROAT = "cutthroat-kingdoms"
THREE = ["Ann", "Bo", "Cy"]
KINGDOM = ["Dravanof", "Slaine", "Brom", "no", "10", "Three Rivers", "Nyghtwald", "Grimhold", "Marrow", "Slot 5",
           "Ann"]
"""Houses, no Royal Pillow, ten events, five territories (the last keeps its slot's name), Ann starts."""


def test_a_named_territory_tells_its_values_once_and_a_hireling_its_cost(store: Store) -> None:
    first, asked = play(store, CUTTHROAT, THREE, [
        *KINGDOM, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Slot 5", "s s s", "4",
        "1", "1 gems",  # Three Rivers: its gem value, then Ann takes the gem
        "buy a hireling", "card Old Crone", "2", "done",
    ])
    assert sum("value printed" in prompt for prompt in asked) == 4
    known = {card.name: card.printed for card in catalogue(store, CUTTHROAT).cards()}
    assert known == {"Three Rivers": {"copper": "3", "gems": "1"}, "Nyghtwald": {"copper": "2"},
                     "Old Crone": {"cost": "2"}}  # Slot 5 is no printed name: nothing kept under it
    second, asked_again = play(store, CUTTHROAT, THREE, [
        *KINGDOM, "Three Rivers", "s s", "", "Nyghtwald", "s", "", "Slot 5", "s s s", "4",
        "1 gems",  # both of Three Rivers' values came with its card: no gem question
        "buy a hireling", "old crone", "done",
    ])
    assert sum("value printed" in prompt for prompt in asked_again) == 3  # Enter, Enter, and Slot 5's copper
    assert state(second)["players"] == state(first)["players"]
    assert [land["copper_value"] for land in state(second)["territories"]] == [
        {"healthy": 3}, {"healthy": 2}, {}, {}, {"healthy": 4}]
    assert len(first.driver.entries) - len(second.driver.entries) == 2


def test_a_value_typed_for_a_known_territory_corrects_it_and_takes_nothing_else(store: Store) -> None:
    """An ordinary answer means what it always did: an answers file plays the same whatever the
    catalogue holds; only Enter takes the known card."""
    catalogue(store, CUTTHROAT).remember("territory", "Three Rivers", {"copper": "3", "gems": "1"})
    live = LiveSession.start(store, load_game(CUTTHROAT), THREE, {})
    try:
        for line in [*KINGDOM, "Three Rivers", "s s"]:
            live.answer(line)
        assert live.driver.pending is not None and live.driver.pending.default == "Three Rivers"
        live.answer("5")  # the card says 5: the catalogue had it wrong
        for line in ["Nyghtwald", "s", "2", "Slot 5", "s s s", "4"]:
            live.answer(line)
        assert live.driver.pending is not None and "gem value" in live.driver.pending.prompt  # still asked
        live.answer("")  # Enter: the gem value the catalogue knows
        assert live.driver.state.territories[0].gem_value == {"healthy": 1}
        assert live.driver.state.player("Ann").copper == 5
    finally:
        live.release()
    known = catalogue(store, CUTTHROAT).find("Three Rivers")
    assert known is not None and known.printed == {"copper": "5", "gems": "1"}


def test_a_known_hireling_costing_more_than_the_purse_is_refused(store: Store) -> None:
    catalogue(store, CUTTHROAT).remember("hireling", "Royal Taster", {"cost": "9"})
    live = LiveSession.start(store, load_game(CUTTHROAT), THREE, {})
    for line in [*KINGDOM, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Slot 5", "s s s", "4", "1",
                 "3 copper", "buy a hireling"]:
        live.answer(line)
    with pytest.raises(InvalidAnswer, match=r"its cost 9 does not fit now \(out of range\)"):
        live.answer("Royal Taster")  # Ann holds 6 copper
    live.answer("2")
    live.release()


# --- Blackwood: a potion brewed, a forest card bought ----------------------------------------------

BLACKWOOD = "blackwood"


def test_a_named_forest_card_and_potion_are_one_answer_the_next_time(store: Store) -> None:
    opening = ["Ann", "A1", "C3"]  # Ann takes the cauldron; the puppets go to A1 and C3
    first, _ = play(store, BLACKWOOD, TWO, [
        *opening, "card Mossy Log", "3", "brew", "card Toad Tonic", "2", "5", "done"])
    known = {card.name: card.printed for card in catalogue(store, BLACKWOOD).cards()}
    assert known == {"Mossy Log": {"price": "3"}, "Toad Tonic": {"reward": "2", "reputation": "5"}}
    second, _ = play(store, BLACKWOOD, TWO, [*opening, "mossy log", "brew", "Toad Tonic", "done"])
    ann = state(second)["witches"][0]
    assert ann == state(first)["witches"][0]
    assert (ann["coins"], ann["potion_reputation"]) == (8 - 3 + 2, 5)
    assert len(first.driver.entries) - len(second.driver.entries) == 3


# --- Council of Serpents: House boards, Influence, Guild and Intrigue cards ------------------------

SERPENTS = "council-of-serpents"
QUIET = ["nothing"] * 5
SERPENTS_COLD = [
    "Ann", "6 6 6", "5 5 4", "6 6 6", *QUIET,  # the House boards as marked, a quiet Starting Time track
    "card Border Feud", "conflict clay jane", "both wealth -1",  # a first Conflict: its upper effect
    "intrigue at clay",
    "card Border Feud II", "conflict jane clay", "popularity",  # a second one: a War for Popularity
    "traitors", "own strength +1",  # the Intrigue card revealed, its War effect
    "guild", "Hunter's Hall at Jane", "strength +2 wealth -1",
]
SERPENTS_WARM = [
    "Ann", "", "", "", *QUIET,  # Enter at each board
    "Border Feud", "intrigue at clay", "Border Feud II", "traitors", "",
    "guild", "Hunter's Hall at Jane", "",
]


def test_serpents_cards_and_boards_named_once_are_one_answer_the_next_time(store: Store) -> None:
    first, _ = play(store, SERPENTS, TWO, SERPENTS_COLD)
    known = {(card.kind, card.name): card.printed for card in catalogue(store, SERPENTS).cards()}
    assert known[("house", "Jane")] == {"start": "5 5 4"}
    assert known[("influence", "Border Feud")] == {
        "play": "conflict Clay-Jane", "upper": "clay wealth -1 jane wealth -1"}
    assert known[("influence", "Border Feud II")] == {"play": "conflict Clay-Jane", "war": "popularity"}
    assert known[("intrigue", "Traitors")] == {"effect": "own strength +1"}
    assert known[("guild", "Hunter's Hall")] == {"upper": "strength +2 wealth -1"}
    second, _ = play(store, SERPENTS, TWO, SERPENTS_WARM)
    assert state(second)["houses"] == state(first)["houses"]
    assert state(second)["guild_effects"] == state(first)["guild_effects"]
    # Border Feud I and II: three answers each ('card NAME', where, its effect), now one each:
    assert len(first.driver.entries) - len(second.driver.entries) == 4


def test_a_house_board_known_from_an_earlier_game_gives_its_preferred_action_too(store: Store) -> None:
    catalogue(store, SERPENTS).remember("house", "Clay", {"start": "5 5 4", "preferred": "wealth -1 strength +2"})
    live = LiveSession.start(store, load_game(SERPENTS), TWO, {})
    live.answer("Ann")
    assert live.driver.pending is not None and live.driver.pending.default == "Clay"
    live.answer("")
    assert live.driver.state.houses["clay"] == {"wealth": 5, "popularity": 5, "strength": 4}
    assert live.driver.state.preferred_actions["clay"] == {"wealth": -1, "strength": 2}
    live.answer("7 7 7")  # Jane's board, not known: its values as marked
    live.release()
    assert catalogue(store, SERPENTS).find("Jane") is not None


# --- A Game of Thrones: cards named when they are marshalled ---------------------------------------

GOT = "got-lcg-1e"
TO_MARSHALLING = ["Stark", "60", "Lannister", "61", "3 2", "none", "5 1 1", "4 0 2", "Ann"]
"""Houses and decks, the starting forces, the plots (Ann has 5 gold to marshal with), the first player."""


def test_a_marshalled_card_named_once_is_one_answer_the_next_time(store: Store) -> None:
    first, asked = play(store, GOT, TWO, [
        *TO_MARSHALLING, "card Winterfell Steward", "Stark", "1", "no", "0 0",
        "card Maester Lomys", "Lannister", "2", "yes", "1 0", "none", "none"])
    assert asked[-2].startswith("Ann (0 gold): another card played?")
    ann = state(first)["players"][0]
    assert (ann["gold"], ann["income_next"]) == (0, 1)  # 1 + (2 + 2 off-House); Lomys' gold icon next round
    second, _ = play(store, GOT, TWO, [*TO_MARSHALLING, "winterfell steward", "Maester Lomys", "none", "none"])
    assert state(second) == state(first)
    assert len(first.driver.entries) - len(second.driver.entries) == 8
    third = LiveSession.start(store, load_game(GOT), TWO, {})
    try:
        for line in [*TO_MARSHALLING, "Maester Lomys"]:
            third.answer(line)
        with pytest.raises(InvalidAnswer, match="at most one Limited card per round"):
            third.answer("1l")  # Lomys was Limited
    finally:
        third.release()


def test_a_known_card_is_refused_when_it_costs_more_than_the_gold_left(store: Store) -> None:
    catalogue(store, GOT).remember("card", "Ser Jaime", {"cost": "7", "house": "Lannister", "limited": "no",
                                                        "icons": "0 0"})
    live = LiveSession.start(store, load_game(GOT), TWO, {})
    for line in TO_MARSHALLING:
        live.answer(line)
    live.answer("done")  # the plots' 'when revealed' effects are carried out
    with pytest.raises(InvalidAnswer, match="its cost 7 does not fit now"):
        live.answer("Ser Jaime")
    live.release()
