"""A question as the screen shows it: the prompt with its options (cli/asking.py), a yes-or-no
question's two answers, and a default said once, so that every question says what it takes."""

from __future__ import annotations

import re
from typing import Any

from referee.asks import Ask, Choice, Confirm
from referee.cli.asking import prompt_for

YES_OR_NO = "[yes/no]"
ENTER_SAID = re.compile(r"\bEnter (?:to|when|for|=)|\(Enter\b")
"""A prompt that says itself what Enter does ('...; Enter to go on'), as opposed to 'Enter the
hirelings spent', where Enter means type."""
LONGEST_LISTING = 160
"""Beyond this many characters a long list of options is not spelt out in the prompt (two lines
of an 80-column terminal): the prompt says how many there are and that Tab lists them."""


def listing(ask: Choice[Any]) -> str:
    """The options of a choice too long for cli/asking.py to list (more than nine numbers)."""
    spelt = " ".join(f"{number}={option}" for number, option in zip(ask.numbers, ask.options, strict=True))
    if len(spelt) <= LONGEST_LISTING:
        return f" [{spelt}]"
    return f" ({len(ask.options)} options: Tab lists them; a number or a name answers)"


def shown_prompt(ask: Ask[Any]) -> str:
    """The prompt of `ask` on the screen; a Confirm names its answers before any default, and a
    prompt that says what Enter does is not told it again."""
    text = prompt_for(ask)
    if not text.startswith(ask.prompt):
        return text
    added = text[len(ask.prompt):]
    if ask.default and ENTER_SAID.search(ask.prompt):
        added = added.replace(f" (Enter = {ask.default})", "")
    if isinstance(ask, Confirm) and YES_OR_NO not in ask.prompt:
        added = f" {YES_OR_NO}{added}"
    elif isinstance(ask, Choice) and max(ask.numbers) > 9 and not added.startswith(" ["):
        added = listing(ask) + added
    return f"{ask.prompt}{added}"
