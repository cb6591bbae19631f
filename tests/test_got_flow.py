"""The got-lcg-1e guided session: its rules functions, and whole phases fed through the real driver."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from referee import scenarios
from referee.asks import Ask, Choice, Confirm, Parsed, TableStep
from referee.engine.driver import Driver, replay
from referee.errors import InvalidAdjustment, InvalidAnswer, SessionError
from referee.games.got import parse, rules
from referee.games.got.flow.melee import supports_everyone
from referee.games.got.game import GAME
from referee.games.got.state import NEUTRAL, CardCost, ChallengeResult, Player, Plot, Table

# --- helpers -----------------------------------------------------------------------------------

JOUST_SETUP = ["Stark", "60", "Lannister", "61", "3 2", "none"]
"""Ann plays Stark with 60 cards, Bo Lannister with 61; Ann's starting force costs 5, Bo has none."""
ROUND_ONE_TO_CHALLENGES = ["5 1 1", "4 0 2", "Ann", "none", "none"]
"""Plots (Ann wins initiative 1 to 0 and goes first), then nobody marshals anything."""


def play(
    answers: Sequence[str], players: Sequence[str] = ("Ann", "Bo"), options: dict[str, Any] | None = None
) -> Driver:
    driver = Driver(GAME, players, options or {})
    for answer in answers:
        driver.answer(answer)
    return driver


def state(driver: Driver) -> Table:
    table: Table = driver.state
    return table


def said(driver: Driver) -> str:
    return "\n".join(driver.take_messages())


def prompt(driver: Driver) -> str:
    assert driver.pending is not None
    return driver.pending.prompt


def options(driver: Driver) -> tuple[str, ...]:
    assert isinstance(driver.pending, Choice)
    return driver.pending.options


def at_challenges() -> Driver:
    return play([*JOUST_SETUP, *ROUND_ONE_TO_CHALLENGES])


# --- rules functions ---------------------------------------------------------------------------


def test_parse_plot_reads_three_icons_and_an_optional_name() -> None:
    assert parse.parse_plot("4 2 1 A Noble Cause") == Plot(4, 2, 1, "A Noble Cause")
    assert parse.parse_plot("5,0,1") == Plot(5, 0, 1, "")
    for bad in ("5 0", "five 0 1", "5 0 21"):
        with pytest.raises(ValueError):
            parse.parse_plot(bad)


def test_parse_costs_reads_marks_and_refuses_unknown_ones() -> None:
    cards = parse.parse_costs("3 2x 1l s 0n", "xnls")
    assert [card.cost for card in cards] == [3, 2, 1, 2, 0]
    assert cards[1].other_house and cards[2].limited and cards[3].shadows and cards[4].neutral
    assert parse.parse_costs("none", "xnls") == ()
    for bad in ("3q", "2xn", "2xx", "21", "abc"):
        with pytest.raises(ValueError):
            parse.parse_costs(bad, "xnls")
    with pytest.raises(ValueError):
        parse.parse_costs("s", "ax")  # shadows are not part of the starting force


def test_off_house_penalty_is_two_gold_except_for_a_neutral_house() -> None:
    off_house = CardCost(3, other_house=True)
    neutral_card = CardCost(3, neutral=True)
    assert rules.card_gold(off_house, "Stark", neutral_penalty=False) == 5
    assert rules.card_gold(off_house, NEUTRAL, neutral_penalty=False) == 3
    assert rules.card_gold(neutral_card, "Stark", neutral_penalty=False) == 3
    assert rules.card_gold(neutral_card, "Stark", neutral_penalty=True) == 5
    assert rules.card_gold(CardCost(2, shadows=True), "Stark", neutral_penalty=True) == 2
    assert rules.marshalling_gold([off_house, CardCost(1)], "Stark", False) == 6


def test_starting_force_cost_follows_the_two_setup_rulings() -> None:
    cards = parse.parse_costs("3 1a 1x", "ax")
    assert rules.starting_force_cost(cards, attachments_count=True) == 5
    assert rules.starting_force_cost(cards, attachments_count=False) == 4
    assert rules.starting_force_cost(cards, attachments_count=True, penalty_house="Stark") == 7
    assert rules.starting_force_cost(cards, attachments_count=True, penalty_house=NEUTRAL) == 5


def test_parse_challenge_reads_strengths_renown_and_card_power() -> None:
    assert parse.parse_challenge("5 3") == ChallengeResult(5, 3)
    assert parse.parse_challenge("4 - r1 p2") == ChallengeResult(4, None, 1, 2)
    for bad in ("5", "x 3", "5 3 r1 r2", "5 3 q1", "5 3 r21"):
        with pytest.raises(ValueError):
            parse.parse_challenge(bad)


