"""The question of a witch's turn, in both steps: a placement or a purchase, an additional action,
or 'done'. It is a builder: a correction at it (coins, potions, spells) rebuilds its text, the
actions it offers and what it accepts."""

from __future__ import annotations

from collections.abc import Callable

from referee.asks import Builder, Parsed
from referee.games.blackwood.flow.actions import loan_note
from referee.games.blackwood.parse import TurnAnswer, TurnOptions, read_turn_answer, turn_examples, turn_hint
from referee.games.blackwood.state import Table, Witch


def turn_question(
    table: Table,
    witch: Witch,
    section: str,
    prompt: Callable[[TurnOptions], str],
    options: Callable[[], TurnOptions],
) -> Builder[TurnAnswer]:
    """The witch's question as it stands now: `options()` says what her turn allows, `prompt` words it."""
    rows = len(table.forest)

    def build() -> Parsed[TurnAnswer]:
        now = options()
        text = prompt(now)
        if now.actions:
            text += f" [actions: {', '.join(now.actions)}]"
        text += loan_note(table, witch)
        return Parsed(
            text,
            section,
            parser=lambda answer: read_turn_answer(answer, rows, now),
            hint=turn_hint(now),
            examples=turn_examples(now),
        )

    return build
