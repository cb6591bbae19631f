"""Cutthroat Kingdoms end-of-game scoring: every rule and every input check, with hand-worked totals."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from referee.asks import Ask, Choice, Confirm, Parsed
from referee.errors import InvalidAnswer, ScoreInputError
from referee.games.cutthroat.gems import (
    GEM_COLOURS,
    best_split,
    most_sets_split,
    possible_splits,
    same_colour_points,
    split_with_sets,
)
from referee.games.cutthroat.scoring import ask_holdings, parse_input, score, score_input

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "score" / "cutthroat-kingdoms.json"


def gems(**counts: int) -> tuple[int, ...]:
    return tuple(counts.get(colour, 0) for colour in GEM_COLOURS)


def player(name: str, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": name, "copper": 0, "silver": 0, "gems": {}, "card_vp": 0,
                             "heir_alive": True}
    entry.update(fields)
    return entry


def married(first: dict[str, Any], second: dict[str, Any]) -> list[dict[str, Any]]:
    first["married_to"] = second["name"]
    second["married_to"] = first["name"]
    return [first, second]


def error_for(data: object) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as caught:
        parse_input(data)
    return caught.value


# --- gems ----------------------------------------------------------------------------------------


def test_same_colour_table() -> None:
    assert [same_colour_points(count) for count in range(1, 7)] == [1, 4, 9, 16, 25, 36]


def test_the_rulebooks_29_point_example() -> None:
    # 3 emeralds (green) and one of each other colour: 1 full set (25) + 2 emeralds (4).
    split = best_split(gems(ruby=1, sapphire=1, emerald=3, amethyst=1, diamond=1, topaz=1))
    assert (split.full_sets, split.set_points, split.group_points, split.total) == (1, 25, 4, 29)


def test_no_full_set_beats_a_full_set() -> None:
    holding = gems(ruby=6, sapphire=6, emerald=1, amethyst=1, diamond=1, topaz=1)
    assert split_with_sets(holding, 1).total == 25 + 25 + 25  # 75
    split = best_split(holding)
    assert (split.full_sets, split.total) == (0, 36 + 36 + 4)  # 76
    assert most_sets_split(holding).total == 75


def test_every_gem_in_the_game_is_worth_more_as_groups() -> None:
    holding = gems(ruby=6, sapphire=6, emerald=6, amethyst=6, diamond=6, topaz=6)
    assert best_split(holding).total == 6 * 36  # 216, against 6 full sets = 150
    assert most_sets_split(holding).total == 150


def test_two_full_sets_beat_one_and_none() -> None:
    holding = gems(ruby=2, sapphire=2, emerald=2, amethyst=2, diamond=2, topaz=2)
    assert [split.total for split in possible_splits(holding)] == [24, 31, 50]
    assert best_split(holding).full_sets == 2


def test_one_set_with_two_large_groups() -> None:
    holding = gems(ruby=5, sapphire=5, emerald=1, amethyst=1, diamond=1, topaz=1)
    assert best_split(holding).total == 25 + 16 + 16  # 57; no set gives 25 + 25 + 4 = 54


def test_missing_colour_means_no_full_set() -> None:
    split = best_split(gems(ruby=4, sapphire=1, emerald=1, amethyst=1, diamond=1))
    assert (split.full_sets, split.total) == (0, 16 + 4)


def test_split_rejects_impossible_set_counts() -> None:
    with pytest.raises(ValueError):
        split_with_sets(gems(ruby=1), 1)


def brute_force_per_gem(holding: Sequence[int]) -> int:
    """Every gem, one by one, goes unused, into its colour's group, or into one of the set slots."""
    pieces = [colour for colour, count in enumerate(holding) for _ in range(count)]
    slots = len(pieces) // len(GEM_COLOURS)
    best = 0
    for labels in itertools.product(range(2 + slots), repeat=len(pieces)):
        groups = [0] * len(GEM_COLOURS)
        sets: list[list[int]] = [[] for _ in range(slots)]
        for colour, label in zip(pieces, labels, strict=True):
            if label == 1:
                groups[colour] += 1
            elif label >= 2:
                sets[label - 2].append(colour)
        complete = sum(1 for members in sets if sorted(members) == list(range(len(GEM_COLOURS))))
        best = max(best, 25 * complete + sum(size * size for size in groups))
    return best