def test_attacker_wins_ties_and_unopposed_needs_zero_defence() -> None:
    ann, bo = Player("Ann"), Player("Bo")
    tie = rules.resolve(ann, bo, "power", ChallengeResult(4, 4))
    assert tie.attacker_wins and not tie.unopposed
    lost = rules.resolve(ann, bo, "power", ChallengeResult(3, 4))
    assert not lost.attacker_wins and not lost.unopposed
    assert rules.resolve(ann, bo, "military", ChallengeResult(0, None)).unopposed
    assert rules.resolve(ann, bo, "military", ChallengeResult(2, 0)).unopposed


def test_title_strength_bonus_only_for_its_kind_and_when_participating() -> None:
    regent, other = Player("Ann", title="Crown Regent"), Player("Bo", title="Master of Whispers")
    assert rules.resolve(regent, other, "power", ChallengeResult(1, 3)).attack_total == 4
    assert rules.resolve(regent, other, "military", ChallengeResult(1, 3)).attack_total == 1
    assert rules.resolve(other, regent, "power", ChallengeResult(1, 0)).defence_total == 3
    assert rules.resolve(other, regent, "power", ChallengeResult(1, None)).defence_total == 0


def test_power_claim_takes_the_shortfall_from_the_reserve() -> None:
    assert rules.power_claim(Player("Bo", house_power=1), 3) == (1, 2)
    assert rules.power_claim(Player("Bo", house_power=5), 2) == (2, 0)


def test_income_draws_and_initiative_include_titles_and_icons() -> None:
    player = Player("Ann", plot=Plot(5, 1, 1), income_bonus=1, initiative_bonus=2, title="Master of Coins")
    assert rules.income(player) == 8
    assert rules.initiative(player) == 3
    assert rules.cards_to_draw(player) == 2
    assert rules.cards_to_draw(Player("Bo", title="Master of Laws")) == 3


def test_initiative_tie_ruling_prefers_the_player_with_least_power() -> None:
    ann = Player("Ann", plot=Plot(0, 2, 0), house_power=4)
    bo = Player("Bo", plot=Plot(0, 2, 0), house_power=1, card_power=1)
    cy = Player("Cy", plot=Plot(0, 1, 0))
    leaders = rules.initiative_leaders([ann, bo, cy])
    assert leaders == [ann, bo]
    assert rules.fewest_power(leaders) == [bo]


def test_three_player_titles_alternate_between_rounds() -> None:
    first_round = ("Crown Regent", "Hand of the King", "Master of Laws")
    assert len(rules.open_titles([], first_round, 3, 1)) == 6
    assert rules.open_titles([], first_round, 3, 2) == (
        "Lord Commander of the Kingsguard",
        "Master of Whispers",
        "Master of Coins",
    )
    assert len(rules.open_titles(["Master of Coins"], first_round, 4, 2)) == 5


# --- the game object ---------------------------------------------------------------------------


def test_player_counts_and_names_are_checked() -> None:
    for players in (["Ann"], ["A", "B", "C", "D", "E"], ["Ann", "ann"], ["Ann", "Prized"]):
        with pytest.raises(SessionError):
            GAME.check_players(players)
    GAME.check_players(["Ann", "Bo", "Cy", "Di"])


def test_ruling_overrides_are_validated() -> None:
    table = GAME.new_state(["Ann", "Bo"], {"rulings": {"dominance-tie": "table-decides"}})
    assert table.rulings["dominance-tie"] == "table-decides"
    assert table.rulings["initiative-tie"] == "fewer-power-then-lots"
    with pytest.raises(SessionError, match="dominance-tie"):
        GAME.new_state(["Ann", "Bo"], {"rulings": {"dominance-tie": "coin"}})
    with pytest.raises(SessionError):
        GAME.new_state(["Ann", "Bo"], {"rulings": {"no-such-ruling": "x"}})


# --- setup -------------------------------------------------------------------------------------


def test_setup_records_houses_and_counts_cards() -> None:
    driver = play(JOUST_SETUP)
    ann, bo = state(driver).players
    assert (ann.house, bo.house) == ("Stark", "Lannister")
    assert (ann.hand, ann.draw_deck) == (7, 60 - 7 - 2)
    assert (bo.hand, bo.draw_deck) == (7, 61 - 7)
    assert isinstance(driver.pending, Parsed) and driver.pending.section == "phase-plot"


def test_setup_refuses_a_deck_under_60_and_a_force_over_5() -> None:
    driver = play(["Stark"])
    with pytest.raises(InvalidAnswer):
        driver.answer("59")
    driver = play(JOUST_SETUP[:4])
    before = GAME.to_json(driver.state)
    for bad in ("4 2", "1 1 1 1 1 1 1 1", "s"):
        with pytest.raises(InvalidAnswer):
            driver.answer(bad)
    assert GAME.to_json(driver.state) == before
    assert len(driver.entries) == 4


