"""The rulebooks the referee can search: the project's own and the copies a user imported.

Parsing every rulebook and building the index takes tens of milliseconds, more than a quick lookup
can spare, so the built index is cached in the data directory as JSON, keyed by the name, size and
modification time of every rulebook file. A changed, added or removed file rebuilds it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from referee.rules import paths
from referee.rules.index import FORMAT, SearchIndex
from referee.rules.model import BUILT_IN, Result, Rulebook, RulesError, Section
from referee.safe_files import read_cache, write_cache

# Parsing (referee.rules.parse, referee.rules.imports) is imported only when a rulebook is read
# or the index is rebuilt: a lookup answered from the cache never needs it.

QUESTIONS_SUFFIX = ".questions.toml"
"""The players' questions beside a rulebook (referee.rules.asked.SUFFIX, which a lookup from the
cache need not import)."""
LONGEST_QUERY = 300
WELL_MATCHED = 0.5
"""The least match quality (see Result.quality) of an answer: below it, at most half of the
question was found, and the player is better served by "did you mean"."""
OTHER_GAME_SHARE = 0.3
OTHER_GAME_QUALITY = 0.75
"""Asked across every game, another game's best section is shown when it matches the question
nearly as asked (quality at least OTHER_GAME_QUALITY) and scores at least OTHER_GAME_SHARE of the
best one: "who goes first" has an answer in each game, "brew a potion" only in Blackwood."""


def builtin_games() -> list[str]:
    """Ids of the games that have a rulebook in the project, sorted."""
    folder = paths.builtin_dir()
    if not folder.is_dir():
        return []
    return sorted(path.stem for path in folder.glob("*.md") if path.stem.lower() != "readme")


def imported_games() -> list[str]:
    folder = paths.imported_dir()
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(path.stem for path in folder.glob("*.json"))


def resolve_game(name: str) -> str:
    """A game id from an id or alias; it must have a rulebook or an imported copy."""
    wanted = name.strip().lower()
    if not wanted:
        raise RulesError("no game given; give a game id or alias (`referee games` lists them)")
    if wanted in builtin_games() or wanted in imported_games():
        return wanted
    from referee.games.registry import find_game

    try:
        game_id = find_game(wanted).id
    except ValueError as error:
        raise RulesError(str(error)) from None
    if game_id not in builtin_games() and game_id not in imported_games():
        raise RulesError(f"no rulebook for {game_id} yet (expected {paths.builtin_dir() / game_id}.md)")
    return game_id


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(f"cannot read rulebook {path}: {error}") from None


def load_rulebook(game_id: str) -> Rulebook:
    """The project's rulebook for a game (id or alias), parsed into sections and a glossary."""
    game = resolve_game(game_id)
    path = paths.builtin_dir() / f"{game}.md"
    if not path.is_file():
        raise RulesError(f"no built-in rulebook for {game}; only an imported copy (`referee rules {game}`)")
    info = path.stat()
    stamp = (str(path), info.st_size, info.st_mtime_ns)
    known = _parsed.get(game)
    if known is not None and known[0] == stamp:
        return known[1]
    from referee.rules.parse import parse_rulebook

    rulebook = parse_rulebook(_read(path), game, BUILT_IN)
    _parsed[game] = (stamp, rulebook)
    return rulebook


_parsed: dict[str, tuple[tuple[str, int, int], Rulebook]] = {}
"""Rulebooks already parsed in this process (a guided session asks for sections often)."""


def section(game_id: str, section_id: str) -> Section:
    """One section of a game's rulebook by its id; a clear error names the known ids otherwise."""
    from referee.rules.imports import load_imported

    game = resolve_game(game_id)
    if (paths.builtin_dir() / f"{game}.md").is_file():
        rulebook = load_rulebook(game)
        if rulebook.has(section_id.strip().lstrip("#").lower()):
            return rulebook.section(section_id)
        copy = load_imported(game)
        if copy is not None and copy.has(section_id.strip().lstrip("#").lower()):
            return copy.section(section_id)
        return rulebook.section(section_id)
    copy = load_imported(game)
    if copy is None:
        raise RulesError(f"no rulebook for {game}")
    return copy.section(section_id)


def _files() -> list[Path]:
    """Every file the index is built from: rulebooks, their vocabularies, imported copies."""
    from referee.rules.vocabulary import SHARED, vocabulary_path

    folder = paths.builtin_dir()
    found = [folder / f"{game}.md" for game in builtin_games()]
    found += [path for game in [SHARED, *builtin_games(), *imported_games()]
              if (path := vocabulary_path(folder, game)).is_file()]
    found += [path for game in builtin_games() if (path := folder / f"{game}{QUESTIONS_SUFFIX}").is_file()]
    found += [paths.imported_dir() / f"{game}.json" for game in imported_games()]
    return found


def _cache_key(files: list[Path]) -> list[Any]:
    key: list[Any] = [FORMAT]
    for path in files:
        info = path.stat()
        key.append([str(path), info.st_size, info.st_mtime_ns])
    return key


