"""Blackwood guided session: the rules functions, the flow through the real driver, corrections,
invariants, views, and the scenarios under scenarios/blackwood/."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from referee.asks import Choice, Parsed
from referee.engine.cards import CardQuestion
from referee.engine.driver import Driver, replay
from referee.engine.facts import ruling_choices
from referee.engine.simulate import random_answer
from referee.errors import InvalidAdjustment, InvalidAnswer, SessionError
from referee.games.blackwood import rules
from referee.games.blackwood.flow.actions import spell_fits
from referee.games.blackwood.game import GAME
from referee.games.blackwood.parse import parse_cell
from referee.games.blackwood.rulings import FOREST_DECK
from referee.games.blackwood.state import (
    EMPTY_CARD,
    FOREST_CARDS,
    FOREST_STEP,
    NO_CARD,
    Spell,
    Table,
    Turn,
    Witch,
)

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios" / "blackwood").glob("*.toml"))


def start(players: tuple[str, ...] = ("Ann", "Bo"), **rulings: str) -> Driver:
    options: dict[str, Any] = {"rulings": dict(rulings)} if rulings else {}
    return Driver(GAME, list(players), options)


def feed(driver: Driver, *answers: str) -> None:
    for answer in answers:
        driver.answer(answer)
        assert GAME.invariant_errors(driver.state) == [], answer


def state(driver: Driver) -> Table:
    table: Table = driver.state
    return table


def prompt(driver: Driver) -> str:
    assert driver.pending is not None
    return driver.pending.prompt


def messages(driver: Driver) -> str:
    return "\n".join(driver.take_messages())


def quiet_round(driver: Driver) -> None:
    """Every witch sends a puppet to the marker's column (or anywhere) and lets the card go."""
    table = state(driver)
    current = (table.expedition, table.round)
    while driver.pending is not None and (table.expedition, table.round) == current:
        ask = driver.pending
        assert isinstance(ask, Parsed | CardQuestion), ask.prompt  # a card question where a card may be named
        if "places a puppet" in ask.prompt:
            free = rules.free_cells(table.forest)
            in_column = [cell for cell in free if cell[1] == table.round - 1]
            driver.answer(rules.cell_label(*(in_column or free)[0]))
        elif "returns from" in ask.prompt:
            driver.answer("discard")
        else:
            driver.answer("done")


def small_table(witches: int = 2) -> Table:
    return GAME.new_state(["Ann", "Bo", "Cy", "Di"][:witches], {})


# --- rules functions -----------------------------------------------------------------------------


def test_cell_labels_read_back_and_refuse_cells_outside_the_forest() -> None:
    assert rules.cell_label(0, 0) == "A1" and rules.cell_label(2, 4) == "C5"
    assert parse_cell("c5", 3) == (2, 4)
    assert parse_cell("D1", 3) is None  # two witches: rows A to C only
    assert parse_cell("A6", 3) is None
    assert parse_cell("A0", 3) is None
    assert parse_cell("11", 3) is None


def test_forest_size_follows_the_number_of_witches() -> None:
    assert [len(rules.new_forest(witches)) for witches in (2, 3, 4)] == [3, 4, 5]
    assert all(len(row) == 5 for row in rules.new_forest(4))
    assert small_table(3).forest_deck == FOREST_CARDS - 20


def test_taking_a_card_slides_the_rest_of_the_row_toward_the_village() -> None:
    forest = [["Ann", "", "Bo", "", ""], ["", "", "", "", ""]]
    rules.take_card(forest, 0, 0)
    assert forest[0] == ["", "Bo", "", "", NO_CARD]
    rules.take_card(forest, 0, 1)
    assert forest[0] == ["", "", "", NO_CARD, NO_CARD]
    assert forest[1] == [""] * 5


def test_first_witch_is_the_puppet_farthest_from_the_marker() -> None:
    forest = [["Ann", ""], ["", ""], ["Bo", ""]]
    assert rules.first_witch(forest, 0) == "Bo"
    assert rules.first_witch(forest, 1) is None
    assert rules.next_returning(forest, 0) == 0
    assert rules.next_returning(forest, 1) is None


def test_gaps_are_dealt_nearest_row_first_and_only_as_far_as_the_cards_go() -> None:
    forest = [["", NO_CARD], [NO_CARD, NO_CARD]]
    assert rules.gaps(forest) == 3
    assert rules.deal_into_gaps(forest, 2) == 2
    assert forest == [["", ""], ["", NO_CARD]]


def test_a_short_forest_deck_takes_in_the_discards_only_under_the_reshuffle_ruling() -> None:
    table = small_table()
    table.forest_deck, table.forest_discard = 2, 10
    assert rules.draw_forest_cards(table, 5) == (5, True)
    assert (table.forest_deck, table.forest_discard) == (7, 0)
    table.rulings[FOREST_DECK.name] = "none"
    table.forest_deck, table.forest_discard = 2, 10
    assert rules.draw_forest_cards(table, 5) == (2, False)
    assert (table.forest_deck, table.forest_discard) == (0, 10)


def test_a_limited_supply_pays_no_more_than_it_holds() -> None:
    table = small_table()
    ann, bo = table.witches
    bo.coins = 120
    assert rules.supply_coins(table) == 130 - 128
    assert rules.pay_from_supply(table, ann, 5) == 2
    assert ann.coins == 10 and rules.supply_coins(table) == 0
    table.rulings["coin-supply"] = "unlimited"
    assert rules.supply_coins(table) is None
    assert rules.pay_from_supply(table, ann, 5) == 5 and ann.coins == 15


