"""A Game of Thrones: The Card Game (1st edition): the end-of-game power count and its checks."""

from __future__ import annotations

import json
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.asks import Ask, Choice, Number
from referee.errors import InvalidAnswer, ScoreInputError
from referee.games.got.scoring import (
    SAME_MOMENT,
    Holdings,
    PlayerPower,
    ask_holdings,
    parse_input,
    score,
    score_input,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios" / "score"


def player(name: str, house: int, cards: int) -> dict[str, Any]:
    return {"name": name, "house_power": house, "card_power": cards}


def game(*players: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"players": list(players), **extra}


def ranks(report_json: dict[str, Any]) -> dict[str, int | None]:
    return {entry["name"]: entry["rank"] for entry in report_json["players"]}


# --- totals and the winner ---------------------------------------------------------------------


def test_total_is_house_power_plus_card_power() -> None:
    report = score_input(game(player("Ann", 9, 4), player("Bo", 2, 0)))
    assert report.player("Ann").total == 13
    assert report.player("Ann").breakdown == {"house_power": 9, "card_power": 4}
    assert report.player("Bo").total == 2


def test_exactly_fifteen_wins_the_joust() -> None:
    report = score_input(game(player("Ann", 11, 4), player("Bo", 13, 1)))
    assert report.ended is True
    assert report.winners == ["Ann"]
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 2}
    assert "Joust: 2 players." in report.notes
    assert "Ann wins with 15 power (15 or more wins)." in report.notes


def test_fourteen_is_not_yet_a_win() -> None:
    report = score_input(game(player("Ann", 10, 4), player("Bo", 3, 3), player("Cy", 0, 0)))
    assert report.ended is False
    assert report.winners == []
    # standings by power while the game goes on
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 2, "Cy": 3}
    assert "Nobody has 15 power yet: the game is not over and nobody has won." in report.notes
    assert "Melee: 3 players." in report.notes


def test_card_power_alone_can_make_the_fifteen() -> None:
    report = score_input(game(player("Ann", 0, 15), player("Bo", 14, 0)))
    assert report.winners == ["Ann"]


def test_power_beyond_fifteen_still_wins() -> None:
    # a single challenge can jump past 15 (claim, Renown and unopposed power together)
    report = score_input(game(player("Ann", 14, 4), player("Bo", 6, 0)))
    assert report.winners == ["Ann"]
    assert report.player("Ann").total == 18


def test_rulebook_example_melisandre_final_power_challenge() -> None:
    # Before the last challenge: Baratheon 9 on the House card + 2 on cards = 11; Wildlings 9 + 2.
    # Melisandre's power challenge: claim 1 moves 1 power from the Wildling House card, her Renown
    # puts 1 on her card, the unopposed power is doubled by her text (2 on the House card): +4.
    baratheon = player("Baratheon", 9 + 1 + 2, 2 + 1)
    wildlings = player("Wildlings", 9 - 1, 2)
    report = score_input(game(baratheon, wildlings))
    assert report.player("Baratheon").total == 15
    assert report.player("Wildlings").total == 10
    assert report.winners == ["Baratheon"]
    assert report.ended


def test_no_player_is_ever_eliminated() -> None:
    report = score_input(
        game(player("Ann", 15, 0), player("Bo", 0, 0), player("Cy", 1, 0), player("Di", 0, 2))
    )
    assert not any(entry.eliminated for entry in report.players)
    assert "Melee: 4 players." in report.notes


def test_report_json_shape() -> None:
    data = score_input(game(player("Ann", 12, 3), player("Bo", 5, 1))).to_json()
    assert list(data) == ["game", "ended", "players", "winners", "notes"]
    assert data["game"] == "got-lcg-1e"
    assert data["players"][1] == {
        "name": "Bo",
        "total": 6,
        "breakdown": {"house_power": 5, "card_power": 1},
        "rank": 2,
        "eliminated": False,
        "reason": None,
    }


# --- several players at 15 -----------------------------------------------------------------------


def test_several_at_fifteen_share_the_win_by_default() -> None:
    # Prized X leaving play gives every opponent X power at once
    report = score_input(game(player("Ann", 12, 3), player("Bo", 10, 7), player("Cy", 14, 0)))
    assert report.winners == ["Ann", "Bo"]
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 1, "Cy": 3}
    assert any(
        note.startswith("Ruling simultaneous-fifteen (shared) applied: Ann 15, Bo 17")
        for note in report.notes
    )