def brute_force_per_colour(holding: Sequence[int]) -> int:
    """Every way to put each colour's gems into sets, its group, or nowhere; sets need every colour."""
    options = [
        [(in_sets, in_group) for in_sets in range(count + 1) for in_group in range(count - in_sets + 1)]
        for count in holding
    ]
    best = 0
    for choice in itertools.product(*options):
        complete_sets = min(in_sets for in_sets, _ in choice)
        best = max(best, 25 * complete_sets + sum(in_group * in_group for _, in_group in choice))
    return best


def allocation_count(count: int) -> int:
    return (count + 1) * (count + 2) // 2


@st.composite
def holdings_with_few_allocations(draw: st.DrawFn, limit: int = 100_000) -> list[int]:
    """Gem counts (up to 6 a colour) whose per-colour brute force stays small enough to run."""
    counts: list[int] = []
    product = 1
    for _ in GEM_COLOURS:
        largest = max(count for count in range(7) if product * allocation_count(count) <= limit)
        count = draw(st.integers(0, largest))
        product *= allocation_count(count)
        counts.append(count)
    return list(draw(st.permutations(counts)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=6, max_size=6).filter(lambda counts: sum(counts) <= 9))
def test_best_split_equals_brute_force_over_every_gem(holding: list[int]) -> None:
    assert best_split(holding).total == brute_force_per_gem(holding)


@settings(max_examples=100, deadline=None)
@given(holdings_with_few_allocations())
@example([6, 6, 1, 1, 1, 1])  # no full set is best
@example([5, 6, 1, 1, 1, 1])  # one full set is best, by a single point
def test_best_split_equals_brute_force_over_every_colour_allocation(holding: list[int]) -> None:
    assert best_split(holding).total == brute_force_per_colour(holding)


@given(st.lists(st.integers(0, 6), min_size=6, max_size=6))
def test_best_split_is_at_least_every_other_split(holding: list[int]) -> None:
    best = best_split(holding)
    assert all(best.total >= split.total for split in possible_splits(holding))
    assert best.full_sets * 6 + sum(best.group_sizes) == sum(holding)  # every gem scored once


# --- coins, cards, heirs -------------------------------------------------------------------------


def three(*first: dict[str, Any]) -> dict[str, Any]:
    """The given players plus quiet ones, up to three."""
    players = list(first)
    for name in ("Quinn", "Rook")[: max(0, 3 - len(players))]:
        players.append(player(name, heir_alive=False))
    return {"players": players}


def test_coins_and_the_unmarried_bonus() -> None:
    report = score_input(three(player("Ann", copper=7, silver=3)))
    ann = report.player("Ann")
    assert ann.breakdown == {"copper": 7, "silver": 15, "unmarried_bonus": 22, "cards": 0,
                             "gem_sets": 0, "gem_groups": 0}
    assert ann.total == 44


def test_no_bonus_when_the_heir_is_dead() -> None:
    ann = score_input(three(player("Ann", copper=7, silver=3, heir_alive=False))).player("Ann")
    assert ann.breakdown["unmarried_bonus"] == 0
    assert ann.total == 22


def test_no_bonus_when_married() -> None:
    couple = married(player("Ann", copper=7, silver=3), player("Bo", copper=1))
    report = score_input(three(*couple))
    assert report.player("Ann").total == 22
    assert report.player("Bo").total == 1


