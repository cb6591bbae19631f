"""Rules lookup: the rulebooks in the project's words, parsed into sections, and a ranked search.

    load_rulebook(game_id) -> Rulebook
    section(game_id, section_id) -> Section        (RulesError for an unknown id)
    search(query, game_id=None, limit=5) -> list[Result]

The names are loaded when first used: a game reads its numbers from referee.rules.paths at every
start, and should not pay for the search on the way to its first question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.rules.library import load_rulebook, search, section
    from referee.rules.model import Result, Rulebook, RulesError, Section

__all__ = ["Result", "Rulebook", "RulesError", "Section", "load_rulebook", "search", "section"]
LIBRARY = ("load_rulebook", "search", "section")


def __getattr__(name: str) -> Any:
    if name in LIBRARY:
        from referee.rules import library

        return getattr(library, name)
    if name in __all__:
        from referee.rules import model

        return getattr(model, name)
    raise AttributeError(f"module 'referee.rules' has no attribute {name!r}")