def test_setup_attachment_ruling_can_make_attachments_free() -> None:
    with pytest.raises(InvalidAnswer):
        play([*JOUST_SETUP[:4], "4 2a"])
    driver = play([*JOUST_SETUP[:4], "4 2a"], options={"rulings": {"setup-attachment-cost": "free"}})
    assert "attachments are free" in said(driver)
    assert state(driver).players[0].hand == 7


def test_off_house_cards_in_the_starting_force_count_printed_cost_by_default() -> None:
    driver = play([*JOUST_SETUP[:4], "4x 1"])
    assert "counted without the off-House penalty" in said(driver)
    with pytest.raises(InvalidAnswer):
        play([*JOUST_SETUP[:4], "4x 1"], options={"rulings": {"starting-force-printed-cost": "with-penalty"}})


# --- plot, initiative, draw, marshalling -------------------------------------------------------


def test_plot_phase_initiative_and_first_player() -> None:
    driver = play([*JOUST_SETUP, "5 1 1 A Noble Cause", "4 0 2"])
    assert "Initiative: Ann 1, Bo 0. Ann wins it." in said(driver)
    ask = driver.pending
    assert isinstance(ask, Choice) and ask.options == ("Ann", "Bo")
    driver.answer("Bo")
    table = state(driver)
    assert table.first_player == 1
    assert [player.plots_left for player in table.players] == [6, 6]
    assert table.players[0].used_plots[0].name == "A Noble Cause"
    assert isinstance(driver.pending, TableStep) and "order Bo and Ann" in prompt(driver)
    assert [player.hand for player in table.players] == [7, 7]  # the Draw phase waits for the step
    driver.answer("done")
    assert [player.hand for player in table.players] == [9, 9]  # then it runs: 2 cards each


def test_the_first_player_mark_appears_only_once_initiative_is_decided() -> None:
    def marked(driver: Driver) -> list[str]:
        return [row[0] for row in GAME.public_view(driver.state).rows if row[0].startswith("* ")]

    driver = play(JOUST_SETUP)
    assert marked(driver) == []  # round 1, plots not revealed: nobody is first player yet
    driver.answer("5 1 1")
    driver.answer("4 0 2")
    assert marked(driver) == []  # Ann has the initiative but has not chosen
    driver.answer("Bo")
    assert marked(driver) == ["* Bo"]
    for answer in ("done", "none", "none", "done", "done", "0 0"):
        driver.answer(answer)
    assert state(driver).round == 2 and marked(driver) == []  # last round's mark is gone
    driver.answer("1 0 0")
    driver.answer("1 1 0")
    driver.answer("Ann")
    assert marked(driver) == ["* Ann"]


def test_initiative_tie_goes_to_the_player_with_less_power() -> None:
    driver = play(JOUST_SETUP)
    driver.adjust("Ann house +1", "earlier effect")
    driver.answer("5 2 1")
    driver.answer("4 2 1")
    assert "Bo has the least power and wins it (ruling initiative-tie)" in said(driver)


def test_initiative_tie_by_lots_when_power_is_equal_too() -> None:
    driver = play([*JOUST_SETUP, "5 2 1", "4 2 1"])
    ask = driver.pending
    assert isinstance(ask, Choice) and ask.section == "ruling-initiative-tie"
    assert ask.options == ("Ann", "Bo")
    driver.answer("Bo")
    assert "Bo has the initiative" in prompt(driver)


def test_marshalling_collects_income_and_checks_gold() -> None:
    driver = play([*JOUST_SETUP, "5 1 1", "4 0 2", "Ann", "done"])
    assert "Ann collects 5 gold (plot 5)." in said(driver)
    with pytest.raises(InvalidAnswer, match="cost 6 gold"):
        driver.answer("4x")  # 4 + 2 for another House
    with pytest.raises(InvalidAnswer, match="Limited"):
        driver.answer("1l 1l")
    driver.answer("3x")
    ann = state(driver).players[0]
    assert (ann.gold, ann.hand) == (0, 8)
    driver.answer("2 1")
    bo = state(driver).players[1]
    assert (bo.gold, bo.hand) == (1, 7)


def test_a_neutral_house_is_told_of_no_penalty_only_for_cards_of_a_house() -> None:
    setup = ["Neutral", "60", "Stark", "60", "none", "none", "5 1 1", "4 0 2", "Ann"]
    driver = play(setup, options={"rulings": {"neutral-cards-no-penalty": "penalty"}})
    driver.answer("2n 1")  # neutral cards of a Neutral House: no penalty was ever in question
    messages = said(driver)
    assert "Ann plays 2 card(s) for 3 gold; 2 gold left." in messages
    assert "Melee setup" not in messages  # a joust has no board
    driver = play(setup)
    driver.answer("2x 1")
    assert "Ann plays 2 card(s) for 3 gold (no off-House penalty for a Neutral House); 2 gold left." in said(driver)