def test_borrowing_needs_two_coins_or_fewer_and_a_token_left() -> None:
    table = small_table()
    ann, bo = table.witches
    assert not rules.may_borrow(table, ann)
    ann.coins = 2
    assert rules.may_borrow(table, ann)
    bo.fagus_tokens = 10
    assert not rules.may_borrow(table, ann)


def test_spell_cost_grows_by_one_and_stacks_hold_one_fewer_than_the_witches() -> None:
    table = small_table(3)
    ann = table.witches[0]
    assert rules.spell_cost(ann) == 2
    ann.spells = [Spell("swap"), Spell("swap")]
    assert rules.spell_cost(ann) == 4
    assert rules.spells_per_type(3) == 2
    assert rules.spells_left(table, "swap") == 0
    assert "swap" not in rules.spells_on_offer(table)
    assert rules.spells_left(table, "forage") == 2


def test_leftover_cards_pay_half_their_prices_rounded_down() -> None:
    assert rules.compensation(Witch("Ann", forest_cards=[3, 4])) == 3
    assert rules.compensation(Witch("Ann", forest_cards=[1])) == 0


def test_sold_potions_count_two_less_and_traded_ones_keep_their_value() -> None:
    witch = Witch("Ann", potion_reputation=20, potions_kept=1, potions_sold=2, potions_traded=2)
    assert witch.reputation == 16
    assert witch.potions_brewed == 5


def test_ready_spells_follow_the_step_and_turn_over_when_used() -> None:
    witch = Witch("Ann", spells=[Spell("free-card"), Spell("second-puppet"), Spell("swap")])
    assert rules.ready_spells(witch, "Forest Exploration") == ("second-puppet", "swap")
    assert rules.ready_spells(witch, "Return to the Village") == ("swap", "free-card")
    rules.use_spell(witch, "swap")
    assert rules.ready_spells(witch, "Forest Exploration") == ("second-puppet",)
    with pytest.raises(ValueError):
        rules.use_spell(witch, "swap")
    table = small_table()
    table.witches[0] = witch
    assert rules.restore_spells(table) == 1
    assert not any(spell.used for spell in witch.spells)


# --- players and rulings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players", [["Ann"], ["A", "B", "C", "D", "E"], ["Ann", "ann"], ["Ann", "display"], ["Ann", " "]]
)
def test_players_that_cannot_play_are_refused(players: list[str]) -> None:
    with pytest.raises(SessionError):
        GAME.new_state(players, {})


@pytest.mark.parametrize(
    "rulings", [{"forest-deck": "maybe"}, {"no-such-ruling": "x"}, {"final-tie": "coin-flip"}]
)
def test_unknown_ruling_overrides_are_refused(rulings: Mapping[str, str]) -> None:
    with pytest.raises(SessionError):
        GAME.new_state(["Ann", "Bo"], {"rulings": rulings})


def test_ruling_overrides_are_kept_in_the_state() -> None:
    table = GAME.new_state(["Ann", "Bo"], {"rulings": {"rival-spot": "extra", "coin-supply": "unlimited"}})
    assert table.rulings["rival-spot"] == "extra" and table.rulings["coin-supply"] == "unlimited"
    assert table.rulings["forest-deck"] == "reshuffle"


# --- the flow ------------------------------------------------------------------------------------


def test_setup_gives_the_cauldron_and_the_holder_places_first() -> None:
    driver = start(("Ann", "Bo", "Cy"))
    assert isinstance(driver.pending, Choice) and driver.pending.section == "setup"
    assert "4 forest rows" in messages(driver)
    feed(driver, "Bo")
    table = state(driver)
    assert table.cauldron == 1 and (table.expedition, table.round) == (1, 1)
    assert prompt(driver).startswith("Bo places a puppet")
    assert "Bo holds the cauldron" in messages(driver)


def test_an_ordinary_round_takes_one_answer_per_placement_and_per_returning_puppet() -> None:
    """...and one more after a purchase, when she could brew with the card she bought."""
    driver = start()
    feed(driver, "Ann", "A1", "A2")
    table = state(driver)
    assert table.forest[0][:2] == ["Ann", "Bo"]
    assert (table.witches[0].puppets_home, table.witches[1].puppets_home) == (2, 2)
    assert prompt(driver).startswith("Ann's puppet returns from A1")
    feed(driver, "3")
    ann = table.witches[0]
    assert ann.coins == 5 and ann.forest_cards == [3] and ann.puppets_home == 3
    assert prompt(driver) == "Ann, anything more this turn, or done? (5 coins) [actions: brew]"
    feed(driver, "done")
    # the row slid: Bo's puppet is now in the marker's column and comes back next
    assert table.forest[0] == ["Bo", "", "", "", NO_CARD]
    assert prompt(driver).startswith("Bo's puppet returns from A1")
    feed(driver, "discard")
    assert table.forest_discard == 1 and table.witches[1].coins == 8
    # end of round 1: the two gaps are dealt, the marker moves on
    assert (table.expedition, table.round) == (1, 2)
    assert rules.gaps(table.forest) == 0
    assert table.forest_deck == FOREST_CARDS - 15 - 2
    assert len(driver.entries) == 6


