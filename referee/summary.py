"""What a finished session leaves in the index: each player's result, the winners, how it ended.

`referee sessions`, `stats` and `export --format bgstats` read only this, never the logs, so that
their cost does not grow with the length of every stored game. It is written when a session is
closed with its game over (and again after an edit), and always derived from the log, so a
missing or unreadable summary is rebuilt by replaying that one session.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine.driver import Driver, Entry
from referee.engine.game import Game, Header, RoleField
from referee.outcome import ScoreReport
from referee.timeline import Step, walk

SUMMARY_VERSION = 2
"""2: a summary keeps the teams (married players), whose winning score is the team's total."""

@dataclass(frozen=True)
class PlayerResult:
    """How one player finished a session, as the index keeps it: total, rank, win or elimination,
    and what they played as."""

    name: str
    total: int | None
    rank: int | None
    winner: bool
    eliminated: bool
    role: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "total": self.total, "rank": self.rank, "winner": self.winner,
            "eliminated": self.eliminated, "role": self.role,
        }


@dataclass(frozen=True)
class TeamResult:
    """Players scored together as one side (Cutthroat Kingdoms' married couples), with their total."""

    members: tuple[str, ...]
    total: int | None

    def to_json(self) -> dict[str, Any]:
        return {"members": list(self.members), "total": self.total}


@dataclass(frozen=True)
class Summary:
    """What a finished session leaves in the index: each player's result, the winners, the first
    player, the rounds and how it ended."""

    players: tuple[PlayerResult, ...]
    """In seat order."""
    winners: tuple[str, ...]
    scored: bool
    """The totals are points (False: the game has none, see Game.scores_points)."""
    start_player: str | None
    """Who took the first turn of the first round."""
    rounds: int | None
    ending: str
    """How the game ended, in a sentence."""
    role_label: str | None
    teams: tuple[TeamResult, ...] = ()
    """Sides of more than one player, scored together; a player in none plays alone."""

    def team_of(self, name: str) -> TeamResult | None:
        return next((team for team in self.teams if name in team.members), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SUMMARY_VERSION,
            "players": [player.to_json() for player in self.players],
            "winners": list(self.winners),
            "scored": self.scored,
            "start_player": self.start_player,
            "rounds": self.rounds,
            "ending": self.ending,
            "role_label": self.role_label,
            "teams": [team.to_json() for team in self.teams],
        }

    def player(self, name: str) -> PlayerResult | None:
        wanted = name.casefold()
        return next((player for player in self.players if player.name.casefold() == wanted), None)


def summarise(game: Game[Any], driver: Driver) -> Summary:
    """The summary of a finished game (the driver after its last entry)."""
    report = driver.report
    assert report is not None, "only a finished game has a summary"
    state = game.to_json(driver.state)
    roles = roles_of(game.role, state)
    scored = game.scores_points
    results = []
    for name in driver.players:
        score = next((player for player in report.players if player.name == name), None)
        results.append(
            PlayerResult(
                name,
                score.total if score is not None else None,
                score.rank if score is not None else None,
                name in report.winners,
                bool(score and score.eliminated),
                roles.get(name),
            )
        )
    header = game.header(driver.state)
    return Summary(
        tuple(results),
        tuple(report.winners),
        scored,
        start_player(game, driver.players, driver.options, driver.entries, driver.questions),
        header.round,
        ending(report),
        game.role.label if game.role is not None else None,
        tuple(TeamResult(tuple(team.members), team.total) for team in report.teams or ()),
    )


def roles_of(role: RoleField | None, state: Mapping[str, Any]) -> dict[str, str]:
    """What each player played as, read from the state's JSON where the game names it."""
    if role is None:
        return {}
    found = {}
    for player in state.get(role.players_key, []):
        if isinstance(player, dict) and isinstance(player.get(role.field), str) and player[role.field]:
            found[str(player.get("name"))] = str(player[role.field])
    return found


def play_has_begun(header: Header) -> bool:
    """Round 1 has begun; in a game counted in turns (Council of Serpents: 'Turn 1'), the first turn."""
    return bool(header.round) or (header.turn is not None and header.turn.startswith("Turn "))


def start_player(
    game: Game[Any], players: Sequence[str], options: Mapping[str, Any], entries: Sequence[Entry],
    questions: int | None = None,
) -> str | None:
    """The first player whose turn it is once play has begun (a short replay of setup)."""
    names = {name.casefold(): name for name in players}
    found: list[str] = []

    def seen(header: Header) -> bool:
        if play_has_begun(header) and header.active and header.active.casefold() in names:
            found.append(names[header.active.casefold()])
            return True
        return False

    def after(step: Step, driver: Driver) -> bool:
        return seen(step.header) or seen(game.header(driver.state))

    walk(game, players, options, entries, after, questions=questions)
    return found[0] if found else None


# --- how the game ended ----------------------------------------------------------------------------


def ending(report: ScoreReport) -> str:
    """One sentence on how the game ended: the report's termination (every guided game sets one)."""
    if report.termination is None:
        return "The game ended."
    return report.termination.text[:1].upper() + report.termination.text[1:] + "."


# --- reading a stored summary ---------------------------------------------------------------------


def read_summary(data: object) -> Summary | None:
    """A stored summary, or None when it is missing, of another version or of the wrong shape."""
    if not isinstance(data, dict) or data.get("version") != SUMMARY_VERSION:
        return None
    try:
        players = tuple(
            PlayerResult(
                text(player["name"]), optional_int(player["total"]), optional_int(player["rank"]),
                flag(player["winner"]), flag(player["eliminated"]), optional_text(player["role"]),
            )
            for player in data["players"]
        )
        return Summary(
            players,
            tuple(text(name) for name in data["winners"]),
            flag(data["scored"]),
            optional_text(data["start_player"]),
            optional_int(data["rounds"]),
            text(data["ending"]),
            optional_text(data["role_label"]),
            tuple(
                TeamResult(tuple(text(name) for name in team["members"]), optional_int(team["total"]))
                for team in data["teams"]
            ),
        )
    except (KeyError, TypeError, ValueError):
        return None


def text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("expected text")
    return value


def optional_text(value: object) -> str | None:
    return None if value is None else text(value)


def optional_int(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int:
        raise ValueError("expected a whole number")
    return value


def flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value