def test_a_card_in_shadows_is_offered_at_the_start_of_each_phase_and_a_player_named_nobody_can_take_it() -> None:
    driver = play(["Stark", "60", "Lannister", "60", "none", "none", "5 1 1", "4 0 2", "Ann", "none", "s"],
                  players=("Ann", "Nobody"))
    assert state(driver).players[1].shadows == 1 and state(driver).players[1].gold == 2
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("Nobody", "no one")
    assert prompt(driver).startswith("Start of the challenges phase (Nobody 1 in shadows, 2 gold)")
    driver.answer("no one")
    asked = answer_all(driver, ["done", "done"])
    assert asked[-1].section == "shadows" and "Start of the dominance phase" in asked[-1].prompt
    driver.answer("Nobody")
    with pytest.raises(InvalidAnswer, match="it costs 3 gold and Nobody has 2"):
        driver.answer("3")
    driver.adjust("Nobody gold +1", "a card's text")
    assert "(3 gold)" in prompt(driver)  # the question is built again after the correction
    driver.answer("3")
    nobody = state(driver).players[1]
    assert (nobody.shadows, nobody.gold) == (0, 0)
    assert state(driver).phase == "dominance" and driver.pending.section == "phase-dominance"


def test_income_bonus_and_plots_running_out() -> None:
    driver = play(JOUST_SETUP)
    driver.adjust("Ann income +2", "a location with gold")
    for _ in range(7):
        ask = driver.pending
        assert isinstance(ask, Parsed)
        driver.answer("1 1 0")  # Ann
        driver.answer("1 0 0")  # Bo
        driver.answer("Ann")
        driver.answer("none")
        driver.answer("none")
        driver.answer("done")
        driver.answer("done")
        driver.answer("0 0")
        messages = said(driver)
        assert "Ann collects 3 gold (plot 1, cards in play 2)." in messages
    # round 8 has begun: nobody has a plot left, so the used piles went back
    assert "Ann has no plot left: the 7 used plots go back into the plot deck (ruling plot-deck-reuse)." in messages
    assert [player.plots_left for player in state(driver).players] == [7, 7]
    driver.answer("1 1 0")
    assert state(driver).players[0].plots_left == 6


def test_an_empty_draw_deck_draws_nothing() -> None:
    driver = play(JOUST_SETUP)
    driver.adjust("Bo deck =1", "cards milled")
    driver.answer("5 1 1")
    driver.answer("4 0 2")
    driver.answer("Ann")
    driver.answer("done")
    assert "Bo 1 (draw deck empty: 1 not drawn, ruling empty-draw-deck)" in said(driver)
    assert state(driver).players[1].hand == 8


# --- challenges --------------------------------------------------------------------------------


def test_unopposed_power_challenge_claims_and_scores() -> None:
    driver = at_challenges()
    driver.adjust("Bo house =3", "earlier rounds")
    assert isinstance(driver.pending, Choice)
    assert driver.pending.options == ("military", "power", "intrigue", "done (no more challenges)")
    driver.answer("power")
    driver.answer("4 - r1")
    ann, bo = state(driver).players
    assert (ann.house_power, ann.card_power, bo.house_power) == (2, 1, 2)
    assert ann.challenges_made == ["power"]
    assert options(driver) == ("military", "intrigue", "done (no more challenges)")


def test_power_claim_larger_than_the_house_card_comes_from_the_reserve() -> None:
    driver = play([*JOUST_SETUP, "5 1 0", "4 0 3", "Bo", "none", "none", "power", "5 4"])
    ann, bo = state(driver).players
    assert (bo.house_power, ann.house_power) == (3, 0)
    assert "3 from the reserve" in said(driver)


def test_defender_wins_with_more_strength_and_takes_renown() -> None:
    driver = at_challenges()
    driver.answer("military")
    driver.answer("3 4 r2")
    ann, bo = state(driver).players
    assert (ann.power, bo.card_power) == (0, 2)
    assert "Bo wins" in said(driver)


def test_intrigue_claim_discards_from_the_defender_hand() -> None:
    driver = play([*JOUST_SETUP, "5 1 0", "4 0 2", "Bo", "none", "none", "intrigue", "3 1"])
    assert state(driver).players[0].hand == 9 - 2
    assert "ruling intrigue-discard-pile" in said(driver)


def test_military_claim_tells_the_defender_to_kill() -> None:
    driver = at_challenges()
    driver.answer("military")
    driver.answer("3 1")
    assert "Claim 1: Bo puts 1 of their own character(s) in the dead pile" in said(driver)


def test_each_kind_once_then_the_next_player() -> None:
    driver = at_challenges()
    for kind in ("military", "intrigue", "power"):
        driver.answer(kind)
        driver.answer("1 5")
    assert "Bo: declare a challenge" in prompt(driver)


# --- dominance, standing, taxation -------------------------------------------------------------