def test_most_power_ruling_gives_the_win_to_the_highest() -> None:
    data = game(player("Ann", 12, 3), player("Bo", 10, 7), player("Cy", 14, 0))
    data["rulings"] = {"simultaneous-fifteen": "most-power"}
    report = score_input(data)
    assert report.winners == ["Bo"]
    assert ranks(report.to_json()) == {"Bo": 1, "Ann": 2, "Cy": 3}
    assert any("Bo has the most power (17) and wins" in note for note in report.notes)


def test_most_power_ruling_with_equal_highest_totals_still_shares() -> None:
    data = game(player("Ann", 12, 4), player("Bo", 16, 0), player("Cy", 15, 0))
    data["rulings"] = {"simultaneous-fifteen": "most-power"}
    report = score_input(data)
    assert report.winners == ["Ann", "Bo"]
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 1, "Cy": 3}
    assert any("Ann and Bo share the most power (16) and share the win" in note for note in report.notes)


def test_the_first_to_reach_fifteen_wins_alone() -> None:
    data = game(player("Ann", 12, 5), player("Bo", 15, 0), player("Cy", 3, 0), first_to_fifteen="Bo")
    report = score_input(data)
    assert report.winners == ["Bo"]
    # Ann has more power but reached 15 after the game had ended
    assert ranks(report.to_json()) == {"Bo": 1, "Ann": 2, "Cy": 3}
    assert any("Bo got there first and wins" in note and "later: Ann" in note for note in report.notes)
    assert not any("simultaneous-fifteen" in note for note in report.notes)


def test_first_to_fifteen_null_means_the_same_moment() -> None:
    report = score_input(game(player("Ann", 15, 0), player("Bo", 15, 0), first_to_fifteen=None))
    assert report.winners == ["Ann", "Bo"]


def test_everybody_at_fifteen_together_all_win() -> None:
    report = score_input(game(player("Ann", 15, 0), player("Bo", 10, 5)))
    assert report.winners == ["Ann", "Bo"]
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 1}
    assert not any("ranks-below-winner" in note for note in report.notes)


# --- ranks below the winner --------------------------------------------------------------------


def test_others_ranked_by_power_and_ties_share_a_rank() -> None:
    report = score_input(
        game(player("Ann", 15, 1), player("Bo", 4, 4), player("Cy", 7, 1), player("Di", 2, 0))
    )
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 2, "Cy": 2, "Di": 4}
    assert "Bo and Cy share rank 2 with 8 power each." in report.notes
    assert any(note.startswith("Ruling ranks-below-winner (by-power) applied") for note in report.notes)


def test_three_players_tied_below_the_winner() -> None:
    report = score_input(
        game(player("Ann", 3, 3), player("Bo", 20, 0), player("Cy", 6, 0), player("Di", 0, 6))
    )
    assert ranks(report.to_json()) == {"Bo": 1, "Ann": 2, "Cy": 2, "Di": 2}
    assert "Ann, Cy and Di share rank 2 with 6 power each." in report.notes


def test_shared_ranks_ruling_puts_all_others_level() -> None:
    data = game(player("Ann", 15, 1), player("Bo", 4, 4), player("Cy", 1, 1))
    data["rulings"] = {"ranks-below-winner": "shared"}
    report = score_input(data)
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 2, "Cy": 2}
    assert (
        "Ruling ranks-below-winner (shared) applied: every player who did not win shares rank 2."
        in report.notes
    )


def test_ranking_ruling_not_noted_in_a_joust() -> None:
    report = score_input(game(player("Ann", 15, 1), player("Bo", 4, 4)))
    assert not any("ranks-below-winner" in note for note in report.notes)


def test_tied_standings_when_nobody_has_won() -> None:
    report = score_input(game(player("Ann", 10, 2), player("Bo", 9, 3)))
    assert ranks(report.to_json()) == {"Ann": 1, "Bo": 1}
    assert "Ann and Bo share rank 1 with 12 power each." in report.notes


def test_score_takes_holdings_directly() -> None:
    holdings = Holdings((PlayerPower("Ann", 3, 12), PlayerPower("Bo", 1, 1)))
    report = score(holdings)
    assert report.winners == ["Ann"]
    assert report.player("Ann").total == 15


# --- input checks ------------------------------------------------------------------------------


def error_for(data: object) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as caught:
        parse_input(data)
    return caught.value


def test_top_level_must_be_an_object() -> None:
    error = error_for([player("Ann", 1, 1)])
    assert error.field == "(top level)"
    assert error.allowed == "a JSON object"


