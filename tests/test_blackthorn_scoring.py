"""Council of Blackthorn end-of-game scoring entered on its own: the final round's turn order,
which settles the last tie-break, from the input or asked when it decides."""

from __future__ import annotations

import copy
import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from referee.asks import Question, build
from referee.errors import ScoreInputError
from referee.games.blackthorn.scoring import ask_holdings, score_input

EXAMPLE = Path(__file__).resolve().parent.parent / "scenarios" / "score" / "council-of-blackthorn-turn-order.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def test_the_final_rounds_turn_order_breaks_the_last_tie() -> None:
    # Ann 26 + 30 + 5 and Bo 21 + 34 + 6 both make 61 with 2 treason points; Cy (6 points) is beheaded.
    data = example()
    report = score_input(data)
    assert (report.player("Ann").total, report.player("Bo").total) == (61, 61)
    assert report.player("Cy").eliminated
    assert report.winners == ["Bo"]  # Bo played before Ann in the final round (Cy, Bo, Ann)
    assert "The final round's turn order: Cy, Bo, Ann ('turn_order' in the input)." in report.notes
    assert report.player("Bo").rank == 1 and report.player("Ann").rank == 2
    del data["turn_order"]
    report = score_input(data)
    assert report.winners == ["Ann"]  # without it, the order of 'players' is the turn order
    assert "The final round's turn order: Ann, Bo, Cy (the order of 'players' in the input)." in report.notes


@pytest.mark.parametrize(
    "order", [["Cy", "Bo"], ["Cy", "Bo", "Bo"], ["Cy", "Bo", "Di"], "Cy,Bo,Ann", ["Cy", "Bo", 3]]
)
def test_a_turn_order_must_name_every_player_once(order: object) -> None:
    data = copy.deepcopy(example())
    data["turn_order"] = order
    with pytest.raises(ScoreInputError, match="turn_order"):
        score_input(data)


Entry = Generator[Question, Any, dict[str, Any]]


def answer_all(questions: Entry, answers: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Drive an entry generator with typed answers; returns its result and the prompts it asked."""
    asked: list[str] = []
    pending = build(next(questions))
    try:
        for answer in answers:
            asked.append(pending.prompt)
            pending = build(questions.send(pending.parse(answer)))
    except StopIteration as done:
        result: dict[str, Any] = done.value
        return result, asked
    raise AssertionError(f"more questions than answers; next: {pending.prompt}")


ANN = ["9", "0", "4", "13", "30", "5", "0", "2"]
BO = ["13", "5", "3", "0", "34", "none", "3", "2"]


def test_asked_at_a_prompt_who_played_first_is_asked_only_when_it_decides() -> None:
    entered, asked = answer_all(ask_holdings(["Ann", "Bo"]), [*ANN, *BO, "Bo"])
    assert asked[-1].startswith("Ann and Bo tie on influence and treason: who played first in the final round")
    assert entered["turn_order"] == ["Bo", "Ann"]
    assert score_input(entered).winners == ["Bo"]
    untied, asked = answer_all(ask_holdings(["Ann", "Bo"]), [*ANN, *BO[:-1], "1"])  # Bo: 1 treason point
    assert "turn_order" not in untied and len(asked) == 16
    assert score_input(untied).winners == ["Bo"]
