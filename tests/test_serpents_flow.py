"""Council of Serpents guided session: the rules functions, the flow through the real driver, the
rulebook's worked examples as scenarios, corrections and views."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import referee.scenarios as scenarios
from referee.asks import Ask, Choice, Parsed
from referee.engine.cards import CardQuestion
from referee.engine.driver import Driver
from referee.engine.facts import ruling_choices
from referee.errors import InvalidAdjustment, InvalidAnswer, SessionError
from referee.games.serpents import parse, rules
from referee.games.serpents.game import GAME
from referee.games.serpents.state import GuildEffect, IntrigueEffect, TrackAction, TrackCard

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios" / "council-of-serpents").glob("*.toml"))
QUIET_TRACK = ["nothing"] * 5
"""Five Starting Time track cards that change nothing."""


def ordinary(question: Ask[object] | None) -> Ask[object] | None:
    """The question a card question asks when the card is not named (an Intrigue card, a Guild)."""
    return question.inner if isinstance(question, CardQuestion) else question


def houses(**given: tuple[int, int, int]) -> dict[str, dict[str, int]]:
    values = {"clay": (6, 6, 6), "jane": (6, 6, 6), "rowel": (6, 6, 6), **given}
    return {
        house: dict(zip(("wealth", "popularity", "strength"), numbers, strict=True))
        for house, numbers in values.items()
    }


def play(players: Sequence[str], answers: Sequence[str], options: dict[str, Any] | None = None) -> Driver:
    driver = Driver(GAME, players, options or {})
    for answer in answers:
        driver.answer(answer)
        assert GAME.invariant_errors(driver.state) == []
    return driver


def two_players(*turns: str, clay: str = "6 6 6", jane: str = "6 6 6", rowel: str = "6 6 6", **kw: Any) -> Driver:
    return play(["Ann", "Bo"], ["Ann", clay, jane, rowel, *QUIET_TRACK, *turns], **kw)


# --- rules -------------------------------------------------------------------------------------


def test_markers_stop_on_the_symbols_and_simultaneous_changes_add_up() -> None:
    table = houses(rowel=(1, 1, 6))
    changes = rules.combine({"rowel": {"wealth": 2, "popularity": -1}}, {"rowel": {"popularity": 2, "wealth": -1}})
    assert changes == {"rowel": {"wealth": 1, "popularity": 1}}
    assert rules.apply_changes(table, changes) == ["House Rowel: Wealth 1 -> 2, Popularity 1 -> 2"]
    rules.apply_changes(table, {"clay": {"strength": 9}, "jane": {"wealth": -9}})
    assert table["clay"]["strength"] == 13 and table["jane"]["wealth"] == 0


def test_thriving_guilds_activates_every_guild_at_once() -> None:
    effects = {**rules.KNOWN_GUILDS}
    guilds = {"Merchant Guild": "rowel", "Brewer's Circle": "rowel", "Savage Clans": "clay"}
    changes = rules.track_changes(TrackAction("guilds"), houses(), guilds, effects, "strength")
    assert changes == {"rowel": {"wealth": 1, "popularity": 1}, "clay": {"wealth": -1, "popularity": -1, "strength": 2}}


def test_most_and_least_popularity_count_every_tied_house() -> None:
    table = houses(clay=(5, 8, 5), jane=(5, 8, 5), rowel=(5, 2, 5))
    most = rules.track_changes(TrackAction("most", None, {"wealth": 1}), table, {}, {}, "strength")
    least = rules.track_changes(TrackAction("least", None, {"strength": -1}), table, {}, {}, "strength")
    assert most == {"clay": {"wealth": 1}, "jane": {"wealth": 1}}
    assert least == {"rowel": {"strength": -1}}


def test_windfall_and_struggle_follow_the_card_faces_and_the_struggle_ruling() -> None:
    table = houses(clay=(9, 7, 9), jane=(1, 7, 9), rowel=(5, 3, 2))
    windfall = rules.track_changes(TrackAction("windfall"), table, {}, {}, "strength")
    assert windfall == {"clay": {"popularity": -1}, "jane": {"popularity": -1}, "rowel": {"popularity": 1}}
    struggle = rules.track_changes(TrackAction("struggle"), table, {}, {}, "strength")
    assert struggle == {"clay": {"strength": 1}, "jane": {"strength": 1}, "rowel": {"strength": -1}}
    by_wealth = rules.track_changes(TrackAction("struggle"), table, {}, {}, "wealth")
    assert by_wealth == {"clay": {"wealth": 1}, "jane": {"wealth": -1}}
    level = houses()
    assert rules.track_changes(TrackAction("windfall"), level, {}, {}, "strength") == {
        house: {"popularity": 0} for house in ("clay", "jane", "rowel")
    }


def test_war_spoils_are_the_strength_difference_capped_by_what_the_loser_has() -> None:
    assert rules.war_spoils(houses(clay=(3, 5, 7), jane=(4, 5, 4)), "clay", "jane", "wealth") == ("clay", "jane", 3)
    assert rules.war_spoils(houses(clay=(3, 5, 12), jane=(4, 2, 1)), "jane", "clay", "popularity") == (
        "clay",
        "jane",
        2,
    )
    assert rules.war_spoils(houses(), "clay", "jane", "wealth") == ("", "", 0)
    assert [rules.strength_after_losses(value) for value in (9, 7, 5, 4, 1)] == [5, 4, 3, 2, 1]


def test_a_new_time_track_keeps_only_the_first_card_of_each_house() -> None:
    rowel = TrackCard(TrackAction("house", "rowel", {"strength": 1}))
    placed = [rowel, TrackCard(TrackAction("nothing"))]
    assert not rules.keeps_place_on_new_track(placed, TrackCard(TrackAction("house", "rowel", {"wealth": -1})))
    assert rules.keeps_place_on_new_track(placed, TrackCard(TrackAction("house", "jane", {"wealth": -1})))
    assert rules.keeps_place_on_new_track(placed, TrackCard(TrackAction("nothing")))
    assert rules.absent_houses(placed) == ["clay", "jane"]


def test_reading_time_track_actions() -> None:
    assert parse.parse_track_action("Jane p-1 w+2") == TrackAction("house", "jane", {"popularity": -1, "wealth": 2})
    assert parse.parse_track_action("Nothing happens...") == TrackAction("nothing")
    assert parse.parse_track_action("most popularity: popularity -1") == TrackAction("most", None, {"popularity": -1})
    assert parse.parse_track_action("least strength +1") == TrackAction("least", None, {"strength": 1})
    assert parse.parse_track_action("activate all guild cards") == TrackAction("guilds")
    for bad in (
        "",
        "jane",
        "jane wealth 2",
        "jane wealth +0",
        "jane wealth +1 wealth +1",
        "most wealth: wealth +1",
        "king +1",
    ):
        with pytest.raises(parse.CardTextError):
            parse.parse_track_action(bad)


def test_reading_changes_for_named_houses() -> None:
    pair = ("clay", "jane")
    assert parse.parse_house_changes("both popularity -1", pair) == {
        "clay": {"popularity": -1},
        "jane": {"popularity": -1},
    }
    assert parse.parse_house_changes("c w-1 j w+1", pair) == {"clay": {"wealth": -1}, "jane": {"wealth": 1}}
    assert parse.parse_house_changes("none", pair) == {}
    with pytest.raises(parse.CardTextError, match="not one of the Houses"):
        parse.parse_house_changes("rowel wealth -1", pair)
    with pytest.raises(parse.CardTextError, match="start with the House"):
        parse.parse_house_changes("wealth -1", pair)


def test_reading_intrigue_cards() -> None:
    assert parse.parse_intrigue_names("assassin, HEALERS", 2) == ("Hire Assassin", "Healers")
    with pytest.raises(parse.CardTextError):
        parse.parse_intrigue_names("h", 1)  # Hire Assassin or Healers
    with pytest.raises(parse.CardTextError, match="expected 2"):
        parse.parse_intrigue_names("traitors", 2)
    effect = parse.parse_intrigue_effect("own wealth -1 other strength -2")
    assert effect == IntrigueEffect({"wealth": -1}, {"strength": -2})
    assert parse.parse_intrigue_effect("own keeps strength").keeps_strength
    for bad in ("other keeps strength", "wealth -1", "own"):
        with pytest.raises(parse.CardTextError):
            parse.parse_intrigue_effect(bad)


def test_reading_start_values_and_guild_names() -> None:
    assert parse.parse_start_values("5, 5, 4") == (5, 5, 4)
    for bad in ("5 5", "0 5 5", "5 13 5", "5 5 x4"):
        with pytest.raises(parse.CardTextError):
            parse.parse_start_values(bad)
    assert parse.parse_guild_name("savage  clans", rules.KNOWN_GUILDS) == "Savage Clans"
    assert parse.parse_guild_name("river pilots", []) == "River Pilots"
    with pytest.raises(parse.CardTextError):
        parse.parse_guild_name("Guild 7", [])


# --- setup and the game object -----------------------------------------------------------------


def test_setup_reads_the_boards_and_places_the_first_starting_card_at_the_bottom() -> None:
    driver = play(
        ["Ann", "Bo", "Cy"],
        [
            "no",
            "Bo",
            "3 5 9",
            "5 5 4",
            "6 6 6",
            "clay wealth +1",
            "jane wealth +1",
            "nothing",
            "most popularity -1",
            "rowel strength +1",
        ],
    )
    table = driver.state
    assert table.houses["clay"] == {"wealth": 3, "popularity": 5, "strength": 9}
    assert [card.action.kind for card in table.track] == ["house", "most", "nothing", "house", "house"]
    assert table.track[0].action.house == "rowel" and table.track[-1].action.house == "clay"
    assert table.turn_order()[0].name == "Bo" and table.active == "Bo"
    assert table.deck == 63 - 4 - 3 * 3 - 1  # Bo has already taken a Court card, refilled from the deck
    assert isinstance(driver.pending, Choice) and driver.pending.section == "play-influence"


def test_the_time_track_order_ruling_can_be_overridden() -> None:
    options = {"rulings": {"time-track-order": "first-placed-first"}}
    driver = play(["Ann", "Bo"], ["Ann", "6 6 6", "6 6 6", "6 6 6", "clay wealth +1", *QUIET_TRACK[1:]], options)
    assert driver.state.track[0].action.house == "clay"


def test_players_and_rulings_are_checked() -> None:
    for players in ([], ["A", "B", "C", "D", "E"], ["Ann", "ann"], ["Ann", "Serpentess"], ["Clay", "Bo"]):
        with pytest.raises(SessionError):
            GAME.check_players(players)
    with pytest.raises(SessionError, match="unknown ruling"):
        GAME.new_state(["Ann", "Bo"], {"rulings": {"time-track-order": "sideways"}})
    with pytest.raises(SessionError, match="unknown ruling"):
        GAME.new_state(["Ann", "Bo"], {"rulings": {"time-track-ordr": "first-placed-first"}})
    table = GAME.new_state(["Ann", "Bo"], {"rulings": {"missing-houses": "one-by-one"}})
    assert table.rulings["missing-houses"] == "one-by-one" and table.rulings["peace-choice"] == "automatic"
    assert set(table.rulings) == set(ruling_choices("council-of-serpents"))


def test_a_player_named_nobody_can_reveal_the_keeper_of_balance() -> None:
    driver = play(["Ann", "Nobody", "Cy"], ["yes", "Ann", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK, "intrigue at clay"])
    driver.state.deck, driver.state.discard = 1, 5
    driver.answer("intrigue at clay")  # Nobody acquires the last card of the deck
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("(nobody)", "Ann", "Nobody", "Cy")
    driver.answer("nobody")
    assert driver.report is not None and driver.report.winners == ["Nobody"]


def test_a_wrong_answer_is_refused_and_changes_nothing() -> None:
    driver = two_players()
    before = GAME.to_json(driver.state)
    for bad in ("guild at the castle", "17", ""):
        with pytest.raises(InvalidAnswer):
            driver.answer(bad)
    assert GAME.to_json(driver.state) == before
    driver.answer("conflict clay-jane")
    with pytest.raises(InvalidAnswer, match="not one of the Houses"):
        driver.answer("rowel wealth -1")
    assert GAME.to_json(driver.state)["conflicts"]["clay-jane"] == 1


# --- turns -------------------------------------------------------------------------------------


def test_an_ordinary_turn_takes_one_answer_and_keeps_every_count() -> None:
    driver = two_players("intrigue at rowel")
    table = driver.state
    assert table.intrigue["rowel"] == 1
    assert [player.hand for player in table.players] == [3, 4]  # Bo has acquired, Ann has acquired and played
    assert table.court == 4 and table.deck == 63 - 4 - 6 - 2
    assert len(table.track) == 4 and table.active == "Bo"


def test_trade_agreement_ends_a_conflict_and_pays_both_houses() -> None:
    driver = two_players("conflict clay-jane", "both popularity -1", "trade clay-jane")
    table = driver.state
    assert table.conflicts["clay-jane"] == 0
    assert table.houses["clay"]["wealth"] == table.houses["jane"]["wealth"] == 7
    assert table.discard == 2


def test_peace_agreement_asks_only_when_both_choices_remove_something() -> None:
    only_conflict = two_players("conflict clay-jane", "both popularity -1", "peace clay-jane")
    assert only_conflict.state.conflicts["clay-jane"] == 0
    assert any("ruling peace-choice" in message for message in only_conflict.take_messages())
    both = two_players("conflict clay-jane", "both popularity -1", "intrigue at jane", "peace clay-jane")
    assert isinstance(both.pending, Choice) and both.pending.options == (
        "discard the Conflict card",
        "discard the Intrigue cards",
    )
    both.answer("discard the intrigue cards")
    assert both.state.intrigue["jane"] == 0 and both.state.conflicts["clay-jane"] == 1
    asked = two_players("peace clay-rowel", options={"rulings": {"peace-choice": "always-ask"}})
    assert isinstance(asked.pending, Choice) and len(asked.pending.options) == 2


def test_an_intrigue_text_is_asked_once_and_remembered() -> None:
    driver = two_players(
        "intrigue at clay",
        "intrigue at clay",
        "conflict clay-jane",
        "both wealth -1",
        "conflict clay-jane",
        "popularity",
        "traitors, traitors",
    )
    assert isinstance(ordinary(driver.pending), Parsed) and driver.pending.prompt.startswith("Traitors")
    driver.answer("other strength -1")
    table = driver.state
    assert table.intrigue_effects["Traitors"] == IntrigueEffect({}, {"strength": -1})
    assert table.houses["clay"]["popularity"] == 8 and table.houses["jane"]["popularity"] == 4  # 6 against 4
    assert table.houses["clay"]["strength"] == 3 and table.houses["jane"]["strength"] == 2
    assert isinstance(driver.pending, Choice) and driver.pending.section == "play-influence"  # asked once


@pytest.mark.parametrize(("ruling", "strength"), [("after-losses", 5), ("before-losses", 4)])
def test_healers_act_after_the_halving_unless_overridden(ruling: str, strength: int) -> None:
    driver = two_players(
        "intrigue at clay",
        "conflict clay-jane",
        "both wealth -1",
        "conflict clay-jane",
        "popularity",
        "healers",
        "own strength +2",
        options={"rulings": {"intrigue-effects": ruling}},
    )
    assert driver.state.houses["clay"]["strength"] == strength  # 6 halved to 3, then +2; or 6 + 2 halved to 4


def test_a_healers_card_that_keeps_strength_skips_the_halving() -> None:
    driver = two_players(
        "intrigue at clay",
        "conflict clay-jane",
        "both wealth -1",
        "conflict clay-jane",
        "popularity",
        "healers",
        "own keeps strength",
    )
    assert driver.state.houses["clay"]["strength"] == 6 and driver.state.houses["jane"]["strength"] == 3


def test_a_guild_asks_its_unknown_effects_and_may_not_return_to_its_house() -> None:
    driver = two_players("guild", "Hunter's Hall at Jane", "strength +2 wealth -1", "guild")
    assert driver.state.guilds == {"Hunter's Hall": "jane"}
    with pytest.raises(InvalidAnswer, match="already supports House Jane"):
        driver.answer("hunter's hall at jane")
    driver.answer("hunter's hall at clay")
    assert isinstance(ordinary(driver.pending), Parsed) and "lower effect" in driver.pending.prompt
    driver.answer("wealth -1")
    table = driver.state
    assert table.guilds == {"Hunter's Hall": "clay"}
    assert table.guild_effects["Hunter's Hall"] == GuildEffect({"strength": 2, "wealth": -1}, {"wealth": -1})
    assert table.houses["jane"] == {"wealth": 4, "popularity": 6, "strength": 8}
    assert table.houses["clay"] == {"wealth": 5, "popularity": 6, "strength": 8}


def test_change_of_plans_swaps_a_time_track_card_for_a_court_card() -> None:
    driver = two_players("change of plans", "3", "jane wealth +2")
    table = driver.state
    # five cards, the third discarded, the Court card added last, then the top card resolved
    assert len(table.track) == 4 and table.track[-1].action == TrackAction("house", "jane", {"wealth": 2})
    assert table.court == 4 and table.discard == 1


def test_a_correction_that_reaches_a_symbol_ends_the_game_at_once() -> None:
    driver = two_players()
    with pytest.raises(InvalidAdjustment):
        driver.adjust("jane wealth -7", "Traitors text")
    with pytest.raises(InvalidAdjustment):
        driver.adjust("king wealth -1", "typo")
    with pytest.raises(InvalidAdjustment, match=r"\+N \(add\), -N \(take away\) or =N \(set\)"):
        driver.adjust("Jane wealth 3", "a bare number could mean a change or a value")
    assert GAME.adjust_help().endswith("e.g. Jane wealth -2 ; a Traitors card")
    driver.adjust("Jane wealth =0", "a card text the referee does not know")
    assert driver.state.houses["jane"]["wealth"] == 0
    assert "The game is over: House Jane collapses." in driver.take_messages()
    assert isinstance(driver.pending, Choice) and driver.pending.section == "ambitions"
    for card in ("jane-collapses", "clay-triumphs", "rowel-triumphs", "rowel-collapses"):
        driver.answer(card)
    assert driver.report is not None and driver.report.winners == ["Ann"]


def test_intrigue_cards_can_be_discarded_by_a_correction() -> None:
    driver = two_players("intrigue at rowel")
    with pytest.raises(InvalidAdjustment):
        driver.adjust("rowel intrigue -2", "card text")
    with pytest.raises(InvalidAdjustment):
        driver.adjust("rowel intrigue +1", "card text")
    driver.adjust("rowel intrigue -1", "card text")
    assert driver.state.intrigue["rowel"] == 0 and driver.state.discard == 1


# --- the deck and the Keeper of Balance --------------------------------------------------------


def test_the_keeper_of_balance_wins_when_the_deck_runs_out() -> None:
    driver = play(["Ann", "Bo", "Cy"], ["yes", "Ann", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK, "intrigue at clay"])
    driver.state.deck, driver.state.discard = 1, 5  # as if many turns had passed
    driver.answer("intrigue at clay")  # Bo acquires the last card of the deck
    driver.answer("Cy")
    report = driver.report
    assert report is not None and report.winners == ["Cy"] and driver.state.ended_by == "deck"


def test_nobody_reveals_the_keeper_so_the_discard_pile_is_reshuffled() -> None:
    driver = play(["Ann", "Bo", "Cy"], ["yes", "Ann", "6 6 6", "6 6 6", "1 6 6", *QUIET_TRACK, "intrigue at clay"])
    driver.state.deck, driver.state.discard = 1, 5
    driver.answer("intrigue at clay")
    driver.answer("nobody")
    table = driver.state
    assert not table.keeper_possible and table.deck == 5 and table.discard == 0  # Cy drew the last card
    driver.answer("conflict jane-rowel")
    driver.answer("rowel wealth -1")  # Rowel Collapses
    assert isinstance(driver.pending, Choice) and driver.pending.prompt == "Ann: Ambition card 1 of 2"


def test_without_a_keeper_an_empty_deck_is_reshuffled_at_once() -> None:
    driver = two_players("intrigue at clay")
    driver.state.deck, driver.state.discard = 1, 3
    driver.answer("intrigue at clay")
    assert driver.state.deck == 3 and driver.state.discard == 0  # Ann drew the last card, then 3 reshuffled


def test_with_deck_and_discard_empty_nothing_is_drawn() -> None:
    driver = two_players()
    table = driver.state
    table.intrigue["rowel"], table.deck = table.deck, 0  # every other card lies face down at Rowel
    driver.answer("intrigue at clay")
    assert table.court == 3 and table.deck == 0 and table.players[1].hand == 4
    assert any("ruling empty-deck-and-discard" in message for message in driver.take_messages())
    assert GAME.invariant_errors(table) == []


def test_court_spaces_left_empty_are_filled_once_a_card_can_be_drawn() -> None:
    """#ruling-empty-deck-and-discard: a Court space stays empty only until a card can be drawn; the
    next refill fills every empty space from the deck, or from the discards reshuffled into it."""
    driver = two_players()
    table = driver.state
    table.intrigue["rowel"], table.deck = table.deck, 0  # every other card lies face down at Rowel
    driver.answer("intrigue at clay")  # Bo acquires: nothing to turn up, The Court holds 3
    assert table.court == 3 and table.deck == 0 and table.discard == 0
    driver.answer("peace clay-rowel")  # Bo's Peace sends the Intrigue cards to the discards; Ann acquires
    assert table.discard == 0 and table.court == 4  # the discards became the deck and filled both spaces
    assert table.deck == 54 - 2
    assert GAME.invariant_errors(table) == []


def test_solo_player_wins_when_the_deck_runs_out_and_loses_when_a_house_ends() -> None:
    driver = play(["Cy"], ["wormtongue", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK])
    assert driver.state.deck == 63 - 25 - 4 - 3 and driver.state.windfall_left == 5
    assert isinstance(driver.pending, Choice) and driver.pending.options[-1] == "windfall"
    driver.answer("1")
    driver.state.deck = 1
    driver.answer("intrigue at clay")  # refilling The Court takes the last card
    assert driver.report is not None and driver.report.winners == ["Cy"]
    lost = play(["Cy"], ["spymaster", "1 6 6", "6 6 6", "6 6 6", *QUIET_TRACK, "3", "trade clay-jane"])
    assert lost.pending is not None
    lost.answer("conflict clay-rowel")
    lost.answer("clay wealth -2")
    assert lost.report is not None and lost.report.winners == []
    assert any("Serpentess wins" in note for note in lost.report.notes)


def test_the_serpentess_turns_up_windfall_and_struggle_cards_only_while_her_deck_holds_some() -> None:
    """#solo-setup, #windfall-and-struggle: the difficulty puts a number of Windfall and Struggle
    cards in her deck, and once those are turned no more can show up."""
    driver = play(["Cy"], ["spymaster", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK])
    table = driver.state
    assert (table.windfall_left, table.struggle_left) == (3, 1)
    driver.answer("struggle")
    assert table.struggle_left == 0 and table.track[-1].origin == "struggle"
    assert isinstance(driver.pending, Choice) and "struggle" not in driver.pending.options
    with pytest.raises(InvalidAnswer):
        driver.answer("struggle")
    for left in (2, 1, 0):
        driver.answer("windfall")
        assert table.windfall_left == left
    assert isinstance(driver.pending, Choice) and driver.pending.options == ("1", "2", "3", "4")
    shadow = play(["Cy"], ["lady/lord of shadow", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK])
    assert isinstance(shadow.pending, Choice) and "windfall" not in shadow.pending.options


def test_change_of_plans_on_the_last_card_with_the_court_empty_forms_a_new_track() -> None:
    """#planning-cards, #ruling-empty-deck-and-discard: with no Court card to add, a Change of Plans
    that takes the Time track's last card leaves it empty, and a new one is formed at once."""
    driver = two_players("intrigue at clay", "intrigue at clay", "intrigue at clay", "intrigue at clay")
    table = driver.state
    assert len(table.track) == 1
    table.intrigue["rowel"], table.deck = table.deck + table.court, 0  # every card left lies face down at Rowel
    table.court = 0
    driver.answer("change of plans")
    said = "\n".join(driver.take_messages())
    assert "The Time track is empty: form a new one." in said
    assert table.phase == "new time track" and table.track == []
    assert GAME.invariant_errors(table) == []


