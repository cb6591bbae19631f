"""Council of Blackthorn rules as plain functions: the track, blocking, control, Whispers, final count."""

from __future__ import annotations

import pytest

from referee.errors import ScoreInputError
from referee.games.blackthorn import rules
from referee.games.blackthorn.parse import parse_trigger
from referee.games.blackthorn.scoring import FinalHoldings, Holdings, beheaded, score, score_input
from referee.games.blackthorn.state import GHOST, TRACK, Building, Player


def at(name: str, **points: int) -> Player:
    player = Player(name)
    for faction, value in points.items():
        player.levels[faction] = TRACK.index(value)
    return player


def test_track_values_and_gains() -> None:
    assert TRACK == (0, 1, 2, 3, 4, 5, 7, 9, 13)
    ann = at("Ann", noble=5)
    assert rules.gain([ann], ann, "noble", 1) == 2  # 5 -> 7
    assert rules.gain([ann], ann, "noble", 1) == 2  # 7 -> 9
    assert rules.gain([ann], ann, "noble", 1) == 4  # 9 -> 13: four points for one level
    assert ann.points("noble") == 13
    assert rules.gain([ann], ann, "noble", 3) == 0  # nothing above 13


def test_gain_stops_at_13_without_exact_count() -> None:
    ann = at("Ann", guild=7)
    rules.gain([ann], ann, "guild", 3)
    assert ann.points("guild") == 13


def test_blocked_faction_caps_others_at_9() -> None:
    ann, bo = at("Ann", legion=13), at("Bo", legion=4)
    assert rules.blocked_factions([ann, bo]) == ["legion"]
    rules.gain([ann, bo], bo, "legion", 3)
    assert bo.points("legion") == 9
    rules.gain([ann, bo], bo, "legion", 1)
    assert bo.points("legion") == 9
    assert rules.blocker([ann, bo], "legion") is ann


def test_block_lifts_when_the_blocker_is_moved_down() -> None:
    ann, bo = at("Ann", peasant=13), at("Bo", peasant=9)
    ann.levels["peasant"] = TRACK.index(9)  # a text effect bumps Ann down (ruling block-while-held)
    rules.gain([ann, bo], bo, "peasant", 1)
    assert bo.points("peasant") == 13


def test_control_points_alone_tied_and_zero() -> None:
    ann, bo, cy = at("Ann", noble=5, guild=3), at("Bo", noble=5), at("Cy")
    ann.buildings.append(Building(4, complete=False))
    scored = rules.control_points(ann, [ann, bo, cy])
    assert scored == {"noble": 1, "guild": 2, "buildings": 2}
    assert rules.control_points(cy, [ann, bo, cy]) == {}  # tied at 0 scores nothing


def test_control_buildings_tie_needs_one_building() -> None:
    ann, bo = at("Ann"), at("Bo")
    ann.buildings.append(Building(3, True))
    bo.buildings.append(Building(5, False))
    assert rules.control_points(ann, [ann, bo]) == {"buildings": 1}


def test_ghost_counts_for_control() -> None:
    ann, ghost = at("Ann", noble=3), at(GHOST, noble=5)
    ghost.is_ghost = True
    assert rules.control_points(ann, [ann, ghost]) == {}


def test_whispers_candidates() -> None:
    ann, bo, cy = at("Ann", noble=3), at("Bo", noble=5), at("Cy", noble=5)
    values = [(player, player.points("noble")) for player in (ann, bo, cy)]
    assert rules.whispers_candidates(ann, values) == (bo, cy)  # the active player chooses one
    assert rules.whispers_candidates(bo, values) == ()  # active player tied for highest: nobody
    assert rules.whispers_candidates(bo, values, active_tie_blocks=False) == (cy,)
    zeros = [(player, 0) for player in (ann, bo, cy)]
    assert rules.whispers_candidates(ann, zeros) == ()


def test_whispers_ghost_never_draws() -> None:
    ann, ghost = at("Ann"), at(GHOST, legion=3)
    ghost.is_ghost = True
    values = [(ann, 0), (ghost, 3)]
    assert rules.whispers_candidates(ann, values) == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("guild 5", ("guild", 5)), ("G5", ("guild", 5)), ("peasant: 4", ("peasant", 4)), ("none", None)],
)
def test_trigger_parsing(text: str, expected: object) -> None:
    assert parse_trigger(text) == expected


@pytest.mark.parametrize("text", ["gold 5", "guild", "guild 14", "5 guild", ""])
def test_trigger_parsing_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_trigger(text)


def final(name: str, influence: int, treason: int) -> FinalHoldings:
    return FinalHoldings(name, {"noble": 0, "guild": 0, "legion": 0, "peasant": 0}, influence, (), 0, treason)


def test_the_63_point_example() -> None:
    shadows = FinalHoldings("Shadows", {"noble": 7, "legion": 3, "peasant": 13, "guild": 0}, 38, (), 1, 0)
    assert shadows.influence() == 63
    assert shadows.breakdown() == {"factions": 23, "tokens": 38, "buildings": 0, "under_construction": 2}


def test_completed_buildings_score_their_value() -> None:
    player = FinalHoldings("Ann", {"noble": 1, "guild": 0, "legion": 0, "peasant": 0}, 5, (4, 6), 2, 0)
    assert player.influence() == 1 + 5 + 10 + 4


def test_beheading_most_treason_and_ties() -> None:
    assert beheaded([final("A", 10, 3), final("B", 10, 5), final("C", 10, 1)]) == {"B"}
    assert beheaded([final("A", 10, 5), final("B", 10, 5), final("C", 10, 1)]) == {"A", "B"}
    assert beheaded([final("A", 10, 0), final("B", 10, 0), final("C", 10, 0)]) == set()
    assert beheaded([final("A", 10, 2), final("B", 10, 2), final("C", 10, 2)]) == {"A", "B", "C"}


