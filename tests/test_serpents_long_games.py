"""Council of Serpents games long enough to run the Influence deck dry, again and again.

The players here are calm: they lay their Intrigue cards face down at the Houses and turn Time
track cards that nudge a House up or down by one, so no House nears a symbol and the game goes on
while the cards drain away from the deck. The deck is reshuffled from the discards, the Keeper of
Balance is revealed or not on an empty deck, then deck and discards run out together, The Court
empties and the hands with it, and new Time tracks are formed from what is left. After every
answer the table is checked against the rules of what runs out."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from referee.asks import Ask, Choice, Confirm, Parsed
from referee.engine.cards import CardQuestion
from referee.engine.driver import Driver, replay
from referee.engine.facts import ruling_choices
from referee.engine.simulate import random_answer
from referee.errors import InvalidAnswer
from referee.games.serpents.game import GAME
from referee.games.serpents.houses import HOUSES
from referee.games.serpents.state import COURT_SPACES, Table

ANSWERS_PER_GAME = 1200
"""Long enough for every Influence card to leave the deck and The Court (each turn lays one down)."""


class Calm:
    """Answers that keep every House near the middle of its tracks."""

    def __init__(self, keeper_variant: bool) -> None:
        self.turned = 0
        self.keeper_variant = keeper_variant

    def __call__(self, ask: Ask[Any], rng: random.Random) -> str:
        inner = ask.inner if isinstance(ask, CardQuestion) and not isinstance(ask, Choice) else ask
        options = list(inner.examples) if isinstance(inner, Parsed) else list(getattr(inner, "options", ()))
        lowered = {option.lower(): option for option in options}
        if isinstance(inner, Confirm) and inner.section == "keeper-of-balance":
            return "yes" if self.keeper_variant else "no"
        if isinstance(inner, Choice) and inner.section == "keeper-of-balance" and rng.random() < 0.5:
            return inner.options[0]  # nobody reveals it: the undealt card, and the deck is reshuffled
        if inner.section == "setup" and "6 6 6" in lowered:
            return "6 6 6"  # every House starts in the middle of its tracks
        if inner.section == "setup" and "nothing" in lowered:
            return "nothing"  # the Starting Time track cards
        if inner.section == "forming-a-time-track" and "nothing" in lowered:
            self.turned += 1  # one House a card, up one Wealth and then down one, turn by turn
            house = HOUSES[self.turned % len(HOUSES)]
            return f"{house} wealth {'+' if (self.turned // len(HOUSES)) % 2 else '-'}1"
        if inner.section == "forming-a-time-track":
            return "wealth +1 popularity -1"  # a preferred action that leaves a House in the middle
        for house in HOUSES:
            if f"intrigue at {house}" in lowered:
                return lowered[f"intrigue at {house}"]
        return random_answer(ask, rng)


def check_what_runs_out(driver: Driver, said: str, seen: Counter[str]) -> None:
    """#acquire-influence, #keeper-of-balance, #ruling-empty-deck-and-discard: a deck emptied by a
    draw takes the discards (the Keeper of Balance asked about first, in the variant); The Court
    stays short only while no card is left to draw, in the deck or the discards."""
    table: Table = driver.state
    assert GAME.invariant_errors(table) == []
    if table.ended_by == "deck":
        assert table.keeper is not None, "an empty deck ends the game only for a Keeper of Balance"
    playing = driver.pending is not None and driver.pending.section == "play-influence"
    if playing and table.deck == 0:  # The Court was just refilled: a deck emptied by it took the discards
        assert table.discard == 0, "an empty deck is refilled from the discards"
    if playing and table.court < COURT_SPACES:
        assert table.deck == 0 and table.discard == 0, "The Court is refilled while a card is left"
        seen["The Court short of cards"] += 1
    for marker, what in (
        ("shuffle the discard pile", "deck reshuffled from the discards"),
        ("No card can be drawn", "deck and discards both empty"),
        ("nothing to acquire", "nothing to acquire"),
        ("no Influence card to play", "no card to play"),
        ("Nobody reveals the Keeper of Balance", "nobody reveals the Keeper"),
        ("reveals the Keeper of Balance: the Influence deck ran out", "the Keeper revealed on an empty deck"),
    ):
        if marker in said:
            seen[what] += 1


def play_calm_game(players: list[str], seed: int, rulings: dict[str, str] | None = None,
                   keeper_variant: bool = False) -> tuple[Driver, Counter[str]]:
    rng = random.Random(seed)
    calm = Calm(keeper_variant)
    driver = Driver(GAME, players, {"rulings": rulings} if rulings else {})
    seen: Counter[str] = Counter()
    while driver.pending is not None and len(driver.entries) < ANSWERS_PER_GAME:
        for _ in range(50):
            try:
                driver.answer(calm(driver.pending, rng))
                break
            except InvalidAnswer:
                continue
        else:
            raise AssertionError(f"no answer fits {driver.pending.prompt!r}")
        check_what_runs_out(driver, "\n".join(driver.take_messages()), seen)
    return driver, seen


GAMES = [(["Ann", "Bo"], False), (["Ann", "Bo", "Cy"], False), (["Ann", "Bo", "Cy"], True),
         (["Ann", "Bo", "Cy", "Di"], False)]


def test_calm_games_run_the_influence_deck_dry_and_keep_every_card() -> None:
    """The deck is reshuffled when it runs out, the Keeper of Balance is offered on an empty deck in
    the variant, and once deck and discards are both empty nothing is drawn, The Court stays short
    and a player with no card plays none; every Influence card stays accounted for throughout."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        for players, variant in GAMES:
            _driver, found = play_calm_game(players, seed, keeper_variant=variant)
            seen.update(found)
    expected = {
        "deck reshuffled from the discards", "deck and discards both empty", "nothing to acquire",
        "no card to play", "The Court short of cards", "nobody reveals the Keeper",
        "the Keeper revealed on an empty deck",
    }
    assert expected <= set(seen), seen


NON_DEFAULT = [
    (ruling, choice) for ruling, choices in ruling_choices(GAME.rulebook).items() for choice in choices[1:]
]


@pytest.mark.parametrize(("ruling", "choice"), NON_DEFAULT, ids=[f"{name}={value}" for name, value in NON_DEFAULT])
def test_undo_under_each_non_default_ruling_gives_back_the_table_as_it_was(ruling: str, choice: str) -> None:
    """Each ruling in its other reading, set alone, in a game that runs its deck dry: undoing back to
    any answer (the session replays the log without the entries taken back) gives the table exactly
    as it stood after that answer."""
    rng = random.Random(f"{ruling}={choice}")
    driver = Driver(GAME, ["Ann", "Bo", "Cy"], {"rulings": {ruling: choice}})
    calm = Calm(keeper_variant=True)
    tables = [GAME.to_json(driver.state)]
    while driver.pending is not None and len(driver.entries) < 400:
        for _ in range(50):
            try:
                driver.answer(calm(driver.pending, rng))
                break
            except InvalidAnswer:
                continue
        tables.append(GAME.to_json(driver.state))
    for kept in sorted({*rng.sample(range(len(driver.entries)), 10), len(driver.entries) - 1}):
        undone = replay(GAME, driver.players, driver.options, driver.entries[:kept])
        assert undone.applied == kept
        assert GAME.to_json(undone.driver.state) == tables[kept], f"undo back to entry {kept}"
