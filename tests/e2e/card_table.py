"""A small game of cards at a real terminal, for the known-card question: run as a script in a
pseudo-terminal. Three turns; each turn a card comes out (its colour and printed value), and the
user's catalogue already knows one card, Royal Guard (red, 4)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, when run as a script

from referee.asks import Number, choice  # noqa: E402
from referee.catalogue import CardCatalogue  # noqa: E402
from referee.cli.answerers import InteractiveAnswerer  # noqa: E402
from referee.cli.render import make_console  # noqa: E402
from referee.cli.run import run_live  # noqa: E402
from referee.engine import session as session_module  # noqa: E402
from referee.engine.cards import CardKind, ask_card, card_field, remember  # noqa: E402
from referee.engine.game import Flow, Game, Header, PublicView, Say, Steps  # noqa: E402
from referee.engine.session import LiveSession  # noqa: E402
from referee.outcome import PlayerScore, ScoreReport, Termination  # noqa: E402
from referee.store import Store  # noqa: E402

COLOUR = choice("Which card? Its colour", "cards", ["red", "blue"])
VALUE = Number("Its printed value", "cards", maximum=9)
CARD = CardKind("card", "card", (("colour", COLOUR), ("value", VALUE)))


@dataclass
class Pile:
    names: list[str]
    coins: int = 0
    turns: int = 0


class Cards(Game[Pile]):
    id = "council-of-blackthorn"  # any registered id: the session store names files after it
    rulebook = "council-of-blackthorn"

    def check_players(self, players: Sequence[str]) -> None:
        pass

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> Pile:
        return Pile(list(players))

    def play(self, state: Pile, say: Say) -> Steps:
        for _ in range(3):
            state.turns += 1
            card = yield from ask_card(CARD, "colour", COLOUR)
            yield from card_field(card, "colour", COLOUR)
            state.coins += yield from card_field(card, "value", VALUE)
            yield from remember(card)

    def final_count(self, state: Pile, say: Say) -> Flow:
        yield from ()
        return ScoreReport("cards", True, [PlayerScore(state.names[0], state.coins)], [state.names[0]])

    def termination(self, state: Pile) -> Termination | None:
        return Termination("turns-played", "three turns")

    def card_kinds(self) -> Sequence[CardKind]:
        return [CARD]

    def invariant_errors(self, state: Pile) -> list[str]:
        return []

    def header(self, state: Pile) -> Header:
        return Header(state.turns)

    def public_view(self, state: Pile) -> PublicView:
        return PublicView(["Player", "Coins"], [[state.names[0], str(state.coins)]])

    def hidden_view(self, state: Pile, player: str) -> list[str]:
        return []

    def to_json(self, state: Pile) -> dict[str, Any]:
        return {"coins": state.coins}


def main() -> int:
    game = Cards()
    session_module.load_game = lambda game_id: game  # type: ignore[assignment]
    store = Store()
    CardCatalogue(game.id, [CARD], store.root).remember("card", "Royal Guard", {"colour": "red", "value": "4"})
    live = LiveSession.start(store, game.id, ["Ann"], {})
    console = make_console()
    print(f"session {live.meta.id}", flush=True)
    return run_live(live, InteractiveAnswerer(console), console, None)


if __name__ == "__main__":
    sys.exit(main())
