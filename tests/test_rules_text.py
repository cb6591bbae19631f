"""The text analysis under the rules search: stems and typo distances."""

from __future__ import annotations

import pytest

from referee.rules.text import edit_distance, stem, terms, typo_limit, words


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("beheaded", "behead"),
        ("scoring", "score"),
        ("scored", "scores"),
        ("players", "player"),
        ("ties", "tie"),
        ("tied", "tie"),
        ("dies", "die"),
        ("potions", "potion"),
        ("challenges", "challenge"),
        ("construction", "construct"),
        ("eliminated", "elimination"),
        ("stopped", "stop"),
    ],
)
def test_inflections_share_a_stem(left: str, right: str) -> None:
    assert stem(left) == stem(right)


@pytest.mark.parametrize(("left", "right"), [("faction", "fact"), ("tower", "tow"), ("stealth", "steal")])
def test_different_words_keep_different_stems(left: str, right: str) -> None:
    assert stem(left) != stem(right)


def test_words_split_hyphens_and_drop_possessives() -> None:
    assert words("Tie-break: the King's Hand") == ["tie", "break", "the", "king", "hand"]


def test_terms_drop_question_words() -> None:
    assert terms("What happens when I roll the dice?") == [stem("roll"), stem("dice")]


@pytest.mark.parametrize(
    ("left", "right", "distance"),
    [("stelth", "stealth", 1), ("behedded", "beheaded", 1), ("teh", "the", 1), ("recieve", "receive", 1),
     ("potoin", "potion", 1), ("kitten", "sitting", 3)],
)
def test_edit_distance_counts_swaps_as_one(left: str, right: str, distance: int) -> None:
    assert edit_distance(left, right, 5) == distance


def test_edit_distance_stops_past_the_limit() -> None:
    assert edit_distance("kitten", "sitting", 1) == 2
    assert edit_distance("a", "abcdef", 2) == 3


def test_short_words_get_no_typo_allowance() -> None:
    assert typo_limit("die") == 0
    assert typo_limit("dice") == 1
    assert typo_limit("stealth") == 2
