"""Reading rulebooks into sections: the project's format, and a user's plain or Markdown copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.rules.model import Rulebook, RulesError
from referee.rules.parse import LONGEST_PIECE, parse_copy, parse_rulebook

FIXTURES = Path(__file__).parent / "fixtures" / "rules"


@pytest.fixture
def lantern() -> Rulebook:
    return parse_rulebook((FIXTURES / "lantern-watch.md").read_text(), "lantern-watch", "built-in")


def test_sections_in_order_with_ids_titles_and_levels(lantern: Rulebook) -> None:
    assert lantern.title == "Lantern Watch"
    assert [s.id for s in lantern.sections] == [
        "setup", "turn-order", "storm-dice", "lanterns", "relight", "traitor", "tie-break",
        "fog-cards", "glossary", "rulings", "ruling-blank-die",
    ]
    relight = lantern.section("relight")
    assert (relight.title, relight.level, relight.parent) == ("Relighting a lantern", 3, "Lanterns")
    assert lantern.section("lanterns").parent == ""


def test_referee_covers_and_see_also_lines_are_read_not_kept_in_text(lantern: Rulebook) -> None:
    setup = lantern.section("setup")
    assert setup.referee == "table"
    assert setup.covers == ("Setup",)
    assert setup.see_also == ("turn-order",)
    assert setup.text.startswith("Each keeper takes 3 lanterns")
    assert "Referee:" not in setup.text and "See also" not in setup.text
    assert lantern.section("turn-order").covers == ("Turn Sequence", "Who Goes First")
    assert lantern.section("traitor").covers == ()


def test_headings_inside_code_fences_are_text(lantern: Rulebook) -> None:
    assert not lantern.has("inside-fence")
    assert "Not a heading" in lantern.section("fog-cards").text


def test_glossary_entries_point_to_sections(lantern: Rulebook) -> None:
    entries = {entry.term: entry.refs for entry in lantern.glossary}
    assert entries == {"Stealth": ("fog-cards", "relight"), "Oil": ("relight",),
                       "Betrayal token": ("traitor",)}


def test_unknown_section_names_the_known_ids(lantern: Rulebook) -> None:
    assert lantern.section("#Setup").id == "setup"
    with pytest.raises(RulesError, match=r"no section 'nope' in lantern-watch; known ids: setup, turn-order"):
        lantern.section("nope")


def test_bad_referee_mode_is_refused() -> None:
    with pytest.raises(RulesError, match=r"#x has 'Referee: sometimes'; allowed: automates, asks, table"):
        parse_rulebook("# G\n\n## X {#x}\nReferee: sometimes\n\nText.\n", "g", "g.md")


def test_a_file_without_sections_is_refused() -> None:
    with pytest.raises(RulesError, match="no `## Title"):
        parse_rulebook("# Only a title\n\nSome words.\n", "g", "g.md")


def test_a_heading_without_an_id_gets_one_from_its_title() -> None:
    book = parse_rulebook("# G\n\n## End of the Game\nText.\n\n## End of the Game\nMore.\n", "g", "g.md")
    assert [s.id for s in book.sections] == ["end-of-the-game", "end-of-the-game-2"]


PLAIN_COPY = """My Game Rules

Setup

Everyone takes five tokens. The oldest player starts.

Scoring Points

Every token left at the end is worth one point.
Ties are shared.

• This bullet line is not a heading
"""


def test_plain_copy_is_cut_at_standalone_short_lines() -> None:
    book = parse_copy(PLAIN_COPY, "g", "imported:mine.txt", markdown=False)
    assert book.title == "My Game Rules"
    assert [(s.id, s.title) for s in book.sections] == [
        ("setup", "Setup"), ("scoring-points", "Scoring Points")]
    assert "bullet line" in book.sections[1].text
    assert all(s.source == "imported:mine.txt" and s.referee == "" for s in book.sections)


def test_markdown_copy_is_cut_at_its_headings() -> None:
    book = parse_copy("# Title\n\n## Moving\nMove two.\n\n### Jumping\nJump one.\n", "g", "imported:a.md",
                      markdown=True)
    assert [s.title for s in book.sections] == ["Moving", "Jumping"]


def test_copy_without_headings_falls_back_to_paragraphs() -> None:
    text = "\n\n".join(f"paragraph {n} has several plain words in lower case, then ends." for n in range(3))
    book = parse_copy(text, "g", "imported:p.txt", markdown=False)
    assert len(book.sections) == 1
    assert book.sections[0].title.startswith("paragraph 0 has several")


def test_long_parts_are_split_at_paragraphs() -> None:
    paragraph = " ".join(["word"] * 100)
    text = "Long Part\n\n" + "\n\n".join([paragraph] * 5)
    book = parse_copy(text, "g", "imported:l.txt", markdown=False)
    assert [s.title for s in book.sections] == ["Long Part", "Long Part (2)", "Long Part (3)"]
    assert all(len(s.text.split()) <= LONGEST_PIECE for s in book.sections)


def test_empty_copy_is_refused() -> None:
    with pytest.raises(RulesError, match="no text found"):
        parse_copy("\n\n  \n", "g", "imported:e.txt", markdown=False)