def test_card_points_and_every_part_add_up() -> None:
    entry = player("Ann", copper=2, silver=1, card_vp=17,
                   gems={"ruby": 3, "sapphire": 1, "emerald": 3, "amethyst": 1, "diamond": 1, "topaz": 1})
    ann = score_input(three(entry)).player("Ann")
    # coins 7, bonus 7, cards 17, one set 25, groups 2 rubies 4 + 2 emeralds 4
    assert ann.breakdown == {"copper": 2, "silver": 5, "unmarried_bonus": 7, "cards": 17,
                             "gem_sets": 25, "gem_groups": 8}
    assert ann.total == 64


def test_29_point_example_in_a_full_report_with_its_note() -> None:
    entry = player("Ann", gems={"ruby": 1, "sapphire": 1, "emerald": 3, "amethyst": 1, "diamond": 1,
                                "topaz": 1}, heir_alive=False)
    report = score_input(three(entry))
    assert report.player("Ann").total == 29
    assert "Ann's gems: 1 full set (25) + same-colour groups (4) = 29 VP" in report.notes[0]


def test_no_set_holding_in_a_full_report_says_why() -> None:
    entry = player("Ann", gems={"ruby": 6, "sapphire": 6, "emerald": 1, "amethyst": 1, "diamond": 1,
                                "topaz": 1}, heir_alive=False)
    report = score_input(three(entry))
    assert report.player("Ann").breakdown["gem_sets"] == 0
    assert report.player("Ann").breakdown["gem_groups"] == 76
    assert "forming 1 full sets would give only 75 VP" in report.notes[0]


def test_most_sets_ruling_forms_every_set() -> None:
    entry = player("Ann", gems={"ruby": 6, "sapphire": 6, "emerald": 1, "amethyst": 1, "diamond": 1,
                                "topaz": 1}, heir_alive=False)
    data = three(entry) | {"rulings": {"gem-split": "most-sets"}}
    report = score_input(data)
    assert report.player("Ann").total == 75
    assert "most-sets" in report.notes[0]


# --- marriages, winners, ranks -------------------------------------------------------------------


def couple_against_two(c_copper: int) -> dict[str, Any]:
    couple = married(player("Ada", copper=10, silver=2, card_vp=20),  # 10 + 10 + 20 = 40
                     player("Bram", copper=5, silver=1, card_vp=25))  # 5 + 5 + 25 = 35, team 75
    cleo = player("Cleo", copper=c_copper, silver=3, card_vp=20)  # (c + 15) x 2 + 20
    dev = player("Dev", card_vp=30, heir_alive=False)  # 30
    return {"players": [*couple, cleo, dev]}


def test_married_couple_wins_together() -> None:
    report = score_input(couple_against_two(c_copper=12))  # Cleo: 27 x 2 + 20 = 74
    assert [p.total for p in report.players] == [40, 35, 74, 30]
    assert report.teams is not None
    assert [(t.members, t.total) for t in report.teams] == [(["Ada", "Bram"], 75)]
    assert report.winners == ["Ada", "Bram"]
    assert [p.rank for p in report.players] == [1, 1, 2, 3]
    assert "Ada and Bram are married: 40 + 35 = 75 VP as one team; they win or lose together." in report.notes


def test_married_couple_loses_together() -> None:
    report = score_input(couple_against_two(c_copper=13))  # Cleo: 28 x 2 + 20 = 76
    assert report.winners == ["Cleo"]
    assert [p.rank for p in report.players] == [2, 2, 1, 3]


def test_team_ranks_ruling_players_counts_both_partners() -> None:
    data = couple_against_two(c_copper=12) | {"rulings": {"team-ranks": "players"}}
    report = score_input(data)
    assert [p.rank for p in report.players] == [1, 1, 3, 4]


def test_json_output_has_teams_winners_and_notes() -> None:
    output = score_input(couple_against_two(c_copper=12)).to_json()
    assert output["game"] == "cutthroat-kingdoms"
    assert output["ended"] is True
    assert output["teams"] == [{"members": ["Ada", "Bram"], "total": 75}]
    assert output["winners"] == ["Ada", "Bram"]
    assert output["players"][2] == {
        "name": "Cleo", "total": 74, "rank": 2, "eliminated": False, "reason": None,
        "breakdown": {"copper": 12, "silver": 15, "unmarried_bonus": 27, "cards": 20, "gem_sets": 0,
                      "gem_groups": 0},
    }


