"""Council of Serpents end of game: House fates, winners, teams, Keeper of Balance, solo, checks."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.asks import Ask, Choice, Number
from referee.engine.facts import ruling_choices
from referee.errors import InvalidAnswer, ScoreInputError
from referee.games.serpents import ambitions, houses
from referee.games.serpents.scoring import ask_holdings, parse_input, score_input
from referee.outcome import ScoreReport

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT / "rulebooks" / "council-of-serpents.md"
RULEBOOK_TOML = ROOT / "rulebooks" / "council-of-serpents.toml"
SCENARIOS = ROOT / "scenarios" / "score"

STEADY = {"wealth": 5, "popularity": 5, "strength": 5}


def make_input(
    players: list[tuple[str, list[Any]]],
    clay: dict[str, Any] | None = None,
    jane: dict[str, Any] | None = None,
    rowel: dict[str, Any] | None = None,
    keeper: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "houses": {
            "clay": dict(clay or STEADY),
            "jane": dict(jane or STEADY),
            "rowel": dict(rowel or STEADY),
        },
        "players": [{"name": name, "ambitions": list(cards)} for name, cards in players],
        "keeper_of_balance": keeper,
    }
    data.update(extra)
    return data


def summary(report: ScoreReport) -> dict[str, Any]:
    return {
        "ended": report.ended,
        "winners": report.winners,
        "totals": {player.name: player.total for player in report.players},
        "ranks": {player.name: player.rank for player in report.players},
    }


def error_for(data: object) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as caught:
        parse_input(data)
    return caught.value


# --- House fates ---------------------------------------------------------------------------------


def test_a_single_collapse_gives_the_holder_the_win_in_a_two_player_game() -> None:
    report = score_input(
        make_input(
            [("Ann", ["rowel-collapses", "jane-triumphs"]), ("Bo", ["clay-triumphs", "rowel-triumphs"])],
            rowel={"wealth": 4, "popularity": 6, "strength": 0},
        )
    )
    assert summary(report) == {
        "ended": True,
        "winners": ["Ann"],
        "totals": {"Ann": 1, "Bo": 0},
        "ranks": {"Ann": 1, "Bo": 2},
    }
    ann = report.player("Ann")
    assert ann.breakdown == {"ambitions": 1}
    assert ann.reason == "Rowel Collapses came true"
    assert report.player("Bo").reason == "no Ambition came true"
    assert "House Rowel collapses (strength 0)." in report.notes
    assert report.teams is None


def test_triumph_is_any_attribute_above_twelve() -> None:
    report = score_input(
        make_input(
            [("Ann", ["clay-triumphs", "jane-collapses"]), ("Bo", ["jane-triumphs", "rowel-collapses"])],
            clay={"wealth": 12, "popularity": 12, "strength": 12},
            jane={"wealth": 1, "popularity": 13, "strength": 1},
        )
    )
    assert report.winners == ["Bo"]
    assert "House Jane triumphs (popularity 13)." in report.notes
    assert not any("Clay" in note for note in report.notes)


def test_both_ambitions_of_one_player_can_come_true() -> None:
    report = score_input(
        make_input(
            [("Ann", ["clay-collapses", "jane-triumphs"]), ("Bo", ["rowel-triumphs", "rowel-collapses"])],
            clay={"wealth": 0, "popularity": 3, "strength": 4},
            jane={"wealth": 13, "popularity": 3, "strength": 4},
        )
    )
    assert summary(report)["totals"] == {"Ann": 2, "Bo": 0}
    assert report.player("Ann").breakdown == {"ambitions": 2}
    assert report.player("Ann").reason == "Clay Collapses and Jane Triumphs came true"


def test_rulebook_example_assassin_collapses_rowel_before_the_war_is_fought() -> None:
    # Rowel had Strength 2 and lost 2 to a Hire Assassin at Clay: 0, on the Collapse symbol.
    report = score_input(
        make_input(
            [
                ("Ann", ["clay-triumphs", "jane-collapses"]),
                ("Bo", ["jane-triumphs", "clay-collapses"]),
                ("Cy", ["rowel-collapses", "rowel-triumphs"]),
            ],
            rowel={"wealth": 5, "popularity": 5, "strength": 0},
        )
    )
    assert summary(report) == {
        "ended": True,
        "winners": ["Cy"],
        "totals": {"Ann": 0, "Bo": 0, "Cy": 1},
        "ranks": {"Ann": 2, "Bo": 2, "Cy": 1},
    }


def test_rulebook_example_two_ends_at_once_is_a_shared_victory() -> None:
    # Jane (Popularity 9, Strength 8) beats Clay (Popularity 4, Strength 4) and takes 4 Popularity.
    report = score_input(json.loads((SCENARIOS / "council-of-serpents.json").read_text()))
    assert summary(report) == {
        "ended": True,
        "winners": ["Ada", "Cleo"],
        "totals": {"Ada": 1, "Ben": 0, "Cleo": 1},
        "ranks": {"Ada": 1, "Ben": 3, "Cleo": 1},
    }
    assert report.notes[:2] == [
        "House Clay collapses (popularity 0).",
        "House Jane triumphs (popularity 13).",
    ]
    assert "Shared victory: Ada, Cleo." in report.notes
    assert any("ruling track-ends" in note for note in report.notes)


def test_rulebook_war_example_leaves_jane_on_the_brink_but_the_game_goes_on() -> None:
    # After the War: Clay Wealth 6, Strength 4; Jane Wealth 1, Strength 2. Nothing has ended.
    report = score_input(
        make_input(
            [("Ann", ["jane-collapses", "clay-triumphs"]), ("Bo", ["jane-triumphs", "rowel-collapses"])],
            clay={"wealth": 6, "popularity": 5, "strength": 4},
            jane={"wealth": 1, "popularity": 5, "strength": 2},
        )
    )
    assert summary(report) == {
        "ended": False,
        "winners": [],
        "totals": {"Ann": None, "Bo": None},
        "ranks": {"Ann": None, "Bo": None},
    }
    assert report.notes == [
        "No House has triumphed or collapsed: the game is not over and nobody has won yet."
    ]


def test_an_end_nobody_held_means_nobody_wins() -> None:
    # Two players hold 4 of the 6 Ambitions; Jane Collapses was left undealt.
    report = score_input(
        make_input(
            [("Ann", ["clay-triumphs", "rowel-collapses"]), ("Bo", ["jane-triumphs", "clay-collapses"])],
            jane={"wealth": 0, "popularity": 4, "strength": 4},
        )
    )
    assert summary(report) == {
        "ended": True,
        "winners": [],
        "totals": {"Ann": 0, "Bo": 0},
        "ranks": {"Ann": 1, "Bo": 1},
    }
    assert report.notes[-1] == "No player's Ambition came true: nobody wins."


# --- a House that both Triumphs and Collapses (ruling triumph-and-collapse) ---------------------------

BOTH_ENDS = {"wealth": 0, "popularity": 6, "strength": 13}
BOTH_ENDS_PLAYERS = [
    ("Ann", ["clay-triumphs", "jane-collapses"]),
    ("Bo", ["clay-collapses", "rowel-triumphs"]),
]


def test_one_house_on_both_symbols_fulfils_both_ambitions_by_default() -> None:
    report = score_input(make_input(BOTH_ENDS_PLAYERS, clay=BOTH_ENDS))
    assert report.winners == ["Ann", "Bo"]
    assert any("ruling triumph-and-collapse" in note and "both" in note for note in report.notes)


@pytest.mark.parametrize(("choice", "winner"), [("triumph", "Ann"), ("collapse", "Bo")])
def test_the_table_can_keep_only_one_fate(choice: str, winner: str) -> None:
    report = score_input(
        make_input(BOTH_ENDS_PLAYERS, clay=BOTH_ENDS, rulings={"triumph-and-collapse": choice})
    )
    assert report.winners == [winner]
    assert any(f"counts only as it {choice}s" in note for note in report.notes)


# --- 4-player teams ------------------------------------------------------------------------------


def test_four_players_seat_three_wins_for_seats_one_and_three() -> None:
    report = score_input(json.loads((SCENARIOS / "council-of-serpents-teams.json").read_text()))
    assert summary(report) == {
        "ended": True,
        "winners": ["Ada", "Cleo"],
        "totals": {"Ada": 0, "Ben": 0, "Cleo": 1, "Dev": 0},
        "ranks": {"Ada": 1, "Ben": 3, "Cleo": 1, "Dev": 3},
    }
    assert report.teams is not None
    assert [(team.members, team.total) for team in report.teams] == [
        (["Ada", "Cleo"], 1),
        (["Ben", "Dev"], 0),
    ]
    assert report.player("Ada").reason == "teammate Cleo won (Rowel Collapses came true)"
    assert "Team Ada + Cleo wins together (an Ambition came true for: Cleo)." in report.notes
    assert not any(note.startswith("Shared victory") for note in report.notes)


def test_four_players_seat_two_wins_for_seats_two_and_four() -> None:
    report = score_input(
        make_input(
            [
                ("Ann", ["clay-triumphs"]),
                ("Bo", ["jane-collapses"]),
                ("Cy", ["rowel-triumphs"]),
                ("Di", ["rowel-collapses"]),
            ],
            jane={"wealth": 3, "popularity": 0, "strength": 3},
        )
    )
    assert report.winners == ["Bo", "Di"]
    assert summary(report)["ranks"] == {"Ann": 3, "Bo": 1, "Cy": 3, "Di": 1}


def test_four_players_both_teams_can_win() -> None:
    report = score_input(
        make_input(
            [
                ("Ann", ["jane-triumphs"]),
                ("Bo", ["rowel-triumphs"]),
                ("Cy", ["clay-triumphs"]),
                ("Di", ["clay-collapses"]),
            ],
            clay={"wealth": 4, "popularity": 0, "strength": 4},
            jane={"wealth": 4, "popularity": 13, "strength": 8},
        )
    )
    assert report.winners == ["Ann", "Bo", "Cy", "Di"]
    assert summary(report)["ranks"] == {"Ann": 1, "Bo": 1, "Cy": 1, "Di": 1}
    assert report.notes[-1] == "Shared victory: both teams win (Ann, Bo, Cy, Di)."


def test_four_players_unfinished_game_has_teams_without_totals() -> None:
    report = score_input(
        make_input(
            [
                ("Ann", ["jane-triumphs"]),
                ("Bo", ["rowel-triumphs"]),
                ("Cy", ["clay-triumphs"]),
                ("Di", ["clay-collapses"]),
            ]
        )
    )
    assert report.ended is False
    assert report.teams is not None
    assert [team.total for team in report.teams] == [None, None]


# --- Keeper of Balance (3 players) -------------------------------------------------------------------


def test_keeper_wins_when_no_house_ended() -> None:
    report = score_input(json.loads((SCENARIOS / "council-of-serpents-keeper.json").read_text()))
    assert summary(report) == {
        "ended": True,
        "winners": ["Ben"],
        "totals": {"Ada": 0, "Ben": 1, "Cleo": 0},
        "ranks": {"Ada": 2, "Ben": 1, "Cleo": 2},
    }
    assert report.player("Ben").breakdown == {"keeper_of_balance": 1}
    assert any("ruling keeper-wins-without-house-end" in note for note in report.notes)
    assert (
        "Ben's other Ambition card, Clay Collapses, is ignored because Ben holds the Keeper of Balance."
        in (report.notes)
    )


def test_keepers_other_card_cannot_win_even_when_it_comes_true() -> None:
    data = make_input(
        [
            ("Ann", ["jane-triumphs", "rowel-collapses"]),
            ("Bo", ["clay-collapses"]),
            ("Cy", ["clay-triumphs", "jane-collapses"]),
        ],
        clay={"wealth": 0, "popularity": 7, "strength": 7},
        jane={"wealth": 13, "popularity": 7, "strength": 7},
        keeper="Bo",
    )
    report = score_input(data)
    assert summary(report) == {
        "ended": True,
        "winners": ["Ann"],
        "totals": {"Ann": 1, "Bo": 0, "Cy": 0},
        "ranks": {"Ann": 1, "Bo": 2, "Cy": 2},
    }
    assert report.player("Bo").breakdown == {"keeper_of_balance": 0}
    assert any("Clay Collapses, is ignored" in note and "does not count" in note for note in report.notes)


def test_a_keepers_ignored_card_that_came_true_does_not_contradict_nobody_winning() -> None:
    data = make_input(
        [
            ("Ann", ["jane-triumphs", "rowel-collapses"]),
            ("Bo", ["clay-collapses"]),
            ("Cy", ["clay-triumphs", "jane-collapses"]),
        ],
        clay={"wealth": 0, "popularity": 7, "strength": 7},
        keeper="Bo",
    )
    report = score_input(data)
    assert summary(report) == {
        "ended": True,
        "winners": [],
        "totals": {"Ann": 0, "Bo": 0, "Cy": 0},
        "ranks": {"Ann": 1, "Bo": 1, "Cy": 1},
    }
    assert report.notes[-2:] == [
        "Bo's other Ambition card, Clay Collapses, is ignored because Bo holds the Keeper of Balance. "
        "It came true, but does not count.",
        "No Ambition came true apart from the ignored card: nobody wins.",
    ]
    assert not any("No player's Ambition came true" in note for note in report.notes)


def test_keeper_ruling_overridden_reads_the_game_as_unfinished() -> None:
    data = json.loads((SCENARIOS / "council-of-serpents-keeper.json").read_text())
    data["rulings"] = {"keeper-wins-without-house-end": False}
    report = score_input(data)
    assert (report.ended, report.winners) == (False, [])
    assert any("overridden to false" in note for note in report.notes)


def test_three_players_without_keeper_do_not_end_without_a_house_end() -> None:
    report = score_input(
        make_input(
            [
                ("Ann", ["jane-triumphs", "rowel-collapses"]),
                ("Bo", ["clay-collapses", "jane-collapses"]),
                ("Cy", ["clay-triumphs", "rowel-triumphs"]),
            ]
        )
    )
    assert (report.ended, report.winners) == (False, [])


# --- solo ----------------------------------------------------------------------------------------


def test_solo_player_wins_when_the_deck_runs_out_with_every_house_standing() -> None:
    report = score_input(json.loads((SCENARIOS / "council-of-serpents-solo.json").read_text()))
    assert summary(report) == {"ended": True, "winners": ["Ada"], "totals": {"Ada": 1}, "ranks": {"Ada": 1}}


def test_solo_player_loses_when_any_house_ends() -> None:
    report = score_input(
        {
            "houses": make_input([])["houses"] | {"jane": {"wealth": 8, "popularity": 2, "strength": 13}},
            "players": [{"name": "Ada"}],
        }
    )
    # The Serpentess (not a player) wins: Ada is ranked behind her, not as one who shares a "nobody wins".
    assert summary(report) == {"ended": True, "winners": [], "totals": {"Ada": 0}, "ranks": {"Ada": 2}}
    assert report.player("Ada").reason == "Keeper of Balance: a House ended before the Influence deck ran out"
    assert "the Serpentess wins and Ada loses (rank 2, behind her)" in report.notes[-1]
    assert not any("nobody wins" in note for note in report.notes)


def test_solo_keeper_is_the_player_even_when_not_named() -> None:
    holdings = parse_input(make_input([("Ada", [])]))
    assert holdings.keeper_of_balance == "Ada"


# --- checks ---------------------------------------------------------------------------------------


def test_error_message_names_player_field_value_and_allowed() -> None:
    error = error_for(make_input([("Ann", ["clay-triumphs"]), ("Bo", ["jane-triumphs", "jane-collapses"])]))
    assert str(error) == (
        "player 'Ann', field 'ambitions': bad value ['clay-triumphs']; "
        "allowed: a list of 2 Ambitions with 2 players"
    )


@pytest.mark.parametrize("count", [0, 5])
def test_player_count_must_be_one_to_four(count: int) -> None:
    players = [(f"P{index}", ["clay-triumphs"]) for index in range(count)]
    error = error_for(make_input(players))
    assert (error.field, error.allowed) == ("players", "a list of 1 to 4 players")


@pytest.mark.parametrize(
    ("players", "keeper", "bad_player", "allowed"),
    [
        (
            [
                ("A", ["clay-triumphs", "jane-triumphs"]),
                ("B", ["rowel-triumphs", "clay-collapses"]),
                ("C", ["jane-collapses", "rowel-collapses"]),
                ("D", ["clay-triumphs"]),
            ],
            None,
            "A",
            "a list of 1 Ambition with 4 players",
        ),
        (
            [
                ("A", ["clay-triumphs", "jane-triumphs", "rowel-triumphs"]),
                ("B", ["clay-collapses", "jane-collapses"]),
            ],
            None,
            "A",
            "a list of 2 Ambitions with 2 players",
        ),
        (
            [
                ("A", ["clay-triumphs", "jane-triumphs"]),
                ("B", ["rowel-triumphs", "clay-collapses"]),
                ("C", ["jane-collapses", "rowel-collapses"]),
            ],
            "B",
            "B",
            "a list of 1 Ambition: the card dealt beside the Keeper of Balance (it is ignored)",
        ),
        (
            [("A", ["clay-triumphs"])],
            None,
            "A",
            "an empty list: the solo player holds only the Keeper of Balance",
        ),
    ],
)
def test_ambition_count_follows_the_player_count(
    players: list[tuple[str, list[str]]], keeper: str | None, bad_player: str, allowed: str
) -> None:
    error = error_for(make_input(players, keeper=keeper))
    assert (error.player, error.field, error.allowed) == (bad_player, "ambitions", allowed)


def test_an_ambition_cannot_be_held_by_two_players() -> None:
    error = error_for(
        make_input([("Ann", ["clay-triumphs", "jane-triumphs"]), ("Bo", ["jane-triumphs", "clay-collapses"])])
    )
    assert (error.player, error.field, error.value) == ("Bo", "ambitions", "jane-triumphs")
    assert error.allowed == "each Ambition card held once (Ann already holds jane-triumphs)"


def test_an_ambition_cannot_be_held_twice_by_one_player() -> None:
    error = error_for(
        make_input([("Ann", ["clay-triumphs", "clay-triumphs"]), ("Bo", ["jane-triumphs", "clay-collapses"])])
    )
    assert error.allowed == "each Ambition card held once (this player already holds clay-triumphs)"


@pytest.mark.parametrize("card", ["clay-wins", "keeper-of-balance", 3, None])
def test_unknown_ambition_names_are_refused(card: object) -> None:
    error = error_for(
        make_input([("Ann", ["clay-triumphs", card]), ("Bo", ["jane-triumphs", "clay-collapses"])])
    )
    assert (error.player, error.value) == ("Ann", card)
    assert error.allowed.startswith("one of clay-triumphs, clay-collapses")


def test_ambition_names_ignore_case_and_spaces() -> None:
    holdings = parse_input(
        make_input(
            [("Ann", [" Clay-Triumphs", "JANE-collapses"]), ("Bo", ["rowel-triumphs", "clay-collapses"])]
        )
    )
    assert holdings.players[0].ambitions == ("clay-triumphs", "jane-collapses")


@pytest.mark.parametrize("value", [14, -1, 7.5, True, "12", None])
def test_track_values_must_lie_on_the_track(value: object) -> None:
    error = error_for(
        make_input(
            [
                ("Ann", ["clay-triumphs"]),
                ("Bo", ["jane-triumphs"]),
                ("Cy", ["rowel-triumphs"]),
                ("Di", ["clay-collapses"]),
            ],
            jane={"wealth": 5, "popularity": value, "strength": 5},
        )
    )
    assert (error.player, error.field, error.value) == (None, "houses.jane.popularity", value)
    assert error.allowed == "a whole number from 0 (Collapse symbol) to 13 (Triumph symbol)"


def test_clamp_ruling_accepts_values_past_the_symbols() -> None:
    data = make_input(
        [("Ann", ["rowel-triumphs", "jane-collapses"]), ("Bo", ["jane-triumphs", "clay-collapses"])],
        rowel={"wealth": 15, "popularity": 5, "strength": 5},
        clay={"wealth": -2, "popularity": 5, "strength": 5},
        rulings={"track-ends": "clamp"},
    )
    report = score_input(data)
    assert report.winners == ["Ann", "Bo"]
    assert any("overridden to clamp" in note for note in report.notes)
    with pytest.raises(ScoreInputError):
        parse_input(dict(data, rulings={}))


@pytest.mark.parametrize(
    ("mutate", "field", "allowed_start"),
    [
        (lambda d: d.update(score=3), "score", "known fields: houses, players"),
        (lambda d: d["houses"].update(serpent={}), "houses.serpent", "known fields: clay, jane, rowel"),
        (lambda d: d["houses"].pop("rowel"), "houses.rowel", "this field is required"),
        (lambda d: d["houses"]["clay"].update(gold=3), "houses.clay.gold", "known fields: wealth"),
        (lambda d: d["houses"]["clay"].pop("strength"), "houses.clay.strength", "this field is required"),
        (lambda d: d["players"][0].update(points=2), "points", "known fields: name, ambitions"),
        (lambda d: d["players"][0].pop("ambitions"), "ambitions", "a list of 2 Ambitions"),
        (lambda d: d["players"][1].update(ambitions="clay-collapses"), "ambitions", "a list of 2 Ambitions"),
        (lambda d: d.update(houses=[1, 2]), "houses", "a JSON object"),
        (lambda d: d.pop("houses"), "houses", "this field is required"),
        (
            lambda d: d.update(keeper_of_balance="Ann"),
            "keeper_of_balance",
            "null: the Keeper of Balance is used",
        ),
        (lambda d: d.update(rulings={"house-rules": 1}), "rulings.house-rules", "known rulings"),
        (lambda d: d.update(rulings={"track-ends": "loose"}), "rulings.track-ends", "strict or clamp"),
        (lambda d: d.update(rulings={"ambition-deck": "other"}), "rulings.ambition-deck", "house-fates"),
        (
            lambda d: d.update(rulings={"keeper-wins-without-house-end": 0}),
            "rulings.keeper-wins-without-house-end",
            "true or false",
        ),
    ],
)
def test_every_field_is_checked(mutate: Any, field: str, allowed_start: str) -> None:
    data = make_input(
        [("Ann", ["clay-triumphs", "jane-triumphs"]), ("Bo", ["rowel-triumphs", "clay-collapses"])]
    )
    mutate(data)
    error = error_for(data)
    assert error.field == field
    assert error.allowed.startswith(allowed_start)


def test_keeper_must_be_one_of_the_three_players() -> None:
    data = make_input(
        [
            ("Ann", ["jane-triumphs", "rowel-collapses"]),
            ("Bo", ["clay-collapses"]),
            ("Cy", ["clay-triumphs", "jane-collapses"]),
        ],
        keeper="Zed",
    )
    error = error_for(data)
    assert (error.field, error.value, error.allowed) == (
        "keeper_of_balance",
        "Zed",
        "null or one of the players: Ann, Bo, Cy",
    )


def test_solo_keeper_cannot_be_someone_else() -> None:
    error = error_for(make_input([("Ada", [])], keeper="Serpentess"))
    assert (error.field, error.allowed) == ("keeper_of_balance", "null or 'Ada': the solo player")


def test_top_level_must_be_an_object_and_names_unique() -> None:
    assert error_for([1, 2]).field == "(top level)"
    error = error_for(
        make_input(
            [("Ann", ["clay-triumphs", "jane-triumphs"]), ("Ann", ["rowel-triumphs", "clay-collapses"])]
        )
    )
    assert (error.field, error.allowed) == ("name", "each player named once")


def test_parse_does_not_change_its_input() -> None:
    data = make_input(
        [("Ann", ["Clay-Triumphs", "jane-triumphs"]), ("Bo", ["rowel-triumphs", "clay-collapses"])]
    )
    before = copy.deepcopy(data)
    score_input(data)
    assert data == before


# --- interactive entry -----------------------------------------------------------------------------


def drive(names: list[str], answers: list[str]) -> tuple[dict[str, Any], list[Ask]]:
    """Answer each Ask in turn with the next text, the way the driver does (ask.parse first)."""
    generator = ask_holdings(names)
    asked: list[Ask] = []
    pending = list(answers)
    try:
        ask = next(generator)
        while True:
            asked.append(ask)
            ask = generator.send(ask.parse(pending.pop(0)))
    except StopIteration as stop:
        assert pending == [], "every answer was used"
        return stop.value, asked


ATTRIBUTE_ANSWERS = ["5", "0", "2", "6", "13", "4", "4", "7", "6"]


def test_ask_holdings_four_players_builds_the_input_and_scores_it() -> None:
    data, asked = drive(["Ann", "Bo", "Cy", "Di"], ATTRIBUTE_ANSWERS + ["jane-t", "rowel-c", "3", "rowel-t"])
    assert data == {
        "houses": {
            "clay": {"wealth": 5, "popularity": 0, "strength": 2},
            "jane": {"wealth": 6, "popularity": 13, "strength": 4},
            "rowel": {"wealth": 4, "popularity": 7, "strength": 6},
        },
        "players": [
            {"name": "Ann", "ambitions": ["jane-triumphs"]},
            {"name": "Bo", "ambitions": ["rowel-collapses"]},
            {"name": "Cy", "ambitions": ["jane-collapses"]},
            {"name": "Di", "ambitions": ["rowel-triumphs"]},
        ],
        "keeper_of_balance": None,
    }
    assert len(asked) == 13
    report = score_input(data)
    assert report.winners == ["Ann", "Cy"]
    # Cy answered "3": the third card still open after jane-triumphs and rowel-collapses were taken.
    assert isinstance(asked[11], Choice)
    assert asked[11].options == ("clay-triumphs", "clay-collapses", "jane-collapses", "rowel-triumphs")


def test_ask_holdings_bounds_rule_out_bad_values() -> None:
    generator = ask_holdings(["Ann", "Bo"])
    first = next(generator)
    assert isinstance(first, Number)
    assert (first.minimum, first.maximum, first.section) == (0, 13, "houses-and-attributes")
    with pytest.raises(InvalidAnswer):
        first.parse("14")
    with pytest.raises(InvalidAnswer):
        first.parse("-1")
    _, asked = drive(["Ann", "Bo"], ATTRIBUTE_ANSWERS + ["clay-t", "clay-c", "jane-t", "jane-c"])
    last = asked[-1]
    assert isinstance(last, Choice)
    assert last.options == ("jane-collapses", "rowel-triumphs", "rowel-collapses")
    with pytest.raises(InvalidAnswer):
        last.parse("clay-triumphs")


def test_ask_holdings_three_players_with_keeper() -> None:
    answers = ["5"] * 9 + ["Bo", "jane-t", "rowel-c", "clay-c", "clay-t", "jane-c"]
    data, asked = drive(["Ann", "Bo", "Cy"], answers)
    assert data["keeper_of_balance"] == "Bo"
    assert data["players"][1] == {"name": "Bo", "ambitions": ["clay-collapses"]}
    keeper_ask = asked[9]
    assert isinstance(keeper_ask, Choice)
    assert keeper_ask.options == ("nobody", "Ann", "Bo", "Cy")
    assert keeper_ask.section == "keeper-of-balance"
    report = score_input(data)
    assert (report.ended, report.winners) == (True, ["Bo"])


def test_ask_holdings_three_players_without_keeper() -> None:
    answers = ["5"] * 9 + ["nobody"] + ["1"] * 6
    data, _ = drive(["Ann", "Bo", "Cy"], answers)
    assert data["keeper_of_balance"] is None
    assert [player["ambitions"] for player in data["players"]] == [
        ["clay-triumphs", "clay-collapses"],
        ["jane-triumphs", "jane-collapses"],
        ["rowel-triumphs", "rowel-collapses"],
    ]


def test_ask_holdings_solo_asks_only_the_houses() -> None:
    data, asked = drive(["Ada"], ["5"] * 8 + ["0"])
    assert len(asked) == 9
    assert data["players"] == [{"name": "Ada", "ambitions": []}]
    assert data["keeper_of_balance"] == "Ada"
    assert score_input(data).winners == []


def test_ask_holdings_refuses_bad_player_lists() -> None:
    with pytest.raises(ScoreInputError):
        next(ask_holdings([]))
    with pytest.raises(ScoreInputError):
        next(ask_holdings(["Ann", "Ann"]))
    with pytest.raises(ScoreInputError):
        next(ask_holdings(["A", "B", "C", "D", "E"]))


def test_every_asked_section_exists_in_the_rulebook() -> None:
    section_ids = set(re.findall(r"\{#([a-z0-9-]+)\}", RULEBOOK.read_text()))
    for names, answers in [
        (["Ann", "Bo", "Cy"], ["5"] * 9 + ["Bo"] + ["1"] * 5),
        (["Ann", "Bo", "Cy", "Di"], ["5"] * 9 + ["1"] * 4),
    ]:
        _, asked = drive(names, answers)
        assert {ask.section for ask in asked} <= section_ids


# --- the rulebook and the code agree ---------------------------------------------------------------


def test_toml_numbers_match_the_code() -> None:
    book = tomllib.loads(RULEBOOK_TOML.read_text())
    assert tuple(book["houses"]["names"]) == houses.HOUSES
    assert tuple(book["houses"]["attributes"]) == houses.ATTRIBUTES
    assert book["track"]["collapse_value"] == houses.COLLAPSE_VALUE == 0
    assert book["track"]["triumph_value"] == houses.TRIUMPH_VALUE == 13
    assert tuple(book["ambitions"]["cards"]) == ambitions.AMBITIONS
    assert {int(count): dealt for count, dealt in book["ambitions"]["per_player"].items()} == (
        ambitions.AMBITIONS_PER_PLAYER
    )
    assert book["teams"]["four_players"] == [[seat + 1 for seat in team] for team in ambitions.TEAM_SEATS]
    assert book["game"]["players"] == [1, 4]
    for ruling, choices in ruling_choices("council-of-serpents").items():
        assert book["rulings"][ruling]["default"] == choices[0]
        assert f"{{#ruling-{ruling}}}" in RULEBOOK.read_text()


def test_every_scenario_file_scores() -> None:
    files = sorted(SCENARIOS.glob("council-of-serpents*.json"))
    assert len(files) == 4
    for path in files:
        report = score_input(json.loads(path.read_text()))
        assert report.ended and report.winners, path.name
