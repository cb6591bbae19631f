"""A question as the screen shows it: the prompt with its options (cli/asking.py), and a yes-or-no
question's two answers, so that every question says what it takes."""

from __future__ import annotations

from typing import Any

from referee.asks import Ask, Confirm
from referee.cli.asking import prompt_for

YES_OR_NO = "[yes/no]"


def shown_prompt(ask: Ask[Any]) -> str:
    """The prompt of `ask` on the screen; a Confirm names its answers before any default."""
    text = prompt_for(ask)
    if not isinstance(ask, Confirm) or YES_OR_NO in ask.prompt or not text.startswith(ask.prompt):
        return text
    return f"{ask.prompt} {YES_OR_NO}{text[len(ask.prompt):]}"