def test_answers_that_break_the_rules_are_refused_and_change_nothing() -> None:
    driver = start()
    feed(driver, "Ann", "B2")
    before = GAME.to_json(state(driver))
    for wrong in ("B2", "D1", "done", "brew", "3", "discard", "B2 B3"):
        with pytest.raises(InvalidAnswer):
            driver.answer(wrong)
    assert GAME.to_json(state(driver)) == before
    feed(driver, "A1")
    with pytest.raises(InvalidAnswer):
        driver.answer("9")  # Bo has 8 coins
    feed(driver, "8")
    assert state(driver).witches[1].coins == 0


def test_the_puppet_farthest_from_the_marker_takes_the_cauldron_for_the_next_round() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C1")
    assert "Bo's puppet is the farthest from the marker in column 1" in messages(driver)
    table = state(driver)
    assert table.cauldron == 1
    assert prompt(driver).startswith("Ann's puppet returns from A1")  # the nearest comes back first
    feed(driver, "discard", "discard")
    assert table.round == 2 and prompt(driver).startswith("Bo places a puppet")


def test_an_empty_column_leaves_the_cauldron_where_it_is() -> None:
    driver = start()
    feed(driver, "Bo", "A2", "C2")  # nobody in column 1: round 1 ends at once
    text = messages(driver)
    assert "No puppet in column 1: the cauldron stays with Bo" in text
    assert "no turn in Return to the Village" in text
    assert state(driver).round == 2 and prompt(driver).startswith("Bo places a puppet")


def test_round_start_ruling_settles_the_cauldron_from_puppets_already_there() -> None:
    driver = start(**{"cauldron-timing": "round-start"})
    feed(driver, "Ann", "A1", "C1")
    assert state(driver).cauldron == 0  # the puppets placed this round do not count
    feed(driver, "discard", "discard", "A3", "C2")  # round 2: column 2 was empty at its start
    feed(driver, "discard")  # Bo's C2
    assert "Ann's puppet is the farthest from the marker in column 3" in messages(driver)
    assert state(driver).cauldron == 0 and state(driver).round == 3
    feed(driver, "B3")  # Ann places first in round 3


def test_a_witch_with_every_puppet_in_the_forest_waits() -> None:
    driver = start()
    feed(driver, "Ann", "A5", "C5")  # round 1: nobody in column 1
    feed(driver, "A4", "C4")  # round 2: nobody in column 2
    feed(driver, "B4", "C1")  # round 3: nobody in column 3; every puppet is out
    table = state(driver)
    assert [witch.puppets_home for witch in table.witches] == [0, 0]
    text = messages(driver)
    assert "Bo's puppet is the farthest from the marker in column 4" in text
    assert "Bo has every puppet in the forest" in text and "Ann has every puppet in the forest" in text
    # column 4 comes back nearest first; puppets sliding in from column 5 come back too
    order = []
    while table.round == 4:
        order.append(prompt(driver).split("'")[0])
        feed(driver, "discard")
    assert order == ["Ann", "Ann", "Ann", "Bo", "Bo"]
    assert [witch.puppets_home for witch in table.witches] == [3, 2]
    assert table.forest[2][0] == "Bo"


def test_more_keeps_the_turn_open_for_actions_and_done_ends_it() -> None:
    driver = start()
    feed(driver, "Ann")
    driver.adjust("Ann kept +1", "potion brewed before the session started")
    driver.adjust("Ann reputation =5", "its printed reputation")
    feed(driver, "A1 more")
    assert "has placed: anything more" in prompt(driver)
    with pytest.raises(InvalidAnswer):
        driver.answer("B2")  # one puppet a round
    feed(driver, "sell")
    ann = state(driver).witches[0]
    assert (ann.potions_kept, ann.potions_sold, ann.coins, ann.reputation) == (0, 1, 11, 3)
    # nothing is left to do, so her turn ended by itself
    assert prompt(driver).startswith("Bo places a puppet")


def test_buying_then_brewing_pays_the_reward_and_spends_the_cards() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C3", "5", "brew")  # no 'more' needed: a purchase keeps the turn open
    assert driver.pending is not None and driver.pending.section == "brew-potion"
    feed(driver, "4", "6")  # her one forest card is discarded for it without a question
    table = state(driver)
    ann = table.witches[0]
    assert (ann.coins, ann.forest_cards, ann.potions_kept, ann.potion_reputation) == (7, [], 1, 6)
    assert (table.potion_display, table.forest_discard) == (5, 1)
    assert "Ann discards her one forest card (price 5) for it." in messages(driver)
    # another potion may still use ingredients of the card just spent: with no card left, unasked
    feed(driver, "brew", "1", "1", "done")
    assert (ann.potions_kept, ann.potion_reputation, ann.coins) == (2, 7, 8)
    assert table.round == 2 and table.potion_display == 6 and table.potion_deck == 32


def test_the_cards_for_a_potion_are_asked_when_more_than_one_answer_fits() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C3", "5")
    driver.adjust("Ann card +3", "a card bought before the session")
    feed(driver, "brew", "4", "6")
    assert prompt(driver) == "Ann: which forest cards does she discard for it (their prices)?"
    with pytest.raises(InvalidAnswer):
        driver.answer("4")  # she holds cards priced 5 and 3
    with pytest.raises(InvalidAnswer):
        driver.answer("none")  # the first potion of a turn needs a card
    feed(driver, "5", "brew", "1", "1")
    # a card priced 3, or what is left on the card priced 5: both fit, so she is asked
    assert prompt(driver).startswith("Ann: which forest cards")
    with pytest.raises(InvalidAnswer):
        driver.answer("5")  # that card is spent
    feed(driver, "none")
    assert state(driver).witches[0].forest_cards == [3]


