"""What players ask that each section answers, kept as data beside the rulebook.

    rulebooks/<game>.questions.toml

    setup = ["how much money do we start with", "who gets the pot at the start"]
    fagus-loan = ["i'm out of money, what can i do", "who's the tree guy in the hut"]

One key per section id, each a list of the questions it answers in players' words: situations,
slang and complaints rather than the section's own terms. The search index keeps them as a field
of their own, weighted above the body text, and matches a question against each one (see
referee.rules.index). A user's imported copy may carry a file of the same format.

The files are read only when the search index is built: a lookup answered from the cache never
parses TOML.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from referee.rules.model import RulesError
from referee.rules.text import words

SUFFIX = ".questions.toml"  # also referee.rules.library.QUESTIONS_SUFFIX
LONGEST_QUESTION = 200
"""Characters in one question: a question longer than this is a paragraph, not how players ask."""

Asked = Mapping[str, tuple[str, ...]]
"""Section id -> the players' questions it answers."""


def questions_path(folder: Path, game: str) -> Path:
    return folder / f"{game}{SUFFIX}"


def parse_asked(text: str, source: str, sections: Collection[str] | None = None) -> dict[str, tuple[str, ...]]:
    """A questions file's contents, checked; `sections`, when given, are the ids it may name. A fault
    is one line naming the file and the key."""
    import tomllib  # only when the index is rebuilt or a copy imported

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{source}: not valid TOML ({error})") from None
    found: dict[str, tuple[str, ...]] = {}
    for section_id, questions in data.items():
        if sections is not None and section_id not in sections:
            raise RulesError(f"{source}: {section_id!r} is not a section of the rulebook; "
                             f"keys are section ids (`referee rules GAME` lists them)")
        if not isinstance(questions, list) or not questions:
            raise RulesError(f"{source}: {section_id} must be a list of questions, e.g. [\"who goes first\"]")
        kept: list[str] = []
        for question in questions:
            if not isinstance(question, str) or not words(question):
                raise RulesError(f"{source}: {section_id} holds {question!r}; each entry is a question in words")
            if len(question) > LONGEST_QUESTION:
                raise RulesError(f"{source}: {section_id} holds a question of {len(question)} characters; "
                                 f"at most {LONGEST_QUESTION}")
            kept.append(" ".join(question.split()))
        found[section_id] = tuple(kept)
    return found


def read_asked(path: Path, sections: Collection[str] | None = None) -> dict[str, tuple[str, ...]]:
    """The questions in a file; a missing file has none."""
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(f"cannot read questions {path}: {error}") from None
    return parse_asked(text, path.name, sections)
