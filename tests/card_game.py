"""A small game of cards for the catalogue's tests and the known-card terminal test: three turns;
each turn a card comes out, its colour and its printed value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.asks import Number, choice
from referee.engine.cards import CardKind, ask_card, card_field, remember
from referee.engine.game import Flow, Game, Header, PublicView, Say, Setup, Steps
from referee.outcome import PlayerScore, ScoreReport, Termination

COLOUR = choice("Which card? Its colour", "cards", ["red", "blue"])
VALUE = Number("Its printed value", "cards", maximum=9)
CARD = CardKind("card", "card", (("colour", COLOUR), ("value", VALUE)))


@dataclass
class Pile:
    names: list[str]
    coins: int = 0
    red: int = 0
    turns: int = 0


class Cards(Game[Pile]):
    """Three turns; each turn a card comes out: its colour and its printed value."""

    id = "council-of-blackthorn"  # any registered id: the session store names files after it
    rulebook = "council-of-blackthorn"

    def check_players(self, players: Sequence[str]) -> None:
        pass

    def initial_state(self, setup: Setup) -> Pile:
        return Pile(list(setup.players))

    def play(self, state: Pile, say: Say) -> Steps:
        for _ in range(3):
            state.turns += 1
            card = yield from ask_card(CARD, "colour", COLOUR)
            colour = yield from card_field(card, "colour", COLOUR)
            value = yield from card_field(card, "value", VALUE)
            state.coins += value
            state.red += colour == "red"
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
        return {"coins": state.coins, "red": state.red}


GAME = Cards()
