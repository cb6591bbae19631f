"""A ranked search over rulebook sections: BM25 over weighted fields, widened and boosted.

Each section is one document. Its terms come from its title (weighted most), the glossary entries
that point to it, the source headings it covers, the enclosing section's title, and its text. A
question is cut into words; each word stands for a group of terms (its stem, the rulebook's words
for the same idea, a compound split, or the closest real word when it is misspelt) and a document
scores the best term of each group. Neighbouring question words found side by side in a section
add a phrase bonus; sections that hold more of the question's words are preferred.

The index is plain lists and dicts so it can be cached as JSON and reloaded in a few milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from referee.rules.model import Result, Rulebook
from referee.rules.text import STOPWORDS, edit_distance, stem, synonyms, terms, typo_limit, words

FORMAT = 5
"""Bump when the index layout or the text analysis changes, so old caches are rebuilt."""

FIELD_WEIGHTS = {"title": 4.0, "glossary_term": 2.0, "covers": 1.5, "parent": 1.0, "text": 1.0,
                 "glossary_meaning": 0.5}
K1 = 1.2
B = 0.6
EXACT, COMPOUND, SYNONYM, TYPO_NEAR, TYPO_FAR = 1.0, 0.8, 0.55, 0.85, 0.7
PHRASE_BONUS = 0.6
TITLE_TERM_BONUS = 1.0
"""Added per question word found in a section's title (times its weight and rarity): players
usually name the topic they mean, and the title names the topic of a section."""
TITLE_ALL_BONUS = 1.25
COVERAGE_POWER = 0.75
"""A section holding only some of the question's words keeps (held / asked) ** COVERAGE_POWER of
its score."""


class TermGroup(NamedTuple):
    """The terms one question word may match, each with how much a match counts."""

    word: str
    variants: dict[str, float]


def letter_mask(word: str) -> int:
    """The set of a word's letters as bits: one slip changes at most two of them."""
    mask = 0
    for ch in word:
        mask |= 1 << (ord(ch) & 63)
    return mask