def _build() -> SearchIndex:
    from referee.rules.asked import questions_path, read_asked
    from referee.rules.imports import load_imported
    from referee.rules.parse import parse_rulebook
    from referee.rules.vocabulary import SHARED, read_vocabulary, vocabulary_path

    rulebooks: list[Rulebook] = []
    for game in builtin_games():
        rulebook = parse_rulebook(_read(paths.builtin_dir() / f"{game}.md"), game, BUILT_IN)
        rulebook.asked = read_asked(questions_path(paths.builtin_dir(), game),
                                    {section.id for section in rulebook.sections})
        rulebooks.append(rulebook)
    for game in imported_games():
        try:
            copy = load_imported(game)
        except RulesError:
            continue  # one damaged copy must not stop lookups in the others; `rules GAME` names it
        if copy is not None:
            rulebooks.append(copy)
    folder = paths.builtin_dir()
    vocabularies = {game: read_vocabulary(vocabulary_path(folder, game))
                    for game in {SHARED, *(rulebook.game for rulebook in rulebooks)}}
    return SearchIndex.build(rulebooks, vocabularies)


_memory: tuple[list[Any], SearchIndex] | None = None


def search_index() -> SearchIndex:
    """The index over every rulebook, from memory, the cache file, or built afresh."""
    global _memory
    files = _files()
    key = _cache_key(files)
    if _memory is not None and _memory[0] == key:
        return _memory[1]
    cache = paths.cache_file()
    index: SearchIndex | None = None
    try:
        stored = json.loads(read_cache(cache, paths.data_dir()) or "{}")  # as it was written, never through a link
        if stored.get("key") == key:
            index = SearchIndex(stored["index"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        index = None
    if index is None:
        index = _build()
        _write_cache(key, index)
    _memory = (key, index)
    return index


def _write_cache(key: list[Any], index: SearchIndex) -> None:
    """Keep a built index for the next lookup: the one place the rules index cache is written."""
    text = json.dumps({"key": key, "index": index.to_data()}, separators=(",", ":"))
    write_cache(paths.cache_file(), text, paths.data_dir())


def _check(query: str, limit: int | None) -> None:
    if not query.strip() or not any(ch.isalnum() for ch in query):
        raise RulesError("empty question; ask in words, e.g. `referee rules blackwood brew a potion`")
    if len(query) > LONGEST_QUERY:
        raise RulesError(f"question too long ({len(query)} characters); at most {LONGEST_QUERY}")
    if limit is not None and limit < 1:
        raise RulesError(f"limit must be at least 1, got {limit}")


def _learned(games: list[str] | None) -> dict[tuple[str, str], list[str]]:
    """The phrasings the table taught (referee.rules.learned), read only when some were kept."""
    if not os.path.lexists(paths.learned_file()):
        return {}
    from referee.rules.learned import for_search

    return for_search(games)


def search(query: str, game_id: str | None = None, limit: int = 5) -> list[Result]:
    """The sections that best answer a question, best first, from one game or from all of them."""
    _check(query, limit)
    games = [resolve_game(game_id)] if game_id is not None else None
    return search_index().search(query, games, limit, learned=_learned(games))


def search_every_game(query: str, limit: int | None = None) -> list[Result]:
    """Each game's own best answer to a question, best first: the best section overall, then the
    best of every other game that answers it well too (at most `limit` in all)."""
    _check(query, limit)
    index = search_index()
    games = sorted({doc[0] for doc in index.docs})
    found = index.search(query, None, len(games), per_game=1, learned=_learned(None))
    if not found:
        return []
    best = found[0]
    kept = [best] + [result for result in found[1:]
                     if result.quality >= OTHER_GAME_QUALITY and result.score >= OTHER_GAME_SHARE * best.score]
    return kept[:limit]


def section_ids(game_id: str) -> list[str]:
    """Every section id of a game: its rulebook's and its imported copy's."""
    from referee.rules.imports import load_imported

    game = resolve_game(game_id)
    found = [section.id for section in load_rulebook(game).sections] if game in builtin_games() else []
    copy = load_imported(game)
    if copy is not None:
        found += [section.id for section in copy.sections if section.id not in found]
    return found


def titles() -> dict[tuple[str, str], str]:
    """(game, section id) -> title, for every section the index holds."""
    return {(doc[0], doc[1]): doc[2] for doc in search_index().docs}


def matches_well(results: list[Result]) -> bool:
    """Whether the best result answers the question, rather than touching a word of it."""
    return bool(results) and results[0].quality >= WELL_MATCHED


def corrections(query: str, game_id: str | None = None) -> list[tuple[str, str]]:
    """Question words the rulebooks do not know, each with the nearest word they do use."""
    index = search_index()
    games = [resolve_game(game_id)] if game_id is not None else sorted({doc[0] for doc in index.docs})
    return index.corrections(query, games)
