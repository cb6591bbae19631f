"""Rules lookup: the rulebooks in the project's words, parsed into sections, and a ranked search.

    load_rulebook(game_id) -> Rulebook
    section(game_id, section_id) -> Section        (RulesError for an unknown id)
    search(query, game_id=None, limit=5) -> list[Result]
"""

from __future__ import annotations

from referee.rules.library import load_rulebook, search, section
from referee.rules.model import Result, Rulebook, RulesError, Section

__all__ = ["Result", "Rulebook", "RulesError", "Section", "load_rulebook", "search", "section"]