def test_serpentess_option_b_discards_and_plays_the_decks_top_card() -> None:
    driver = play(["Cy"], ["master of whispers", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK, "4"])
    deck = driver.state.deck
    driver.answer("option b")
    assert driver.state.discard == 1 and driver.state.deck == deck - 1
    driver.answer("intrigue at jane")
    assert driver.state.intrigue["jane"] == 1 and driver.state.active == "Cy"


# --- views -------------------------------------------------------------------------------------


def test_public_view_shows_counts_never_hidden_faces() -> None:
    driver = two_players("intrigue at rowel", "guild", "Savage Clans at Clay")
    view = GAME.public_view(driver.state)
    assert view.rows[0][:5] == ["Clay", "5", "5", "8", "Savage Clans"]
    assert view.rows[2][5] == "1"
    text = " ".join(view.lines)
    assert "Time track (next first): 1. Nothing happens" in text and "Cards in hand: Ann 4, Bo 3." in text
    assert "Hire Assassin" not in text
    assert GAME.hidden_view(driver.state, "ann")[0].startswith("Ann: 4 Influence card(s) in hand")
    header = GAME.header(driver.state)
    assert header.round == 3 and header.round_name == "Turn" and header.active == "Ann"


@pytest.fixture
def serpents_scenarios(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(scenarios, "load_game", lambda game_id: GAME)
    yield


def test_every_worked_example_has_a_scenario() -> None:
    assert len(SCENARIOS) >= 8


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: path.stem)
def test_scenario(path: Path, serpents_scenarios: None) -> None:
    run = scenarios.run_scenario(scenarios.load_scenario(path))
    assert run.failures == []