def test_dominance_adds_gold_and_taxation_clears_it() -> None:
    driver = play([*JOUST_SETUP, "5 1 1", "4 0 2", "Ann", "3", "none", "done", "done"])
    assert "Ann (gold 2), Bo (gold 4)" in prompt(driver)
    driver.answer("3 0")
    ann, bo = state(driver).players
    assert "Dominance (gold + standing strength): Ann 5, Bo 4. Ann wins dominance." in said(driver)
    assert (ann.house_power, bo.house_power) == (1, 0)
    assert (ann.gold, bo.gold) == (0, 0)
    assert state(driver).round == 2


def test_dominance_tie_gives_nothing_or_asks_the_table() -> None:
    answers = [*JOUST_SETUP, "5 1 1", "5 0 2", "Ann", "none", "none", "done", "done", "0 0"]
    driver = play(answers)
    assert "nobody wins dominance (ruling dominance-tie)" in said(driver)
    assert [player.power for player in state(driver).players] == [0, 0]
    driver = play(answers, options={"rulings": {"dominance-tie": "table-decides"}})
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("Ann", "Bo")
    driver.answer("Bo")
    assert state(driver).players[1].house_power == 1


# --- the end -----------------------------------------------------------------------------------


def test_fifteen_power_ends_the_game_in_the_middle_of_a_challenge() -> None:
    driver = at_challenges()
    driver.adjust("Ann house =13", "earlier rounds")
    driver.answer("power")
    driver.answer("4 - r3")  # claim 1 -> 14, unopposed -> 15: stop before Renown
    assert driver.finished and driver.report is not None
    assert driver.report.winners == ["Ann"]
    assert driver.report.player("Ann").total == 15
    assert state(driver).players[0].card_power == 0
    assert state(driver).first_to_fifteen == "Ann"


def test_a_correction_to_fifteen_ends_the_game_at_once() -> None:
    driver = at_challenges()
    driver.adjust("Bo cards +15", "a big Renown night")
    assert "The game is over: Bo reached 15 power." in said(driver)
    assert driver.finished and driver.report is not None and driver.report.winners == ["Bo"]
    with pytest.raises(InvalidAdjustment, match="the game is over"):
        driver.adjust("Ann house +1", "too late")


def test_prized_brings_several_to_fifteen_at_once_and_they_share() -> None:
    driver = play(MELEE_SETUP, players=("Ann", "Bo", "Cy"))
    driver.adjust("Bo house =12", "earlier rounds")
    driver.adjust("Cy house =13", "earlier rounds")
    driver.adjust("prized Ann 3", "Ann's Prized 3 character was killed")
    assert "Bo and Cy reached 15 power at the same moment" in said(driver)
    assert state(driver).first_to_fifteen is None
    report = driver.report
    assert report is not None and sorted(report.winners) == ["Bo", "Cy"]
    assert any("simultaneous-fifteen (shared)" in note for note in report.notes)


def test_most_power_ruling_settles_a_simultaneous_fifteen() -> None:
    driver = play(MELEE_SETUP, players=("Ann", "Bo", "Cy"), options={"rulings": {"simultaneous-fifteen": "most-power"}})
    driver.adjust("Bo house =12", "earlier rounds")
    driver.adjust("Cy house =13", "earlier rounds")
    driver.adjust("prized Ann 3", "Prized")
    assert driver.report is not None and driver.report.winners == ["Cy"]


def test_corrections_validate_before_changing_anything() -> None:
    driver = at_challenges()
    before = GAME.to_json(driver.state)
    for bad in ("Ann gold -9", "Zed house +1", "Ann wealth +1", "Ann infamy 3", "gibberish", "prized Ann 0"):
        with pytest.raises(InvalidAdjustment):
            driver.adjust(bad, "testing")
    assert GAME.to_json(driver.state) == before
    driver.adjust("Ann house +3", "plot text")
    driver.adjust("Ann infamy 2", "Infamy card")
    ann = state(driver).players[0]
    assert (ann.house_power, ann.card_power) == (1, 2)
    driver.adjust("Ann claim =3", "plot text")
    assert ann.plot is not None and ann.plot.claim == 3


def test_corrections_use_the_one_grammar_with_this_games_fields() -> None:
    driver = at_challenges()
    with pytest.raises(InvalidAdjustment, match=r"\+N \(add\), -N \(take away\) or =N \(set\)"):
        driver.adjust("Ann house 3", "a bare number is ambiguous")
    with pytest.raises(InvalidAdjustment, match="no revealed plot"):
        play(JOUST_SETUP).adjust("Ann claim =2", "before any plot")
    help_line = GAME.adjust_help()
    assert "<player> <house|cards|gold|hand|deck|income|initiative|shadows|claim> <+N|-N|=N>" in help_line
    assert "prized <owner> N" in help_line and help_line.endswith("e.g. Ann house +2 ; a card's text")
    driver.adjust("Bo shadows +1", "a card put into shadows by its own text")
    assert state(driver).players[1].shadows == 1


