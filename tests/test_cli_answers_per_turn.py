"""How many answers an ordinary Council of Blackthorn turn takes at the table.

An ordinary turn is a faction card played on a die showing 1 or 2. The referee asks which card was
played and the trigger printed on it; only a card whose text applies adds "ally or building?"; an
ally then adds the table step where the table carries out its text (Enter), a building its printed
value. Everything else in the turn (construction, control points,
drawing back to five) the referee works out itself. The dice are one more answer per round, shared
by every player's turn.

The card catalogue's part: for every game, the same random games with every card named as a new
one (cold) and then as a known one (warm); `pytest -n 0 -s -k warm` prints answers a turn for both, and
for random games of the same seeds in which no card is named.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from referee.asks import Ask
from referee.engine.cards import CardQuestion, Catalogue
from referee.engine.driver import Driver
from referee.engine.facts import player_range
from referee.engine.simulate import random_answer
from referee.errors import InvalidAnswer
from referee.games.blackthorn.game import GAME
from referee.games.registry import load_game


def start_round(players: Sequence[str], dice: str) -> Driver:
    driver = Driver(GAME, players, {})
    rolls = [str(12 - seat) for seat in range(len(players))]  # the first seat rolls highest
    characters = ["1"] * min(len(players), 5)  # the first one left; with six players the last is dealt
    for answer in [*rolls, *characters, dice]:
        driver.answer(answer)
    return driver


def answers_in_turn(driver: Driver, answers: Sequence[str]) -> int:
    """Play one turn with `answers`; checks the turn ends exactly after the last one."""
    player = GAME.header(driver.state).active
    assert driver.pending is not None and driver.pending.prompt == f"{player} plays which card?"
    for answer in answers:
        assert GAME.header(driver.state).active == player, f"{player}'s turn ended before {answer!r}"
        driver.answer(answer)
    assert GAME.header(driver.state).active != player, f"{player}'s turn asked for more than {answers}"
    return len(answers)


@pytest.mark.parametrize(
    ("card", "trigger", "rest", "expected"),
    [
        ("noble", "guild 5", [], 2),  # Noble shows 1; Ann has no Guild, so the text does not apply
        ("guild", "none", ["ally", "done"], 4),  # Guild shows 2; no trigger printed: the ally resolves
        ("noble", "noble 1", ["ally", "done"], 4),  # triggered by the level the card itself gave
        ("guild", "noble 0", ["building", "5"], 4),  # triggered building: its printed value is asked
    ],
)
def test_ordinary_turn_answers(card: str, trigger: str, rest: list[str], expected: int) -> None:
    driver = start_round(["Ann", "Bo", "Cy"], "1 2 1 2")
    assert answers_in_turn(driver, [card, trigger, *rest]) == expected


def test_dice_are_asked_once_a_round_for_every_player() -> None:
    driver = start_round(["Ann", "Bo", "Cy"], "1 2 1 2")
    turns = [["noble", "guild 5"], ["guild", "none", "ally", "done"], ["peasant", "guild 5"]]
    for answers in turns:
        answers_in_turn(driver, answers)
    assert driver.pending is not None and driver.pending.section == "round-dice"
    assert len(driver.entries) == 3 + 3 + 1 + sum(len(answers) for answers in turns)


def test_random_ordinary_turns_take_two_or_four_answers() -> None:
    """Across random games, every turn with a faction card on a 1 or 2 takes 2 answers (text not
    triggered) or 4 (an ally and its table step, or a building and its value)."""
    lengths: Counter[int] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        players = [f"P{seat}" for seat in range(rng.randint(2, 6))]
        driver = Driver(GAME, players, {})
        turn: list[str] | None = None
        while driver.pending is not None:
            ask = driver.pending
            if turn is not None and GAME.header(driver.state).active != turn[0]:
                lengths[len(turn) - 1] += 1
                turn = None
            for _ in range(50):
                try:
                    driver.answer(random_answer(ask, rng))
                    break
                except ValueError:
                    continue
            card = driver.entries[-1].answer or ""
            dice = driver.state.dice or {}
            if ask.prompt.endswith("plays which card?") and dice.get(card) in (1, 2):
                turn = [GAME.header(driver.state).active or "", card]
            elif turn is not None:
                turn.append(card)
    assert set(lengths) == {2, 4}
    total = sum(lengths.values())
    assert total > 500
    mean = sum(length * count for length, count in lengths.items()) / total
    shares = ", ".join(f"{length} answers {count / total:.0%}" for length, count in sorted(lengths.items()))
    print(f"\nordinary Council of Blackthorn turns: {total}; {shares}; mean {mean:.2f}")


# --- the card catalogue: the same games with every card known ------------------------------------

CATALOGUE_GAMES = ("council-of-blackthorn", "cutthroat-kingdoms", "blackwood", "council-of-serpents", "got-lcg-1e")
CATALOGUE_SEEDS = range(30)


def name_territories(ask: Ask[Any]) -> str | None:
    """Cutthroat Kingdoms: every territory gets a printed name at setup (never the slot's own)."""
    if ask.prompt.startswith("Territory in slot"):
        return "Land " + ask.prompt.removeprefix("Territory in slot ").split(":")[0]
    return None


NAMING: dict[str, Callable[[Ask[Any]], str | None]] = {"cutthroat-kingdoms": name_territories}
"""Answers a game needs for its cards to have printed names at all."""


@dataclass
class CatalogueRun:
    turns: int
    cold: int
    """Answers with every card named as a new one ('card NAME', then its fields)."""
    warm: int
    """Answers with every card known by name."""
    named: int
    """How many cards were named as new."""


def valid(ask: Ask[Any], rng: random.Random) -> str:
    for _ in range(50):
        text = random_answer(ask, rng)
        try:
            ask.parse(text)
        except InvalidAnswer:
            continue
        return text
    raise AssertionError(f"no random answer fits {ask.prompt!r}")


def cold_answer(game_id: str, ask: Ask[Any], rng: random.Random, cards: Iterator[int]) -> str:
    """A random answer; at a card question where the answer is a printed value of the card, the
    card is named as a new one instead, and its fields are asked as they come."""
    own = NAMING.get(game_id, lambda ask: None)(ask)
    if own is not None:
        return own
    text = valid(ask, rng)
    if isinstance(ask, CardQuestion) and ask.name is None:
        try:
            dict(ask.kind.fields)[ask.first].parse(text)
        except InvalidAnswer:
            return text  # not a card's value (Whispers, 'discard', an action): answered as before
        return f"card Sample {next(cards)}"
    return text


def learned(driver: Driver) -> Catalogue:
    """What the cold game taught, merged as the catalogue merges it."""
    known: dict[str, dict[str, dict[str, str]]] = {}
    kinds = {kind.id: kind for kind in driver.game.card_kinds()}
    for card in driver.learned:
        printed = known.setdefault(card.kind, {}).setdefault(card.name, {})
        printed.update(kinds[card.kind].check(card.printed))
    return known


def answers_and_turns(game_id: str, driver: Driver, answer: Callable[[Ask[Any]], str]) -> int:
    """Play the driver's game to its end with `answer`; returns the turns played."""
    turns: set[tuple[int | None, str]] = set()
    while driver.pending is not None:
        assert len(driver.entries) < 20_000
        driver.answer(answer(driver.pending))
        driver.take_messages()
        header = driver.game.header(driver.state)
        if header.active is not None:
            turns.add((header.round, header.active))
    return len(turns)


def players_for(game_id: str, rng: random.Random) -> list[str]:
    low, high = player_range(game_id)
    return [f"P{seat}" for seat in range(rng.randint(max(low, 2), high))]


def without_names(game_id: str, seed: int) -> tuple[int, int]:
    """(turns, answers) of a random game with the same seed in which no card is named: today's."""
    rng = random.Random(seed)
    driver = Driver(load_game(game_id), players_for(game_id, rng), {})
    turns = answers_and_turns(game_id, driver, lambda ask: valid(ask, rng))
    return turns, len(driver.entries)


def cold_then_warm(game_id: str, seed: int) -> CatalogueRun:
    """One random game played with every card new (cold), then the same game with every card
    known (warm): the warm game answers what the cold one did, less what the cards told."""
    game = load_game(game_id)
    rng = random.Random(seed)
    players = players_for(game_id, rng)
    cold = Driver(game, players, {})
    numbers = itertools.count(1)
    turns = answers_and_turns(game_id, cold, lambda ask: cold_answer(game_id, ask, rng, numbers))
    warm = Driver(game, players, {}, learned(cold))
    again = Driver(game, players, {})  # the cold game once more, to see what each of its answers answered
    for entry in cold.entries:
        asked, answer = again.pending, entry.answer or ""
        assert asked is not None and warm.pending is not None
        if warm.pending.prompt == asked.prompt:  # the warm game asks it too (else the card told it)
            if answer.startswith("card "):
                try:
                    warm.answer(answer.removeprefix("card "))  # the card, known by its name
                except InvalidAnswer:
                    pass  # known now not to fit (a card the player cannot pay for): the table says another
            elif isinstance(warm.pending, CardQuestion) and warm.pending.name and warm.pending.default:
                warm.answer("")  # Enter: the card the flow named, as known
            else:
                warm.answer(answer)
            warm.take_messages()
        again.answer(answer)
        again.take_messages()
    assert warm.finished and cold.report is not None and warm.report is not None
    assert warm.report.players == cold.report.players  # the same game, to the last point
    assert game.to_json(warm.state) == game.to_json(cold.state)
    named = sum(1 for entry in cold.entries if (entry.answer or "").startswith("card "))
    return CatalogueRun(turns, len(cold.entries), len(warm.entries), named)


@pytest.mark.parametrize("game_id", CATALOGUE_GAMES)
def test_a_warm_catalogue_takes_fewer_answers_a_turn(game_id: str) -> None:
    """The same random games named two ways, every card new (cold) and every card known (warm),
    beside random games of the same seeds in which no card is named (today's). Answers a turn count
    every answer of a game, set-up and the final count included, over the turns played."""
    runs = [cold_then_warm(game_id, seed) for seed in CATALOGUE_SEEDS]
    turns = sum(run.turns for run in runs)
    cold, warm = sum(run.cold for run in runs) / turns, sum(run.warm for run in runs) / turns
    plain = [without_names(game_id, seed) for seed in CATALOGUE_SEEDS]
    today = sum(answers for _, answers in plain) / sum(turns for turns, _ in plain)
    print(f"\n{game_id}: {len(runs)} random games, {turns} turns, {sum(run.named for run in runs)} cards named; "
          f"answers a turn: no card named {today:.2f}, cold catalogue {cold:.2f}, warm {warm:.2f}")
    assert load_game(game_id).card_kinds()
    assert warm < cold
