"""Blackwood's end-of-game score (rulebooks/blackwood.md #final-score, #tie-breaks, #score-input)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.asks import Ask
from referee.errors import InvalidAnswer, ScoreInputError
from referee.games.blackwood.scoring import ask_holdings, parse_input, score, score_input
from referee.outcome import ScoreReport

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = (ROOT / "rulebooks" / "blackwood.md").read_text()
SECTION_IDS = set(re.findall(r"\{#([a-z0-9-]+)\}", RULEBOOK))


def witch(name: str, reputation: int = 0, coins: int = 0, fagus_tokens: int = 0,
          potions_brewed: int = 0) -> dict[str, Any]:
    return {"name": name, "reputation": reputation, "coins": coins, "fagus_tokens": fagus_tokens,
            "potions_brewed": potions_brewed}


def report(*witches: dict[str, Any], **rulings: str) -> ScoreReport:
    data: dict[str, Any] = {"players": list(witches)}
    if rulings:
        data["rulings"] = {key.replace("_", "-"): value for key, value in rulings.items()}
    return score_input(data)


def ranks(result: ScoreReport) -> dict[str, int | None]:
    return {player.name: player.rank for player in result.players}


def error_for(data: object) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as caught:
        parse_input(data)
    return caught.value


# --- the score ------------------------------------------------------------------------------------


def test_reputation_plus_a_point_per_three_coins_minus_five_per_fagus_token() -> None:
    result = report(witch("Ann", 23, 11, 1, 6), witch("Bo", 18, 2, 0, 4))
    ann, bo = result.player("Ann"), result.player("Bo")
    assert ann.breakdown == {"reputation": 23, "coin_points": 3, "fagus_penalty": -5}
    assert ann.total == 21  # 23 + 11 // 3 - 5
    assert bo.total == 18  # 2 coins are not a full 3
    assert result.winners == ["Ann"]
    assert ranks(result) == {"Ann": 1, "Bo": 2}
    assert result.game == "blackwood"
    assert result.ended is True
    assert result.notes == []


@pytest.mark.parametrize(("coins", "points"), [(0, 0), (2, 0), (3, 1), (8, 2), (9, 3), (130, 43)])
def test_only_full_sets_of_three_coins_score(coins: int, points: int) -> None:
    result = report(witch("Ann", 5, coins, 0, 1), witch("Bo"))
    assert result.player("Ann").breakdown["coin_points"] == points
    assert result.player("Ann").total == 5 + points


def test_fagus_tokens_can_drive_a_score_below_zero() -> None:
    result = report(witch("Ann", 0, 2, 2, 0), witch("Bo", 3, 0, 0, 1))
    assert result.player("Ann").total == -10
    assert result.player("Ann").breakdown["fagus_penalty"] == -10
    assert result.winners == ["Bo"]


def test_a_negative_reputation_sum_from_sold_potions_is_accepted() -> None:
    result = report(witch("Ann", -1, 6, 0, 1), witch("Bo", 0, 0, 0, 0))
    assert result.player("Ann").total == 1  # -1 + 2
    assert result.winners == ["Ann"]


def test_highest_score_wins_regardless_of_seat_order() -> None:
    result = report(witch("Ann", 10, 0, 0, 3), witch("Bo", 12, 0, 0, 3), witch("Cy", 11, 0, 0, 3))
    assert result.winners == ["Bo"]
    assert ranks(result) == {"Ann": 3, "Bo": 1, "Cy": 2}
    assert [player.name for player in result.players] == ["Ann", "Bo", "Cy"]


# --- tie-breaks -----------------------------------------------------------------------------------


def test_first_tie_break_fewer_potions_brewed_wins_even_with_fewer_coins() -> None:
    # Ann 18 + 0 = 18 with 5 potions; Bo 13 + 5 = 18 with 7 potions and far more coins.
    result = report(witch("Ann", 18, 2, 0, 5), witch("Bo", 13, 15, 0, 7))
    assert result.player("Ann").total == result.player("Bo").total == 18
    assert result.winners == ["Ann"]
    assert ranks(result) == {"Ann": 1, "Bo": 2}
    assert result.notes == [
        "Ann and Bo tie on 18 points; first tie-break, fewer potions brewed: Ann 5, Bo 7."
    ]


def test_second_tie_break_more_coins_wins_when_potions_are_level() -> None:
    result = score_input(json.loads((ROOT / "scenarios/score/blackwood-coins-decide.json").read_text()))
    assert result.player("Ann").total == 21  # 20 + 1
    assert result.player("Bo").total == 21  # 25 + 1 - 5
    assert result.winners == ["Bo"]
    assert ranks(result) == {"Ann": 2, "Bo": 1}
    assert result.notes == [
        "Bo and Ann tie on 21 points; first tie-break, fewer potions brewed: Bo 6, Ann 6.",
        "Bo and Ann brewed 6 potions each; second tie-break, more coins: Bo 5, Ann 3.",
    ]


def test_coins_that_score_the_same_point_still_break_the_tie() -> None:
    # 3 and 5 coins both give 1 point; the raw coin count decides.
    result = report(witch("Ann", 20, 5, 0, 4), witch("Bo", 20, 3, 0, 4))
    assert result.winners == ["Ann"]


def test_level_after_both_tie_breaks_share_the_win_by_ruling() -> None:
    result = report(witch("Ann", 20, 4, 0, 6), witch("Bo", 20, 4, 0, 6), witch("Cy", 3, 0, 0, 1))
    assert result.winners == ["Ann", "Bo"]
    assert ranks(result) == {"Ann": 1, "Bo": 1, "Cy": 3}
    assert result.notes[-1] == (
        "Ann and Bo also hold 4 coins each; they share 1st place "
        "(ruling final-tie: the rulebook has no third tie-break)."
    )


def test_final_tie_ruling_overridden_to_none_leaves_no_winner() -> None:
    result = report(witch("Ann", 20, 4, 0, 6), witch("Bo", 20, 4, 0, 6), final_tie="none")
    assert result.winners == []
    assert ranks(result) == {"Ann": 1, "Bo": 1}
    assert "nobody wins (ruling final-tie, set by the table to none)" in result.notes[-1]


def test_final_tie_override_does_not_touch_a_tie_below_first_place() -> None:
    result = report(witch("Ann", 30, 0, 0, 6), witch("Bo", 20, 4, 0, 6), witch("Cy", 20, 4, 0, 6),
                    final_tie="none")
    assert result.winners == ["Ann"]
    assert ranks(result) == {"Ann": 1, "Bo": 2, "Cy": 2}
    assert result.notes[-1].endswith(
        "they share 2nd place (ruling final-tie: the rulebook has no third tie-break).")


def test_three_way_tie_settled_at_each_level_in_turn() -> None:
    # All on 20: Cy brewed fewest; Ann and Bo brewed 5 each and Bo has more coins; Di is alone on 9.
    result = report(witch("Ann", 19, 4, 0, 5), witch("Bo", 18, 7, 0, 5), witch("Cy", 20, 1, 0, 4),
                    witch("Di", 9, 0, 0, 2))
    totals = {player.name: player.total for player in result.players}
    assert totals == {"Ann": 20, "Bo": 20, "Cy": 20, "Di": 9}
    assert ranks(result) == {"Cy": 1, "Bo": 2, "Ann": 3, "Di": 4}
    assert result.winners == ["Cy"]
    assert result.notes == [  # witches named in the order the tie-breaks put them
        "Cy, Bo and Ann tie on 20 points; first tie-break, fewer potions brewed: Cy 4, Bo 5, Ann 5.",
        "Bo and Ann brewed 5 potions each; second tie-break, more coins: Bo 7, Ann 4.",
    ]


def test_the_readme_scenario() -> None:
    data = json.loads((ROOT / "scenarios/score/blackwood.json").read_text())
    result = score_input(data)
    totals = {player.name: player.total for player in result.players}
    assert totals == {"Morgana": 30, "Elspeth": 30, "Hazel": 16}  # 31+4-5, 27+3, 24+2-10
    assert result.winners == ["Elspeth"]  # 8 potions brewed against Morgana's 9
    assert ranks(result) == {"Morgana": 2, "Elspeth": 1, "Hazel": 3}
    assert result.to_json()["players"][0] == {
        "name": "Morgana", "total": 30,
        "breakdown": {"reputation": 31, "coin_points": 4, "fagus_penalty": -5},
        "rank": 2, "eliminated": False, "reason": None,
    }
    assert "teams" not in result.to_json()


def test_score_is_pure_and_matches_score_input() -> None:
    data = {"players": [witch("Ann", 9, 4, 1, 3), witch("Bo", 7, 0, 0, 2)]}
    before = copy.deepcopy(data)
    holdings = parse_input(data)
    assert score(holdings).to_json() == score(holdings).to_json() == score_input(data).to_json()
    assert data == before


# --- checks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [0, 1, 5])
def test_two_to_four_players(count: int) -> None:
    error = error_for({"players": [witch(f"P{n}") for n in range(count)]})
    assert (error.player, error.field, error.allowed) == (None, "players", "a list of 2 to 4 players")


@pytest.mark.parametrize("count", [2, 3, 4])
def test_two_three_and_four_players_are_accepted(count: int) -> None:
    assert len(score_input({"players": [witch(f"P{n}") for n in range(count)]}).players) == count


def test_fagus_tokens_at_most_ten_in_all() -> None:
    accepted = report(witch("Ann", 0, 0, 6), witch("Bo", 0, 0, 4))
    assert [player.total for player in accepted.players] == [-30, -20]
    error = error_for({"players": [witch("Ann", 0, 0, 6), witch("Bo", 0, 0, 5)]})
    assert str(error) == ("field 'fagus_tokens (all players)': bad value 11; "
                          "allowed: at most 10 in all (the box holds 10 Fagus Beech tokens; ruling fagus-tokens, "
                          "which the table may set to unlimited)")


def test_fagus_tokens_ruling_overridden_to_unlimited() -> None:
    result = report(witch("Ann", 0, 9, 6), witch("Bo", 0, 0, 12), fagus_tokens="unlimited")
    assert [player.total for player in result.players] == [-27, -60]
    assert result.winners == ["Ann"]
    assert result.notes == ["The witches hold 18 Fagus Beech tokens, more than the 10 in the box; "
                            "accepted because the table set ruling fagus-tokens to unlimited."]


def test_one_witch_cannot_hold_more_than_ten_fagus_tokens() -> None:
    error = error_for({"players": [witch("Ann", 0, 0, 11), witch("Bo")]})
    assert str(error) == ("player 'Ann', field 'fagus_tokens': bad value 11; "
                          "allowed: a whole number from 0 to 10")


def test_at_most_forty_potion_cards_in_all() -> None:
    error = error_for({"players": [witch("Ann", 30, 0, 0, 21), witch("Bo", 30, 0, 0, 20)]})
    assert (error.player, error.field, error.value) == (None, "potions_brewed (all players)", 41)
    assert error.allowed == "at most 40 in all (the game has 40 potion cards)"
    assert error_for({"players": [witch("Ann", 30, 0, 0, 41), witch("Bo")]}).field == "potions_brewed"


def test_reputation_needs_potion_cards() -> None:
    error = error_for({"players": [witch("Ann", 4, 0, 0, 0), witch("Bo")]})
    assert str(error) == ("player 'Ann', field 'reputation': bad value 4; "
                          "allowed: 0 when potions_brewed is 0 (no potion cards)")


@pytest.mark.parametrize("reputation", [1000, -1000])
def test_reputation_outside_the_entry_guard(reputation: int) -> None:
    error = error_for({"players": [witch("Ann", reputation, 0, 0, 3), witch("Bo")]})
    assert (error.player, error.field) == ("Ann", "reputation")
    assert error.allowed == "a whole number from -999 to 999"


def test_coins_limited_to_the_box_by_ruling() -> None:
    error = error_for({"players": [witch("Ann", coins=70), witch("Bo", coins=61)]})
    assert (error.player, error.field, error.value) == (None, "coins (all players)", 131)
    assert "ruling coin-supply" in error.allowed
    assert error_for({"players": [witch("Ann", coins=131), witch("Bo")]}).field == "coins"


def test_coin_supply_ruling_overridden_to_unlimited() -> None:
    result = report(witch("Ann", coins=70), witch("Bo", coins=90), coin_supply="unlimited")
    assert [player.total for player in result.players] == [23, 30]
    assert result.winners == ["Bo"]
    assert result.notes == ["The witches hold 160 in coins, more than the 130 in the box; "
                            "accepted because the table set ruling coin-supply to unlimited."]


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("coins", -1, "a whole number from 0 to 130"),
        ("coins", True, "a whole number from 0 to 130"),
        ("coins", 2.5, "a whole number from 0 to 130"),
        ("fagus_tokens", "2", "a whole number from 0 to 10"),
        ("potions_brewed", None, "a whole number from 0 to 40"),
        ("reputation", [3], "a whole number from -999 to 999"),
    ],
)
def test_every_field_must_be_a_whole_number_in_range(field: str, value: object, allowed: str) -> None:
    entry = witch("Ann", 3, 3, 0, 1)
    entry[field] = value
    error = error_for({"players": [entry, witch("Bo")]})
    assert (error.player, error.field, error.value, error.allowed) == ("Ann", field, value, allowed)


@pytest.mark.parametrize("missing", ["reputation", "coins", "fagus_tokens", "potions_brewed"])
def test_every_field_is_required(missing: str) -> None:
    entry = witch("Ann")
    del entry[missing]
    error = error_for({"players": [entry, witch("Bo")]})
    assert (error.player, error.field, error.allowed) == ("Ann", missing, "this field is required")


def test_unknown_player_key_is_an_error() -> None:
    entry = witch("Ann") | {"spells": 2}
    error = error_for({"players": [entry, witch("Bo")]})
    assert (error.player, error.field, error.value) == ("Ann", "spells", 2)
    assert error.allowed == "known fields: name, reputation, coins, fagus_tokens, potions_brewed"


def test_unknown_top_level_key_is_an_error() -> None:
    error = error_for({"players": [witch("Ann"), witch("Bo")], "expedition": 3})
    assert (error.player, error.field) == (None, "expedition")


@pytest.mark.parametrize(
    ("rulings", "field", "allowed"),
    [
        ({"final-tie": "coin-flip"}, "rulings.final-tie", "share or none"),
        ({"coin-supply": False}, "rulings.coin-supply", "limited or unlimited"),
        ({"tie": "share"}, "tie", "known fields: final-tie, coin-supply, fagus-tokens"),
        ({"fagus-tokens": "many"}, "rulings.fagus-tokens", "limited or unlimited"),
        ("share", "rulings", "a JSON object"),
    ],
)
def test_bad_rulings_are_refused(rulings: object, field: str, allowed: str) -> None:
    error = error_for({"players": [witch("Ann"), witch("Bo")], "rulings": rulings})
    assert (error.field, error.allowed) == (field, allowed)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([witch("Ann"), witch("Bo")], "(top level)"),
        ({"players": [witch("Ann"), witch("Ann")]}, "name"),
        ({"players": [witch(""), witch("Bo")]}, "name"),
        ({"players": [witch("Ann"), "Bo"]}, "player"),
        ({}, "players"),
    ],
)
def test_malformed_input_is_one_clear_error(data: object, field: str) -> None:
    error = error_for(data)
    assert error.field == field
    assert "\n" not in str(error)


# --- asking the table -----------------------------------------------------------------------------


def drive(names: list[str], answers: Sequence[str]) -> tuple[dict[str, Any], list[Ask]]:
    """Run ask_holdings, answering each Ask with the next text through its own parse()."""
    flow = ask_holdings(names)
    asked: list[Ask] = []
    remaining = list(answers)
    try:
        ask = next(flow)
        while True:
            asked.append(ask)
            ask = flow.send(ask.parse(remaining.pop(0)))
    except StopIteration as finished:
        assert remaining == [], "answers left over"
        return finished.value, asked


def test_ask_holdings_returns_the_json_shape_that_scores() -> None:
    # Per witch: Fagus tokens, potion cards, reputation (only with potions), coins.
    data, asked = drive(["Morgana", "Elspeth", "Hazel"],
                        ["1", "9", "31", "14", "0", "8", "27", "10", "2", "7", "24", "7"])
    assert data == json.loads((ROOT / "scenarios/score/blackwood.json").read_text())
    assert score_input(data).winners == ["Elspeth"]
    assert len(asked) == 12
    assert all(ask.section in SECTION_IDS for ask in asked)
    assert [ask.section for ask in asked[:4]] == ["fagus-loan", "tie-breaks", "final-score", "final-score"]


def test_ask_holdings_skips_reputation_without_potions() -> None:
    data, asked = drive(["Ann", "Bo"], ["0", "0", "5", "2", "3", "-1", "4"])
    assert data["players"][0] == witch("Ann", 0, 5, 0, 0)
    assert data["players"][1] == witch("Bo", -1, 4, 2, 3)
    assert len(asked) == 7
    assert score_input(data).player("Bo").total == -10  # -1 + 1 - 10


def test_ask_bounds_shrink_with_what_is_already_held() -> None:
    flow = ask_holdings(["Ann", "Bo"])
    ask = next(flow)
    ask = flow.send(ask.parse("7"))  # Ann's Fagus tokens
    ask = flow.send(ask.parse("30"))  # Ann's potions
    ask = flow.send(ask.parse("50"))  # Ann's reputation
    ask = flow.send(ask.parse("100"))  # Ann's coins
    with pytest.raises(InvalidAnswer) as caught:
        ask.parse("4")  # Bo's Fagus tokens: 3 are left in the box
    assert caught.value.allowed == "a whole number from 0 to 3"
    ask = flow.send(ask.parse("3"))
    with pytest.raises(InvalidAnswer) as caught:
        ask.parse("11")  # Bo's potions: 10 cards are left
    assert caught.value.allowed == "a whole number from 0 to 10"
    ask = flow.send(ask.parse("10"))
    ask = flow.send(ask.parse("12"))  # Bo's reputation
    with pytest.raises(InvalidAnswer) as caught:
        ask.parse("31")  # Bo's coins: 30 are left
    assert caught.value.allowed == "a whole number from 0 to 30"
    with pytest.raises(StopIteration) as finished:
        flow.send(ask.parse("30"))
    data = finished.value.value
    assert [entry["coins"] for entry in data["players"]] == [100, 30]
    assert score_input(data).winners == ["Ann"]  # 50 + 33 - 35 = 48 against 12 + 10 - 15 = 7


def test_a_value_with_only_one_possibility_is_not_asked() -> None:
    data, asked = drive(["Ann", "Bo"], ["10", "2", "8", "0", "1", "0", "0"])
    assert [ask.section for ask in asked].count("fagus-loan") == 1
    assert data["players"][1]["fagus_tokens"] == 0
    assert score_input(data).player("Ann").total == -42  # 8 + 0 - 50


def test_ask_holdings_refuses_a_bad_list_of_names() -> None:
    with pytest.raises(ScoreInputError):
        next(ask_holdings(["Ann"]))
    with pytest.raises(ScoreInputError):
        next(ask_holdings(["Ann", "Ann"]))


# --- random holdings ------------------------------------------------------------------------------

witch_holdings = st.tuples(
    st.integers(-20, 60), st.integers(0, 32), st.integers(0, 2), st.integers(0, 10)
).map(lambda values: values if values[3] else (0, *values[1:]))  # no potions, no reputation


@given(st.lists(witch_holdings, min_size=2, max_size=4))
def test_order_follows_score_then_fewer_potions_then_more_coins(rows: list[tuple[int, ...]]) -> None:
    witches = [witch(f"W{seat}", *row) for seat, row in enumerate(rows, 1)]
    result = score_input({"players": witches})
    by_name = {entry["name"]: entry for entry in witches}
    for player in result.players:
        entry = by_name[player.name]
        assert player.total == entry["reputation"] + entry["coins"] // 3 - 5 * entry["fagus_tokens"]
    for first in result.players:
        for second in result.players:
            a, b = by_name[first.name], by_name[second.name]
            key_a = (-(first.total or 0), a["potions_brewed"], -a["coins"])
            key_b = (-(second.total or 0), b["potions_brewed"], -b["coins"])
            assert (key_a < key_b) == ((first.rank or 0) < (second.rank or 0))
    assert result.winners == [player.name for player in result.players if player.rank == 1]