def test_views_show_the_table_and_keep_to_public_facts() -> None:
    driver = at_challenges()
    view = GAME.public_view(driver.state)
    assert view.columns[:2] == ["Player", "House"] and "Title" not in view.columns
    assert view.rows[0][0] == "* Ann" and view.rows[0][4] == "5/1/1"
    assert GAME.header(driver.state).phase == "challenges"
    assert "cards in hand" in GAME.hidden_view(driver.state, "Bo")[0]


def test_an_answer_at_a_table_step_replays_as_the_answer_to_the_question_after_it() -> None:
    """'d' at the military claim step confirms it and ends Ann's challenges; the log keeps a label
    that replay cannot take for the step's confirmation."""
    driver = at_challenges()
    driver.answer("military")
    driver.answer("3 1")
    assert isinstance(driver.pending, TableStep)
    driver.answer("d")
    assert driver.entries[-1].answer == "done (no more challenges)"
    assert "Bo: declare a challenge" in prompt(driver)
    again = replay(GAME, driver.players, driver.options, driver.entries)
    assert again.applied == len(driver.entries)
    assert GAME.to_json(again.driver.state) == GAME.to_json(driver.state)


def test_a_player_named_like_a_confirmation_is_chosen_by_name_and_replays() -> None:
    driver = play(["Stark", "60", "Lannister", "60", "none", "none", "5 1 1", "4 0 2"], players=("Done", "Bo"))
    assert options(driver) == ("Done (player)", "Bo")
    driver.answer("Done")
    assert state(driver).first_player == 0
    driver.answer("done")  # the 'when revealed' step
    driver.answer("s")  # Done puts a card into shadows
    driver.answer("none")
    driver.answer("Done")  # the offer at the start of the Challenges phase, answered by name
    assert driver.entries[-1].answer == "Done (player)"
    again = replay(GAME, driver.players, driver.options, driver.entries)
    assert again.applied == len(driver.entries)
    assert GAME.to_json(again.driver.state) == GAME.to_json(driver.state)


def test_replaying_the_log_rebuilds_the_same_state() -> None:
    driver = at_challenges()
    driver.adjust("Ann house +2", "plot")
    driver.answer("power")
    driver.answer("2 1 r1")
    again = replay(GAME, driver.players, driver.options, driver.entries)
    assert again.applied == len(driver.entries)
    assert GAME.to_json(again.driver.state) == GAME.to_json(driver.state)


# --- melee -------------------------------------------------------------------------------------

MELEE_SETUP = ["Stark", "60", "Lannister", "60", "Baratheon", "60", "none", "none", "none"]


def melee_round_one(titles: Sequence[str] = ("Crown Regent", "Master of Coins")) -> Driver:
    """Three players; Ann wins initiative and goes first; Ann and Bo pick titles, Cy gets a free one."""
    driver = play([*MELEE_SETUP, "5 2 1", "4 1 1", "3 0 1", "Ann", *titles], players=("Ann", "Bo", "Cy"))
    return driver


def test_melee_titles_are_chosen_in_turn_order() -> None:
    driver = play([*MELEE_SETUP, "5 2 1", "4 1 1", "3 0 1", "Ann", "done"], players=("Ann", "Bo", "Cy"))
    ask = driver.pending
    assert isinstance(ask, Choice) and ask.section == "melee-titles" and len(ask.options) == 6
    driver.answer("Crown Regent")
    assert "Crown Regent" not in options(driver)
    driver.answer("Master of Coins")
    driver.answer("Master of Laws")
    titles = [player.title for player in state(driver).players]
    assert titles == ["Crown Regent", "Master of Coins", "Master of Laws"]
    assert [player.hand for player in state(driver).players] == [9, 9, 10]


def test_three_player_second_round_offers_only_the_other_titles() -> None:
    driver = melee_round_one(("Crown Regent", "Master of Coins", "Master of Laws"))
    for answer in ("none", "none", "none", "done", "done", "done", "0 0 0"):
        driver.answer(answer)
    for answer in ("1 1 0", "1 0 0", "1 0 0", "Ann", "done"):
        driver.answer(answer)
    ask = driver.pending
    assert isinstance(ask, Choice)
    assert ask.options == ("Hand of the King", "Lord Commander of the Kingsguard", "Master of Whispers")
    driver.answer("Hand")
    driver.answer("Master of Whispers")
    assert "Cy takes the last open title, Lord Commander of the Kingsguard" in said(driver)


def test_board_links_are_asked_once_and_support_protects() -> None:
    driver = melee_round_one(("Crown Regent", "Master of Coins", "Master of Laws"))
    for answer in ("none", "none", "none"):
        driver.answer(answer)
    driver.answer("power")  # Ann (Crown Regent) declares; the referee reads her links to Bo and Cy
    ask = driver.pending
    assert isinstance(ask, Choice) and ask.section == "ruling-title-links"
    assert "Crown Regent" in ask.prompt and "Master of Coins" in ask.prompt
    driver.answer("supports")
    driver.answer("no mark")
    # Bo is protected by support: Cy is the only target, so no target question; Cy's result next
    assert "against Cy" in prompt(driver)
    driver.answer("2 1")
    assert "Ann 5 against Cy 1 (Ann +3 as Crown Regent): Ann wins." in said(driver)
    driver.answer("military")
    assert "against Cy" in prompt(driver)
    assert state(driver).title_links == {
        "Crown Regent > Master of Coins": "supports",
        "Crown Regent > Master of Laws": "no mark",
    }


