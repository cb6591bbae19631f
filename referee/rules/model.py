"""What a rulebook is made of once read: sections, glossary entries, and search results.

Named tuples rather than dataclasses: a lookup starts a whole process, and building a dataclass
at import costs about a millisecond each.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from referee.errors import RefereeError

BUILT_IN = "built-in"
"""The source of the sections from the project's own rulebooks in `rulebooks/`."""

IMPORTED_PREFIX = "imported:"
"""Sources of sections from a user's imported copy read `imported:<file name>`."""


class RulesError(RefereeError, ValueError):
    """A rules lookup that cannot be answered: unknown game, section or file, or an unusable query."""


class Section(NamedTuple):
    """One topic of a rulebook, with the stable id code and questions refer to."""

    game: str
    id: str
    title: str
    level: int
    referee: str
    """"automates", "asks", "table", or "" when the source does not say (imported copies)."""
    covers: tuple[str, ...]
    see_also: tuple[str, ...]
    text: str
    source: str = BUILT_IN
    parent: str = ""
    """Title of the enclosing `##` section for a `###` subsection."""
    settles: tuple[str, ...] = ()
    """For a ruling: the ids of the rules whose open point it settles (its `Settles:` line)."""

    def markdown(self) -> str:
        """The section as Markdown, headed by its title and id."""
        lines = [f"## {self.title} {{#{self.id}}}"]
        if self.referee:
            lines.append(f"Referee: {self.referee}")
        if self.source != BUILT_IN:
            lines.append(f"Source: {self.source}")
        if self.settles:
            lines.append("Settles: " + ", ".join(f"#{ref}" for ref in self.settles))
        lines.append("")
        lines.append(self.text)
        if self.see_also:
            lines.append("")
            lines.append("See also: " + ", ".join(f"#{ref}" for ref in self.see_also))
        return "\n".join(lines).rstrip() + "\n"


class GlossaryEntry(NamedTuple):
    term: str
    meaning: str
    refs: tuple[str, ...]
    """Ids of the sections the entry points to."""


class Rulebook:
    """A game's rulebook (the project's own, or a user's imported copy) cut into sections."""

    def __init__(self, game: str, title: str, sections: tuple[Section, ...],
                 glossary: tuple[GlossaryEntry, ...] = (), source: str = BUILT_IN,
                 asked: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self.game = game
        self.title = title
        self.sections = sections
        self.glossary = glossary
        self.source = source
        self.asked: Mapping[str, tuple[str, ...]] = asked or {}
        """Section id -> the players' questions it answers (see referee.rules.asked)."""
        self._by_id = {section.id: section for section in sections}

    def __repr__(self) -> str:
        return f"Rulebook({self.game!r}, {len(self.sections)} sections, source={self.source!r})"

    def section(self, section_id: str) -> Section:
        wanted = section_id.strip().lstrip("#").lower()
        found = self._by_id.get(wanted)
        if found is None:
            sample = ", ".join(section.id for section in self.sections[:8])
            more = ", ..." if len(self.sections) > 8 else ""
            raise RulesError(
                f"no section {section_id!r} in {self.game}; known ids: {sample}{more} "
                f"(`referee rules {self.game}` lists them all)"
            )
        return found

    def has(self, section_id: str) -> bool:
        return section_id.strip().lstrip("#").lower() in self._by_id


class Result(NamedTuple):
    """A section that answers a question, with how well it matched."""

    game: str
    section: str
    title: str
    text: str
    score: float
    source: str
    quality: float = 1.0
    """How much of the question the section matched, 0 to 1: every word found as asked is 1;
    words found only through a typo or a player's synonym count less, words not found count 0."""
    related: tuple[tuple[str, str], ...] = ()
    """(id, title) of the sections a player reads next: the ruling of a rule, the rule of a
    ruling, the phase of a term."""

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "section": self.section,
            "title": self.title,
            "text": self.text,
            "score": round(self.score, 3),
            "source": self.source,
            "see_also": [section for section, _ in self.related],
        }
