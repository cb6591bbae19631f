"""What kind of answer a question asks for, read from how it is asked.

"Can I attack my husband's land?", "what happens when the deck runs out", "who goes first": a
question word and a situation ask for the section that rules on that situation. A section that
only describes the game (its overview, components, glossary, strategy hints) mentions the same
words without ruling on anything, so it ranks lower for such a question. "What is a puppet?"
or "what does claim mean" ask what a word means, and there the glossary is a fair answer.
A bare topic ("renown", "plague") says neither, and describing sections are demoted only a little.
"""

from __future__ import annotations

from enum import Enum

from referee.rules.text import words


class Form(Enum):
    RULE = "rule"
    """A question about what happens, what is allowed, who or when or how much."""
    MEANING = "meaning"
    """A question about what a word or a thing is."""
    TOPIC = "topic"
    """Keywords without a question form."""


RULE_CUES = frozenset(
    """can could may might must should do does did is are am was were will would who whom whose
    when which how if what whats where why shall happen happens allowed""".split()
)
"""Words that make a question about play, wherever they stand ("i'm broke, can i get a loan")."""

MEANING_PATTERNS = (
    ("what", "is", "a"), ("what", "is", "an"), ("what", "are"), ("whats", "a"), ("what", "s", "a"),
    ("define",), ("definition",), ("meaning",),
)
MEANING_WORDS = frozenset({"mean", "means", "meant", "meaning", "definition", "define", "glossary"})

REFERENCE_FACTOR = {Form.RULE: 0.7, Form.MEANING: 1.0, Form.TOPIC: 0.8}
"""What a describing section keeps of its score for each form of question."""


def form_of(question: str) -> Form:
    """The form of a question, from its opening and from words that ask for a meaning."""
    asked = words(question.replace("\u2019", "'").replace("'", " "))
    if not asked:
        return Form.TOPIC
    if MEANING_WORDS & set(asked) or any(tuple(asked[:len(pattern)]) == pattern and
                                          (pattern[0] != "what" or len(asked) <= len(pattern) + 3)
                                          for pattern in MEANING_PATTERNS):
        return Form.MEANING
    if RULE_CUES & set(asked):
        return Form.RULE
    return Form.TOPIC
