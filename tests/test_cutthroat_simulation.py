"""Random-answer simulation: whole Cutthroat Kingdoms games through the real driver.

After every answer the kingdom must be sound; every game must reach the Royal Feast and a score
that adds up; replaying a game's log must rebuild the identical state.
"""

from __future__ import annotations

import random

from referee.engine.driver import Driver, replay
from referee.engine.simulate import play_random_game
from referee.games.cutthroat.game import GAME, RULING_CHOICES
from referee.games.cutthroat.state import FEAST, GEMS_IN_GAME, Kingdom

GAMES = 1000


class Watcher:
    """Checks the invariants after every step of one game, and that time only moves forward."""

    def __init__(self) -> None:
        self.events = 0
        self.turn = 0

    def __call__(self, driver: Driver) -> None:
        kingdom: Kingdom = driver.state
        assert GAME.invariant_errors(kingdom) == []
        assert kingdom.events_drawn >= self.events and kingdom.turn_number >= self.turn
        assert kingdom.gems_held() <= GEMS_IN_GAME
        for player in kingdom.players:
            # every soldier of a house is in its hand, its dead pile or under its territories
            assert kingdom.soldiers_in_hand(player) + player.dead + kingdom.soldiers_placed(player.name) == (
                player.soldiers_total
            )
        self.events, self.turn = kingdom.events_drawn, kingdom.turn_number


def random_rulings(rng: random.Random) -> dict[str, str]:
    return {ruling: rng.choice(choices) for ruling, choices in RULING_CHOICES.items() if rng.random() < 0.3}


def test_random_games_keep_every_invariant_and_end_with_the_feast() -> None:
    rng = random.Random(20261130)
    counts = dict.fromkeys(range(3, 7), 0)
    for number in range(GAMES):
        players = [f"P{index}" for index in range(3 + number % 4)]
        options = {"rulings": random_rulings(rng)}
        driver = play_random_game(GAME, players, rng, options, after_each=Watcher(), max_answers=5000)
        counts[len(players)] += 1
        kingdom, report = driver.state, driver.report
        assert report is not None and kingdom.finished and kingdom.phase == "final"
        assert kingdom.events_drawn == kingdom.events_total and kingdom.last_event == FEAST
        assert kingdom.turn_number == kingdom.events_total  # one event at the end of every turn
        for player in report.players:
            assert player.total == sum(player.breakdown.values())
        totals = {player.name: player.total or 0 for player in report.players}
        sides = {tuple(sorted((name, spouse))) if (spouse := kingdom.player(name).married_to) else (name,)
                 for name in totals}
        best = max(sum(totals[name] for name in side) for side in sides)
        if report.winners:
            assert all(sum(totals[name] for name in side) == best for side in sides if side[0] in report.winners)
        else:
            assert options["rulings"].get("tied-top") == "nobody"
        if number % 50 == 0:  # replaying the log rebuilds the identical kingdom and report
            again = replay(GAME, players, options, driver.entries)
            assert again.applied == len(driver.entries)
            assert GAME.to_json(again.driver.state) == GAME.to_json(kingdom)
            assert again.driver.report is not None and again.driver.report.to_json() == report.to_json()
    assert sum(counts.values()) == GAMES and min(counts.values()) > 0


def test_undo_then_the_same_answer_gives_the_same_kingdom() -> None:
    rng = random.Random(11)
    players = ["Ann", "Bo", "Cy", "Di"]
    driver = play_random_game(GAME, players, rng)
    entries = driver.entries
    for cut in rng.sample(range(1, len(entries)), 25):
        original = replay(GAME, players, {}, entries[:cut]).driver
        undone = replay(GAME, players, {}, entries[: cut - 1]).driver
        assert undone.pending is not None
        undone.answer(entries[cut - 1].answer or "")
        assert GAME.to_json(undone.state) == GAME.to_json(original.state)
        assert undone.pending == original.pending
