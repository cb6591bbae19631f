"""Council of Blackthorn rulings: the rulebook, its TOML and the code agree; overrides change play."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from referee.engine.driver import Driver
from referee.games.blackthorn import rules
from referee.games.blackthorn.game import GAME, RULING_CHOICES
from referee.games.blackthorn.scoring import DEFAULT_RULED_POINTS

ROOT = Path(__file__).resolve().parent.parent / "rulebooks"
TOML = tomllib.loads((ROOT / "council-of-blackthorn.toml").read_text())
MARKDOWN = (ROOT / "council-of-blackthorn.md").read_text()
OPENING = ["9", "5", "3", "queen", "lord of war", "minister of coin"]


def test_every_ruling_is_written_in_the_rulebook_and_the_toml() -> None:
    written = set(re.findall(r"\{#ruling-([a-z0-9-]+)\}", MARKDOWN))
    assert written == set(TOML["rulings"])
    for ruling, choices in RULING_CHOICES.items():
        assert TOML["rulings"][ruling]["default"] == choices[0]
        assert TOML["rulings"][ruling]["choices"] == list(choices)
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