def test_a_first_conflict_card_moves_only_wealth_or_popularity() -> None:
    driver = two_players("conflict jane-rowel")
    with pytest.raises(InvalidAnswer, match="only wealth or popularity"):
        driver.answer("jane strength -1")
    driver.answer("jane wealth -1 rowel popularity +2")
    assert driver.state.houses["jane"]["wealth"] == 5 and driver.state.houses["rowel"]["popularity"] == 8


def test_the_header_counts_turns_because_serpents_has_no_rounds() -> None:
    from referee.cli.render import header_text

    driver = two_players("intrigue at rowel", "intrigue at rowel")
    assert header_text(GAME.header(driver.state)) == "Turn 3 · Ann · play"
    solo = play(["Cy"], ["wormtongue", "6 6 6", "6 6 6", "6 6 6", *QUIET_TRACK])
    assert header_text(GAME.header(solo.state)) == "Turn 1 · Serpentess · serpentess"


def test_house_pairs_are_read_in_either_order_with_a_space_or_a_hyphen() -> None:
    for typed in ("conflict jane clay", "conflict Jane-Clay", "conflict clay jane", "conflict c-j", "1"):
        driver = two_players(typed)
        assert driver.state.conflicts["clay-jane"] == 1, typed
        assert driver.entries[-1].answer == "conflict Clay-Jane"  # logged as the option's label
    war = two_players("conflict clay-jane", "both wealth -1", "conflict jane clay")
    assert war.state.phase == "war" and war.entries[-1].answer == "conflict Clay-Jane (War)"
    with pytest.raises(InvalidAnswer):
        two_players("conflict jane jane")


