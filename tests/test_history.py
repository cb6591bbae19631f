"""History below the command line: summaries, id prefixes, filters, statistics, score progressions."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from history_support import EVERY_GAME, SHORT_GAME, entries_of, store_entries

from referee.cli.chart import SHARED, draw, marks_for, thinned
from referee.engine.driver import Driver, replay
from referee.engine.simulate import play_random_game
from referee.errors import SessionError
from referee.games.registry import load_game
from referee.history import Filters, read_date, resolve, select, summaries
from referee.progress import progression
from referee.stats import gather
from referee.store import SessionMeta, Store
from referee.summary import play_has_begun, read_summary, summarise
from referee.timeline import walk


def first_round_seat(game_id: str, state: dict[str, Any]) -> str:
    """Who starts round 1, read from the state's own seat fields (not from the header)."""
    seats = {
        "council-of-blackthorn": ("players", "ring"),
        "cutthroat-kingdoms": ("players", "starting_seat"),
        "blackwood": ("witches", "cauldron"),
        "council-of-serpents": ("players", "first"),
    }
    key, seat = seats[game_id]
    return str(state[key][state[seat]]["name"])


@pytest.mark.parametrize(("game_id", "players"), EVERY_GAME, ids=[game for game, _ in EVERY_GAME])
@pytest.mark.parametrize("seed", [1, 2])
def test_summary_of_every_game_agrees_with_its_report_and_state(
    game_id: str, players: tuple[str, ...], seed: int
) -> None:
    game = load_game(game_id)
    driver = play_random_game(game, players, random.Random(seed))
    report = driver.report
    assert report is not None
    summary = summarise(game, driver)
    assert [result.name for result in summary.players] == list(players)  # seat order
    assert summary.winners == tuple(report.winners)
    for result in summary.players:
        scored = report.player(result.name)
        assert (result.total, result.rank, result.eliminated) == (scored.total, scored.rank, scored.eliminated)
        assert result.winner == (result.name in report.winners)
    assert summary.scored == (game_id != "council-of-serpents")
    assert summary.rounds == game.header(driver.state).round
    # The start player: in A Game of Thrones the answer naming round 1's first player; elsewhere whoever
    # holds the first seat (ring, cauldron, starting seat) once round 1 has begun.
    played = walk(game, players, {}, driver.entries)
    if game_id == "got-lcg-1e":
        (named,) = [step.entry.answer for step in played.steps
                    if step.round == 1 and "who is first player" in (step.question or "")]
        assert summary.start_player == named
    else:
        in_round_one: list[dict[str, Any]] = []

        def note(step: Any, now: Driver) -> bool:
            if play_has_begun(game.header(now.state)):
                in_round_one.append(game.to_json(now.state))
                return True
            return False

        walk(game, players, {}, driver.entries, note)
        assert summary.start_player == first_round_seat(game_id, in_round_one[0])
    state = game.to_json(driver.state)
    if game_id in ("council-of-blackthorn", "got-lcg-1e", "cutthroat-kingdoms"):
        field = "house" if game_id == "got-lcg-1e" else "character"
        assert {result.name: result.role for result in summary.players} == {
            player["name"]: player[field] for player in state["players"]}
    else:
        assert all(result.role is None for result in summary.players) and summary.role_label is None
    assert summary.ending and summary.ending != "The game ended."
    assert read_summary(summary.to_json()) == summary


def test_the_ending_is_the_reports_termination() -> None:
    game = load_game("council-of-blackthorn")
    driver = replay(game, ["Ann", "Bo"], {}, entries_of(SHORT_GAME)).driver
    assert driver.report is not None and driver.report.termination is not None
    assert driver.report.termination.code == "factions-blocked"
    ending = summarise(game, driver).ending
    assert ending.lower().startswith(driver.report.termination.text.lower()) and "round 1" in ending


@pytest.mark.parametrize(
    ("field", "value"), [("played_seconds", "an hour"), ("played_seconds", -1), ("summary", []), ("edits", {})]
)
def test_stored_history_fields_of_the_wrong_shape_are_refused(field: str, value: object) -> None:
    row = SessionMeta("a", "blackwood", ["Ann", "Bo"]).to_json()
    assert SessionMeta.from_json(row) == SessionMeta("a", "blackwood", ["Ann", "Bo"])
    with pytest.raises(ValueError):
        SessionMeta.from_json({**row, field: value})


def test_a_damaged_or_older_summary_is_not_read() -> None:
    assert read_summary(None) is None
    assert read_summary({"version": 99}) is None
    assert read_summary({"version": 1, "players": [{"name": 3}]}) is None


# --- ids and filters ----------------------------------------------------------------------------------


