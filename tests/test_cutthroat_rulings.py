"""Cutthroat Kingdoms: the rules the third round of play found wrong (issue 21), each ruling's other
readings set alone, and what a session stored with the first version of the questions keeps."""

from __future__ import annotations

import pytest

from referee.asks import Choice
from referee.engine.driver import Driver
from referee.errors import InvalidAnswer
from referee.games.cutthroat.game import GAME
from referee.games.cutthroat.state import FIRST_QUESTIONS

PLAYERS = ["Ann", "Bo", "Cy"]
LAND = ["Three Rivers", "Nyghtwald", "The Hanging Tongue", "Marrow", "Stonehold"]


def answer(driver: Driver, *answers: str) -> Driver:
    for text in answers:
        driver.answer(text)
    return driver


def offered(driver: Driver) -> tuple[str, ...]:
    assert isinstance(driver.pending, Choice), driver.pending
    return driver.pending.options


def poor_attacker(collection: str | None = None, questions: int | None = None) -> Driver:
    """Ann (Dravanof) holds Three Rivers, Bo Nyghtwald (1 soldier, 2 copper), Cy Marrow; in her
    first turn Ann takes Three Rivers' gem, spends 2 of her 3 copper on 4 mercenaries and has a
    soldier in her dead pile: 1 copper left, too little to collect the dead."""
    options = {"rulings": {"conquest-collection": collection}} if collection else {}
    driver = Driver(GAME, PLAYERS, options, questions=questions)
    answer(driver, "Dravanof", "Slaine", "Brom", "no", "10", *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2", "Marrow", "s s s", "4")
    answer(driver, "1", "1 gems", "buy mercenaries", "buy mercenaries")
    driver.adjust("Ann dead +1", "a soldier lost to an Assassin")
    return driver


# --- conquest-collection: the collection comes when the action that conquered is complete ------------


def test_copper_won_by_an_attack_pays_for_collecting_the_dead() -> None:
    """#ruling-conquest-collection (once-a-turn): the attack action's collection comes as soon as the
    attacks are over, so its copper can pay for collecting the dead in the same turn (issue 21)."""
    driver = poor_attacker()
    answer(driver, "attack", "Nyghtwald", "mercenary, undefended", "m")  # Ann conquers Nyghtwald
    ann = driver.state.player("Ann")
    assert ann.copper == 1 and "collect the dead" in offered(driver)
    answer(driver, "collect the dead", "2", "Nyghtwald: 2 copper")  # Nyghtwald's gem value, then its copper
    assert (ann.copper, ann.dead) == (1, 0)  # 1 + 2 collected - 2 for the dead
    assert ("Ann's attacks are complete: the resources of one territory conquered are collected now (ruling "
            "conquest-collection: once-a-turn).") in driver.take_messages()
    answer(driver, "end the action phase")
    assert driver.state.phase == "event"  # no second collection at the end of the phase


def test_a_collection_that_cannot_pay_leaves_the_dead_where_they_are() -> None:
    """#conquering: a player who takes gems instead of the copper still cannot pay for the dead;
    the attack action is over all the same."""
    driver = poor_attacker()
    answer(driver, "attack", "Nyghtwald", "mercenary, undefended", "m", "collect the dead", "2", "Nyghtwald: 2 gems")
    ann = driver.state.player("Ann")
    assert (ann.copper, ann.gems, ann.dead) == (1, 3, 1)
    assert "Ann cannot pay for that after all: collect the dead is not taken." in driver.take_messages()
    assert "attack" not in offered(driver) and "collect the dead" not in offered(driver)


def attack_then_conquer(collection: str | None = None) -> Driver:
    """Ann conquers Nyghtwald by attack, then The Hanging Tongue, unoccupied, as a second action."""
    driver = poor_attacker(collection)
    return answer(driver, "attack", "Nyghtwald", "mercenary, undefended", "m", "conquer", "2", "Nyghtwald: 2 copper",
                  "The Hanging Tongue", "m")


def test_one_collection_a_turn_for_an_attack_and_a_conquest() -> None:
    """#ruling-conquest-collection, once-a-turn (default): the conquest after the attacks gives no
    second collection, and the table is told why."""
    driver = attack_then_conquer()
    answer(driver, "end the action phase")
    assert driver.state.player("Ann").copper == 1 + 2
    assert ("Ann has collected for a conquest this turn already: no second collection (ruling "
            "conquest-collection: once-a-turn).") in driver.take_messages()
    assert driver.state.phase == "event"


def test_each_action_gives_its_own_collection_under_each_action() -> None:
    """#ruling-conquest-collection, each-action: the attack action and the conquest action each pay
    the resources of one territory they conquered."""
    driver = attack_then_conquer("each-action")
    answer(driver, "end the action phase", "2", "1", "The Hanging Tongue: 2 copper")  # its values, then its copper
    assert driver.state.player("Ann").copper == 1 + 2 + 2
    assert driver.state.phase == "event"


def test_end_of_actions_keeps_the_collection_for_the_end_of_the_phase() -> None:
    """#ruling-conquest-collection, end-of-actions: one collection, when the action phase ends, so
    the attack's copper cannot pay for the dead."""
    driver = poor_attacker("end-of-actions")
    answer(driver, "attack", "Nyghtwald", "mercenary, undefended", "m")
    assert "collect the dead" not in offered(driver)
    answer(driver, "end the action phase", "2", "Nyghtwald: 2 copper")
    assert driver.state.player("Ann").copper == 3 and driver.state.player("Ann").dead == 1


def test_a_session_of_the_first_questions_collects_when_the_phase_ends() -> None:
    """A session stored with the first version of the questions replays under the reading it was
    played with (collection when the action phase ends), and its table keeps its rulings."""
    driver = poor_attacker(questions=FIRST_QUESTIONS)
    assert driver.state.rulings["conquest-collection"] == "end-of-actions"
    answer(driver, "attack", "Nyghtwald", "mercenary, undefended", "m")
    with pytest.raises(InvalidAnswer):
        driver.answer("collect the dead")
    answer(driver, "end the action phase", "2", "Nyghtwald: 2 copper")
    assert driver.state.player("Ann").copper == 3
    assert "questions" not in GAME.to_json(driver.state)


# --- Bedlam is not optional ------------------------------------------------------------------------


def tyber_kills_the_last_defender(options: dict[str, object] | None = None, married: bool = False,
                                  questions: int | None = None) -> Driver:
    """Ann (Tyber) on Three Rivers kills the one soldier on Bo's Nyghtwald; Cy's The Hanging Tongue
    next door holds a soldier over a mercenary, and Marrow (Bo's) beyond it 2 mercenaries."""
    driver = Driver(GAME, PLAYERS, options or {}, questions=questions)
    answer(driver, "Tyber", "Slaine", "Brom", "no", "6", *LAND, "Ann")
    answer(driver, "Three Rivers", "s s", "3", "Nyghtwald", "s", "2")
    driver.adjust("Cy mercenaries +1", "a deal")
    answer(driver, "The Hanging Tongue", "s m", "2")
    if married:
        driver.adjust("Ann marries Cy", "the Royal Wedding")
    return answer(driver, "1", "3 copper", "attack", "Nyghtwald", "soldier, undefended")


def test_bedlam_cannot_be_declined() -> None:
    """#lady-tyber (issue 21): killing the last defender, Tyber puts every mercenary of a territory
    next door into her hand; with one such territory nothing is asked and nothing is declined."""
    driver = tyber_kills_the_last_defender()
    kingdom = driver.state
    assert kingdom.territory("The Hanging Tongue").defenders == ["soldier"]
    assert kingdom.player("Ann").mercenaries == 1
    assert "conquers Nyghtwald now" in str(driver.pending.prompt if driver.pending else "")


def test_bedlam_spares_a_marriage_partner_by_default() -> None:
    """#ruling-bedlam-partner-land, spared: the partner's mercenaries stay where they are."""
    driver = tyber_kills_the_last_defender(married=True)
    assert driver.state.territory("The Hanging Tongue").defenders == ["soldier", "mercenary"]
    assert driver.state.player("Ann").mercenaries == 0
    assert ("Bedlam: no territory next to Nyghtwald holds a mercenary to take (her partner's are spared, ruling "
            "bedlam-partner-land: spared).") in driver.take_messages()


def test_bedlam_takes_a_partners_mercenaries_under_included() -> None:
    """#ruling-bedlam-partner-land, included: a partner's territory gives up its mercenaries too."""
    driver = tyber_kills_the_last_defender({"rulings": {"bedlam-partner-land": "included"}}, married=True)
    assert driver.state.territory("The Hanging Tongue").defenders == ["soldier"]
    assert driver.state.player("Ann").mercenaries == 1


def test_a_session_of_the_first_questions_may_still_answer_none_to_bedlam() -> None:
    """A log of the first questions answered Bedlam with 'none': it replays so, and its table has
    no ruling it did not have then."""
    driver = tyber_kills_the_last_defender(questions=FIRST_QUESTIONS)
    assert "bedlam-partner-land" not in driver.state.rulings
    assert offered(driver) == ("none", "The Hanging Tongue (1 mercenary card(s))")
    answer(driver, "none")
    assert driver.state.territory("The Hanging Tongue").defenders == ["soldier", "mercenary"]
