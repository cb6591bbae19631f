"""The games the referee knows: ids, names, aliases, player counts, and how to load their code.

A row names what is listed before any of a game's code is loaded (so that listing games or looking
up a rule stays fast) and the game package's two loaders: its guided session (a Game) and its
scoring on its own (a Scoring). Everything else about a game is declared by its Game class.
The layers above hand the engine a Game (or `load_game`) taken from here; the engine itself never
looks a game up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.errors import SessionError, UnknownGame
from referee.games import blackthorn, blackwood, cutthroat, got, serpents

if TYPE_CHECKING:
    from referee.engine.game import Game
    from referee.outcome import Scoring


@dataclass(frozen=True)
class GameInfo:
    """A game the referee knows: its id, name, aliases and player counts, and its loaders."""

    id: str
    name: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    scoring: Callable[[], Scoring]
    """Loads how the game scores holdings on its own (`referee score`)."""
    guided: Callable[[], Game[Any]] | None = None
    """Loads the guided session; None for a game the referee only scores."""

    @property
    def players_text(self) -> str:
        return f"{self.min_players}-{self.max_players}"

    @property
    def short_name(self) -> str:
        """Different for every game (the two Councils included): the id when it is one word, else
        the first alias. Session ids carry it."""
        return self.id if "-" not in self.id or not self.aliases else self.aliases[0]


GAMES: tuple[GameInfo, ...] = (
    GameInfo("council-of-blackthorn", "Council of Blackthorn", ("blackthorn", "cob"), 2, 6,
             blackthorn.load_scoring, blackthorn.load_guided),
    GameInfo("council-of-serpents", "Council of Serpents", ("serpents", "cos"), 1, 4,
             serpents.load_scoring, serpents.load_guided),
    GameInfo("blackwood", "Blackwood", ("bw",), 2, 4, blackwood.load_scoring, blackwood.load_guided),
    GameInfo("cutthroat-kingdoms", "Cutthroat Kingdoms", ("cutthroat", "ck"), 3, 6,
             cutthroat.load_scoring, cutthroat.load_guided),
    GameInfo("got-lcg-1e", "A Game of Thrones: The Card Game (1st edition)", ("got", "agot", "thrones"), 2, 4,
             got.load_scoring, got.load_guided),
)


def short_name(game_id: str) -> str:
    """A stored game id's short name (see GameInfo.short_name); an id no row has stays as it is."""
    for game in GAMES:
        if game.id == game_id:
            return game.short_name
    return game_id


def find_game(name: str) -> GameInfo:
    """A game by id, alias or unambiguous id prefix, ignoring case."""
    wanted = name.strip().lower()
    for game in GAMES:
        if wanted == game.id or wanted in game.aliases:
            return game
    prefixed = [game for game in GAMES if game.id.startswith(wanted)] if wanted else []
    if len(prefixed) == 1:
        return prefixed[0]
    known = ", ".join(f"{game.id} ({', '.join(game.aliases)})" for game in GAMES)
    raise UnknownGame(f"unknown game {name!r}{did_you_mean(wanted)}; known games: {known}")


def load_game(name: str) -> Game[Any]:
    """The guided session of a game named by id, alias or prefix (what the engine is handed)."""
    info = find_game(name)
    if info.guided is None:
        raise SessionError(f"{info.name} has no guided session yet; use 'referee score {info.id}'")
    return info.guided()


def did_you_mean(wanted: str) -> str:
    """' (did you mean blackthorn?)' for a name close to a game's id or alias, else ''."""
    import difflib

    names = {name: game for game in GAMES for name in (game.id, *game.aliases)}
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