def test_one_forest_card_holds_at_most_three_potions_of_ingredients() -> None:
    """Six brews from one purchased card are refused: a card shows at most 3 ingredients and every
    potion takes one (rules.ingredients_left)."""
    driver = start()
    feed(driver, "Ann", "A1", "C3", "5 more")
    for _ in range(3):
        feed(driver, "brew", "1", "1")
    ann = state(driver).witches[0]
    assert ann.potions_kept == 3 and ann.forest_cards == []
    assert prompt(driver) == "Ann, anything more this turn, or done? (6 coins) [actions: sell, trade]"
    with pytest.raises(InvalidAnswer, match="not an answer for this moment"):
        driver.answer("brew")  # the fourth, fifth and sixth potions have no ingredient left
    # a missing-ingredient spell adds exactly one more
    driver.adjust("Ann spell +missing-ingredient", "traded for earlier")
    feed(driver, "missing-ingredient", "brew", "1", "1")
    assert ann.potions_kept == 4
    with pytest.raises(InvalidAnswer):
        driver.answer("brew")


def test_a_question_rebuilt_after_a_coins_correction_offers_and_refuses_the_loan() -> None:
    driver = start()
    feed(driver, "Ann")
    assert prompt(driver) == "Ann places a puppet: on which card? (8 coins)"
    driver.adjust("Ann coins =1", "a card the referee did not see")
    assert prompt(driver) == "Ann places a puppet: on which card? (1 coin) [actions: borrow]"
    driver.adjust("Ann coins =8", "that was a mistake")
    assert prompt(driver) == "Ann places a puppet: on which card? (8 coins)"
    with pytest.raises(InvalidAnswer):
        driver.answer("borrow")


def test_loans_stop_when_the_ten_tokens_are_out_and_the_question_says_why() -> None:
    driver = start()
    feed(driver, "Ann")
    driver.adjust("Bo fagus =10", "every token went to Bo")
    driver.adjust("Ann coins =2", "spent off the record")
    assert prompt(driver).endswith("(2 coins) [no loan: all 10 Fagus Beech tokens are out, ruling fagus-tokens]")
    with pytest.raises(InvalidAnswer):
        driver.answer("borrow")
    with pytest.raises(InvalidAdjustment, match="ruling fagus-tokens"):
        driver.adjust("Ann fagus +1", "one more token")
    unlimited = start(**{"fagus-tokens": "unlimited"})
    feed(unlimited, "Ann")
    unlimited.adjust("Bo fagus =10", "every token went to Bo")
    unlimited.adjust("Ann coins =2", "spent off the record")
    feed(unlimited, "borrow")
    assert state(unlimited).witches[0].fagus_tokens == 1


def test_a_second_second_puppet_spell_is_refused_when_the_table_rules_once_a_turn() -> None:
    driver = start(("Ann", "Bo", "Cy"), **{"second-puppet-twice": "once-a-turn"})
    feed(driver, "Ann")
    give_spell(driver, "Ann", "second-puppet")
    give_spell(driver, "Ann", "second-puppet")
    feed(driver, "second-puppet")
    with pytest.raises(InvalidAnswer):
        driver.answer("second-puppet")
    feed(driver, "A1", "B1")
    assert prompt(driver).startswith("Bo places a puppet")
    assert state(driver).witches[0].puppets_home == 1


def test_trading_for_spells_costs_two_potions_and_rising_coins() -> None:
    driver = start()
    feed(driver, "Ann")
    driver.adjust("Ann kept +4", "potions brewed earlier")
    feed(driver, "trade")
    assert isinstance(driver.pending, Choice) and len(driver.pending.options) == 6
    feed(driver, "swap", "trade")
    assert "swap" not in driver.pending.options  # type: ignore[union-attr]
    feed(driver, "forage")
    ann = state(driver).witches[0]
    assert ann.coins == 8 - 2 - 3
    assert (ann.potions_kept, ann.potions_traded) == (0, 4)
    assert [spell.kind for spell in ann.spells] == ["swap", "forage"]
    assert rules.spells_left(state(driver), "swap") == 0


def test_borrowing_from_fagus_beech() -> None:
    driver = start()
    feed(driver, "Ann")
    with pytest.raises(InvalidAnswer):
        driver.answer("borrow")  # 8 coins is too many
    driver.adjust("Ann coins =2", "spent on a card the referee missed")
    feed(driver, "borrow")
    ann = state(driver).witches[0]
    assert (ann.coins, ann.fagus_tokens) == (7, 1)


def give_spell(driver: Driver, witch: str, kind: str) -> None:
    driver.adjust(f"{witch} spell +{kind}", "traded for before this prompt")


def test_second_puppet_places_two_puppets_in_one_turn() -> None:
    driver = start()
    feed(driver, "Ann")
    give_spell(driver, "Ann", "second-puppet")
    feed(driver, "second-puppet", "A1")
    assert "places a puppet" in prompt(driver) and prompt(driver).startswith("Ann")
    feed(driver, "B1")
    table = state(driver)
    assert table.witches[0].puppets_home == 1 and table.witches[0].spells[0].used
    assert prompt(driver).startswith("Bo places a puppet")


