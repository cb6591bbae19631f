"""Statistics over finished sessions: games played, wins, win rate, average and best score.

Read from the summaries in the index, never from the logs. A player is the same person in every
session where the same name appears, ignoring case; the name is shown as it was written last.
Averages and best scores count only games with points (Council of Serpents has none).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.store import SessionMeta
from referee.summary import Summary, TeamResult


@dataclass
class Tally:
    """One row of statistics: a player, a game, a player in a game, or a role in a game."""

    label: str
    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    best: int | None = None
    best_by: str | None = None
    """Who made the best score (rows that count several players): the first to reach it."""

    def add(self, won: bool, score: int | None, who: str | None = None) -> None:
        self.games += 1
        self.wins += int(won)
        if score is not None:
            if self.best is None or score > self.best:
                self.best, self.best_by = score, who
            self.scores.append(score)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games, "wins": self.wins, "win_rate": self.win_rate,
            "average_score": self.average, "best_score": self.best,
        }
        if self.best_by is not None:
            data["best_by"] = self.best_by
        return data


@dataclass
class GameTally:
    """One game's statistics: how often it was played, everyone's scores, the winning scores and the
    playing times."""

    game: str
    plays: int = 0
    scores: Tally = field(default_factory=lambda: Tally("all players"))
    winning: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    role_label: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "plays": self.plays, "average_score": self.scores.average,
            "best_score": self.scores.best, "best_by": self.scores.best_by,
            "average_winning_score": sum(self.winning) / len(self.winning) if self.winning else None,
            "average_minutes": sum(self.seconds) / len(self.seconds) / 60 if self.seconds else None,
        }


@dataclass
class Statistics:
    """Statistics over finished sessions: a row per player, per game, per player in each game and
    per role in each game."""

    sessions: int = 0
    players: dict[str, Tally] = field(default_factory=dict)
    """Keyed by the name folded to one case."""
    games: dict[str, GameTally] = field(default_factory=dict)
    player_games: dict[tuple[str, str], Tally] = field(default_factory=dict)
    roles: dict[tuple[str, str], Tally] = field(default_factory=dict)
    """(game, role) -> how players who played it did."""

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "players": [{"player": tally.label, **tally.to_json()} for tally in self.players.values()],
            "games": [tally.to_json() for tally in self.games.values()],
            "players_by_game": [
                {"player": tally.label, "game": game, **tally.to_json()}
                for (_, game), tally in self.player_games.items()
            ],
            "roles": [
                {"game": game, "role_kind": self.games[game].role_label, "role": role, **tally.to_json()}
                for (game, role), tally in self.roles.items()
            ],
        }


def gather(finished: Iterable[tuple[SessionMeta, Summary]], player: str | None = None) -> Statistics:
    """Statistics over finished sessions (oldest first); with `player`, only that person's rows."""
    stats = Statistics()
    wanted = player.casefold() if player else None
    for meta, summary in finished:
        stats.sessions += 1
        game = stats.games.setdefault(meta.game, GameTally(meta.game, role_label=summary.role_label))
        game.plays += 1
        if meta.played_seconds:
            game.seconds.append(meta.played_seconds)
        game.winning.extend(winning_scores(summary))
        for result in summary.players:
            score = result.total if summary.scored else None
            game.scores.add(result.winner, score, result.name)
            key = result.name.casefold()
            if wanted is not None and key != wanted:
                continue
            person = stats.players.setdefault(key, Tally(result.name))
            person.label = result.name  # the latest spelling
            person.add(result.winner, score)
            stats.player_games.setdefault((key, meta.game), Tally(result.name)).add(result.winner, score)
            if result.role:
                stats.roles.setdefault((meta.game, result.role), Tally(result.role)).add(
                    result.winner, score, result.name)
    for (key, _), tally in stats.player_games.items():
        tally.label = stats.players[key].label  # one spelling of a person's name in every table
    return stats


def winning_scores(summary: Summary) -> list[int]:
    """The winning sides' scores: a team (a married couple) counts once, with the team's total."""
    if not summary.scored:
        return []
    found: list[int] = []
    counted: list[TeamResult] = []
    for result in summary.players:
        if not result.winner:
            continue
        team = summary.team_of(result.name)
        if team is None:
            if result.total is not None:
                found.append(result.total)
        elif team not in counted:
            counted.append(team)
            if team.total is not None:
                found.append(team.total)
    return found


def ordered(tallies: Sequence[Tally]) -> list[Tally]:
    """Most wins first, then the better win rate, then the most games."""
    return sorted(tallies, key=lambda tally: (-tally.wins, -(tally.win_rate or 0), -tally.games, tally.label))
