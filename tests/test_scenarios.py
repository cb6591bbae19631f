"""Every scenario under scenarios/<game>/ replays through the real driver and meets its expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.scenarios import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
SCENARIOS = sorted(path for path in ROOT.glob("*/*.toml"))


def test_there_are_scenarios() -> None:
    assert len([path for path in SCENARIOS if path.parent.name == "council-of-blackthorn"]) >= 7


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_scenario(path: Path) -> None:
    run = run_scenario(load_scenario(path))
    assert run.failures == []


REALISTIC = sorted((ROOT.parent / "benchmarks" / "realistic").glob("*/*.toml"))
"""The benchmark's whole games, played as a table plays them: each is a scenario too. They name a
card once and then call it by its name, which a scenario knows as a session of its own would."""


@pytest.mark.parametrize("path", REALISTIC, ids=lambda path: f"realistic/{path.parent.name}/{path.stem}")
def test_realistic_game_replays_to_its_outcome(path: Path) -> None:
    run = run_scenario(load_scenario(path))
    assert run.failures == []
    assert run.driver.finished

