"""Council of Serpents: the game ends the moment a House reaches a symbol, after every kind of card.

Each case leaves a House on a symbol with the card just played, while the top Time track card
would move it back off the symbol (a Triumph at 13 taken down to 12, a Collapse at 0 lifted to 1).
The game must end before that card is resolved, and the report must say how it ended.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from referee.engine.driver import Driver
from referee.games.serpents.game import GAME

AMBITIONS = ["clay-triumphs", "clay-collapses", "jane-triumphs", "jane-collapses"]
"""Ann's two and Bo's two, in the order they are asked; Rowel's cards stay undealt."""


def game(clay: str, track: Sequence[str], plays: Sequence[str], jane: str = "6 6 6") -> Driver:
    """Ann and Bo; Clay starts at `clay`, Jane at `jane`, Rowel at 6 6 6; `track` lists the five
    Starting Time track cards as placed (the last one placed is resolved first)."""
    driver = Driver(GAME, ["Ann", "Bo"], {})
    for answer in ["Ann", clay, jane, "6 6 6", *track, *plays]:
        driver.answer(answer)
        assert GAME.invariant_errors(driver.state) == []
    return driver


def finish(driver: Driver, ambitions: Sequence[str] = AMBITIONS) -> None:
    assert driver.pending is not None and driver.pending.section == "ambitions", "the game did not end at once"
    for card in ambitions:
        driver.answer(card)
    assert driver.finished


UNDO_WEALTH = ["nothing", "nothing", "nothing", "nothing", "clay wealth -1"]
"""The top Time track card takes Clay's Wealth down by 1."""


@pytest.mark.parametrize(
    ("clay", "track", "plays", "house", "attribute", "value", "code", "winner"),
    [
        pytest.param(
            "12 6 6", UNDO_WEALTH, ["trade clay-jane"], "clay", "wealth", 13, "house-triumphs", "Ann", id="trade"
        ),
        pytest.param(
            "12 6 6", UNDO_WEALTH, ["conflict clay-rowel", "clay wealth +1"],
            "clay", "wealth", 13, "house-triumphs", "Ann",
            id="first-conflict",
        ),
        pytest.param(
            "6 6 10",
            ["nothing", "nothing", "nothing", "jane popularity +1", "nothing"],
            ["conflict clay-jane", "jane popularity -2", "conflict clay-jane", "popularity"],  # 10 against 6 takes 4
            "jane", "popularity", 0, "house-collapses", "Bo",
            id="war",
        ),
        pytest.param(
            "11 6 6", UNDO_WEALTH, ["guild", "Merchant Guild at Clay"], "clay", "wealth", 13, "house-triumphs", "Ann",
            id="guild-upper-effect",
        ),
        pytest.param(
            "6 6 1",
            ["nothing", "nothing", "nothing", "clay strength +1", "clay strength -1"],
            ["guild", "Savage Clans at Clay", "guild", "savage clans at jane"],  # Clay 1 +2 -1 -2
            "clay", "strength", 0, "house-collapses", "Ann",
            id="guild-lower-effect",
        ),
    ],
)
def test_the_game_ends_at_once_after_each_card(
    clay: str, track: list[str], plays: list[str], house: str, attribute: str, value: int, code: str, winner: str
) -> None:
    driver = game(clay, track, plays)
    assert driver.state.houses[house][attribute] == value
    finish(driver)
    assert driver.report is not None and driver.report.termination is not None
    assert driver.report.termination.code == code
    assert driver.report.winners == [winner]


def test_a_card_played_by_the_serpentess_ends_the_game_at_once() -> None:
    driver = Driver(GAME, ["Cy"], {})
    for answer in ["wormtongue", "12 6 6", "6 6 6", "6 6 6", *UNDO_WEALTH, "1", "trade clay-jane"]:
        driver.answer(answer)
    assert driver.finished and driver.state.houses["clay"]["wealth"] == 13
    report = driver.report
    assert report is not None and report.termination is not None and report.termination.code == "house-triumphs"
    assert report.winners == [] and report.player("Cy").rank == 2


def test_a_correction_at_a_question_inside_a_card_ends_the_game_at_once() -> None:
    driver = game("6 6 6", UNDO_WEALTH, ["change of plans"])
    assert driver.pending is not None and driver.pending.section == "planning-cards"
    driver.adjust("Clay wealth =13", "a card text the referee does not know")
    assert driver.termination is not None and driver.termination.code == "house-triumphs"
    assert len(driver.state.track) == 5  # the Change of Plans was not carried on
    finish(driver)
    assert driver.report is not None and driver.report.winners == ["Ann"]


def test_two_houses_ending_together_are_both_in_the_termination() -> None:
    driver = game("5 4 4", UNDO_WEALTH, ["conflict clay-jane", "both wealth -1", "conflict clay-jane", "popularity"],
                  jane="5 9 8")  # Jane (Strength 8) takes 4 Popularity from Clay (4): 13 and 0
    finish(driver, ["jane-triumphs", "rowel-triumphs", "clay-collapses", "rowel-collapses"])
    report = driver.report
    assert report is not None and report.termination is not None
    assert (report.termination.code, report.termination.text) == (
        "house-triumphs-and-collapses", "House Clay collapses and House Jane triumphs"
    )
    assert report.winners == ["Ann", "Bo"]


def test_an_intrigue_card_carried_out_by_hand_in_step_one_is_checked_with_step_one() -> None:
    """The table step waits for the table's corrections without ending the game; the War's own check
    after step I then ends it, before any fighting."""
    plays = ["intrigue at clay", "conflict clay-jane", "both wealth -1", "conflict clay-jane", "popularity", "traitors"]
    driver = game("6 6 6", UNDO_WEALTH, [*plays, "by hand"], jane="6 6 1")
    assert driver.pending is not None and driver.pending.prompt.startswith("Step I: carry out Traitors at House Clay")
    driver.adjust("Jane strength -1", "Traitors")
    assert driver.termination is None and not driver.finished  # still in step I
    driver.answer("done")
    assert any("After step I of the War, House Jane Collapses" in line for line in driver.take_messages())
    assert driver.state.houses["clay"]["popularity"] == 6  # no fighting: nothing was taken
    finish(driver)
    assert driver.report is not None and driver.report.winners == ["Bo"]
