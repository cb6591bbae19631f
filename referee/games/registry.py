"""The games the referee knows: ids, names, aliases, player counts, and where their code lives.

Modules are named, not imported, so that listing games or looking up a rule stays fast; a game's
code is imported only by the command that needs it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from referee.errors import UnknownGame


@dataclass(frozen=True)
class GameInfo:
    """A game the referee knows: its id, name, aliases, player counts and the modules that score and
    guide it."""

    id: str
    name: str
    aliases: tuple[str, ...]
    min_players: int
    max_players: int
    scoring_module: str
    """Module with parse_input(data) -> holdings, score(holdings) -> ScoreReport, ask_holdings(names)."""
    play_module: str | None = None
    """Module with GAME: the guided session (a referee.engine.game.Game)."""

    @property
    def players_text(self) -> str:
        return f"{self.min_players}-{self.max_players}"

    def scoring(self) -> ModuleType:
        return importlib.import_module(self.scoring_module)

    def play(self) -> ModuleType | None:
        return importlib.import_module(self.play_module) if self.play_module else None


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        "council-of-blackthorn", "Council of Blackthorn", ("blackthorn", "cob"), 2, 6,
        "referee.games.blackthorn.scoring", "referee.games.blackthorn.game",
    ),
    GameInfo(
        "council-of-serpents", "Council of Serpents", ("serpents", "cos"), 1, 4,
        "referee.games.serpents.scoring", "referee.games.serpents.game",
    ),
    GameInfo(
        "blackwood", "Blackwood", ("bw",), 2, 4, "referee.games.blackwood.scoring", "referee.games.blackwood.game"
    ),
    GameInfo(
        "cutthroat-kingdoms", "Cutthroat Kingdoms", ("cutthroat", "ck"), 3, 6,
        "referee.games.cutthroat.scoring", "referee.games.cutthroat.game",
    ),
    GameInfo(
        "got-lcg-1e", "A Game of Thrones: The Card Game (1st edition)", ("got", "agot", "thrones"), 2, 4,
        "referee.games.got.scoring", "referee.games.got.game",
    ),
)


def short_name(game_id: str) -> str:
    """A game's short name, different for every game (the two Councils included): its id when
    that is one word, else its first alias."""
    for game in GAMES:
        if game.id == game_id:
            return game.id if "-" not in game.id or not game.aliases else game.aliases[0]
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


def did_you_mean(wanted: str) -> str:
    """' (did you mean blackthorn?)' for a name close to a game's id or alias, else ''."""
    import difflib

    names = {name: game for game in GAMES for name in (game.id, *game.aliases)}
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