def test_opposition_power_once_per_round() -> None:
    driver = melee_round_one(("Master of Whispers", "Master of Coins", "Master of Laws"))
    for answer in ("none", "none", "none", "intrigue", "no mark", "opposes", "Cy", "4 1"):
        driver.answer(answer)
    ann = state(driver).players[0]
    assert ann.house_power == 1  # opposition; the intrigue claim takes cards, not power
    assert "Master of Whispers opposes Master of Laws" in said(driver)
    driver.answer("power")
    driver.answer("Cy")
    driver.answer("4 1")
    assert ann.house_power == 1 + 1  # the power claim only: the opposition bonus is spent this round


def test_crown_regent_may_redirect_a_challenge() -> None:
    driver = melee_round_one(("Master of Coins", "Crown Regent", "Master of Laws"))
    for answer in ("none", "none", "none", "power", "no mark", "no mark", "Bo"):
        driver.answer(answer)
    ask = driver.pending
    assert isinstance(ask, Confirm) and ask.section == "title-powers"
    driver.answer("yes")
    assert "must challenge Cy instead" in said(driver)
    assert state(driver).crown_regent_used
    assert "against Cy" in prompt(driver)


def test_kingsguard_takes_over_an_undefended_military_challenge() -> None:
    driver = melee_round_one(("Master of Coins", "Lord Commander of the Kingsguard", "Master of Laws"))
    for answer in ("none", "none", "none", "military", "no mark", "no mark", "Cy", "3 -"):
        driver.answer(answer)
    ask = driver.pending
    assert isinstance(ask, Confirm) and "Kingsguard" in ask.prompt
    driver.answer("yes")
    assert "against Bo" in prompt(driver)
    driver.answer("3 1")  # Bo defends with 1 + 3 for the title
    assert "Ann 3 against Bo 4 (Bo +3 as Lord Commander of the Kingsguard): Bo wins." in said(driver)


def answer_all(driver: Driver, answers: Sequence[str]) -> list[Ask[Any]]:
    """Give the answers; return every question asked after one of them."""
    asked = []
    for answer in answers:
        driver.answer(answer)
        assert driver.pending is not None
        asked.append(driver.pending)
    return asked


def title_offers(asked: Sequence[Ask[Any]], title: str) -> list[str]:
    """The yes-or-no offers of a title's power among the questions asked."""
    return [ask.prompt for ask in asked if isinstance(ask, Confirm) and title in ask.prompt]


def test_kingsguard_takeover_is_offered_only_in_a_military_challenge_nobody_defended() -> None:
    titles = ("Master of Coins", "Lord Commander of the Kingsguard", "Master of Laws")
    driver = melee_round_one(titles)
    power_undefended = ["none", "none", "none", "power", "no mark", "no mark", "Cy", "3 -", "no mark"]
    military_defended = ["military", "Cy", "3 2", "done"]
    intrigue_undefended = ["intrigue", "Cy", "3 -"]
    asked = answer_all(driver, [*power_undefended, *military_defended, *intrigue_undefended])
    assert title_offers(asked, "Kingsguard") == []
    assert not state(driver).kingsguard_used
    assert "Bo: declare a challenge, or done?" in prompt(driver)
    driver = melee_round_one(titles)
    asked = answer_all(driver, ["none", "none", "none", "military", "no mark", "no mark", "Cy", "3 -"])
    assert title_offers(asked, "Kingsguard") == [prompt(driver)]


MELEE_FOUR = [*MELEE_SETUP[:6], "Targaryen", "60", *MELEE_SETUP[6:], "none"]
FOUR = ("Ann", "Bo", "Cy", "Di")
FOUR_PLOTS = ["5 3 1", "4 2 1", "3 1 1", "2 0 1", "Ann"]
"""Ann has the initiative and goes first; every round the same plots."""