class SearchIndex:
    """Documents (sections), a posting list per term, and the surface words for typo matching.

    Loading the cache must be quick, and a question touches only a few terms, so the bulky parts
    are kept as strings and unpacked on first use: a term's postings ("doc weight doc weight"),
    a document's word pairs and title terms, and the surface-word table.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        self.docs: list[list[Any]] = data["docs"]
        """Per section: [game, id, title, text, source, length, word pairs, title terms]."""
        self.postings: dict[str, str] = data["postings"]
        self.surface_table: str = data["surface"]
        """One line per indexed word: "word stem letter-mask"."""
        self._bigrams: dict[int, set[str]] = {}
        self._title_terms: dict[int, set[str]] = {}
        self._postings_maps: dict[str, dict[int, float]] = {}
        self._surface: list[tuple[str, str, int]] | None = None

    def to_data(self) -> dict[str, Any]:
        return {"docs": self.docs, "postings": self.postings, "surface": self.surface_table}

    @classmethod
    def build(cls, rulebooks: Iterable[Rulebook]) -> SearchIndex:
        docs: list[list[Any]] = []
        postings: dict[str, list[str]] = {}
        surface: dict[str, str] = {}
        for rulebook in rulebooks:
            pointed: dict[str, list[tuple[str, str]]] = {}
            for entry in rulebook.glossary:
                for ref in entry.refs:
                    pointed.setdefault(ref, []).append((entry.term, entry.meaning))
            for section in rulebook.sections:
                fields = {
                    "title": section.title,
                    "glossary_term": " ".join(term for term, _ in pointed.get(section.id, [])),
                    "covers": " ".join(section.covers),
                    "parent": section.parent,
                    "text": section.text,
                    "glossary_meaning": " ".join(meaning for _, meaning in pointed.get(section.id, [])),
                }
                counts: dict[str, float] = {}
                length = 0.0
                for name, value in fields.items():
                    for word in words(value):
                        if word in STOPWORDS:
                            continue
                        term = stem(word)
                        surface.setdefault(word, term)
                        counts[term] = counts.get(term, 0.0) + FIELD_WEIGHTS[name]
                        length += FIELD_WEIGHTS[name]
                number = len(docs)
                for term, weight in counts.items():
                    postings.setdefault(term, []).append(f"{number} {weight:g}")
                sequence = terms(section.title) + ["|"] + terms(section.text)
                bigrams = sorted({f"{a} {b}" for a, b in zip(sequence, sequence[1:], strict=False)
                                  if "|" not in (a, b)})
                docs.append([section.game, section.id, section.title, section.text, section.source,
                             length, "\n".join(bigrams), " ".join(sorted(set(terms(section.title))))])
        table = "\n".join(f"{word} {term} {letter_mask(word)}" for word, term in sorted(surface.items()))
        return cls({"docs": docs, "postings": {term: " ".join(items) for term, items in postings.items()},
                    "surface": table})

    # -- the question side ------------------------------------------------------------------

    def _known(self, term: str) -> bool:
        return term in self.postings

    def _surface_words(self) -> list[tuple[str, str, int]]:
        if self._surface is None:
            rows = (line.split(" ") for line in self.surface_table.split("\n") if line)
            self._surface = [(word, term, int(mask)) for word, term, mask in rows]
        return self._surface

    def _closest_words(self, word: str) -> list[tuple[str, str, int]]:
        """The index's words nearest to a misspelt word: (word, its stem, distance)."""
        limit = typo_limit(word)
        if limit == 0:
            return []
        mask = letter_mask(word)
        best: list[tuple[str, str, int]] = []
        best_distance = limit + 1
        for known, term, known_mask in self._surface_words():
            # Each slip changes at most two letters of the set: a cheap test before the real one.
            if abs(len(known) - len(word)) > limit or (mask ^ known_mask).bit_count() > 2 * limit:
                continue
            distance = edit_distance(word, known, min(limit, best_distance))
            if distance < best_distance:
                best, best_distance = [(known, term, distance)], distance
            elif distance == best_distance and distance <= limit:
                best.append((known, term, distance))
        return best

    def _compound(self, word: str) -> list[str]:
        """A run-together word split into two indexed words ("tiebreak" -> "tie", "break")."""
        for cut in range(2, len(word) - 1):
            left, right = word[:cut], word[cut:]
            if (left not in STOPWORDS and right not in STOPWORDS
                    and self._known(stem(left)) and self._known(stem(right))):
                return [stem(left), stem(right)]
        return []

    def groups(self, query: str) -> list[TermGroup]:
        raw = words(query)
        meaningful = [word for word in raw if word not in STOPWORDS] or raw
        groups: list[TermGroup] = []
        for word in meaningful:
            own = stem(word)
            variants: dict[str, float] = {}
            if self._known(own):
                variants[own] = EXACT
            else:
                parts = self._compound(word)
                if parts:
                    for part in parts:
                        groups.append(TermGroup(word, {part: COMPOUND}))
                    continue
                for known, term, distance in self._closest_words(word):
                    weight = TYPO_NEAR if distance == 1 else TYPO_FAR
                    variants[term] = max(variants.get(term, 0.0), weight)
                    for other in synonyms(known):
                        if self._known(other):
                            variants.setdefault(other, weight * SYNONYM)
            for other in synonyms(word):
                if self._known(other):
                    variants.setdefault(other, SYNONYM)
            if variants:
                groups.append(TermGroup(word, variants))
        return groups

    # -- ranking ----------------------------------------------------------------------------

    def _bigram_set(self, doc: int) -> set[str]:
        found = self._bigrams.get(doc)
        if found is None:
            found = self._bigrams[doc] = set(self.docs[doc][6].split("\n"))
        return found

    def _title_set(self, doc: int) -> set[str]:
        found = self._title_terms.get(doc)
        if found is None:
            found = self._title_terms[doc] = set(self.docs[doc][7].split())
        return found

    def _posting_map(self, term: str) -> dict[int, float]:
        cached = self._postings_maps.get(term)
        if cached is None:
            numbers = self.postings.get(term, "").split()
            pairs = zip(numbers[::2], numbers[1::2], strict=True)
            cached = {int(doc): float(weight) for doc, weight in pairs}
            self._postings_maps[term] = cached
        return cached

    def search(self, query: str, games: Sequence[str] | None = None, limit: int = 5) -> list[Result]:
        scope = [number for number, doc in enumerate(self.docs) if games is None or doc[0] in games]
        if not scope:
            return []
        in_scope = set(scope)
        average_length = sum(self.docs[number][5] for number in scope) / len(scope) or 1.0
        groups = self.groups(query)
        if not groups:
            return []

        def idf(term: str) -> float:
            frequency = sum(1 for doc in self._posting_map(term) if doc in in_scope)
            return math.log(1.0 + (len(scope) - frequency + 0.5) / (frequency + 0.5))

        idfs = {term: idf(term) for group in groups for term in group.variants}
        scores: dict[int, float] = {}
        matched: dict[int, int] = {}
        in_title: dict[int, int] = {}
        for group in groups:
            best: dict[int, float] = {}
            for term, weight in group.variants.items():
                for doc, frequency in self._posting_map(term).items():
                    if doc not in in_scope:
                        continue
                    norm = K1 * (1 - B + B * self.docs[doc][5] / average_length)
                    value = weight * idfs[term] * frequency * (K1 + 1) / (frequency + norm)
                    if value > best.get(doc, 0.0):
                        best[doc] = value
            for doc, value in best.items():
                scores[doc] = scores.get(doc, 0.0) + value
                matched[doc] = matched.get(doc, 0) + 1
                title_value = max((weight * idfs[term] for term, weight in group.variants.items()
                                   if term in self._title_set(doc)), default=0.0)
                if title_value:
                    in_title[doc] = in_title.get(doc, 0) + 1
                    scores[doc] += TITLE_TERM_BONUS * title_value

        for first, second in zip(groups, groups[1:], strict=False):
            pairs = [(a, b, min(wa, wb)) for a, wa in first.variants.items()
                     for b, wb in second.variants.items()]
            for doc in scores:
                bonus = max((weight * (idfs[a] + idfs[b]) / 2 for a, b, weight in pairs
                             if f"{a} {b}" in self._bigram_set(doc)), default=0.0)
                scores[doc] += PHRASE_BONUS * bonus

        ranked: list[tuple[float, int]] = []
        for doc, score in scores.items():
            score *= (matched[doc] / len(groups)) ** COVERAGE_POWER
            if in_title.get(doc, 0) == len(groups):
                score *= TITLE_ALL_BONUS
            ranked.append((score, doc))
        ranked.sort(key=lambda item: (-item[0], item[1]))
        results = []
        for score, doc in ranked[:limit]:
            game, section_id, title, text, source = self.docs[doc][:5]
            results.append(Result(game, section_id, title, text, score, source))
        return results
