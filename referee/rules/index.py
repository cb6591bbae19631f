"""A ranked search over rulebook sections: BM25 over weighted fields, widened and boosted.

Each section is one document. Its terms come from its title (weighted most), the glossary entries
that point to it, the source headings it covers, the enclosing section's title, and its text. A
question is cut into words; a player's phrase from the game's vocabulary ("my husband", "goes
first") stands for the rulebook's words for it, and every other word for a group of terms (its
stem, the vocabulary's words for it, a compound split, or the closest real word when it is
misspelt); a document scores the best term of each group. Neighbouring question words found side
by side in a section add a phrase bonus; sections that hold more of the question's words are
preferred; and a rule question ranks the sections that only describe the game (glossary,
components, overview) below those that rule (see referee.rules.questions).

The index is plain lists and dicts so it can be cached as JSON and reloaded in a few milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from referee.rules.model import Result, Rulebook
from referee.rules.questions import REFERENCE_FACTOR, form_of
from referee.rules.text import STOPWORDS, edit_distance, stem, terms, typo_limit, words
from referee.rules.vocabulary import EMPTY, LONGEST_PHRASE, SHARED, Vocabulary

FORMAT = 9
"""Bump when the index layout or the text analysis changes, so old caches are rebuilt."""

FIELD_WEIGHTS = {"title": 4.0, "title_remark": 1.0, "asks": 2.0, "glossary_term": 2.0, "covers": 1.5, "parent": 1.0,
                 "text": 1.0, "glossary_meaning": 0.5}
K1 = 1.2
B = 0.6
EXACT, COMPOUND, TYPO_NEAR, TYPO_FAR = 1.0, 0.8, 0.85, 0.7
SAYS_WEIGHT = {SHARED: 0.6, "game": 0.9}
"""What a match through the vocabulary counts: a game's own table talk is surer than a word
shared by every game ("turn" may be a player's turn or a card turned over)."""
PHRASE_SAYS_WEIGHT = {SHARED: 0.85, "game": 1.0}
"""The same for a phrase of several words, which is seldom ambiguous."""
PHRASE_BONUS = 1.0
FURTHER_ALTERNATIVE = 0.5
"""What the second-best term of a group adds (times its own value), the third 0.5 squared..."""
TITLE_TERM_BONUS = 1.0
"""Added per question word found in a section's title (times its weight and rarity): players
usually name the topic they mean, and the title names the topic of a section."""
TITLE_ALL_BONUS = 1.0
COVERAGE_POWER = 0.75
"""A section holding only some of the question's words keeps (held / asked) ** COVERAGE_POWER of
its score."""
RULING_FACTOR = 0.7
"""What a ruling keeps of its score: it settles a point its rule leaves open, so the rule itself
answers first unless the question is about that point."""
RULING_PREFIX = "ruling-"
DOC_REFERENCE = 8
"""Position in a document's row of its kind: 1 for a section that describes rather than rules."""
DOC_ASKED = 9
"""Position in a document's row of the players' questions it answers, one line of terms each."""
DOC_SETTLES = 10
"""Position of the rule ids a ruling settles, and (DOC_SEE_ALSO) of the section's See also ids."""
DOC_SEE_ALSO = 11
RULING_BESIDE_RULE = 0.85
"""A ruling that matches the question keeps at least this share of the score of the rule it
settles: "who wins a tie" finds the tie-break rule, and the ruling on a tie it leaves open next."""
RULING_LIFT_LIMIT = 1.2
"""...but is lifted to at most this many times its own score: a ruling that shares a word or two
with the question is no answer to it."""
RELATED = 2
"""Sections named under "see also" after an answer."""
CANDIDATES = 40
"""Sections of one game, best by their words, that the phrase, player-question and phase measures
look at."""
PHASE_WEIGHT = 1.0
"""What a verb of play adds to the sections of its phase (see the vocabulary's [does]), times the
weight of an average word of the question: "draw" leans toward the Draw phase, not every section
that mentions drawing."""
ASKED_MATCH = 1.0
"""What the best-matching player question of a section adds, times the question's weight: a
question that is asked the way a player of that section asked it finds the section even when the
rulebook's text uses other words."""
ASKED_COVERAGE_POWER = 0.5
"""How much a player question's words that the question asked does not hold count against it."""


class TermGroup(NamedTuple):
    """The terms one question word (or one player's phrase) may match, each with what a match counts."""

    word: str
    variants: dict[str, float]
    phrases: tuple[tuple[tuple[str, ...], float], ...] = ()
    """Rulebook phrases of several terms the group stands for ("first player"): a section scores
    the mean of their terms, and more when they stand side by side."""


REMARK = r"\s*\(([^)]*)\)"
"""A remark in brackets; compiled only when an index is built (a lookup from the cache never needs it)."""


def title_and_remark(title: str) -> tuple[str, str]:
    """A title without its remark in brackets, and the remark: in "Vigilant (Baratheon)" the topic
    is the keyword, and the House is a note about it."""
    import re

    remarks = re.findall(REMARK, title)
    core = re.sub(REMARK, " ", title).strip()
    return (core, " ".join(remarks)) if core else (title, "")


def letter_mask(word: str) -> int:
    """The set of a word's letters as bits: one slip changes at most two of them."""
    mask = 0
    for ch in word:
        mask |= 1 << (ord(ch) & 63)
    return mask


def _stems(phrase: Sequence[str]) -> tuple[str, ...]:
    return tuple(stem(word) for word in phrase)


class AskedMatch:
    """How nearly a question is one of a section's player questions, prepared once per question."""

    def __init__(self, groups: Sequence[TermGroup], idf: Any, rarity: Any) -> None:
        self.groups = groups
        self.idf = idf
        self.rarity = rarity
        """The rarity of a player question's own words: counted over every section, which needs
        no posting list unpacked (a question's words are many, and most are not asked about)."""
        masses = [max((weight * idf(term) for term, weight in group.variants.items()), default=0.0)
                  or max((weight * idf(parts[0]) for parts, weight in group.phrases), default=0.0)
                  for group in groups]
        self.total = sum(masses)
        self.terms = frozenset(term for group in groups for term in group.variants) | frozenset(
            part for group in groups for parts, _ in group.phrases for part in parts)

    def best(self, asked: Iterable[frozenset[str]]) -> tuple[float, int]:
        """0 to 1: the share of the question's weight the best player question holds, lowered by
        that player question's words the question does not hold; and how many of the question's
        words it holds."""
        best, best_held = 0.0, 0
        if not self.total:
            return best, best_held
        idf = self.idf
        for question in asked:
            if self.terms.isdisjoint(question):
                continue
            held = 0.0
            count = 0
            used: set[str] = set()
            for group in self.groups:
                value = 0.0
                chosen: tuple[str, ...] = ()
                for term, weight in group.variants.items():
                    if term in question and weight * idf(term) > value:
                        value, chosen = weight * idf(term), (term,)
                for parts, weight in group.phrases:
                    if all(part in question for part in parts):
                        found = weight * sum(map(idf, parts)) / len(parts)
                        if found > value:
                            value, chosen = found, parts
                if value:
                    held += value
                    count += 1
                    used.update(chosen)
            rarity = self.rarity
            own = sum(rarity(term) for term in question)
            covered = sum(rarity(term) for term in used if term in question)
            found = held / self.total * (covered / own) ** ASKED_COVERAGE_POWER
            if found > best:
                best, best_held = found, count
        return best, best_held


class SearchIndex:
    """Documents (sections), a posting list per term, the surface words for typo matching, and the
    vocabularies of how players speak.

    Loading the cache must be quick, and a question touches only a few terms, so the bulky parts
    are kept as strings and unpacked on first use: a term's postings ("doc weight doc weight"),
    a document's title terms and players' questions, and the surface-word table; a document's
    word pairs stay one string, searched as it is.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        self.docs: list[list[Any]] = data["docs"]
        """Per section: [game, id, title, text, source, length, word pairs, title terms, reference]."""
        self.postings: dict[str, str] = data["postings"]
        self.surface_table: str = data["surface"]
        """One line per indexed word: "word stem letter-mask"."""
        self.vocabulary_data: dict[str, Any] = data.get("vocabulary", {})
        self.asked_only_data: str = data.get("asked_only", "")
        """The terms only players' questions use, never a rulebook's own text."""
        self._asked_only: frozenset[str] | None = None
        self._title_terms: dict[int, set[str]] = {}
        self._asked: dict[int, list[frozenset[str]]] = {}
        self._numbers: dict[tuple[str, str], int] | None = None
        self._rarities: dict[str, float] = {}
        self._verbs: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        self._settled_by: dict[tuple[str, str], list[int]] | None = None
        self._named_by: dict[tuple[str, str], list[int]] | None = None
        self._postings_maps: dict[str, dict[int, float]] = {}
        self._surface: list[tuple[str, str, int]] | None = None
        self._vocabularies: dict[str, tuple[Vocabulary, dict[tuple[str, ...], tuple[str, ...]]]] = {}
        self._closest: dict[str, list[tuple[str, str, int]]] = {}

    def to_data(self) -> dict[str, Any]:
        return {"docs": self.docs, "postings": self.postings, "surface": self.surface_table,
                "vocabulary": self.vocabulary_data, "asked_only": self.asked_only_data}

    @classmethod
    def build(cls, rulebooks: Iterable[Rulebook],
              vocabularies: Mapping[str, Vocabulary] | None = None) -> SearchIndex:
        """The index of the rulebooks' sections; `vocabularies` maps a game id (or SHARED) to its
        vocabulary."""
        vocabularies = vocabularies or {}
        shared_reference = vocabularies.get(SHARED, EMPTY).reference
        docs: list[list[Any]] = []
        postings: dict[str, list[str]] = {}
        surface: dict[str, str] = {}
        asked_terms: set[str] = set()
        rule_terms: set[str] = set()
        for rulebook in rulebooks:
            reference = shared_reference | vocabularies.get(rulebook.game, EMPTY).reference
            pointed: dict[str, list[tuple[str, str]]] = {}
            for entry in rulebook.glossary:
                for ref in entry.refs:
                    pointed.setdefault(ref, []).append((entry.term, entry.meaning))
            for section in rulebook.sections:
                title, remark = title_and_remark(section.title)
                fields = {
                    "title": title,
                    "title_remark": remark,
                    "asks": " ".join(rulebook.asked.get(section.id, ())),
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
                        (asked_terms if name == "asks" else rule_terms).add(term)
                        counts[term] = counts.get(term, 0.0) + FIELD_WEIGHTS[name]
                        length += FIELD_WEIGHTS[name]
                number = len(docs)
                for term, weight in counts.items():
                    postings.setdefault(term, []).append(f"{number} {weight:g}")
                sequence = terms(title) + ["|"] + terms(section.text)
                bigrams = sorted({f"{a} {b}" for a, b in zip(sequence, sequence[1:], strict=False)
                                  if "|" not in (a, b)})
                describes = int(section.id in reference)
                asked = "\n".join(" ".join(terms(question)) for question in rulebook.asked.get(section.id, ()))
                docs.append([section.game, section.id, section.title, section.text, section.source,
                             length, "\n" + "\n".join(bigrams) + "\n", " ".join(sorted(set(terms(title)))),
                             describes, asked, " ".join(section.settles), " ".join(section.see_also)])
        table = "\n".join(f"{word} {term} {letter_mask(word)}" for word, term in sorted(surface.items()))
        return cls({"docs": docs, "postings": {term: " ".join(items) for term, items in postings.items()},
                    "surface": table, "asked_only": " ".join(sorted(asked_terms - rule_terms)),
                    "vocabulary": {game: {**vocabulary.to_data(),
                                          "stems": [" ".join(_stems(phrase)) for phrase in vocabulary.says]}
                                   for game, vocabulary in vocabularies.items()}})

    # -- the question side ------------------------------------------------------------------

    def _known(self, term: str) -> bool:
        return term in self.postings

    def _vocabulary(self, game: str) -> tuple[Vocabulary, dict[tuple[str, ...], tuple[str, ...]]]:
        """A game's (or the shared) vocabulary, and its phrases keyed by their stems."""
        found = self._vocabularies.get(game)
        if found is None:
            data = self.vocabulary_data.get(game)
            vocabulary = Vocabulary.from_data(data) if data else EMPTY
            stems = data.get("stems") if data else None
            if stems and len(stems) == len(vocabulary.says):  # kept with the cache: no stemming per lookup
                by_stems = {tuple(key.split()): meaning for key, meaning in zip(stems, vocabulary.says.values(),
                                                                                strict=True)}
            else:
                by_stems = {_stems(phrase): meaning for phrase, meaning in vocabulary.says.items()}
            found = self._vocabularies[game] = (vocabulary, by_stems)
        return found

    def _surface_words(self) -> list[tuple[str, str, int]]:
        if self._surface is None:
            rows = (line.split(" ") for line in self.surface_table.split("\n") if line)
            self._surface = [(word, term, int(mask)) for word, term, mask in rows]
        return self._surface

    def _closest_words(self, word: str) -> list[tuple[str, str, int]]:
        """The index's words nearest to a misspelt word: (word, its stem, distance)."""
        cached = self._closest.get(word)
        if cached is not None:
            return cached
        limit = typo_limit(word)
        best: list[tuple[str, str, int]] = []
        if limit:
            mask = letter_mask(word)
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
        self._closest[word] = best
        return best

    def _closest_player_word(self, word: str, game: str) -> tuple[str, int] | None:
        """The vocabulary's one-word phrase nearest to a misspelt word, if it is nearer than any
        rulebook word: (the phrase, its distance)."""
        limit = typo_limit(word)
        if not limit:
            return None
        closest = self._closest_words(word)
        nearest = closest[0][2] if closest else limit + 1
        best: tuple[str, int] | None = None
        for owner in (game, SHARED):
            for phrase in self._vocabulary(owner)[0].says:
                if len(phrase) == 1 and abs(len(phrase[0]) - len(word)) <= limit:
                    distance = edit_distance(word, phrase[0], limit)
                    if distance < nearest and (best is None or distance < best[1]):
                        best = (phrase[0], distance)
        return best

    def _compound(self, word: str) -> list[str]:
        """A run-together word split into two words of the rulebooks ("tiebreak" -> "tie", "break");
        a word only players' questions use ("mid game") is no half of one."""
        if self._asked_only is None:
            self._asked_only = frozenset(self.asked_only_data.split())
        for cut in range(2, len(word) - 1):
            left, right = stem(word[:cut]), stem(word[cut:])
            if (word[:cut] not in STOPWORDS and word[cut:] not in STOPWORDS
                    and self._known(left) and self._known(right)
                    and left not in self._asked_only and right not in self._asked_only):
                return [left, right]
        return []

    def _says(self, phrase: tuple[str, ...], game: str) -> tuple[tuple[str, ...], str] | None:
        """What a player's words mean in the rulebook: the game's vocabulary first, then the shared."""
        key = _stems(phrase)
        for owner in (game, SHARED):
            meaning = self._vocabulary(owner)[1].get(key)
            if meaning:
                return meaning, (SHARED if owner == SHARED else "game")
        return None

    def _meaning_group(self, word: str, meaning: Sequence[str], weight: float,
                       variants: dict[str, float] | None = None) -> TermGroup:
        """A group for the rulebook words a player's word stands for (added to its own variants)."""
        found = dict(variants or {})
        phrases: list[tuple[tuple[str, ...], float]] = []
        for item in meaning:
            parts = [part for part in terms(item) or [stem(part) for part in words(item)] if self._known(part)]
            if len(parts) == 1:
                found[parts[0]] = max(found.get(parts[0], 0.0), weight)
            elif parts:
                phrases.append((tuple(parts), weight))
        return TermGroup(word, found, tuple(phrases))

    def ignored(self, game: str) -> frozenset[str]:
        return STOPWORDS | self._vocabulary(SHARED)[0].ignore | self._vocabulary(game)[0].ignore

    def groups(self, query: str, game: str = SHARED) -> list[TermGroup]:
        """The question as term groups, read with the game's vocabulary (and the shared one)."""
        return self.read(query, game)[0]

    def read(self, query: str, game: str = SHARED,
             table_words: frozenset[str] = frozenset()) -> tuple[list[TermGroup], list[str]]:
        """The question as term groups, and the meaningful words no rulebook term stands for;
        `table_words` are the terms of phrasings the table has taught, known as they are."""
        raw = words(query)
        unknown: list[str] = []
        ignored = self.ignored(game)
        groups: list[TermGroup] = []
        position = 0
        while position < len(raw):
            # A player's phrase of several words first, the longest that the vocabulary knows.
            matched = 0
            for size in range(min(LONGEST_PHRASE, len(raw) - position), 1, -1):
                says = self._says(tuple(raw[position:position + size]), game)
                if says:
                    meaning, owner = says
                    group = self._meaning_group(" ".join(raw[position:position + size]), meaning,
                                                PHRASE_SAYS_WEIGHT[owner])
                    if group.variants or group.phrases:
                        groups.append(group)
                        matched = size
                        break
            if matched:
                position += matched
                continue
            word = raw[position]
            position += 1
            if word in ignored and not self._says((word,), game):
                continue
            if stem(word) in table_words and not self._known(stem(word)) and not self._says((word,), game):
                groups.append(TermGroup(word, {stem(word): EXACT}))
                continue
            found = self._word_groups(word, game)
            groups.extend(found)
            if not found:
                unknown.append(word)
        if not groups and not unknown and raw:
            # Nothing but question words ("who is it"): let them count rather than find nothing.
            for word in raw:
                groups.extend(self._word_groups(word, game))
        return groups, unknown

    def _word_groups(self, word: str, game: str) -> list[TermGroup]:
        own = stem(word)
        variants: dict[str, float] = {}
        says = self._says((word,), game)
        if self._known(own):
            variants[own] = EXACT
        elif not says:  # a word the vocabulary knows is a player's word, not a slip
            parts = self._compound(word)
            if parts:
                return [TermGroup(word, {part: COMPOUND}) for part in parts]
            player_word = self._closest_player_word(word, game)
            if player_word is not None:  # a slip in a word of the vocabulary ("divorsed")
                known, distance = player_word
                says = self._says((known,), game)
                if says:
                    weight = (TYPO_NEAR if distance == 1 else TYPO_FAR) * SAYS_WEIGHT[says[1]]
                    group = self._meaning_group(word, says[0], weight)
                    return [group] if group.variants or group.phrases else []
            for known, term, distance in self._closest_words(word):
                weight = TYPO_NEAR if distance == 1 else TYPO_FAR
                variants[term] = max(variants.get(term, 0.0), weight)
                says = self._says((known,), game)
                if says:
                    group = self._meaning_group(word, says[0], weight * SAYS_WEIGHT[says[1]], variants)
                    variants = group.variants
        if says:
            group = self._meaning_group(word, says[0], SAYS_WEIGHT[says[1]], variants)
            return [group] if group.variants or group.phrases else []
        return [TermGroup(word, variants)] if variants else []

    def corrections(self, query: str, games: Sequence[str]) -> list[tuple[str, str]]:
        """(asked, known) for question words no rulebook term stands for, paired with the nearest
        word the rulebooks use: a little further off than a lookup itself would accept."""
        found: list[tuple[str, str]] = []
        for game in games:
            for word in self.read(query, game)[1]:
                limit = typo_limit(word) + 1
                near = sorted((edit_distance(word, known, limit), known)
                              for known, _, _ in self._surface_words() if abs(len(known) - len(word)) <= limit)
                for distance, known in near[:1]:
                    if distance <= limit and (word, known) not in found:
                        found.append((word, known))
        return found

    # -- ranking ----------------------------------------------------------------------------

    def _side_by_side(self, doc: int, first: str, second: str) -> bool:
        """Whether two terms stand side by side in a section (its title, or its text). The pairs are
        one string, a pair a line, searched as it is: a lookup tests a few pairs in many sections."""
        return f"\n{first} {second}\n" in self.docs[doc][6]

    def _title_set(self, doc: int) -> set[str]:
        found = self._title_terms.get(doc)
        if found is None:
            found = self._title_terms[doc] = set(self.docs[doc][7].split())
        return found

    def number(self, game: str, section_id: str) -> int | None:
        """The document of a game's section, if the index holds it."""
        if self._numbers is None:
            self._numbers = {(row[0], row[1]): number for number, row in enumerate(self.docs)}
        return self._numbers.get((game, section_id))

    def _ids(self, doc: int, position: int) -> list[str]:
        row = self.docs[doc]
        return row[position].split() if len(row) > position else []

    def settles(self, doc: int) -> list[str]:
        """The ids of the rules a ruling settles (nothing for a section that is not a ruling)."""
        return self._ids(doc, DOC_SETTLES)

    def see_also(self, doc: int) -> list[str]:
        return self._ids(doc, DOC_SEE_ALSO)

    def _asked_sets(self, doc: int) -> list[frozenset[str]]:
        found = self._asked.get(doc)
        if found is None:
            row = self.docs[doc]
            lines = row[DOC_ASKED].split("\n") if len(row) > DOC_ASKED and row[DOC_ASKED] else []
            found = self._asked[doc] = [frozenset(line.split()) for line in lines]
        return found


    def _rarity(self, term: str) -> float:
        """The inverse document frequency of a term over every section (from the length of its
        posting string alone)."""
        found = self._rarities.get(term)
        if found is None:
            frequency = (self.postings.get(term, "").count(" ") + 1) // 2
            count = len(self.docs)
            found = self._rarities[term] = math.log(1.0 + (count - frequency + 0.5) / (frequency + 0.5))
        return found

    def _posting_map(self, term: str) -> dict[int, float]:
        cached = self._postings_maps.get(term)
        if cached is None:
            numbers = self.postings.get(term, "").split()
            pairs = zip(numbers[::2], numbers[1::2], strict=True)
            cached = {int(doc): float(weight) for doc, weight in pairs}
            self._postings_maps[term] = cached
        return cached

    def search(self, query: str, games: Sequence[str] | None = None, limit: int = 5,
               per_game: int | None = None,
               learned: Mapping[tuple[str, str], Sequence[str]] | None = None) -> list[Result]:
        """The best sections for a question, best first; `per_game` caps the sections of one game.
        `learned` holds the phrasings a table has taught, by (game, section id): each counts as one
        more player question of its section, no more."""
        scope = [number for number, doc in enumerate(self.docs) if games is None or doc[0] in games]
        if not scope:
            return []
        average_length = sum(self.docs[number][5] for number in scope) / len(scope) or 1.0
        reference_factor = REFERENCE_FACTOR[form_of(query)]
        by_game: dict[str, set[int]] = {}
        for number in scope:
            by_game.setdefault(self.docs[number][0], set()).add(number)
        in_scope = set(scope)
        taught: dict[int, list[frozenset[str]]] = {}
        for (game, section_id), texts in (learned or {}).items():
            found = self.number(game, section_id)
            if found is not None and found in in_scope:
                taught.setdefault(found, []).extend(frozenset(terms(text)) for text in texts)
        frequencies: dict[str, float] = {}

        whole = len(scope) == len(self.docs)

        def idf(term: str) -> float:
            found = frequencies.get(term)
            if found is None:
                postings = self._posting_map(term)
                frequency = len(postings) if whole else sum(1 for doc in postings if doc in in_scope)
                found = frequencies[term] = math.log(1.0 + (len(scope) - frequency + 0.5) / (frequency + 0.5))
            return found

        ranked: list[tuple[float, int, float]] = []
        for game, docs in by_game.items():
            own_taught = {doc: sets for doc, sets in taught.items() if doc in docs}
            table_words = frozenset(term for sets in own_taught.values() for found in sets for term in found)
            groups, unknown = self.read(query, game, table_words)
            if groups:
                phases = self._phases(query, game) & docs
                ranked.extend(self._rank(groups, len(unknown), docs, average_length, idf, reference_factor,
                                         phases, own_taught))
        ranked.sort(key=lambda item: (-item[0], item[1]))
        scored = {doc: score for score, doc, _ in ranked}
        results = []
        taken: dict[str, int] = {}
        for score, doc, quality in ranked:
            game, section_id, title, text, source = self.docs[doc][:5]
            if per_game is not None and taken.get(game, 0) >= per_game:
                continue
            taken[game] = taken.get(game, 0) + 1
            results.append(Result(game, section_id, title, text, score, source, quality,
                                  self.related(doc, scored)))
            if len(results) >= limit:
                break
        return results

    def related(self, doc: int, scored: Mapping[int, float] | None = None,
                count: int = RELATED) -> tuple[tuple[str, str], ...]:
        """The sections a player reads after this one, as (id, title): the rule a ruling settles and
        the rulings that settle a rule first, then its See also and the sections whose See also
        names it (for a ruling, its rule's See also); among them, those that matched the question
        best (`scored`) come first."""
        game, section_id = self.docs[doc][0], self.docs[doc][1]
        settled_by, named_by = self._links()
        rules = self._numbers_of(game, self.settles(doc))
        closest = rules + settled_by.get((game, section_id), [])
        further = self._numbers_of(game, self.see_also(doc)) + named_by.get((game, section_id), [])
        for rule in rules:
            further += self._numbers_of(game, self.see_also(rule))
        order: dict[int, int] = {}
        for position, number in enumerate(closest + further):
            if number != doc:
                order.setdefault(number, position)
        scores = scored or {}
        chosen = sorted(order, key=lambda number: (order[number] >= len(closest), -scores.get(number, 0.0),
                                                   order[number]))
        return tuple((self.docs[number][1], self.docs[number][2]) for number in chosen[:count])

    def _numbers_of(self, game: str, section_ids: Iterable[str]) -> list[int]:
        return [number for section_id in section_ids if (number := self.number(game, section_id)) is not None]

    def _links(self) -> tuple[dict[tuple[str, str], list[int]], dict[tuple[str, str], list[int]]]:
        """(game, rule id) -> the rulings that settle it; (game, id) -> the sections whose See also names it."""
        if self._settled_by is None or self._named_by is None:
            self._settled_by, self._named_by = {}, {}
            for number, row in enumerate(self.docs):
                for rule in self.settles(number):
                    self._settled_by.setdefault((row[0], rule), []).append(number)
                for other in self.see_also(number):
                    self._named_by.setdefault((row[0], other), []).append(number)
        return self._settled_by, self._named_by

    def _phases(self, query: str, game: str) -> set[int]:
        """The sections of the phases whose verbs of play the question uses (the game's [does])."""
        verbs = self._verbs.get(game)
        if verbs is None:
            verbs = self._verbs[game] = [(_stems(verb), sections)
                                         for verb, sections in self._vocabulary(game)[0].does.items()]
        if not verbs:
            return set()
        asked = _stems(words(query))
        found: set[int] = set()
        for key, sections in verbs:
            if any(asked[start:start + len(key)] == key for start in range(len(asked) - len(key) + 1)):
                found |= {number for section in sections if (number := self.number(game, section)) is not None}
        return found

    def _rank(self, groups: list[TermGroup], unknown: int, docs: set[int], average_length: float,
              idf: Any, reference_factor: float, phases: Collection[int] = (),
              taught: Mapping[int, list[frozenset[str]]] | None = None) -> list[tuple[float, int, float]]:
        """(score, document, match quality) for every document of one game that matches; `unknown`
        counts the question's words that no term stands for, which lower the quality only."""
        scores: dict[int, float] = {}
        matched: dict[int, int] = {}
        quality: dict[int, float] = {}
        in_title: dict[int, int] = {}
        def value(term: str, weight: float, doc: int, frequency: float) -> float:
            norm = K1 * (1 - B + B * self.docs[doc][5] / average_length)
            return float(weight * idf(term) * frequency * (K1 + 1) / (frequency + norm))

        for group in groups:
            alternatives: dict[int, list[tuple[float, float]]] = {}
            for term, weight in group.variants.items():
                for doc, frequency in self._posting_map(term).items():
                    if doc in docs:
                        alternatives.setdefault(doc, []).append((value(term, weight, doc, frequency), weight))
            for parts, weight in group.phrases:
                sums: dict[int, float] = {}
                for term in parts:
                    for doc, frequency in self._posting_map(term).items():
                        if doc in docs:
                            sums[doc] = sums.get(doc, 0.0) + value(term, weight, doc, frequency)
                for doc, total in sums.items():
                    side_by_side = sum(1 for a, b in zip(parts, parts[1:], strict=False)
                                       if self._side_by_side(doc, a, b))
                    found = total / len(parts) + PHRASE_BONUS * weight * side_by_side * max(map(idf, parts))
                    alternatives.setdefault(doc, []).append((found, weight * (1.0 if side_by_side else 0.75)))
            best: dict[int, tuple[float, float]] = {}
            for doc, found in alternatives.items():
                # The best alternative counts in full, each further one less: a section that uses
                # several of the rulebook's words for the idea is more surely about it.
                found.sort(reverse=True)
                best[doc] = (sum(item * FURTHER_ALTERNATIVE ** rank for rank, (item, _) in enumerate(found)),
                             max(weight for _, weight in found))
            for doc, (found, weight) in best.items():
                scores[doc] = scores.get(doc, 0.0) + found
                matched[doc] = matched.get(doc, 0) + 1
                quality[doc] = quality.get(doc, 0.0) + weight
                title_value = max((weight * idf(term) for term, weight in group.variants.items()
                                   if term in self._title_set(doc)), default=0.0)
                if title_value:
                    in_title[doc] = in_title.get(doc, 0) + 1
                    scores[doc] += TITLE_TERM_BONUS * title_value

        if len(scores) > CANDIDATES:
            # The finer measures below only reorder the leaders: a section far behind on every
            # word of the question is not lifted into the answers by them.
            leaders = sorted(scores, key=lambda doc: (-scores[doc], doc))[:CANDIDATES]
            scores = {doc: scores[doc] for doc in leaders}
        for first, second in zip(groups, groups[1:], strict=False):
            pairs = [(a, b, min(wa, wb)) for a, wa in first.variants.items()
                     for b, wb in second.variants.items()]
            for doc in scores:
                bonus = max((weight * (idf(a) + idf(b)) / 2 for a, b, weight in pairs
                             if self._side_by_side(doc, a, b)), default=0.0)
                scores[doc] += PHRASE_BONUS * bonus

        mass = sum(max((weight * idf(term) for term, weight in group.variants.items()), default=0.0)
                   for group in groups)
        for doc in phases:
            scores[doc] = scores.get(doc, 0.0) + PHASE_WEIGHT * mass / len(groups)
            matched[doc] = min(len(groups), matched.get(doc, 0) + 1)
            quality.setdefault(doc, 0.0)
        taught = taught or {}
        for doc in taught:
            if doc not in scores:
                scores[doc], matched[doc], quality[doc] = 0.0, 0, 0.0
        matcher = AskedMatch(groups, idf, self._rarity)
        for doc in list(scores):
            match, held = matcher.best(self._asked_sets(doc) + taught.get(doc, []))
            if not scores[doc] and not match:
                del scores[doc]
                continue
            scores[doc] += ASKED_MATCH * mass * match
            matched[doc] = max(matched[doc], held)

        final: dict[int, float] = {}
        ranked: list[tuple[float, int, float]] = []
        for doc, score in scores.items():
            score *= (matched[doc] / len(groups)) ** COVERAGE_POWER
            if in_title.get(doc, 0) == len(groups):
                score *= TITLE_ALL_BONUS
            if self.docs[doc][DOC_REFERENCE]:
                score *= reference_factor
            if self.docs[doc][1].startswith(RULING_PREFIX):
                score *= RULING_FACTOR
            final[doc] = score
        for doc, score in final.items():
            game = self.docs[doc][0]
            rules = [final.get(number, 0.0) for rule in self.settles(doc)
                     if (number := self.number(game, rule)) is not None]
            if rules:
                score = max(score, min(RULING_BESIDE_RULE * max(rules), RULING_LIFT_LIMIT * score))
            ranked.append((score, doc, quality[doc] / (len(groups) + unknown)))
        return ranked