def test_free_card_spell_takes_the_card_without_paying() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C3")
    give_spell(driver, "Ann", "free-card")
    feed(driver, "free-card", "12")  # above her 8 coins, yet free
    ann = state(driver).witches[0]
    assert ann.coins == 8 and ann.forest_cards == [12]


def test_forage_buys_one_card_at_half_price_and_discards_the_rest() -> None:
    driver = start()
    feed(driver, "Ann")
    give_spell(driver, "Ann", "forage")
    feed(driver, "forage")
    table = state(driver)
    assert table.foraged == 5 and GAME.invariant_errors(table) == []
    with pytest.raises(InvalidAnswer):
        driver.answer("18")  # half of 18 is 9: more than her 8 coins
    feed(driver, "7")
    ann = table.witches[0]
    assert ann.coins == 5 and ann.forest_cards == [7]
    assert (table.foraged, table.forest_discard, table.forest_deck) == (0, 4, FOREST_CARDS - 15 - 5)


def test_move_a_rival_pays_her_two_coins_and_frees_the_card() -> None:
    driver = start()
    feed(driver, "Ann", "A5", "B3")  # round 1: nobody in column 1
    give_spell(driver, "Ann", "move-a-rival")
    feed(driver, "move-a-rival")
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("B3 Bo",)
    feed(driver, "B3 Bo", "C5")
    table = state(driver)
    assert table.forest[1][2] == EMPTY_CARD and table.forest[2][4] == "Bo"
    assert table.witches[1].coins == 10
    assert "ruling rival-spot" in messages(driver)
    feed(driver, "B3")
    assert table.forest[1][2] == "Ann"


def test_move_a_rival_with_the_extra_ruling_offers_a_further_puppet() -> None:
    driver = start(**{"rival-spot": "extra"})
    feed(driver, "Ann", "A5", "B3")
    give_spell(driver, "Ann", "move-a-rival")
    feed(driver, "move-a-rival", "B3 Bo", "C5", "yes", "A2")
    table = state(driver)
    assert table.forest[1][2] == "Ann" and table.forest[0][1] == "Ann"
    assert table.witches[0].puppets_home == 0


def test_the_expedition_ends_with_half_price_leftovers_and_restored_spells() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C3", "3", "done")  # round 1: Ann keeps a card priced 3
    give_spell(driver, "Ann", "swap")
    feed(driver, "swap", "A2", "B5")  # round 2: Ann uses swap, then places on A2
    feed(driver, "4", "done")  # Ann buys a card priced 4
    table = state(driver)
    assert table.witches[0].spells[0].used
    for _ in range(3):
        quiet_round(driver)
    assert (table.expedition, table.round) == (2, 1)
    ann = table.witches[0]
    assert ann.forest_cards == [] and ann.coins == 8 - 3 - 4 + 3
    assert not ann.spells[0].used


def test_a_whole_game_ends_after_three_expeditions_with_the_score() -> None:
    driver = start(("Ann", "Bo", "Cy"))
    feed(driver, "Ann")
    while driver.pending is not None:
        quiet_round(driver)
    table = state(driver)
    assert table.finished and (table.expedition, table.round) == (3, 5)
    assert driver.report is not None
    # nobody bought or brewed: 8 coins each, 2 points each, a three-way tie settled by nothing
    assert [player.total for player in driver.report.players] == [2, 2, 2]
    assert sorted(driver.report.winners) == ["Ann", "Bo", "Cy"]
    assert any("ruling final-tie" in note for note in driver.report.notes)


def test_the_table_can_end_the_game_when_no_potion_can_be_brewed() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "B1", "6 more", "borrow")
    driver.adjust("end", "the last potions need bats nobody can find")
    feed(driver, "done", "discard")
    assert driver.finished and driver.report is not None
    ann = driver.report.player("Ann")
    assert ann.breakdown == {"reputation": 0, "coin_points": 2, "fagus_penalty": -5}
    assert any("ruling potions-run-out" in note for note in driver.report.notes)
    # the default ruling: leftover cards are not sold
    assert state(driver).witches[0].forest_cards == [6]


def test_sell_leftovers_ruling_sells_them_when_the_game_ends_early() -> None:
    driver = start(**{"potions-run-out": "sell-leftovers"})
    feed(driver, "Ann", "A1", "B1", "6")
    driver.adjust("end", "no potion can be brewed")
    feed(driver, "done", "discard")
    assert driver.report is not None
    assert state(driver).witches[0].coins == 2 + 3


def test_the_game_ends_when_the_last_potion_card_is_gone() -> None:
    driver = start()
    feed(driver, "Ann")
    driver.adjust("display =0", "count the display again")
    driver.adjust("Bo kept +40", "test of the end")
    driver.adjust("Bo reputation =40", "their fronts")
    feed(driver, "A5", "B5")
    assert driver.finished and driver.report is not None
    assert driver.report.winners == ["Bo"]
    assert driver.report.player("Bo").total == 40 + 2


def test_replaying_the_log_with_corrections_rebuilds_the_same_state() -> None:
    driver = start(("Ann", "Bo", "Cy"))
    feed(driver, "Cy", "A1", "B2", "C1")
    driver.adjust("Bo coins +3", "a card the referee does not know")
    feed(driver, "2", "done", "discard")
    rebuilt = replay(GAME, driver.players, driver.options, driver.entries)
    assert rebuilt.applied == len(driver.entries)
    assert GAME.to_json(rebuilt.driver.state) == GAME.to_json(state(driver))