def test_the_scoreboard_of_a_solo_loss_does_not_say_nobody_wins() -> None:
    from io import StringIO

    from rich.console import Console

    from referee.cli.render import show_scoreboard

    lost = play(["Cy"], ["spymaster", "1 6 6", "6 6 6", "6 6 6", *QUIET_TRACK, "1", "conflict clay-jane"])
    lost.answer("clay wealth -1")
    assert lost.report is not None
    out = StringIO()
    show_scoreboard(Console(file=out, width=200), lost.report)
    text = out.getvalue()
    assert "No player wins." in text and "Nobody wins." not in text and "the Serpentess wins" in text


def test_starting_cards_join_the_influence_cards_when_the_table_reads_it_so() -> None:
    """#ruling-starting-cards, set alone: by default the five Starting Time track cards are set
    aside once resolved; under `discard-pile` they go to the discards and so into later decks."""
    turns = ["intrigue at clay"] * 5  # the first Time track is used up
    kept_apart = two_players(*turns)
    joined = two_players(*turns, options={"rulings": {"starting-cards": "discard-pile"}})
    assert (kept_apart.state.discard, kept_apart.state.extra_cards) == (0, 0)
    assert (joined.state.discard, joined.state.extra_cards) == (5, 5)
    assert joined.state.cards_in_game() == 63 + 5 and GAME.invariant_errors(joined.state) == []