@pytest.mark.parametrize("count", [0, 1, 5])
def test_two_to_four_players(count: int) -> None:
    error = error_for(game(*[player(f"P{index}", 1, 1) for index in range(count)]))
    assert (error.player, error.field, error.value) == (None, "players", f"{count} players")
    assert str(error) == f"field 'players': bad value '{count} players'; allowed: a list of 2 to 4 players"


def test_players_must_be_a_list() -> None:
    error = error_for({"players": "Ann, Bo"})
    assert (error.field, error.value) == ("players", "Ann, Bo")


def test_players_are_required() -> None:
    error = error_for({})
    assert error.field == "players"


def test_names_must_be_unique_and_non_empty() -> None:
    assert error_for(game(player("Ann", 1, 1), player("Ann", 2, 2))).allowed == "each player named once"
    error = error_for(game(player("Ann", 1, 1), player(" ", 2, 2)))
    assert (error.player, error.field) == ("#2", "name")


def test_unknown_player_key_is_an_error() -> None:
    entry = player("Bo", 2, 2) | {"gold": 3}
    error = error_for(game(player("Ann", 1, 1), entry))
    assert (error.player, error.field, error.value) == ("Bo", "gold", 3)
    assert error.allowed == "known fields: name, house_power, card_power"


def test_unknown_top_level_key_is_an_error() -> None:
    error = error_for(game(player("Ann", 1, 1), player("Bo", 1, 1), winner="Ann"))
    assert (error.player, error.field) == (None, "winner")
    assert error.allowed == "known fields: players, first_to_fifteen, rulings"


@pytest.mark.parametrize("missing", ["house_power", "card_power"])
def test_both_power_fields_are_required(missing: str) -> None:
    entry = player("Bo", 2, 2)
    del entry[missing]
    error = error_for(game(player("Ann", 1, 1), entry))
    assert (error.player, error.field, error.allowed) == ("Bo", missing, "this field is required")


@pytest.mark.parametrize("bad", [-1, 100, "7", 7.5, True, None])
def test_power_is_a_whole_number_from_0_to_99(bad: object) -> None:
    error = error_for(game(player("Ann", 1, 1), player("Bo", bad, 0)))  # type: ignore[arg-type]
    assert (error.player, error.field, error.value) == ("Bo", "house_power", bad)
    assert error.allowed == "a whole number from 0 to 99"


def test_error_message_is_one_clear_line() -> None:
    error = error_for(game(player("Ann", 1, 1), player("Bo", 0, -2)))
    assert str(error) == "player 'Bo', field 'card_power': bad value -2; allowed: a whole number from 0 to 99"


def test_first_to_fifteen_must_name_a_player_at_fifteen() -> None:
    error = error_for(
        game(player("Ann", 15, 0), player("Bo", 15, 1), player("Cy", 3, 0), first_to_fifteen="Cy")
    )
    assert (error.player, error.field, error.value) == (None, "first_to_fifteen", "Cy")
    assert error.allowed == "null, or one of the players with 15 or more power: Ann, Bo"


def test_first_to_fifteen_with_nobody_at_fifteen() -> None:
    error = error_for(game(player("Ann", 5, 0), player("Bo", 1, 1), first_to_fifteen="Ann"))
    assert error.allowed == "null (nobody has 15 power)"


def test_first_to_fifteen_must_be_a_name() -> None:
    error = error_for(game(player("Ann", 15, 0), player("Bo", 15, 1), first_to_fifteen=1))
    assert (error.field, error.value) == ("first_to_fifteen", 1)


def test_unknown_ruling_is_an_error() -> None:
    error = error_for(game(player("Ann", 1, 1), player("Bo", 1, 1), rulings={"dominance-tie": "nobody"}))
    assert (error.field, error.value) == ("dominance-tie", "nobody")
    assert error.allowed == "known fields: simultaneous-fifteen, ranks-below-winner"


def test_ruling_value_must_be_one_of_its_choices() -> None:
    error = error_for(
        game(player("Ann", 1, 1), player("Bo", 1, 1), rulings={"simultaneous-fifteen": "first"})
    )
    assert (error.field, error.value, error.allowed) == (
        "rulings.simultaneous-fifteen",
        "first",
        "one of shared, most-power",
    )


def test_rulings_must_be_an_object() -> None:
    error = error_for(game(player("Ann", 1, 1), player("Bo", 1, 1), rulings="most-power"))
    assert (error.field, error.allowed) == ("rulings", "a JSON object")


def test_parse_input_keeps_seat_order_and_rulings() -> None:
    data = game(player("Cy", 1, 2), player("Ann", 3, 4), rulings={"ranks-below-winner": "shared"})
    holdings = parse_input(data)
    assert [entry.name for entry in holdings.players] == ["Cy", "Ann"]
    assert holdings.ranks_below_winner == "shared"
    assert holdings.simultaneous_fifteen == "shared"
    assert holdings.first_to_fifteen is None