def test_no_marriage_gives_an_empty_team_list() -> None:
    assert score_input(three(player("Ann", copper=1))).teams == []


def test_tied_players_share_the_win_and_the_rank() -> None:
    data = {"players": [player("Xan", copper=10), player("Yui", silver=2), player("Zed", copper=5)]}
    report = score_input(data)  # 20, 20, 10
    assert report.winners == ["Xan", "Yui"]
    assert [p.rank for p in report.players] == [1, 1, 3]
    assert any("Xan, Yui tie for the most VP (20)" in note and "tied-top" in note for note in report.notes)


def test_tie_with_ruling_nobody_has_no_winner() -> None:
    data = {"players": [player("Xan", copper=10), player("Yui", silver=2), player("Zed", copper=5)],
            "rulings": {"tied-top": "nobody"}}
    report = score_input(data)
    assert report.winners == []
    assert [p.rank for p in report.players] == [1, 1, 3]


def test_a_couple_can_tie_with_a_single_player() -> None:
    couple = married(player("Ann", copper=10), player("Bo", copper=10))  # 20 together
    data = {"players": [*couple, player("Cy", copper=10), player("Di", heir_alive=False)]}
    report = score_input(data)
    assert report.winners == ["Ann", "Bo", "Cy"]
    assert [p.rank for p in report.players] == [1, 1, 1, 3]
    assert any("Ann and Bo, Cy tie for the most VP (20)" in note for note in report.notes)


def test_two_couples_and_six_players() -> None:
    first = married(player("A", copper=3), player("B", copper=4))  # 7
    second = married(player("C", silver=1), player("D", card_vp=1))  # 6
    data = {"players": [first[0], second[0], first[1], second[1],
                        player("E", copper=3), player("F", heir_alive=False)]}  # E: 6, F: 0
    report = score_input(data)
    assert report.teams is not None
    assert [(t.members, t.total) for t in report.teams] == [(["A", "B"], 7), (["C", "D"], 6)]
    assert report.winners == ["A", "B"]
    assert {p.name: p.rank for p in report.players} == {"A": 1, "B": 1, "C": 2, "D": 2, "E": 2, "F": 4}


# --- checks --------------------------------------------------------------------------------------


def test_too_few_and_too_many_players() -> None:
    two = error_for({"players": [player("A"), player("B")]})
    assert str(two) == "field 'players': bad value '2 players'; allowed: a list of 3 to 6 players"
    seven = error_for({"players": [player(name) for name in "ABCDEFG"]})
    assert seven.value == "7 players"


def test_unknown_gem_colour() -> None:
    error = error_for(three(player("Ann", gems={"jade": 1})))
    assert (error.player, error.field, error.value) == ("Ann", "gems", "jade")
    assert "ruby, sapphire, emerald, amethyst, diamond, topaz" in error.allowed


def test_more_than_six_of_a_colour_for_one_player() -> None:
    error = error_for(three(player("Ann", gems={"ruby": 7})))
    assert str(error) == "player 'Ann', field 'gems.ruby': bad value 7; allowed: a whole number from 0 to 6"


def test_more_than_six_of_a_colour_across_players() -> None:
    data = three(player("Ann", gems={"topaz": 4}), player("Bo", gems={"topaz": 3}))
    error = error_for(data)
    assert (error.player, error.field, error.value) == (None, "gems.topaz", 7)
    assert error.allowed.startswith("at most 6 topaz across all players")


def test_six_of_a_colour_across_players_is_fine() -> None:
    data = three(player("Ann", gems={"diamond": 4}), player("Bo", gems={"diamond": 2}))
    assert score_input(data).player("Ann").total == 16


