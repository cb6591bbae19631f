"""Random play of got-lcg-1e, for what is specific to it (the generic invariants, replay and undo
checks are in test_simulation.py): corrections the table might type along the way, Prized cards
that bring several players to 15 at once, and the sections the questions name."""

from __future__ import annotations

import random
from typing import Any

from referee.engine.driver import Driver
from referee.engine.facts import ruling_choices
from referee.engine.simulate import play_random_game
from referee.errors import InvalidAdjustment
from referee.games.got.game import GAME
from referee.games.got.scoring import POWER_TO_WIN
from referee.games.got.state import Table

GAMES = 300
NAMES = ("Ann", "Bo", "Cy", "Di")
CORRECTION_RATE = 0.03
CORRECTIONS = (
    "house +2", "house -1", "cards +3", "gold +1", "hand -2", "income +1", "initiative +1", "claim =2",
    "infamy 1", "shadows +1",
)


def random_correction(players: list[str], rng: random.Random) -> str:
    """A correction the table might enter: most fit, some are refused (too few tokens, no plot yet)."""
    if rng.random() < 0.15:
        return f"prized {rng.choice(players)} {rng.randint(1, 4)}"
    return f"{rng.choice(players)} {rng.choice(CORRECTIONS)}"


def random_options(rng: random.Random) -> dict[str, Any]:
    """Now and then override each ruling, so the other readings are played too."""
    choices = ruling_choices(GAME.rulebook)
    rulings = {ruling: rng.choice(values) for ruling, values in choices.items() if rng.random() < 0.3}
    return {"rulings": rulings} if rulings else {}


def test_random_games_with_corrections_end_with_the_players_at_fifteen() -> None:
    rng = random.Random(20240601)
    shared = 0

    def correct(driver: Driver) -> None:
        if driver.pending is not None and rng.random() < CORRECTION_RATE:
            try:
                driver.adjust(random_correction(driver.players, rng), "card text")
            except InvalidAdjustment:
                pass  # a refused correction leaves the state as it was (the generic test checks that)
        assert GAME.invariant_errors(driver.state) == []

    for number in range(GAMES):
        players = list(NAMES[: 2 + number % 3])
        driver = play_random_game(GAME, players, rng, random_options(rng), after_each=correct, max_answers=5000)
        report = driver.report
        assert report is not None and report.ended, f"game {number} did not end"
        assert report.termination is not None and report.termination.code == "power-reached"
        table: Table = driver.state
        assert table.finished and table.won
        at_fifteen = [player.name for player in table.players if player.power >= POWER_TO_WIN]
        assert report.winners and set(report.winners) <= set(at_fifteen)
        if table.first_to_fifteen is not None:
            assert report.winners == [table.first_to_fifteen]
        shared += len(report.winners) > 1
        for player in table.players:
            assert report.player(player.name).total == player.power
        for score in report.players:
            assert (score.rank == 1) == (score.name in report.winners)
    assert shared > 0  # Prized corrections brought several players to 15 at once in some games