@pytest.mark.parametrize(("ruling", "clay", "rowel"), [({}, (8, 6, 10), (4, 6, 2)),
                                                      ({"struggle-attribute": "wealth"}, (9, 6, 9), (3, 6, 3))])
def test_the_struggle_card_changes_strength_or_wealth_as_the_ruling_reads_it(
    ruling: dict[str, str], clay: tuple[int, int, int], rowel: tuple[int, int, int]
) -> None:
    """#ruling-struggle-attribute, set alone: a Struggle card resolved on the Time track changes the
    strongest and weakest Houses' Strength by default, the richest and poorest Houses' Wealth under
    `wealth` (Clay leads both, Rowel trails both)."""
    turns = ["1", "intrigue at jane", "intrigue at jane"] * 3  # the Serpentess, then Cy, three times
    driver = play(["Cy"], ["spymaster", "8 6 9", "6 6 6", "4 6 3", *QUIET_TRACK, "struggle", *turns],
                  {"rulings": ruling} if ruling else None)
    table = driver.state
    assert table.track == [] and table.struggle_left == 0  # the Struggle card came last, then left the game
    expected = houses(clay=clay, jane=(6, 6, 6), rowel=rowel)
    assert table.houses == expected


def test_every_override_is_shown_to_change_a_game_on_its_own() -> None:
    """Each overridable ruling has a test (or scenario) that sets it alone and shows an outcome it
    changes; the rulings fixed by the source offer no other reading."""
    from test_serpents_scoring import (
        test_clamp_ruling_accepts_values_past_the_symbols,
        test_keeper_ruling_overridden_reads_the_game_as_unfinished,
        test_the_table_can_keep_only_one_fate,
    )

    alone = {
        "track-ends": test_clamp_ruling_accepts_values_past_the_symbols,
        "triumph-and-collapse": test_the_table_can_keep_only_one_fate,
        "keeper-wins-without-house-end": test_keeper_ruling_overridden_reads_the_game_as_unfinished,
        "time-track-order": test_the_time_track_order_ruling_can_be_overridden,
        "starting-cards": test_starting_cards_join_the_influence_cards_when_the_table_reads_it_so,
        "peace-choice": test_peace_agreement_asks_only_when_both_choices_remove_something,
        "intrigue-effects": test_healers_act_after_the_halving_unless_overridden,
        "struggle-attribute": test_the_struggle_card_changes_strength_or_wealth_as_the_ruling_reads_it,
        "missing-houses": "scenarios/council-of-serpents/missing-houses-one-by-one.toml",
        "change-of-plans-last-card": "scenarios/council-of-serpents/change-of-plans-last-card-forms-a-new-track.toml",
    }
    overridable = {ruling for ruling, choices in ruling_choices(GAME.rulebook).items() if len(choices) > 1}
    assert set(alone) == overridable
    root = Path(__file__).resolve().parent.parent
    for ruling, where in alone.items():
        if isinstance(where, str):
            assert f'{ruling} = "' in (root / where).read_text()