# --- corrections ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Zed coins +1",
        "Ann colour +1",
        "Ann coins -9",
        "Ann coins +200",
        "Ann fagus +11",
        "Ann card -4",
        "Ann card =4",
        "display =7",
        "Ann kept +50",
        "Ann sold -1",
        "nonsense",
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(text: str) -> None:
    driver = start()
    feed(driver, "Ann")
    before = GAME.to_json(state(driver))
    with pytest.raises(InvalidAdjustment):
        driver.adjust(text, "a reason")
    assert GAME.to_json(state(driver)) == before


def test_corrections_change_the_named_value() -> None:
    driver = start()
    feed(driver, "Ann")
    driver.adjust("ann coins +4", "card text")
    driver.adjust("Bo card +3", "a card bought off the record")
    driver.adjust("Bo fagus =1", "a loan")
    table = state(driver)
    assert table.witches[0].coins == 12
    assert table.witches[1].forest_cards == [3] and table.forest_deck == FOREST_CARDS - 15 - 1
    assert table.witches[1].fagus_tokens == 1
    assert "Correction: Ann's coins 8 -> 12 (card text)" in messages(driver)
    with pytest.raises(InvalidAdjustment):
        driver.adjust("Ann reputation =3", "no potion cards")  # refused by the invariants


def test_invariants_catch_a_broken_state() -> None:
    table = small_table()
    assert GAME.invariant_errors(table) == []
    table.witches[0].puppets_home = 4
    table.potion_deck += 1
    table.forest[0][0] = "Zed"
    errors = " ".join(GAME.invariant_errors(table))
    assert "puppets" in errors and "potion cards" in errors and "Zed" in errors


# --- views ---------------------------------------------------------------------------------------


def test_views_show_the_table_and_the_forest() -> None:
    driver = start()
    feed(driver, "Bo", "C2")
    view = GAME.public_view(state(driver))
    assert view.rows[1][0] == "* Bo" and view.rows[0][1] == "8"
    forest = "\n".join(view.lines)
    assert "C | .    Bo" in forest and "(round marker)" in forest
    header = GAME.header(state(driver))
    assert header.round == 1 and header.active == "Ann" and "Forest Exploration" in (header.phase or "")
    assert "nothing is hidden" in GAME.hidden_view(state(driver), "ann")[0]
    assert "Ann" in GAME.adjust_help()


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 10  # the others run in tests/test_scenarios.py


def test_withdrawing_the_end_declaration_lets_the_game_go_on() -> None:
    driver = start()
    feed(driver, "Ann", "A1")
    driver.adjust("end", "no potion can be brewed")
    driver.adjust("end cancel", "a bat card turned up after all")
    feed(driver, "B1", "discard", "discard")
    assert not driver.finished and state(driver).round == 2


def test_a_limited_supply_pays_what_it_has_and_says_so() -> None:
    driver = start()
    feed(driver, "Ann")
    driver.adjust("Bo coins =121", "coins the referee did not see")
    driver.adjust("Ann kept +1", "a potion brewed earlier")
    feed(driver, "sell")
    assert state(driver).witches[0].coins == 9
    assert "held only 1 of the 3 coins (ruling coin-supply)" in messages(driver)


def test_without_reshuffling_gaps_stay_empty_and_cannot_take_a_puppet() -> None:
    driver = start(**{"forest-deck": "none"})
    feed(driver, "Ann")
    table = state(driver)
    table.forest_discard, table.forest_deck = table.forest_deck, 0  # as if the deck had run out
    feed(driver, "A1", "B1", "discard", "discard")
    assert rules.gaps(table.forest) == 2
    assert "2 gap(s) stay empty" in messages(driver)
    with pytest.raises(InvalidAnswer):
        driver.answer("A5")  # no card there
    feed(driver, "A4")


def test_a_correction_in_the_middle_of_a_brew_cannot_break_the_count_of_potions() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C3", "5 more", "brew", "4")
    driver.adjust("display =0", "the display was miscounted")
    feed(driver, "6")
    table = state(driver)
    assert "nothing is brewed" in messages(driver)
    assert table.witches[0].potions_kept == 0 and table.witches[0].forest_cards == [5]
    assert GAME.invariant_errors(table) == []
    # nothing is left for her to do (no potion to brew or sell, too many coins to borrow): round 2
    assert table.round == 2 and prompt(driver).startswith("Ann places a puppet")


def test_a_correction_that_leaves_the_cards_question_no_answer_is_refused() -> None:
    driver = start()
    feed(driver, "Ann", "A1", "C3", "5")
    driver.adjust("Ann card +3", "a card bought before the session")
    feed(driver, "brew", "4", "6")
    driver.adjust("Ann card -3", "that card was sold off the record")  # one card is left: still a question
    with pytest.raises(InvalidAdjustment, match="no possible answer"):
        driver.adjust("Ann card -5", "no card would be left to brew from")
    assert state(driver).witches[0].forest_cards == [5]
    feed(driver, "5")
    assert state(driver).witches[0].potions_kept == 1


# --- what runs out: the potion deck and the forest deck -------------------------------------------


