"""Council of Blackthorn rulings: the rulebook, its TOML and the code agree; overrides change play."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from referee.asks import Choice
from referee.engine.driver import Driver
from referee.engine.facts import ruling_choices
from referee.errors import InvalidAnswer
from referee.games.blackthorn import rules
from referee.games.blackthorn.game import GAME
from referee.games.blackthorn.scoring import DEFAULT_RULED_POINTS

ROOT = Path(__file__).resolve().parent.parent / "rulebooks"
TOML = tomllib.loads((ROOT / "council-of-blackthorn.toml").read_text())
MARKDOWN = (ROOT / "council-of-blackthorn.md").read_text()
OPENING = ["9", "5", "3", "queen", "lord of war", "minister of coin"]


def ruling_section(ruling: str) -> str:
    start = MARKDOWN.index(f"{{#ruling-{ruling}}}")
    end = MARKDOWN.find("\n### ", start)
    return MARKDOWN[start : end if end != -1 else None]


def test_every_ruling_is_written_in_the_rulebook_and_the_toml() -> None:
    written = set(re.findall(r"\{#ruling-([a-z0-9-]+)\}", MARKDOWN))
    assert written == set(TOML["rulings"])
    overridable = ruling_choices(GAME.rulebook)
    assert set(overridable) == {
        "trigger-after-dice", "whispers-active-tied", "whispers-zero-buildings", "pass-without-treason",
        "ghost-in-comparisons", "block-while-held", "starting-roll-total", "whispers-gain-capped",
        "ghost-whispers-treason",
    }
    for ruling, choices in overridable.items():
        assert TOML["rulings"][ruling]["default"] == choices[0]
        for choice in choices:  # the rulebook names every choice --ruling accepts
            assert f"`{choice}`" in ruling_section(ruling), (ruling, choice)
        assert ruling in MARKDOWN[MARKDOWN.index("{#rulings}") : MARKDOWN.index("{#ruling-")]
    assert TOML["rulings"]["bribe-value"]["default"] == DEFAULT_RULED_POINTS["bribe"]
    assert TOML["rulings"]["spy-value"]["default"] == DEFAULT_RULED_POINTS["spy"]


def drive(options: dict[str, object], answers: list[str], players: list[str] | None = None) -> Driver:
    driver = Driver(GAME, players or ["Ann", "Bo", "Cy"], options)
    for answer in answers:
        if answer.startswith("adjust "):
            change, _, reason = answer.removeprefix("adjust ").partition(";")
            driver.adjust(change.strip(), reason.strip() or "position")
        else:
            driver.answer(answer)
    return driver


def test_zero_die_without_treason_cards() -> None:
    answers = [*OPENING, "0 1 1 1", "adjust Ann treason =0 ; position", "noble"]
    default = drive({}, answers)
    assert default.pending is not None and default.pending.section == "buildings-vs-allies"
    overridden = drive({"rulings": {"pass-without-treason": "target-draws-from-deck"}}, [*answers, "Cy"])
    assert [player.treason_cards for player in overridden.state.players] == [0, 3, 4]


def test_ghost_ignored_in_comparisons() -> None:
    answers = ["7", "4", "queen", "lord of war", "1 1 1 1", "adjust Ghost noble =5 ; position",
               "adjust Ann noble =3 ; position", "no card"]
    counted = drive({}, answers, ["Ann", "Bo"])
    ignored = drive({"rulings": {"ghost-in-comparisons": "ignore"}}, answers, ["Ann", "Bo"])
    assert counted.state.players[0].influence == 3  # the ghost's 5 Noble beats Ann's 3
    assert ignored.state.players[0].influence == 5  # Ann alone is compared: 2 for Noble


def test_block_permanent_after_the_blocker_is_bumped() -> None:
    answers = [*OPENING, "1 1 1 1", "adjust Ann noble =13 ; position", "adjust Ann noble =9 ; a text effect",
               "adjust Bo noble =9 ; position"]
    while_held = drive({}, answers)
    permanent = drive({"rulings": {"block-while-held": "permanent"}}, answers)
    assert rules.table_blocked(while_held.state) == []
    assert rules.table_blocked(permanent.state) == ["noble"]
    for driver in (while_held, permanent):
        driver.answer("noble")  # Ann plays a Noble card on a 1
    assert while_held.state.players[0].points("noble") == 13
    assert permanent.state.players[0].points("noble") == 9


def test_table_decides_the_first_ring_holder() -> None:
    driver = drive({"rulings": {"starting-roll-total": "table-decides"}}, ["Bo"])
    assert driver.state.ring == 1
    assert driver.pending is not None and driver.pending.prompt == "Bo chooses a character"


def test_a_whispers_level_at_a_track_limit() -> None:
    answers = [*OPENING, "1 1 1 1", "adjust Ann noble =13 ; position", "whispers"]
    capped = drive({}, answers)
    assert isinstance(capped.pending, Choice) and "noble" in capped.pending.options
    assert "(Noble: at its limit, the level is lost; ruling whispers-gain-capped)" in capped.pending.prompt
    capped.answer("noble")  # allowed, and the level is lost
    assert capped.state.players[0].points("noble") == 13
    must_move = drive({"rulings": {"whispers-gain-capped": "must-move"}}, answers)
    assert isinstance(must_move.pending, Choice) and must_move.pending.options == ("guild", "legion", "peasant")
    with pytest.raises(InvalidAnswer):
        must_move.answer("noble")


def test_the_ghosts_whispers_with_its_tokens_left_out() -> None:
    answers = ["7", "4", "queen", "lord of war", "1 1 1 1", "adjust Ghost noble =5 ; position",
               "adjust Ann noble =3 ; position", "adjust Bo noble =3 ; position", "no card", "no card", "whispers"]
    ghost_active = drive({}, answers, ["Ann", "Bo"])
    live_only = drive({"rulings": {"ghost-whispers-treason": "live-only"}}, answers, ["Ann", "Bo"])
    assert [player.treason_cards for player in ghost_active.state.players] == [3, 3]  # the ghost leads Noble
    assert [player.treason_cards for player in live_only.state.players] == [4, 4]  # the tied live leaders draw


def test_no_buildings_counts_as_a_tie_when_the_table_reads_it_so() -> None:
    """#ruling-whispers-zero-buildings, set alone: with no Building anywhere, the active player picks
    which opponent draws for the building check; by default nobody draws."""
    answers = [*OPENING, "1 1 1 1", "whispers", "noble"]
    nobody = drive({}, answers)
    assert nobody.pending is not None and nobody.pending.prompt == "Bo plays which card?"
    assert [player.treason_cards for player in nobody.state.players] == [3, 3, 3]
    tied = drive({"rulings": {"whispers-zero-buildings": "choose-among-tied"}}, answers)
    assert isinstance(tied.pending, Choice) and tied.pending.prompt.startswith("Whispers, buildings: tie")
    assert "ruling whispers-zero-buildings" in tied.pending.prompt
    assert tied.pending.options == ("Bo", "Cy")
    tied.answer("Cy")
    assert [player.treason_cards for player in tied.state.players] == [3, 3, 4]
    # With whispers-active-tied overridden as well the pick is the same: the active player's 0 leads nothing.
    both = drive({"rulings": {"whispers-zero-buildings": "choose-among-tied",
                              "whispers-active-tied": "choose-other"}}, [*answers, "Bo"])
    assert [player.treason_cards for player in both.state.players] == [3, 4, 3]


def test_no_buildings_on_the_ghosts_whispers_makes_both_live_players_draw() -> None:
    """#ruling-whispers-zero-buildings on the ghost's Whispers: nobody has a Building, so both live
    players count as tied for the most and both draw (the ghost picks nobody); by default nobody."""
    answers = ["7", "4", "queen", "lord of war", "1 1 1 1", "no card", "no card", "whispers"]
    default = drive({}, answers, ["Ann", "Bo"])
    tied = drive({"rulings": {"whispers-zero-buildings": "choose-among-tied"}}, answers, ["Ann", "Bo"])
    assert [player.treason_cards for player in default.state.players] == [3, 3]
    assert [player.treason_cards for player in tied.state.players] == [4, 4]
    assert "Whispers, buildings: Ann, Bo draw(s) a treason card (nobody has one: ruling whispers-zero-buildings)." in (
        tied.messages
    )


def test_the_active_player_tied_for_the_lead_lets_another_draw_when_the_table_reads_it_so() -> None:
    """#ruling-whispers-active-tied, set alone: Ann ties Bo for the most Noble; by default nobody draws
    for Noble, under choose-other Bo (the only other tied player) draws without a question."""
    answers = [*OPENING, "1 1 1 1", "adjust Ann noble =3 ; position", "adjust Bo noble =3 ; position",
               "whispers", "legion"]
    default = drive({}, answers)
    other = drive({"rulings": {"whispers-active-tied": "choose-other"}}, answers)
    assert [player.treason_cards for player in default.state.players] == [3, 3, 3]
    assert [player.treason_cards for player in other.state.players] == [3, 4, 3]
    for driver in (default, other):
        assert driver.pending is not None and driver.pending.prompt == "Bo plays which card?"
    assert any("tied: ruling whispers-active-tied" in message for message in default.messages)


def test_the_trigger_compared_before_the_dice_effect_when_the_table_reads_it_so() -> None:
    """#ruling-trigger-after-dice, set alone: a Guild Building needing Guild 5, played from Guild 4 on
    a Guild die of 1, goes into play by default and is discarded under `before`."""
    answers = [*OPENING, "1 1 1 1", "adjust Ann guild =4 ; position", "guild", "guild 5"]
    after = drive({}, [*answers, "building", "6"])
    before = drive({"rulings": {"trigger-after-dice": "before"}}, answers)
    assert [building.value for building in after.state.players[0].buildings] == [6]
    assert before.state.players[0].buildings == []
    assert before.pending is not None and before.pending.prompt == "Bo plays which card?"


def test_the_ghosts_whispers_names_the_ruling_that_governs_it() -> None:
    """#ruling-ghost-whispers-treason: the ghost tied with a live leader exempts everyone, and the
    message names that ruling, not whispers-active-tied (which is about the active player's pick)."""
    answers = ["7", "4", "queen", "lord of war", "1 1 1 1", "adjust Bo noble =1 ; position",
               "no card", "no card", "whispers"]
    driver = drive({}, answers, ["Ann", "Bo"])
    assert "Whispers, Noble: nobody draws (Ghost has the highest (tied: ruling ghost-whispers-treason))." in (
        driver.messages
    )
    assert not any("whispers-active-tied" in message for message in driver.messages)
    assert [player.treason_cards for player in driver.state.players] == [3, 3]


def test_every_override_is_shown_to_change_a_game_on_its_own() -> None:
    """Each overridable ruling has a test above (or in test_engine_session / test_blackthorn_rules)
    that sets it alone and shows an outcome it changes: this list must name them all."""
    alone = {
        "trigger-after-dice": test_the_trigger_compared_before_the_dice_effect_when_the_table_reads_it_so,
        "whispers-active-tied": test_the_active_player_tied_for_the_lead_lets_another_draw_when_the_table_reads_it_so,
        "whispers-zero-buildings": test_no_buildings_counts_as_a_tie_when_the_table_reads_it_so,
        "pass-without-treason": test_zero_die_without_treason_cards,
        "ghost-in-comparisons": test_ghost_ignored_in_comparisons,
        "block-while-held": test_block_permanent_after_the_blocker_is_bumped,
        "starting-roll-total": test_table_decides_the_first_ring_holder,
        "whispers-gain-capped": test_a_whispers_level_at_a_track_limit,
        "ghost-whispers-treason": test_the_ghosts_whispers_with_its_tokens_left_out,
    }
    assert set(alone) == set(ruling_choices(GAME.rulebook))
