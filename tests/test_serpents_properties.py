"""Council of Serpents scoring on random valid end positions: the victory rules always hold."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.serpents.ambitions import AMBITIONS, AMBITIONS_PER_PLAYER, TEAM_SEATS
from referee.games.serpents.houses import ATTRIBUTES, HOUSES
from referee.games.serpents.scoring import score_input

track_value = st.integers(min_value=0, max_value=13)


@st.composite
def end_positions(draw: st.DrawFn) -> dict[str, Any]:
    player_count = draw(st.integers(min_value=1, max_value=4))
    names = [f"P{seat}" for seat in range(1, player_count + 1)]
    keeper = None
    if player_count == 1:
        keeper = names[0]
    elif player_count == 3 and draw(st.booleans()):
        keeper = draw(st.sampled_from(names))
    deck = draw(st.permutations(AMBITIONS))
    players = []
    for name in names:
        count = AMBITIONS_PER_PLAYER[player_count] - (1 if name == keeper and player_count > 1 else 0)
        players.append({"name": name, "ambitions": list(deck[:count])})
        deck = deck[count:]
    houses = {house: {attribute: draw(track_value) for attribute in ATTRIBUTES} for house in HOUSES}
    return {"houses": houses, "players": players, "keeper_of_balance": keeper}


def came_true(data: dict[str, Any]) -> set[str]:
    result = set()
    for house, values in data["houses"].items():
        if any(value == 13 for value in values.values()):
            result.add(f"{house}-triumphs")
        if any(value == 0 for value in values.values()):
            result.add(f"{house}-collapses")
    return result


@settings(max_examples=400)
@given(end_positions())
def test_winners_follow_the_victory_rules(data: dict[str, Any]) -> None:
    report = score_input(data)
    fulfilled = came_true(data)
    keeper = data["keeper_of_balance"]
    names = [player["name"] for player in data["players"]]
    assert report.ended == (bool(fulfilled) or keeper is not None)
    if not report.ended:
        assert report.winners == []
        assert all(player.rank is None and player.total is None for player in report.players)
        return
    own = {
        player["name"]
        for player in data["players"]
        if player["name"] != keeper and fulfilled & set(player["ambitions"])
    }
    if keeper is not None and not fulfilled:
        own = {keeper}
    expected = set(own)
    if len(names) == 4:
        for first, second in TEAM_SEATS:
            if names[first] in own or names[second] in own:
                expected |= {names[first], names[second]}
    assert set(report.winners) == expected
    assert report.winners == [name for name in names if name in expected]
    solo_loss = len(names) == 1 and not expected  # the Serpentess, who is not a player, wins
    for player in report.players:
        if solo_loss:
            assert player.rank == 2
        else:
            assert player.rank == (1 if player.name in expected or not expected else len(expected) + 1)
        assert player.total == sum(player.breakdown.values())
