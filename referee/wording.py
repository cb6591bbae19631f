"""Counted nouns and possessives as a sentence needs them: "1 gem", "2 gems", "Three Rivers'"."""

from __future__ import annotations

import re

IRREGULAR = {"copper": "copper", "silver": "silver", "ruby": "rubies", "topaz": "topazes",
             "amethyst": "amethysts", "sapphire": "sapphires", "emerald": "emeralds", "diamond": "diamonds"}
"""Plurals that adding an s would get wrong (coins are counted as metal: '3 copper')."""


def plural(noun: str) -> str:
    if noun in IRREGULAR:
        return IRREGULAR[noun]
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def counted(count: int, noun: str) -> str:
    """'1 gem', '0 gems', '2 gems'."""
    return f"{count} {noun if count == 1 else plural(noun)}"


def possessive(name: str) -> str:
    """A place's name with its possessive: an apostrophe alone after a final s ("Three Rivers'"),
    else 's ("Stonehold's")."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


HEDGED = re.compile(r"\b(\d+) ([a-z]+)\(s\)")
"""A count with its noun hedged as "2 gem(s)": how messages were worded before `counted`."""


def unhedged(text: str) -> str:
    """`text` with each hedged count ("1 gem(s)") worded as `counted` words it ("1 gem")."""
    return HEDGED.sub(lambda match: counted(int(match[1]), match[2]), text)


COUNT_OF_ONE = re.compile(r"\b1 ([a-z]+)s\b")


def singular_after_one(text: str) -> str:
    """`text` with a plural after the count 1 made singular ('1 gems' -> '1 gem'): how an option
    labelled before its plurals were right is still recognised."""
    return COUNT_OF_ONE.sub(lambda match: f"1 {match[1]}", text)
