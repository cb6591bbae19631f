"""Council of Blackthorn's second version of the questions: a new card's fields in one line, an
Ally's text and a Building's Action told once as an effect line and then carried out by the
referee, the Action named with the card; and the first version still asked for its own logs."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path

import pytest

from referee.asks import TableStep
from referee.engine.cards import Remember
from referee.engine.driver import Driver, replay
from referee.errors import InvalidAnswer
from referee.games.blackthorn.cards import ActionThenCard, parse_card_line
from referee.games.blackthorn.flow.texts import EffectStep
from referee.games.blackthorn.game import GAME
from referee.games.blackthorn.parse import format_effect, parse_effect
from referee.games.blackthorn.state import TRACK

THREE = ["Ann", "Bo", "Cy"]
SETUP = ["9", "5", "3", "queen", "lord of war", "minister of coin"]
"""Ann rolls highest and holds the ring: the first round is Ann, Bo, Cy."""
DICE = "1 2 0 3"
"""Noble 1, Guild 2, Legion 0, Peasant 3."""
CataloguedCards = Mapping[str, Mapping[str, Mapping[str, str]]]


def driver(*lines: str, catalogue: CataloguedCards | None = None, questions: int | None = None) -> Driver:
    played = Driver(GAME, THREE, {}, catalogue, questions)
    for line in lines:
        played.answer(line)
    return played


def level(played: Driver, name: str, faction: str) -> int:
    return TRACK[played.state.player(name).levels[faction]]


def remembered(played: Driver) -> dict[str, dict[str, str]]:
    return {card.name: dict(card.printed) for card in played.learned if isinstance(card, Remember)}


# --- the readers ---------------------------------------------------------------------------------


def test_an_effect_line_reads_own_changes_and_named_players_and_writes_itself_back() -> None:
    assert parse_effect("influence +3, treason +1") == (("", "influence", 3), ("", "treason", 1))
    assert parse_effect("inf+2 l +1") == (("", "influence", 2), ("", "legion", 1))
    assert parse_effect("Bo peasant -1 Ann treason -1", ("Ann", "Bo"), own="Ann") == (
        ("Bo", "peasant", -1), ("", "treason", -1))
    assert parse_effect("none") == ()
    assert format_effect(parse_effect("t +1 influence +3")) == "treason +1 influence +3"


@pytest.mark.parametrize(("line", "problem"), [
    ("influence 3", "a field takes a signed number"),
    ("gold +1", "no field 'gold'"),
    ("Di legion +1", "'di' is not a field"),
    ("legion +0", "a change of 0 changes nothing"),
])
def test_an_effect_line_that_does_not_read_is_refused_in_one_line(line: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem) as refused:
        parse_effect(line, ("Ann", "Bo"))
    assert "\n" not in str(refused.value)


def test_a_card_line_gives_every_printed_field_in_order() -> None:
    assert parse_card_line("guild ally peasant 4") == {"faction": "guild", "class": "ally", "trigger": "peasant 4"}
    assert parse_card_line("noble building n5 5") == {
        "faction": "noble", "class": "building", "trigger": "noble 5", "value": "5"}
    assert parse_card_line("legion ally none") == {"faction": "legion", "class": "ally", "trigger": "none"}
    assert parse_card_line("2") == {"faction": "guild"}  # the faction alone, as the faction question numbers it


@pytest.mark.parametrize(("line", "problem"), [
    ("dragon ally", "field faction"),
    ("legion ally 3", "only a Building prints a value"),
    ("guild building guild 14", "field trigger"),
    ("noble ally noble 3 ally", "does not fit"),
])
def test_a_card_line_that_does_not_fit_is_refused(line: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        parse_card_line(line)


# --- a text told once ----------------------------------------------------------------------------


def test_a_new_allys_fields_in_one_line_and_its_text_in_one_line_are_kept_for_next_time() -> None:
    played = driver(*SETUP, DICE, "card Royal Guard", "noble ally none")
    assert level(played, "Ann", "noble") == 1  # the Noble die's 1; no trigger printed: the text applies
    step = played.pending
    assert isinstance(step, EffectStep) and step.prompt.startswith("Resolve Royal Guard's text now")
    assert "'influence +2'" in step.prompt and "or corrections, then Enter" in step.prompt
    played.answer("legion +1")
    assert level(played, "Ann", "legion") == 1
    assert remembered(played) == {"Royal Guard": {
        "faction": "noble", "class": "ally", "trigger": "none", "text": "legion +1"}}
    assert played.pending is not None and played.pending.prompt.startswith("Bo plays which card?")


def test_a_known_text_is_carried_out_without_a_question_and_logged_with_the_card() -> None:
    catalogue = {"faction-card": {"Royal Guard": {
        "faction": "noble", "class": "ally", "trigger": "none", "text": "legion +1 influence +2"}}}
    played = driver(*SETUP, DICE, catalogue=catalogue)
    influence = played.state.player("Ann").influence
    played.answer("Royal Guard")
    assert level(played, "Ann", "legion") == 1
    assert played.state.player("Ann").influence >= influence + 2  # control scoring may add more
    assert played.pending is not None and played.pending.prompt.startswith("Bo plays which card?")
    assert any("Royal Guard's text, as known: Ann Legion 0 -> 1; Ann gains 2 influence" in message
               for message in played.take_messages())
    logged = played.entries[-1].answer
    assert logged is not None and '"text": "legion +1 influence +2"' in logged  # a replay needs no catalogue
    again = driver(*(entry.answer or "" for entry in played.entries))
    assert again.state.to_json() == played.state.to_json()


def test_a_text_that_names_another_player_is_carried_out_and_not_kept() -> None:
    played = driver(*SETUP, DICE, "card Chancellor", "noble ally none")
    played.adjust("Bo noble =3", "position")
    played.answer("Bo noble -1")
    assert level(played, "Bo", "noble") == 2
    assert "text" not in remembered(played)["Chancellor"]


def test_at_the_text_step_enter_confirms_corrections_and_another_answer_goes_to_the_next_question() -> None:
    played = driver(*SETUP, DICE, "card Royal Guard", "noble ally none")
    played.adjust("Ann legion +1", "the text")
    played.answer("no card")  # Bo's answer: it confirms the step first, as at every table step
    assert played.state.active == "Cy" and level(played, "Ann", "legion") == 1
    assert "text" not in remembered(played)["Royal Guard"]
    mistyped = driver(*SETUP, DICE, "card Royal Guard", "noble ally none")
    with pytest.raises(InvalidAnswer, match="a field takes a signed number"):
        mistyped.answer("influence 3")
    with pytest.raises(InvalidAnswer, match="the ghost|is not a field"):
        mistyped.answer("Di legion +1")
    assert isinstance(mistyped.pending, EffectStep)


# --- an Action named with the card ---------------------------------------------------------------


def with_a_guildhall(*more: str, catalogue: CataloguedCards | None = None) -> Driver:
    """Ann builds a Guildhall in round 1; in round 2 (Bo, Cy, Ann) it is complete at her turn."""
    return driver(*SETUP, DICE, "card Guildhall", "guild building none 4", "no card", "no card", DICE,
                  "no card", "no card", *more, catalogue=catalogue)


def test_a_buildings_action_is_named_with_the_card_told_once_and_then_carried_out() -> None:
    played = with_a_guildhall()
    question = played.pending
    assert isinstance(question, ActionThenCard) and "(an Action first: 'Guildhall, CARD')" in question.prompt
    assert "'Guildhall, CARD' (Guildhall, Queen)" in question.allowed()
    completed = question.suggestions()  # Tab offers the Building; 'qu' still completes to 'quit'
    assert "Guildhall, " in completed and not any(text.startswith("Queen") for text in completed)
    influence = played.state.player("Ann").influence
    played.answer("Guildhall, no card")
    step = played.pending
    assert isinstance(step, EffectStep) and step.prompt.startswith("Use Guildhall's Action")
    played.answer("influence +1")
    assert remembered(played)["Guildhall"] == {"action": "influence +1"}
    assert played.state.player("Ann").influence >= influence + 1
    played.answer("1 2 0 3")  # round 3: Cy, Ann, Bo
    played.answer("no card")
    before = played.state.player("Ann").influence
    played.answer("guildhall, no card")  # known now: nothing more is asked
    assert played.state.active == "Bo"
    assert played.state.player("Ann").influence >= before + 1
    assert played.entries[-1].answer == "Guildhall, no card"


def test_an_action_known_to_the_catalogue_comes_with_the_building() -> None:
    catalogue = {"faction-card": {"Guildhall": {"faction": "guild", "class": "building", "trigger": "none",
                                                "value": "4", "action": "treason -1"}}}
    played = driver(*SETUP, DICE, "Guildhall", "no card", "no card", DICE, "no card", "no card",
                    catalogue=catalogue)
    treason = played.state.player("Ann").treason_cards
    played.answer("Guildhall, no card")
    assert played.state.player("Ann").treason_cards == treason - 1
    assert played.state.phase == "dice" and played.state.active == "Cy"  # Ann was the last of round 2


@pytest.mark.parametrize(("line", "problem"), [
    ("Guildhall,", "no card after the Action of Guildhall"),
    ("Barracks, no card", "card NAME"),  # Ann has no Barracks: the line reads as a card and fits none
])
def test_an_action_line_that_does_not_fit_is_refused(line: str, problem: str) -> None:
    played = with_a_guildhall()
    with pytest.raises(InvalidAnswer, match=problem) as refused:
        played.answer(line)
    assert "\n" not in str(refused.value) and isinstance(played.pending, ActionThenCard)


def test_the_characters_action_is_carried_out_by_the_table_every_time() -> None:
    played = driver(*SETUP, DICE)
    played.answer("Queen, no card")
    step = played.pending
    assert isinstance(step, EffectStep) and step.prompt.startswith("Use Queen's Action")
    played.answer("done")
    assert remembered(played) == {} and played.state.active == "Bo"


# --- the first version, for its logs ---------------------------------------------------------------


def test_a_version_one_session_is_asked_the_first_versions_questions() -> None:
    played = driver(*SETUP, DICE, "card Royal Guard", questions=1)
    assert played.pending is not None and played.pending.prompt == "Which faction does the card show?"
    with pytest.raises(InvalidAnswer):
        played.answer("noble ally none")  # one line of fields is the second version's
    for line in ("noble", "none", "ally"):
        played.answer(line)
    assert isinstance(played.pending, TableStep)  # the text by hand, as version 1 asked it
    assert "questions" not in played.state.to_json()
    with pytest.raises(InvalidAnswer):
        driver(*SETUP, DICE, questions=1).answer("Queen, no card")


def test_a_whole_game_with_texts_and_actions_told_once_replays_from_its_log_alone() -> None:
    """The tuning game of benchmarks/realistic, played as a live session learns its cards (the
    catalogue fed back after every answer), replays from its log with no catalogue to the same
    table and the same scores."""
    script = Path(__file__).resolve().parent.parent / "benchmarks/realistic/council-of-blackthorn"
    data = tomllib.loads((script / "3p-queen-coin-shadows.toml").read_text(encoding="utf-8"))
    catalogue: dict[str, dict[str, dict[str, str]]] = {"faction-card": {}}
    played = Driver(GAME, data["players"], {}, catalogue)
    for line in data["answers"].splitlines():
        text = "" if line.strip().startswith("#") else line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.startswith("adjust "):
            change, _, reason = text.removeprefix("adjust ").partition(";")
            played.adjust(change.strip(), reason.strip())
        else:
            played.answer(text)
        for card in played.learned:
            catalogue["faction-card"].setdefault(card.name, {}).update(card.printed)
        played.learned.clear()
        played.use_catalogue(catalogue)
    assert played.finished and played.report is not None
    assert catalogue["faction-card"]["Guildhall"]["action"] == "influence +1"
    assert catalogue["faction-card"]["Moneylender"]["text"] == "influence +3 treason +1"
    assert "text" not in catalogue["faction-card"]["Chancellor"]  # it named another player
    again = replay(GAME, data["players"], {}, played.entries)
    assert again.applied == len(played.entries) and again.driver.report is not None
    assert again.driver.state.to_json() == played.state.to_json()
    assert {player.name: player.total for player in again.driver.report.players} == data["expect"]["totals"]