def stored(root: Path, ids: list[str]) -> Store:
    store = Store(root)
    store.ensure()
    for number, session_id in enumerate(ids):  # real session files: the index is only their summary
        started = f"2026-01-0{number + 1} 10:00:00"
        store.create(SessionMeta(session_id, "blackwood", ["Ann", "Bo"], started=started)).unlock()
    return store


def test_a_unique_prefix_finds_a_session_and_an_ambiguous_one_names_the_candidates(tmp_path: Path) -> None:
    store = stored(tmp_path, ["20260101-aaa", "20260101-abb", "20260102-ccc"])
    assert resolve(store, "20260102").id == "20260102-ccc"
    assert resolve(store, "20260101-ab").id == "20260101-abb"
    assert resolve(store, "20260101-AAA").id == "20260101-aaa"
    with pytest.raises(SessionError, match="'20260101' starts 2 session ids: 20260101-aaa, 20260101-abb; give more"):
        resolve(store, "20260101")
    with pytest.raises(SessionError, match="no session 'zzz'"):
        resolve(store, "zzz")
    with pytest.raises(SessionError, match="bad session id"):
        resolve(store, "../x")


def test_an_exact_id_wins_over_longer_ids_it_starts(tmp_path: Path) -> None:
    store = stored(tmp_path, ["abc", "abc-2"])
    assert resolve(store, "abc").id == "abc"


def test_filters_by_game_player_status_and_date() -> None:
    metas = [
        SessionMeta("a", "blackwood", ["Ann", "Bo"], started="2026-01-01 09:00:00", status="finished"),
        SessionMeta("b", "got-lcg-1e", ["ANN", "Cy"], started="2026-02-01 09:00:00"),
        SessionMeta("c", "got-lcg-1e", ["Bo", "Cy"], started="2026-03-01 09:00:00", status="finished"),
    ]
    ids = lambda filters: [meta.id for meta in select(metas, filters)]  # noqa: E731
    assert ids(Filters(player="ann")) == ["a", "b"]
    assert ids(Filters(game="got-lcg-1e")) == ["b", "c"]
    assert ids(Filters(status="finished")) == ["a", "c"]
    assert ids(Filters(since=date(2026, 2, 1))) == ["b", "c"]
    assert ids(Filters(game="got-lcg-1e", player="Cy", status="finished")) == ["c"]
    with pytest.raises(SessionError, match="YYYY-MM-DD"):
        read_date("1 Feb")


# --- statistics ------------------------------------------------------------------------------------------


