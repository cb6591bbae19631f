"""How rule text and questions are cut into comparable terms: words, stems, typo distances.

Players ask in a hurry and in their own words, so a question word rarely matches the rulebook
exactly. Both sides go through the same light stemmer, and a misspelt word is matched to the
closest word the rulebooks actually contain. The words players use for the rulebook's ideas are
data beside the rulebooks (see referee.rules.vocabulary).
"""

from __future__ import annotations

import re

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

# Words that carry no meaning in a rules question; dropped from questions, kept out of the index.
STOPWORDS = frozenset(
    """a about above after again all also am an and any are as at be been before being both but
    by can could did do does doing during each else for from had has have having he her here hers
    him his how i if in into is it its just may me might must my no nor not now of off on once
    only or other our ours out over own same shall she should so some such than that the their
    them then there these they this those through to too under until up very was we were what
    when where which while who whom why will with would you your yours get gets got happen
    happens rule rules many much go goes going""".split()
)
# "got" is also the alias of a game, but in a question it is nearly always the verb.

def words(text: str) -> list[str]:
    """The lower-case words of a text; hyphenated words fall apart into their parts."""
    found = WORD.findall(text.lower().replace("\u2019", "'"))
    return [word.split("'")[0] for word in found]


def _has_vowel(text: str) -> bool:
    return any(ch in "aeiouy" for ch in text)


def _undouble(word: str) -> str:
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz" and word[-1] not in "aeiou":
        return word[:-1]
    return word


_stems: dict[str, str] = {}

NUMBERS = {word: str(value) for value, words_of in enumerate((
    (), (), ("two", "second"), ("three", "third"), ("four", "fourth"), ("five", "fifth"), ("six", "sixth"),
    ("seven", "seventh"), ("eight", "eighth"), ("nine", "ninth"), ("ten", "tenth"), ("eleven", "eleventh"),
    ("twelve", "twelfth"), ("thirteen", "thirteenth"), ("fifteen", "fifteenth"))) for word in words_of}
"""Number words and ordinals as digits, so "round five", "the fifth round" and "5 rounds" agree.
"One" and "first" are left alone: "no one", "one of each" and "first player" are not numbers."""


def stem(word: str) -> str:
    """A light suffix-stripping stem: the same stem for a word and its common inflections.

    "beheaded" and "behead" share "behead"; "scoring", "scored" and "score" share "scor". It is
    deliberately cruder than a full Porter stemmer: what matters is that both sides agree.
    """
    found = _stems.get(word)
    if found is None:
        found = _stems[word] = NUMBERS.get(word) or _strip_suffixes(word)
    return found


def _strip_suffixes(word: str) -> str:
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ied"):
        word = word[:-3] + ("y" if len(word) > 4 else "ie")
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("es") and word[-3] in "sxz" and len(word) > 4:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("eed"):
        pass
    elif word.endswith("ed") and len(word) > 4 and _has_vowel(word[:-2]):
        word = _undouble(word[:-2])
    elif word.endswith("ing") and len(word) > 5 and _has_vowel(word[:-3]):
        word = _undouble(word[:-3])
    if word.endswith("er") and len(word) > 5:
        word = _undouble(word[:-2])
    elif word.endswith(("tion", "sion")) and len(word) > 8:
        word = word[:-3]
    elif word.endswith("ly") and len(word) > 5:
        word = word[:-2]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The stems of a text's meaningful words, in order."""
    return [stem(word) for word in words(text) if word not in STOPWORDS]


def edit_distance(left: str, right: str, limit: int) -> int:
    """Damerau-Levenshtein distance (a swap of neighbours counts one), or limit + 1 if larger."""
    if abs(len(left) - len(right)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(right) + 1))
    for i, left_char in enumerate(left, 1):
        current = [i] + [0] * len(right)
        row_min = current[0]
        for j, right_char in enumerate(right, 1):
            cost = 0 if left_char == right_char else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and left_char == right[j - 2] and left[i - 2] == right_char:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            row_min = min(row_min, value)
        if row_min > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1] if previous[-1] <= limit else limit + 1


def typo_limit(word: str) -> int:
    """How many slips a word of this length may hold and still be recognised."""
    if len(word) <= 3:
        return 0
    if len(word) <= 5:
        return 1
    return 2