def test_crown_regent_redirects_at_most_once_a_round() -> None:
    titles = ["Master of Coins", "Crown Regent", "Master of Laws", "Master of Whispers"]
    driver = play([*MELEE_FOUR, *FOUR_PLOTS, *titles, "none", "none", "none", "none"], players=FOUR)
    links = ["no mark"] * 3
    asked = answer_all(driver, ["power", *links, "Bo"])
    assert title_offers(asked, "Crown Regent") == [prompt(driver)]
    asked = answer_all(driver, ["yes", "Cy", "3 1"])  # Ann picks Cy instead
    assert "Power challenge, Ann against Cy" in asked[1].prompt
    asked = answer_all(driver, ["military", "Bo", "2 5"])  # the Regent is challenged again this round
    assert title_offers(asked, "Crown Regent") == []
    assert "Military challenge, Ann against Bo" in asked[1].prompt
    answer_all(driver, ["done", "done", "done", "done", "0 0 0 0"])
    assert state(driver).round == 2 and not state(driver).crown_regent_used
    answer_all(driver, [*FOUR_PLOTS, *titles, "none", "none", "none", "none"])
    asked = answer_all(driver, ["power", "Bo"])  # a new round: the Regent may redirect again
    assert title_offers(asked, "Crown Regent") == [prompt(driver)]


def test_crown_regent_is_not_offered_when_no_other_target_is_allowed() -> None:
    driver = melee_round_one(("Master of Coins", "Master of Laws", "Crown Regent"))
    asked = answer_all(driver, ["none", "none", "none", "power", "supports", "no mark"])
    # Ann's title supports Bo's: Cy, the Regent, is the only target, so there is nothing to redirect
    assert title_offers(asked, "Crown Regent") == []
    assert "Power challenge, Ann against Cy" in prompt(driver)


def test_crown_regent_is_offered_every_challenge_under_the_override() -> None:
    driver = play(
        [*MELEE_SETUP, "5 2 1", "4 1 1", "3 0 1", "Ann", "Master of Coins", "Crown Regent", "Master of Laws"],
        players=("Ann", "Bo", "Cy"),
        options={"rulings": {"crown-regent-offer": "every-challenge"}},
    )
    answer_all(driver, ["none", "none", "none", "power", "no mark", "no mark", "Cy"])
    assert isinstance(driver.pending, Confirm) and "Bo (Crown Regent)" in prompt(driver)
    driver.answer("yes")
    assert "Ann must challenge Bo instead" in said(driver)


def test_a_supporter_defends_in_the_defenders_place() -> None:
    driver = melee_round_one(("Master of Coins", "Master of Whispers", "Master of Laws"))
    for answer in ("none", "none", "none", "intrigue", "no mark", "no mark", "Cy", "3 -", "supports"):
        driver.answer(answer)
    ask = driver.pending
    assert isinstance(ask, Choice) and ask.options == ("Bo", "nobody")
    driver.answer("Bo")
    driver.answer("3 1 r1")  # Bo's 1 + 3 as Master of Whispers beats 3
    table = state(driver)
    assert "Ann 3 against Bo for Cy 4 (Bo +3 as Master of Whispers): Bo wins." in said(driver)
    assert table.players[1].card_power == 1 and table.players[2].power == 0


def test_a_title_supporting_everyone_ends_the_turn_without_a_target() -> None:
    driver = melee_round_one(("Crown Regent", "Master of Coins", "Master of Laws"))
    for answer in ("none", "none", "none", "power", "supports", "supports"):
        driver.answer(answer)
    assert "Ann's title supports every other player's title: nobody may be challenged." in said(driver)
    assert "Bo: declare a challenge" in prompt(driver)
    table = state(driver)
    assert table.players[0].challenges_made == []
    assert supports_everyone(table, table.players[0])
    assert not supports_everyone(table, table.players[1])


def test_support_first_ruling_offers_the_supporters_before_the_kingsguard() -> None:
    answers = [*MELEE_SETUP, "5 2 1", "4 1 1", "3 0 1", "Ann"]
    titles = ("Master of Coins", "Lord Commander of the Kingsguard", "Master of Laws")
    challenge = ("none", "none", "none", "military", "no mark", "no mark", "Cy", "3 -")
    support_first = {"rulings": {"undefended-order": "support-first"}}
    driver = play([*answers, *titles, *challenge], ("Ann", "Bo", "Cy"), support_first)
    ask = driver.pending
    assert isinstance(ask, Choice) and ask.section == "ruling-title-links"
    assert "Lord Commander of the Kingsguard show towards Master of Laws" in ask.prompt
    driver.answer("supports")
    assert options(driver) == ("Bo", "nobody")
    driver.answer("nobody")
    assert isinstance(driver.pending, Confirm) and "Kingsguard" in prompt(driver)


# --- scenarios ---------------------------------------------------------------------------------

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "scenarios" / "got-lcg-1e"


@pytest.mark.parametrize("path", sorted(SCENARIO_DIR.glob("*.toml")), ids=lambda path: path.stem)
def test_scenario(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scenarios, "load_game", lambda game_id: GAME)
    scenario = scenarios.load_scenario(path)
    assert scenario.game == GAME.id
    run = scenarios.run_scenario(scenario)
    assert run.failures == []


def test_there_is_a_scenario_for_each_worked_example() -> None:
    assert {path.stem for path in SCENARIO_DIR.glob("*.toml")} >= {
        "wildlings-unopposed",
        "melisandre-reaches-fifteen",
    }