@pytest.mark.parametrize("count", [-1, True, "2", 1.5, None])
def test_gem_count_must_be_a_small_whole_number(count: object) -> None:
    error = error_for(three(player("Ann", gems={"emerald": count})))
    assert (error.field, error.value) == ("gems.emerald", count)


def test_gems_must_be_an_object() -> None:
    error = error_for(three(player("Ann", gems=[1, 2])))
    assert (error.player, error.field, error.allowed) == ("Ann", "gems", "a JSON object")


def test_marriage_must_name_each_other() -> None:
    data = three(player("Ann", married_to="Bo"), player("Bo"))
    error = error_for(data)
    assert (error.player, error.field, error.value) == ("Bo", "married_to", None)
    assert error.allowed == "'Ann', since Ann is married to Bo"


def test_marriage_triangle_is_refused() -> None:
    data = {"players": [player("Ann", married_to="Bo"), player("Bo", married_to="Cy"),
                        player("Cy", married_to="Bo")]}
    error = error_for(data)
    assert (error.player, error.field, error.value) == ("Bo", "married_to", "Cy")


@pytest.mark.parametrize("spouse", ["Ann", "Zoe", 3, ""])
def test_spouse_must_be_another_player(spouse: object) -> None:
    error = error_for(three(player("Ann", married_to=spouse), player("Bo")))
    assert (error.player, error.field, error.value) == ("Ann", "married_to", spouse)
    assert error.allowed == "null (unmarried) or the name of another player: Bo, Quinn"


def test_married_heir_must_be_alive() -> None:
    couple = married(player("Ann", heir_alive=False), player("Bo"))
    error = error_for(three(*couple))
    assert (error.player, error.field, error.value) == ("Ann", "heir_alive", False)


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("copper", -1, "a whole number >= 0"),
        ("silver", "3", "a whole number >= 0"),
        ("card_vp", True, "a whole number >= 0"),
        ("heir_alive", "yes", "true or false"),
    ],
)
def test_bad_field_values(field: str, value: object, allowed: str) -> None:
    error = error_for(three(player("Ann", **{field: value})))
    assert (error.player, error.field, error.value, error.allowed) == ("Ann", field, value, allowed)


def test_coins_have_no_upper_limit() -> None:
    assert score_input(three(player("Ann", copper=500, silver=200))).player("Ann").total == 3000


def test_unknown_player_field() -> None:
    error = error_for(three(player("Ann", rubies=2)))
    assert (error.player, error.field, error.value) == ("Ann", "rubies", 2)


def test_missing_field() -> None:
    entry = player("Ann")
    del entry["heir_alive"]
    error = error_for(three(entry))
    assert (error.player, error.field, error.allowed) == ("Ann", "heir_alive", "this field is required")


def test_unknown_top_level_field() -> None:
    error = error_for(three(player("Ann")) | {"round": 9})
    assert (error.player, error.field) == (None, "round")


def test_bad_rulings() -> None:
    unknown = error_for(three(player("Ann")) | {"rulings": {"gem-splits": "best"}})
    assert unknown.field == "gem-splits"
    bad_value = error_for(three(player("Ann")) | {"rulings": {"tied-top": "coin toss"}})
    assert str(bad_value) == "field 'rulings.tied-top': bad value 'coin toss'; allowed: one of share, nobody"


def test_names_must_be_unique_and_present() -> None:
    assert error_for({"players": [player("Ann"), player("Ann"), player("Bo")]}).field == "name"
    assert error_for({"players": [player(""), player("Ann"), player("Bo")]}).player == "#1"


def test_input_must_be_an_object() -> None:
    assert error_for([1, 2, 3]).allowed == "a JSON object"


# --- interactive entry ---------------------------------------------------------------------------


def drive(names: list[str], answers: list[str]) -> tuple[dict[str, Any], list[Ask]]:
    """Answer every question in turn with `ask.parse(text)`; returns the result and the asks."""
    flow = ask_holdings(names)
    asks: list[Ask] = []
    ask = next(flow)
    for text in answers:
        asks.append(ask)
        try:
            ask = flow.send(ask.parse(text))
        except StopIteration as finished:
            assert len(asks) == len(answers), "answers left over"
            result: dict[str, Any] = finished.value
            return result, asks
    raise AssertionError(f"still asking after every answer: {ask.prompt}")