def test_an_empty_potion_deck_does_not_end_the_game_while_potions_lie_on_display() -> None:
    """#end-of-game, ruling potions-run-out: the game ends once no potion card is left to brew, the
    display and the deck both empty; an empty deck with potions still on display plays on."""
    driver = start()
    feed(driver, "Ann")
    driver.adjust("Bo kept +34", "every potion card left in the deck, brewed before the session")
    feed(driver, "A1", "C3", "5", "brew", "4", "6", "done")  # Ann brews one: 5 left on display, none to refill
    table = state(driver)
    assert (table.potion_deck, table.potion_display) == (0, 5)
    assert not driver.finished and (table.expedition, table.round) == (1, 2)
    assert rules.game_end(table) is None
    assert "add 0 potion(s) to the display (5 face up, 0 in the deck)" in messages(driver)
    # The last five potions are brewed (as the table corrects): the round ends the game.
    driver.adjust("display =0", "the last five potions, brewed off the record")
    driver.adjust("Bo kept +5", "the last five potions, brewed off the record")
    feed(driver, "A2", "B2", "discard", "discard")
    assert driver.finished and driver.report is not None
    assert driver.report.termination is not None and driver.report.termination.code == "potions-exhausted"
    assert (table.expedition, table.round) == (1, 2)


def test_a_forest_deck_holding_exactly_the_cards_wanted_deals_them_without_a_reshuffle() -> None:
    """#ruling-forest-deck: the discards are shuffled in only when the deck cannot deal what is
    needed; a deck holding exactly as many cards as the gaps deals them all and stays empty."""
    table = small_table()
    table.forest_deck, table.forest_discard = 5, 10
    assert rules.draw_forest_cards(table, 5) == (5, False)
    assert (table.forest_deck, table.forest_discard) == (0, 10)
    # Through the session: two gaps at the end of round 1, and a deck of exactly two cards.
    driver = start()
    feed(driver, "Ann")
    for _ in range(FOREST_CARDS - 15 - 2):
        driver.adjust("Bo card +1", "forest cards bought before the session")
    feed(driver, "A1", "B1", "discard", "discard")
    table = state(driver)
    assert (table.forest_deck, table.forest_discard, rules.gaps(table.forest)) == (0, 2, 0)
    assert "shuffle the discards" not in messages(driver)
    # The next round's two gaps find the deck empty: now the four discards become the deck.
    feed(driver, "A2", "B2", "discard", "discard")
    assert (table.forest_deck, table.forest_discard, rules.gaps(table.forest)) == (2, 0, 0)
    assert "shuffle the discards" in messages(driver)


def drain_forest_deck(driver: Driver, leave: int = 0) -> None:
    """Corrections that take forest cards from the deck into Bo's hands until `leave` are left."""
    for _ in range(state(driver).forest_deck - leave):
        driver.adjust("Bo card +1", "forest cards bought before the session")


def test_with_the_forest_deck_and_the_discards_both_empty_gaps_stay_empty_without_a_reshuffle() -> None:
    """#ruling-forest-deck: the discards are shuffled in when the deck runs short, but with no
    discards there is nothing to shuffle: the gaps stay empty and no reshuffle is announced."""
    driver = start()
    feed(driver, "Ann")
    drain_forest_deck(driver)
    feed(driver, "A1", "B1", "3", "done", "4", "done")  # both buy: nothing goes to the discards
    table = state(driver)
    said = messages(driver)
    assert (table.forest_deck, table.forest_discard, rules.gaps(table.forest)) == (0, 0, 2)
    assert "2 gap(s) stay empty" in said and "shuffle the discards" not in said


def test_trading_for_a_spell_needs_two_potions_kept() -> None:
    """#exchange-for-spell: a spell costs two potions (and coins): one potion is not enough."""
    driver = start()
    feed(driver, "Ann")
    driver.adjust("Ann kept +1", "a potion brewed earlier")
    assert "trade" not in prompt(driver)
    with pytest.raises(InvalidAnswer):
        driver.answer("trade")
    driver.adjust("Ann kept +1", "another potion brewed earlier")
    feed(driver, "trade", "swap")
    assert [spell.kind for spell in state(driver).witches[0].spells] == ["swap"]


def test_forage_is_offered_only_while_there_are_cards_to_draw() -> None:
    """#spells, ruling forest-deck: forage draws from the forest deck, and under `none` the discards
    are never drawn again, so with the deck empty it has nothing to draw and is not offered; under
    the default the discards become the deck and it is."""
    for ruling, offered in (("reshuffle", True), ("none", False)):
        driver = start(**{"forest-deck": ruling})
        feed(driver, "Ann")
        drain_forest_deck(driver)
        driver.adjust("Bo card -1", "a card discarded before the session")
        give_spell(driver, "Ann", "forage")
        assert ("forage" in prompt(driver)) is offered, ruling
        if offered:
            feed(driver, "forage", "none")
            assert (state(driver).forest_deck, state(driver).forest_discard) == (0, 1)
        else:
            with pytest.raises(InvalidAnswer):
                driver.answer("forage")


def test_the_missing_ingredient_spell_needs_a_potion_on_display() -> None:
    """#spells: the missing-ingredient spell helps brew a potion; with the display empty there is
    none to brew, and the spell is not offered (it would be turned down for nothing)."""
    driver = start()
    feed(driver, "Ann", "A1", "B1")
    give_spell(driver, "Ann", "missing-ingredient")
    assert "missing-ingredient" in prompt(driver)
    driver.adjust("display =0", "the display was miscounted")
    assert "missing-ingredient" not in prompt(driver)
    with pytest.raises(InvalidAnswer):
        driver.answer("missing-ingredient")