def test_statistics_count_a_person_by_name_in_any_case(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = load_game("council-of-blackthorn")
    short = entries_of(SHORT_GAME)
    store_entries(store, game.id, ["Ann", "Bo"], short)  # Ann 37 wins, Bo 23
    store_entries(store, game.id, ["ANN", "bo"], short)  # the same people, written otherwise
    store_entries(store, game.id, ["Ann", "Cy"], short[:5])  # unfinished: not counted
    finished = summaries(store, select(store.list(), Filters(status="finished")))
    stats = gather(finished)
    assert stats.sessions == 2
    assert set(stats.players) == {"ann", "bo"}
    ann, bo = stats.players["ann"], stats.players["bo"]
    assert (ann.label, ann.games, ann.wins, ann.scores) == ("ANN", 2, 2, [37, 37])  # shown as written last
    assert (bo.label, bo.games, bo.wins, bo.scores) == ("bo", 2, 0, [23, 23])
    assert ann.win_rate == 1 and bo.win_rate == 0 and bo.average == 23 and ann.best == 37
    blackthorn = stats.games[game.id]
    assert blackthorn.plays == 2 and blackthorn.scores.best == 37 and blackthorn.winning == [37, 37]
    assert {role: (tally.games, tally.wins) for (_, role), tally in stats.roles.items()} == {
        "Queen": (2, 2), "Lord of War": (2, 0)}
    only_bo = gather(finished, "BO")
    assert list(only_bo.players) == ["bo"] and only_bo.players["bo"].games == 2


def test_a_game_without_points_counts_wins_but_no_scores(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = load_game("council-of-serpents")
    driver = play_random_game(game, ["Ann", "Bo", "Cy", "Di"], random.Random(0))
    store_entries(store, game.id, ["Ann", "Bo", "Cy", "Di"], driver.entries)
    stats = gather(summaries(store, store.list()))
    assert driver.report is not None and driver.report.winners
    for name, tally in stats.players.items():
        assert tally.scores == [] and tally.average is None and tally.best is None
        assert tally.wins == int(tally.label in driver.report.winners), name


# --- score progressions ----------------------------------------------------------------------------------


def test_game_of_thrones_power_by_round_ends_at_the_final_totals() -> None:
    game = load_game("got-lcg-1e")
    driver = play_random_game(game, ["Ann", "Bo", "Cy"], random.Random(5))
    (chart,) = progression(game, ["Ann", "Bo", "Cy"], {}, driver.entries)
    assert chart.title == "Power" and chart.rounds == list(range(driver.state.round + 1))
    assert driver.report is not None
    assert {name: values[-1] for name, values in chart.series.items()} == {
        player.name: player.total for player in driver.report.players}
    assert all(values[0] == 0 for values in chart.series.values())  # nobody has power before round 1


def test_blackthorn_charts_visible_influence_only() -> None:
    game = load_game("council-of-blackthorn")
    driver = replay(game, ["Ann", "Bo"], {}, entries_of(SHORT_GAME)).driver
    (chart,) = progression(game, ["Ann", "Bo"], {}, driver.entries)
    assert chart.title == "Visible influence" and "hidden" in chart.note
    assert driver.report is not None
    for player in driver.report.players:  # everything but the hidden influence tokens
        assert chart.series[player.name] == [0, (player.total or 0) - player.breakdown["tokens"]]
    assert "Ghost" not in chart.series


def test_serpents_charts_each_house_attribute_by_turn() -> None:
    game = load_game("council-of-serpents")
    driver = play_random_game(game, ["Ann", "Bo"], random.Random(2))
    charts = progression(game, ["Ann", "Bo"], {}, driver.entries)
    assert [chart.title for chart in charts] == ["House wealth", "House popularity", "House strength"]
    for chart in charts:
        attribute = chart.title.split()[1]
        assert chart.round_label == "turn"
        assert {house: values[-1] for house, values in chart.series.items()} == {
            house.capitalize(): values[attribute] for house, values in driver.state.houses.items()}


def test_games_without_a_running_score_have_no_chart() -> None:
    game = load_game("blackwood")
    driver = play_random_game(game, ["Ann", "Bo"], random.Random(1))
    assert progression(game, ["Ann", "Bo"], {}, driver.entries) == []


def test_a_chart_puts_each_value_on_its_row() -> None:
    drawn = draw([0, 1, 2], {"Ann": [0, 2, 4], "Bo": [0, 1, 4]})
    assert drawn.marks == {"Ann": "A", "Bo": "B"}
    rows = drawn.lines[:-2]
    assert len(rows) == 5  # values 4 down to 0, one row each
    assert rows[0] == "4 ┤       *"  # both at 4 in round 2
    assert rows[2] == "2 ┤    A"
    assert rows[3] == "1 ┤    B"
    assert rows[4] == f"0 ┤ {SHARED}"
    assert drawn.lines[-1].split() == ["0", "1", "2"]


def test_chart_marks_and_thinning() -> None:
    assert marks_for(["Ann", "Al", "Bo"]) == {"Ann": "1", "Al": "2", "Bo": "3"}
    assert thinned(100, 10)[0] == 0 and thinned(100, 10)[-1] == 99 and len(thinned(100, 10)) == 10
    assert thinned(5, 10) == [0, 1, 2, 3, 4]
    assert len(draw(list(range(200)), {"Ann": list(range(200))}, width=60).rounds) <= 20


def married_final_count() -> list[Any]:
    """The final-count scenario's game with Ann and Cy married before the Feast's end."""
    import tomllib

    scenario = tomllib.loads(
        (Path(__file__).parent.parent / "scenarios/cutthroat-kingdoms/final-count-confirms-purses.toml").read_text())
    answers = scenario["answers"].replace("none                # no poison\n", "none\nadjust Ann marries Cy ; wed\n")
    assert "marries" in answers
    return entries_of(answers)


def test_a_married_teams_winning_score_is_the_teams_total(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store_entries(store, "cutthroat-kingdoms", ["Ann", "Bo", "Cy"], married_final_count())
    finished = summaries(store, select(store.list(), Filters(status="finished")))
    (_, summary), = finished
    totals = {player.name: player.total for player in summary.players}
    assert set(summary.winners) == {"Ann", "Cy"}
    assert [(team.members, team.total) for team in summary.teams] == [(("Ann", "Cy"), totals["Ann"] + totals["Cy"])]
    cutthroat = gather(finished).games["cutthroat-kingdoms"]
    assert cutthroat.winning == [totals["Ann"] + totals["Cy"]]  # once, the couple's total
    assert cutthroat.to_json()["average_winning_score"] == totals["Ann"] + totals["Cy"]
    assert read_summary(summary.to_json()) == summary


def test_a_summary_of_the_version_before_teams_is_rebuilt_by_replay(tmp_path: Path) -> None:
    store = Store(tmp_path)
    session = store_entries(store, "cutthroat-kingdoms", ["Ann", "Bo", "Cy"], married_final_count())
    meta = store.list()[0]
    older = dict(meta.summary or {}, version=1)
    del older["teams"]
    assert read_summary(older) is None  # so the session is replayed, and its teams found
    meta.summary = older
    (_, summary), = summaries(store, [meta])
    assert meta.id == session and [team.members for team in summary.teams] == [("Ann", "Cy")]