ANN = ["7", "3", "1 1 3 1 1 1", "12", "nobody", "y"]
BO = ["2", "4", "5,5,0,0,0,0", "10", "Cy"]  # no heir question: married heirs live
CY = ["10", "0", "", "3"]  # gems: Enter for none; no marriage or heir question: married to Bo


def test_interactive_entry_scores_a_married_win() -> None:
    data, asks = drive(["Ann", "Bo", "Cy"], ANN + BO + CY)
    assert data["players"][0] == {
        "name": "Ann", "copper": 7, "silver": 3,
        "gems": {"ruby": 1, "sapphire": 1, "emerald": 3, "amethyst": 1, "diamond": 1, "topaz": 1},
        "card_vp": 12, "heir_alive": True, "married_to": None,
    }
    assert data["players"][1]["married_to"] == "Cy" and data["players"][2]["married_to"] == "Bo"
    report = score_input(data)
    # Ann: 22 + 22 + 12 + 29 = 85; Bo: 22 + 10 + 50 = 82; Cy: 10 + 3 = 13; Bo and Cy: 95
    assert [p.total for p in report.players] == [85, 82, 13]
    assert report.winners == ["Bo", "Cy"]
    assert json.loads(json.dumps(data)) == data


def test_interactive_asks_name_their_sections_and_bound_gems() -> None:
    _, asks = drive(["Ann", "Bo", "Cy"], ANN + BO + CY)
    assert {ask.section for ask in asks} == {"score-coins", "score-gems", "score-cards", "score-marriage"}
    gem_asks = [ask for ask in asks if isinstance(ask, Parsed)]
    assert len(gem_asks) == 3 and all("ruby sapphire emerald amethyst diamond topaz" in ask.prompt for ask in gem_asks)
    assert gem_asks[1].parse("5 5 0 0 0 0")["ruby"] == 5  # Ann took 1 ruby: 5 are left for Bo
    with pytest.raises(InvalidAnswer, match="only 5 ruby"):
        gem_asks[1].parse("6 0 0 0 0 0")
    with pytest.raises(InvalidAnswer, match="only 0 ruby"):
        gem_asks[2].parse("1 0 0 0 0 0")  # Bo took the last 5
    with pytest.raises(InvalidAnswer, match="expected 6 whole numbers"):
        gem_asks[0].parse("1 2 3")
    assert gem_asks[2].parse("") == dict.fromkeys(GEM_COLOURS, 0)
    marriage_asks = [ask for ask in asks if isinstance(ask, Choice)]
    assert [ask.options for ask in marriage_asks] == [("nobody", "Bo", "Cy"), ("nobody", "Cy")]
    assert sum(isinstance(ask, Confirm) for ask in asks) == 1


def test_interactive_last_unmarried_player_is_not_asked_about_marriage() -> None:
    quiet = ["0", "0", "", "0"]
    data, asks = drive(["Ann", "Bo", "Cy"], [*quiet, "nobody", "n", *quiet, "1", "y", *quiet, "n"])
    assert [p["married_to"] for p in data["players"]] == [None, None, None]
    assert [p["heir_alive"] for p in data["players"]] == [False, True, False]
    assert sum(isinstance(ask, Choice) for ask in asks) == 2


def test_interactive_player_named_nobody_can_still_marry() -> None:
    quiet = ["0", "0", "", "0"]
    data, asks = drive(["Ann", "Nobody", "Cy"], [*quiet, "Nobody", *quiet, *quiet, "y"])
    first = asks[4]
    assert isinstance(first, Choice) and first.options == ("no one", "Nobody", "Cy")
    assert data["players"][0]["married_to"] == "Nobody"


