"""Blackwood games long enough to empty what can run out: the potion deck and display, the forest
deck and its discards, the spell stacks, the Fagus Beech tokens and the coin supply.

The witches here are eager: they put puppets in the marker's column, buy what comes back, brew
whenever they can, trade, borrow and cast spells, so a game's decks run dry long before its third
expedition. After every answer the table is checked against the rules of what runs out."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from referee.asks import Ask, Choice, Number, Parsed
from referee.engine.cards import CardQuestion
from referee.engine.driver import Driver, replay
from referee.engine.facts import ruling_choices
from referee.engine.simulate import random_answer
from referee.errors import InvalidAnswer
from referee.games.blackwood import rules
from referee.games.blackwood.game import GAME
from referee.games.blackwood.state import POTION_DISPLAY, SPELLS, Table

NAMES = ["Ann", "Bo", "Cy", "Di"]
GAMES = 48
RULINGS: list[dict[str, str]] = [
    {},
    {"forest-deck": "none", "coin-supply": "unlimited", "fagus-tokens": "unlimited"},
    {"potions-run-out": "sell-leftovers", "rival-spot": "extra", "cauldron-timing": "round-start",
     "second-puppet-twice": "once-a-turn", "final-tie": "none"},
]


def is_cell(word: str) -> bool:
    return len(word) == 2 and word[0].isalpha() and word[1].isdecimal()


def eager_answer(ask: Ask[Any], table: Table, rng: random.Random) -> str:
    """An answer a witch bent on brewing would give; anything else is a random valid answer."""
    inner = ask.inner if isinstance(ask, CardQuestion) and not isinstance(ask, Choice) else ask
    if isinstance(inner, Number) and inner.section == "brew-potion":
        return str(rng.randint(0, 3))  # small rewards: coins run short and the witches borrow
    if not isinstance(inner, Parsed) or inner.section not in ("forest-exploration", "return-to-village"):
        return random_answer(ask, rng)
    examples = list(inner.examples)
    for action, chance in (("brew", 0.95), ("trade", 0.6), ("borrow", 0.9)):
        if action in examples and rng.random() < chance:
            return action
    spells = [word for word in examples if word in SPELLS]
    if spells and rng.random() < 0.3:
        return rng.choice(spells)
    in_column = [word for word in examples if is_cell(word) and int(word[1]) == table.round]
    if in_column:
        return rng.choice(in_column)
    prices = [word for word in examples if word.isdecimal()]
    if prices:
        return rng.choice(prices)
    return rng.choice(examples) if examples else random_answer(ask, rng)


def check_round_end(discards_before: int, after: Table, said: str, seen: Counter[str]) -> None:
    """What the end of a round leaves (#end-of-round, rulings forest-deck and potions-run-out)."""
    if after.potion_display < POTION_DISPLAY:
        assert after.potion_deck == 0, "the display is refilled to 6 while the potion deck lasts"
    if after.potion_deck == 0 and after.potion_display > 0:
        seen["potion deck empty, potions on display, play goes on"] += 1
    gaps = rules.gaps(after.forest)
    if gaps:
        seen["forest gaps left empty"] += 1
        if after.rulings["forest-deck"] == "reshuffle":
            assert after.forest_deck == 0 and after.forest_discard == 0, "gaps stay only with no card left"
    if "shuffle the discards" in said:
        seen["forest discards reshuffled"] += 1
        assert after.rulings["forest-deck"] == "reshuffle"
    if after.rulings["forest-deck"] == "none":
        assert after.forest_discard >= discards_before, "discards are never drawn again under none"


def play_eager_game(seed: int) -> tuple[Driver, Counter[str]]:
    rng = random.Random(seed)
    rulings = RULINGS[seed % len(RULINGS)]
    driver = Driver(GAME, NAMES[: 2 + seed % 3], {"rulings": rulings} if rulings else {})
    seen: Counter[str] = Counter()
    while driver.pending is not None:
        assert len(driver.entries) < 20_000, f"seed {seed}: the game does not end"
        when = (driver.state.expedition, driver.state.round)
        discards_before = driver.state.forest_discard
        for _ in range(50):
            try:
                driver.answer(eager_answer(driver.pending, driver.state, rng))
                break
            except InvalidAnswer:
                continue
        else:
            raise AssertionError(f"seed {seed}: no answer fits {driver.pending.prompt!r}")
        table: Table = driver.state
        said = "\n".join(driver.take_messages())
        assert GAME.invariant_errors(table) == [], f"seed {seed}"
        if (table.expedition, table.round) != when or driver.finished:
            check_round_end(discards_before, table, said, seen)
        if "The supply held only" in said:
            seen["coin supply ran short"] += 1
        if rules.fagus_tokens_left(table) == 0:
            seen["every Fagus Beech token out"] += 1
        if not rules.spells_on_offer(table):
            seen["every spell stack empty"] += 1
    return driver, seen


def test_eager_games_run_their_decks_dry_and_end_where_the_rules_end_them() -> None:
    """#end-of-game and #ruling-potions-run-out: a game ends early only with no potion card left
    (display and deck both empty) or an 'end' the table declared; an empty potion deck with potions
    on display plays on. #ruling-forest-deck: gaps stay empty only when no forest card is left to
    deal (or never, under `none`, from the discards). The limits of coins, tokens and spell stacks
    hold after every answer (the invariants)."""
    seen: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for seed in range(GAMES):
        driver, found = play_eager_game(seed)
        seen.update(found)
        table: Table = driver.state
        report = driver.report
        assert report is not None and report.termination is not None, f"seed {seed}"
        ends[report.termination.code] += 1
        if report.termination.code == "potions-exhausted":
            assert table.potion_display == 0 and table.potion_deck == 0, f"seed {seed}"
        elif report.termination.code == rules.EXPEDITIONS_OVER:
            assert (table.expedition, table.round) == (3, 5), f"seed {seed}"
        for line in report.players:
            witch = table.witch(line.name)
            assert line.total == witch.reputation + witch.coins // 3 - 5 * witch.fagus_tokens, f"seed {seed}"
    assert ends["potions-exhausted"] > 0, ends
    expected = {
        "potion deck empty, potions on display, play goes on", "forest gaps left empty",
        "forest discards reshuffled", "every spell stack empty", "every Fagus Beech token out",
    }
    assert expected <= set(seen), seen


NON_DEFAULT = [(ruling, choice) for ruling, choices in ruling_choices(GAME.rulebook).items() for choice in choices[1:]]


@pytest.mark.parametrize(("ruling", "choice"), NON_DEFAULT, ids=[f"{name}={value}" for name, value in NON_DEFAULT])
def test_undo_under_each_non_default_ruling_gives_back_the_table_as_it_was(ruling: str, choice: str) -> None:
    """Each ruling in its other reading, set alone, in an eager game: undoing back to any answer
    (the session replays the log without the entries taken back) gives the table exactly as it
    stood after that answer, so no reading keeps state the log does not hold."""
    rng = random.Random(f"{ruling}={choice}")
    driver = Driver(GAME, NAMES[:3], {"rulings": {ruling: choice}})
    tables = [GAME.to_json(driver.state)]
    while driver.pending is not None:
        for _ in range(50):
            try:
                driver.answer(eager_answer(driver.pending, driver.state, rng))
                break
            except InvalidAnswer:
                continue
        tables.append(GAME.to_json(driver.state))
    for kept in sorted({*rng.sample(range(len(driver.entries)), 12), len(driver.entries) - 1}):
        undone = replay(GAME, driver.players, driver.options, driver.entries[:kept])
        assert undone.applied == kept
        assert GAME.to_json(undone.driver.state) == tables[kept], f"undo back to entry {kept}"
