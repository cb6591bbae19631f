"""How players speak: their words for the rulebooks' ideas, kept as data beside the rulebooks.

    rulebooks/shared.vocab.toml     words every game shares ("cash" -> coins, "goes first" -> first player)
    rulebooks/<game>.vocab.toml     one game's table talk ("husband" -> marriage, "king's axe" -> beheading)

A file holds up to four things:

    ignore = ["stuff", "guy"]            words that say nothing about a rule (questions only)
    reference = ["glossary", "strategy"] section ids that describe the game rather than rule on a
                                         situation; a rule question ranks them lower
    [says]
    husband = ["marriage", "spouse"]     a player's word or phrase, and the rulebook words for it
    "goes first" = ["first player"]
    [does]
    draw = ["phase-draw"]                a verb of play, and the sections of the phase where it is
    block = ["blocking", "challenge-steps"]   done (a game's own file only)

The files are read only when the search index is built; the index keeps what they say, so a
lookup answered from the cache never parses TOML.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from referee.rules.model import RulesError
from referee.rules.text import stem, words

SHARED = "*"
"""The key of the shared vocabulary among the per-game ones."""
SHARED_FILE = "shared.vocab.toml"
SUFFIX = ".vocab.toml"
LONGEST_PHRASE = 4
"""Words in a player's phrase: longer keys would never match a hurried question."""
KEYS = ("ignore", "reference", "says", "does")


class Vocabulary(NamedTuple):
    """One file's worth: the player's phrases (as word tuples), ignored words, reference sections,
    and the verbs of play with the sections of the phase each belongs to."""

    says: dict[tuple[str, ...], tuple[str, ...]]
    ignore: frozenset[str]
    reference: frozenset[str]
    does: dict[tuple[str, ...], tuple[str, ...]]

    def to_data(self) -> dict[str, Any]:
        return {"says": [[" ".join(phrase), list(meaning)] for phrase, meaning in self.says.items()],
                "ignore": sorted(self.ignore), "reference": sorted(self.reference),
                "does": [[" ".join(verb), list(sections)] for verb, sections in self.does.items()]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Vocabulary:
        return cls({tuple(phrase.split()): tuple(meaning) for phrase, meaning in data["says"]},
                   frozenset(data["ignore"]), frozenset(data["reference"]),
                   {tuple(verb.split()): tuple(sections) for verb, sections in data.get("does", [])})


EMPTY = Vocabulary({}, frozenset(), frozenset(), {})


def vocabulary_path(folder: Path, game: str) -> Path:
    return folder / (SHARED_FILE if game == SHARED else f"{game}{SUFFIX}")


def _word_list(value: object, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise RulesError(f"{where} must be a list of words, e.g. [\"marriage\", \"spouse\"]")
    return [item.strip() for item in value]


def parse_vocabulary(text: str, source: str) -> Vocabulary:
    """A vocabulary file's contents, checked; a fault is one line naming the file and the key."""
    import tomllib  # only when the index is rebuilt: a cached lookup never reads TOML

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesError(f"{source}: not valid TOML ({error})") from None
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise RulesError(f"{source}: unknown key {unknown[0]!r}; allowed: {', '.join(KEYS)}")
    says: dict[tuple[str, ...], tuple[str, ...]] = {}
    stems: dict[tuple[str, ...], str] = {}
    table = data.get("says", {})
    if not isinstance(table, dict):
        raise RulesError(f"{source}: [says] must be a table of phrase = [\"rulebook words\", ...]")
    for phrase, meaning in table.items():
        key = tuple(words(phrase))
        if not key or len(key) > LONGEST_PHRASE:
            raise RulesError(f"{source}: says.{phrase!r} must be 1 to {LONGEST_PHRASE} words")
        # Questions are matched by stems, so "tied" and "tie" are one phrase and must be one key.
        same = stems.setdefault(tuple(stem(word) for word in key), phrase)
        if same != phrase:
            raise RulesError(f"{source}: says.{phrase!r} is the same phrase as says.{same!r}; "
                             f"merge the two")
        meanings = _word_list(meaning, f"{source}: says.{phrase!r}")
        if not any(words(item) for item in meanings):
            raise RulesError(f"{source}: says.{phrase!r} names no rulebook word")
        says[key] = tuple(meanings)
    ignore = frozenset(word for item in _word_list(data.get("ignore", []), f"{source}: ignore")
                       for word in words(item))
    reference = frozenset(_word_list(data.get("reference", []), f"{source}: reference"))
    return Vocabulary(says, ignore, reference, _does(data.get("does", {}), source))


def _does(table: object, source: str) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The [does] table: a verb of play (1 to 4 words, matched by stems) = the ids of its phase's sections."""
    if not isinstance(table, dict):
        raise RulesError(f"{source}: [does] must be a table of verb = [\"section-id\", ...]")
    does: dict[tuple[str, ...], tuple[str, ...]] = {}
    stems: dict[tuple[str, ...], str] = {}
    for verb, sections in table.items():
        key = tuple(words(verb))
        if not key or len(key) > LONGEST_PHRASE:
            raise RulesError(f"{source}: does.{verb!r} must be 1 to {LONGEST_PHRASE} words")
        same = stems.setdefault(tuple(stem(word) for word in key), verb)
        if same != verb:
            raise RulesError(f"{source}: does.{verb!r} is the same verb as does.{same!r}; merge the two")
        does[key] = tuple(_word_list(sections, f"{source}: does.{verb!r}"))
    return does


def read_vocabulary(path: Path) -> Vocabulary:
    """The vocabulary in a file; a missing file is an empty vocabulary."""
    if not path.is_file():
        return EMPTY
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RulesError(f"cannot read vocabulary {path}: {error}") from None
    return parse_vocabulary(text, path.name)