def test_interactive_bad_answer_is_refused_with_what_is_allowed() -> None:
    ask = next(ask_holdings(["Ann", "Bo", "Cy"]))
    with pytest.raises(InvalidAnswer, match="a whole number from 0 to 999999"):
        ask.parse("-3")


# --- the example input ---------------------------------------------------------------------------


def test_scenario_file_scores_as_worked_by_hand() -> None:
    report = score_input(json.loads(SCENARIO.read_text()))
    totals = {p.name: p.total for p in report.players}
    # Ada 29 + 29 + 11 + 29; Bram 31 + 18 + 9; Cleo 19 + 14 + 13; Dev 26 + 6 + 1; Esme 34 + 34 + 9 + 28
    assert totals == {"Ada": 98, "Bram": 58, "Cleo": 46, "Dev": 33, "Esme": 105}
    assert report.teams is not None and report.teams[0].total == 104
    assert report.winners == ["Esme"]
    assert {p.name: p.rank for p in report.players} == {"Ada": 3, "Bram": 2, "Cleo": 2, "Dev": 4, "Esme": 1}


def test_scenario_where_a_couple_beats_the_best_single_score() -> None:
    report = score_input(json.loads((SCENARIO.parent / "cutthroat-kingdoms-married-win.json").read_text()))
    # Ivo 18 + 18 + 7 + 76 (no full set); Jun 32 + 22 + 8; Kai 35 + 19 + 13; Lev 30 + 12 + 2
    assert {p.name: p.total for p in report.players} == {"Ivo": 119, "Jun": 62, "Kai": 67, "Lev": 44}
    assert report.player("Ivo").breakdown["gem_sets"] == 0
    assert report.winners == ["Jun", "Kai"]
    assert [p.rank for p in report.players] == [2, 1, 1, 3]


def test_scenario_with_a_shared_win() -> None:
    report = score_input(json.loads((SCENARIO.parent / "cutthroat-kingdoms-tie.json").read_text()))
    assert [p.total for p in report.players] == [45, 45, 30]
    assert report.winners == ["Mo", "Nia"]
    assert [p.rank for p in report.players] == [1, 1, 3]


# --- whole reports for random valid holdings -----------------------------------------------------


@st.composite
def valid_inputs(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(3, 6))
    names = [f"P{number}" for number in range(1, count + 1)]
    players = [player(name, copper=draw(st.integers(0, 60)), silver=draw(st.integers(0, 36)),
                      card_vp=draw(st.integers(0, 80)), heir_alive=draw(st.booleans())) for name in names]
    for colour in GEM_COLOURS:
        for _ in range(draw(st.integers(0, 6))):
            owner = draw(st.sampled_from(players))
            owner["gems"][colour] = owner["gems"].get(colour, 0) + 1
    order = draw(st.permutations(range(count)))
    for index in range(draw(st.integers(0, count // 2))):
        married(players[order[2 * index]], players[order[2 * index + 1]])
        players[order[2 * index]]["heir_alive"] = players[order[2 * index + 1]]["heir_alive"] = True
    return {"players": players}


@given(valid_inputs())
def test_reports_add_up_for_random_holdings(data: dict[str, Any]) -> None:
    report = score(parse_input(data))
    by_name = {p.name: p for p in report.players}
    for p in report.players:
        assert p.total == sum(p.breakdown.values())
        assert p.rank is not None and p.rank >= 1
    assert report.teams is not None
    for team in report.teams:
        assert team.total == sum(by_name[name].total or 0 for name in team.members)
        assert by_name[team.members[0]].rank == by_name[team.members[1]].rank
    in_teams = {name for team in report.teams for name in team.members}
    single_totals = [p.total for p in report.players if p.name not in in_teams]
    side_totals = [t.total for t in report.teams] + single_totals
    best = max(total or 0 for total in side_totals)
    assert report.winners
    assert all(by_name[name].rank == 1 for name in report.winners)
    for name in report.winners:
        own_team = next((t for t in report.teams if name in t.members), None)
        assert (own_team.total if own_team else by_name[name].total) == best