# --- interactive entry -------------------------------------------------------------------------


def drive(names: list[str], answers: Sequence[str]) -> tuple[dict[str, Any], list[Ask]]:
    """Answer each ask in turn with `ask.parse(text)`; return the result and the asks seen."""
    flow: Generator[Ask, Any, dict[str, Any]] = ask_holdings(names)
    asked = [next(flow)]
    for text in answers:
        try:
            asked.append(flow.send(asked[-1].parse(text)))
        except StopIteration as stop:
            result: dict[str, Any] = stop.value
            return result, asked
    raise AssertionError(f"ask_holdings still asking: {asked[-1].prompt}")


def test_ask_holdings_one_winner() -> None:
    result, asked = drive(["Ann", "Bo"], ["12", "3", "8", "2"])
    assert result == {"players": [player("Ann", 12, 3), player("Bo", 8, 2)]}
    assert len(asked) == 4
    assert all(isinstance(ask, Number) and ask.section == "power-count" for ask in asked)
    assert all((ask.minimum, ask.maximum) == (0, 99) for ask in asked if isinstance(ask, Number))
    assert score_input(result).winners == ["Ann"]


def test_ask_holdings_asks_who_got_there_first() -> None:
    result, asked = drive(["Ann", "Bo", "Cy"], ["15", "0", "1", "1", "14", "2", "Cy"])
    last = asked[-1]
    assert isinstance(last, Choice)
    assert last.options == ("Ann", "Cy", SAME_MOMENT)
    assert last.section == "ruling-simultaneous-fifteen"
    assert last.prompt == "Ann and Cy have 15 or more power. Who reached 15 first?"
    assert result["first_to_fifteen"] == "Cy"
    assert score_input(result).winners == ["Cy"]


def test_ask_holdings_same_moment_shares_the_win() -> None:
    result, _ = drive(["Ann", "Bo"], ["15", "0", "13", "2", "3"])
    assert result["first_to_fifteen"] is None
    report = score_input(result)
    assert report.winners == ["Ann", "Bo"]


@pytest.mark.parametrize("bad", ["100", "-1", "many", ""])
def test_ask_holdings_refuses_impossible_power(bad: str) -> None:
    flow = ask_holdings(["Ann", "Bo"])
    ask = next(flow)
    with pytest.raises(InvalidAnswer) as caught:
        ask.parse(bad)
    assert caught.value.allowed == "a whole number from 0 to 99"


def test_ask_holdings_prompts_name_the_player() -> None:
    _, asked = drive(["Ann", "Bo"], ["1", "2", "3", "4"])
    assert [ask.prompt.split(":")[0] for ask in asked] == ["Ann", "Ann", "Bo", "Bo"]


# --- the example input files -------------------------------------------------------------------


def test_scenario_joust_file() -> None:
    report = score_input(json.loads((SCENARIOS / "got-lcg-1e.json").read_text()))
    assert report.winners == ["Baratheon"]
    assert [entry.total for entry in report.players] == [15, 10]
    assert report.ended


def test_scenario_melee_file() -> None:
    report = score_input(json.loads((SCENARIOS / "got-lcg-1e-melee.json").read_text()))
    assert report.winners == ["Stark", "Lannister"]
    assert ranks(report.to_json()) == {"Stark": 1, "Lannister": 1, "Targaryen": 3, "Baratheon": 3}


# --- properties --------------------------------------------------------------------------------

powers = st.integers(min_value=0, max_value=99)


@given(st.lists(st.tuples(powers, powers), min_size=2, max_size=4))
def test_random_holdings_follow_the_rules(values: list[tuple[int, int]]) -> None:
    data = game(*[player(f"P{index}", house, cards) for index, (house, cards) in enumerate(values)])
    report = score_input(data)
    totals = {f"P{index}": house + cards for index, (house, cards) in enumerate(values)}
    assert {entry.name: entry.total for entry in report.players} == totals
    assert report.winners == [name for name, total in totals.items() if total >= 15]
    assert report.ended == bool(report.winners)
    for entry in report.players:
        assert entry.rank is not None
        if entry.name in report.winners:
            assert entry.rank == 1
    others = sorted(
        (entry for entry in report.players if entry.name not in report.winners), key=lambda e: e.rank or 0
    )
    for better, worse in zip(others, others[1:], strict=False):
        assert (better.total or 0) >= (worse.total or 0)
        assert (better.rank == worse.rank) == (better.total == worse.total)
