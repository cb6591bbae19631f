"""A small game of cards at a real terminal, for the known-card question: run as a script in a
pseudo-terminal (the game is tests/card_game.py); the user's catalogue already knows one card,
Royal Guard (red, 4)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, when run as a script
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' own modules

from card_game import CARD, Cards  # noqa: E402

from referee.catalogue import CardCatalogue  # noqa: E402
from referee.cli.answerers import InteractiveAnswerer  # noqa: E402
from referee.cli.render import make_console  # noqa: E402
from referee.cli.run import run_live  # noqa: E402
from referee.session import LiveSession  # noqa: E402
from referee.store import Store  # noqa: E402


def main() -> int:
    game = Cards()
    store = Store()
    CardCatalogue(game.id, [CARD], store.root).remember("card", "Royal Guard", {"colour": "red", "value": "4"})
    live = LiveSession.start(store, game, ["Ann"], {})
    console = make_console()
    print(f"session {live.meta.id}", flush=True)
    return run_live(live, InteractiveAnswerer(console), console, None)


if __name__ == "__main__":
    sys.exit(main())