def test_beheading_two_players() -> None:
    assert beheaded([final("A", 10, 6), final("B", 10, 3)]) == {"A"}  # exactly twice
    assert beheaded([final("A", 10, 5), final("B", 10, 3)]) == set()
    assert beheaded([final("A", 10, 1), final("B", 10, 0)]) == {"A"}  # any points against 0
    assert beheaded([final("A", 10, 0), final("B", 10, 0)]) == set()


def test_everyone_beheaded_means_no_winner() -> None:
    report = score(Holdings((final("A", 30, 2), final("B", 20, 2), final("C", 10, 2))))
    assert report.winners == []
    assert all(player.eliminated for player in report.players)
    assert any("nobody wins" in note for note in report.notes)


def test_winner_is_highest_survivor() -> None:
    report = score(Holdings((final("A", 30, 9), final("B", 20, 2), final("C", 25, 1))))
    assert report.winners == ["C"]
    assert report.player("A").eliminated and report.player("A").rank is None
    assert (report.player("C").rank, report.player("B").rank) == (1, 2)


def test_tie_breaks_fewest_treason_then_turn_order() -> None:
    report = score(Holdings((final("A", 20, 2), final("B", 20, 1), final("C", 5, 3))))
    assert report.winners == ["B"]
    report = score(Holdings((final("A", 9, 3), final("B", 20, 1), final("C", 20, 1))))
    assert report.winners == ["B"]  # B plays before C in the final round


def test_score_input_with_card_counts_uses_the_rulings() -> None:
    data = {
        "players": [
            {"name": "Ann", "factions": {"noble": 7, "guild": 0, "legion": 3, "peasant": 13}, "tokens": 38,
             "under_construction": 1, "treason": {"rumor": 2, "bribe": 1, "spy": 1, "poison": 1}},
            {"name": "Bo", "factions": {"noble": 9, "guild": 1, "legion": 0, "peasant": 0}, "tokens": 20,
             "buildings": [4], "treason": 4},
            {"name": "Cy", "factions": {"noble": 0, "guild": 13, "legion": 0, "peasant": 2}, "tokens": 10,
             "treason": 0},
        ]
    }
    report = score_input(data)
    assert report.player("Ann").total == 63
    assert report.player("Ann").eliminated  # 1 + 2 + 3 = 6 treason points, the most
    assert report.player("Bo").total == 10 + 20 + 4
    assert report.winners == ["Bo"]
    assert any("Bribe counts 1" in note for note in report.notes)
    data["rulings"] = {"bribe-value": 0, "spy-value": 0}
    report = score_input(data)
    assert not report.player("Ann").eliminated  # only Poison counts now: 3 points against Bo's 4
    assert report.player("Bo").eliminated
    assert report.winners == ["Ann"]


def card_count_input() -> dict[str, object]:
    """Ann holds 2 Bribes, Bo 1 Spy, Cy no Treason; influence 30, 20 and 10."""
    blank = {"noble": 0, "guild": 0, "legion": 0, "peasant": 0}
    return {
        "players": [
            {"name": "Ann", "factions": blank, "tokens": 30, "treason": {"bribe": 2}},
            {"name": "Bo", "factions": blank, "tokens": 20, "treason": {"spy": 1}},
            {"name": "Cy", "factions": blank, "tokens": 10, "treason": 0},
        ]
    }


@pytest.mark.parametrize(
    ("rulings", "beheaded_players", "winner"),
    [
        ({}, {"Ann", "Bo"}, "Cy"),  # 2 Bribes = 2, 1 Spy = 2: both tied for the most
        ({"bribe-value": 2}, {"Ann"}, "Bo"),  # 4 against 2
        ({"spy-value": 3}, {"Bo"}, "Ann"),  # 2 against 3
    ],
)
def test_each_treason_value_ruling_alone_decides_a_beheading(
    rulings: dict[str, int], beheaded_players: set[str], winner: str
) -> None:
    """#ruling-bribe-value and #ruling-spy-value, each set alone: card counts are scored with the
    values the table chose, and the beheading and the winner follow."""
    data = card_count_input()
    data["rulings"] = rulings
    report = score_input(data)
    assert {line.name for line in report.players if line.eliminated} == beheaded_players
    assert report.winners == [winner]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["players"][0]["factions"].update(noble=6), "factions.noble"),
        (lambda d: d["players"][1]["factions"].update(guild=13), "already holds 13"),
        (lambda d: d["players"][0].update(tokens=-1), "tokens"),
        (lambda d: d["players"][0].update(colour="red"), "colour"),
        (lambda d: d["players"].pop(), "players"),
        (lambda d: d["players"][0].update(buildings=[3, "x"]), "buildings"),
        (lambda d: d["players"][0].update(treason={"rumor": 1, "dagger": 1}), "dagger"),
    ],
)
def test_score_input_checks(change: object, message: str) -> None:
    data = {
        "players": [
            {"name": "Ann", "factions": {"noble": 0, "guild": 13, "legion": 0, "peasant": 0}, "tokens": 3},
            {"name": "Bo", "factions": {"noble": 0, "guild": 0, "legion": 0, "peasant": 0}, "tokens": 3},
        ]
    }
    del data["players"][1]["factions"]["guild"]
    data["players"][1]["factions"]["guild"] = 0
    change(data)  # type: ignore[operator]
    with pytest.raises(ScoreInputError, match=message):
        score_input(data)