def test_a_second_puppet_needs_a_free_card_for_each_puppet_still_to_place() -> None:
    """#spells: the second-puppet spell sends one more puppet this turn; it is offered only while
    the forest has a card without a puppet for each puppet she is still to place."""
    table = small_table()
    ann = table.witches[0]
    ann.spells.append(Spell("second-puppet"))
    for row, cells in enumerate(table.forest):  # a forest of two cards (the decks ran out, ruling none)
        for column in range(len(cells)):
            if (row, column) not in ((0, 0), (0, 1)):
                cells[column] = NO_CARD
    before_placing, after_one = Turn(FOREST_STEP, to_place=1), Turn(FOREST_STEP, to_place=0)
    assert spell_fits(table, ann, before_placing, "second-puppet")  # two cards: one for each puppet
    table.forest[0][0] = "Ann"
    ann.puppets_home -= 1
    assert spell_fits(table, ann, after_one, "second-puppet")  # one card left for the added puppet
    table.forest[0][1] = NO_CARD
    assert not spell_fits(table, ann, after_one, "second-puppet")  # no card left for it
    assert not spell_fits(table, ann, before_placing, "second-puppet")


def test_the_extra_puppet_of_rival_spot_needs_a_puppet_besides_her_own_placement() -> None:
    """#ruling-rival-spot = extra: the caster may put a further puppet on the freed card only if
    she has one at home besides the one she still places this round."""
    driver = start(**{"rival-spot": "extra"})
    feed(driver, "Ann", "A5", "B3")  # round 1: nobody in column 1
    feed(driver, "A4", "B4")  # round 2: nobody in column 2; Ann has one puppet at home
    give_spell(driver, "Ann", "move-a-rival")
    feed(driver, "move-a-rival", "B3 Bo", "C5")
    table = state(driver)
    assert table.witches[0].puppets_home == 1
    assert prompt(driver).startswith("Ann places a puppet")  # not asked about an extra puppet
    assert "B3 is free: Ann may place her puppet for this turn there (ruling rival-spot)." in messages(driver)
    feed(driver, "B3")
    assert table.forest[1][2] == "Ann" and table.witches[0].puppets_home == 0


def test_an_end_declared_in_a_fifth_round_sells_the_leftovers_once_with_the_expedition() -> None:
    """#ruling-potions-run-out = sell-leftovers: a fifth round's end already sells the leftovers with
    the expedition, so the early end sells nothing more and the report says no second sale."""
    driver = start(**{"potions-run-out": "sell-leftovers"})
    feed(driver, "Ann")
    for _ in range(4):
        quiet_round(driver)
    assert state(driver).round == 5
    driver.adjust("Ann card +5", "a card bought before the session")
    driver.adjust("end", "no potion left can be brewed")
    quiet_round(driver)
    assert driver.finished and driver.report is not None
    assert state(driver).witches[0].coins == 8 + 5 // 2
    note = driver.report.notes[0]
    assert note.startswith("The game ends after expedition 1, round 5") and "Leftover" not in note, note


def test_a_withdrawn_end_under_sell_leftovers_sells_nothing_and_plays_on() -> None:
    """#ruling-potions-run-out = sell-leftovers with the 'end' declaration cancelled: the game goes
    on, and the leftovers stay in front of her until an expedition's end."""
    driver = start(**{"potions-run-out": "sell-leftovers"})
    feed(driver, "Ann", "A1", "B1", "6")
    driver.adjust("end", "no potion can be brewed")
    driver.adjust("end cancel", "a bat card turned up after all")
    feed(driver, "done", "discard")
    table = state(driver)
    assert not driver.finished and table.round == 2
    assert table.witches[0].forest_cards == [6] and table.witches[0].coins == 2


def test_every_override_is_shown_to_change_a_game_on_its_own() -> None:
    """Each overridable ruling has a test that sets it alone and shows an outcome it changes."""
    from test_blackwood_scoring import (
        test_coin_supply_ruling_overridden_to_unlimited,
        test_final_tie_ruling_overridden_to_none_leaves_no_winner,
    )

    alone = {
        "final-tie": test_final_tie_ruling_overridden_to_none_leaves_no_winner,
        "coin-supply": test_coin_supply_ruling_overridden_to_unlimited,
        "fagus-tokens": test_loans_stop_when_the_ten_tokens_are_out_and_the_question_says_why,
        "forest-deck": test_forage_is_offered_only_while_there_are_cards_to_draw,
        "potions-run-out": test_sell_leftovers_ruling_sells_them_when_the_game_ends_early,
        "rival-spot": test_move_a_rival_with_the_extra_ruling_offers_a_further_puppet,
        "cauldron-timing": test_round_start_ruling_settles_the_cauldron_from_puppets_already_there,
        "second-puppet-twice": test_a_second_second_puppet_spell_is_refused_when_the_table_rules_once_a_turn,
    }
    assert set(alone) == set(ruling_choices(GAME.rulebook))


def test_every_example_a_question_offers_is_accepted() -> None:
    """(Blackwood's promise: other games' examples may not all fit the moment they are offered.)"""
    for seed in range(30):
        rng = random.Random(seed)
        driver = Driver(GAME, ["Ann", "Bo", "Cy", "Di"][: 2 + seed % 3], {})
        while driver.pending is not None:
            ask = driver.pending
            if isinstance(ask, Parsed):
                for example in ask.examples:
                    ask.parse(example)  # raises if an example does not fit this moment
            driver.answer(random_answer(ask, rng))
