"""Ranking, typo and synonym matching, game scopes, the index cache, and imported copies."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from referee.rules import library, load_rulebook, search, section
from referee.rules.imports import forget, import_copy
from referee.rules.index import SearchIndex
from referee.rules.model import Rulebook, RulesError, Section

FIXTURES = Path(__file__).parent / "fixtures" / "rules"


@pytest.fixture
def books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The two fixture rulebooks in a scratch rulebooks dir, and a scratch data directory."""
    folder = tmp_path / "rulebooks"
    shutil.copytree(FIXTURES, folder)
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(folder))
    (tmp_path / "home").mkdir()  # (a lookup keeps its cache only in a data directory that exists)
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)
    return folder


def top(query: str, game: str | None = "lantern-watch", limit: int = 3) -> list[str]:
    return [result.section for result in search(query, game, limit)]


def test_the_section_named_by_the_question_comes_first(books: Path) -> None:
    assert top("how do I relight a lantern")[0] == "relight"
    assert top("who goes first")[0] == "turn-order"
    assert top("storm dice")[0] == "storm-dice"


def test_stems_match_other_forms(books: Path) -> None:
    assert top("beheaded")[0] == "traitor"
    assert top("behead")[0] == "traitor"
    assert top("relighting lanterns")[0] == "relight"


def test_typos_are_matched_to_the_nearest_word(books: Path) -> None:
    assert top("stelth")[0] in ("fog-cards", "relight")
    assert top("behedded")[0] == "traitor"
    assert top("relihgt")[0] == "relight"


def test_player_words_reach_rulebook_words(books: Path) -> None:
    assert top("what if there is a tie")[0] == "tie-break"
    assert top("tiebreaker")[0] == "tie-break"
    assert top("rolling a die")[0] == "storm-dice"


def test_glossary_terms_lead_to_the_sections_they_point_at(books: Path) -> None:
    assert "relight" in top("oil")
    assert top("betrayal token")[0] == "traitor"


def _two_section_index(first: tuple[str, str], second: tuple[str, str]) -> SearchIndex:
    sections = tuple(
        Section("g", section_id, section_id.title(), 2, "table", (), (), text)
        for section_id, text in (first, second))
    return SearchIndex.build([Rulebook("g", "G", sections)])


def test_words_side_by_side_beat_the_same_words_apart() -> None:
    index = _two_section_index(("apart", "the gate opens at dawn when red flags fly"),
                               ("together", "the red gate opens at dawn when flags fly"))
    results = index.search("red gate")
    assert [r.section for r in results] == ["together", "apart"]
    assert results[0].score > 1.2 * results[1].score


def test_a_title_match_beats_a_text_match() -> None:
    index = _two_section_index(("harbour", "ships come and go with the wind and the tide"),
                               ("wind", "the harbour bell rings when ships come into the harbour"))
    assert [r.section for r in index.search("harbour")] == ["harbour", "wind"]


def test_sections_holding_more_of_the_question_come_first() -> None:
    index = _two_section_index(("one", "oil oil oil oil lamp"), ("both", "oil wick lamp"))
    assert index.search("oil wick")[0].section == "both"


def test_results_are_best_first_and_limited(books: Path) -> None:
    results = search("lantern keeper", "lantern-watch", 4)
    assert len(results) == 4
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)
    assert all(r.game == "lantern-watch" and r.source == "built-in" for r in results)


def test_game_scope_and_all_games(books: Path) -> None:
    assert {r.game for r in search("points", "copper-road", 5)} == {"copper-road"}
    everywhere = search("ties copper", None, 5)
    assert everywhere[0].game == "copper-road" and everywhere[0].section == "final-scoring"
    assert {r.game for r in search("score points tie", None, 10)} == {"copper-road", "lantern-watch"}


def test_nothing_found_is_an_empty_list(books: Path) -> None:
    assert search("zeppelin", "lantern-watch") == []


@pytest.mark.parametrize(
    ("query", "message"),
    [("", "empty question"), ("?!", "empty question"), ("x" * 301, "question too long")],
)
def test_bad_questions_are_refused(books: Path, query: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        search(query, "lantern-watch")


def test_bad_limit_and_unknown_game_are_refused(books: Path) -> None:
    with pytest.raises(RulesError, match="limit must be at least 1"):
        search("dice", "lantern-watch", 0)
    with pytest.raises(RulesError, match="unknown game 'chess'"):
        search("dice", "chess")
    with pytest.raises(RulesError, match="no rulebook for blackwood yet"):
        search("dice", "blackwood")


def test_section_and_load_rulebook(books: Path) -> None:
    assert section("lantern-watch", "relight").title == "Relighting a lantern"
    assert len(load_rulebook("copper-road").sections) == 3
    with pytest.raises(RulesError, match="no section 'nope' in copper-road"):
        section("copper-road", "nope")


def test_the_index_is_cached_and_rebuilt_when_a_rulebook_changes(books: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert top("zeppelin") == []
    assert not load_rulebook("lantern-watch").has("zeppelins")
    cache = tmp_path / "home" / "cache" / "rules-index.json"
    assert cache.is_file()
    stored = json.loads(cache.read_text().partition("\n")[2])  # (after the line of the cache's own digest)
    assert any("lantern-watch.md" in str(part) for part in stored["key"])

    path = books / "lantern-watch.md"
    path.write_text(path.read_text() + "\n## Zeppelins {#zeppelins}\nReferee: table\n\nNo zeppelins.\n")
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    monkeypatch.setattr(library, "_memory", None)
    assert top("zeppelin") == ["zeppelins"]
    assert section("lantern-watch", "zeppelins").text == "No zeppelins."


def test_a_damaged_cache_is_rebuilt(books: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "home" / "cache" / "rules-index.json"
    cache.parent.mkdir(parents=True)
    cache.write_text("{not json")
    assert top("relight")[0] == "relight"
    assert json.loads(cache.read_text().partition("\n")[2])["key"]


def test_the_cached_index_answers_like_a_fresh_one(books: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = search("stelth tie lantern", None, 6)
    monkeypatch.setattr(library, "_memory", None)
    assert search("stelth tie lantern", None, 6) == fresh


COPY_TEXT = """Lantern Watch, my printed copy

Harbour Bells

When the harbour bell rings, every keeper draws one fog card.
"""


def test_an_imported_copy_is_searched_beside_the_built_in_one(
        books: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.games.registry import GAMES, GameInfo

    monkeypatch.setattr("referee.games.registry.GAMES", GAMES + (
        GameInfo("lantern-watch", "Lantern Watch", ("lw",), 2, 5, "unused"),))
    copy = tmp_path / "mine.txt"
    copy.write_text(COPY_TEXT)
    book = import_copy("lw", copy)
    assert [s.id for s in book.sections] == ["harbour-bells"]
    assert (tmp_path / "home" / "rulebooks" / "lantern-watch.json").is_file()

    results = search("harbour bell", "lantern-watch")
    assert (results[0].section, results[0].source) == ("harbour-bells", "imported:mine.txt")
    assert section("lantern-watch", "harbour-bells").source == "imported:mine.txt"
    assert search("relight")[0].source == "built-in"

    assert forget("lantern-watch") == "mine.txt"
    assert "harbour-bells" not in top("harbour bell")
    with pytest.raises(RulesError, match="no imported copy of lantern-watch"):
        forget("lantern-watch")


def test_a_copy_for_a_game_without_a_built_in_rulebook(books: Path, tmp_path: Path) -> None:
    copy = tmp_path / "bw.md"
    copy.write_text("# Blackwood notes\n\n## Brewing\nMix three things in the pot.\n")
    import_copy("blackwood", copy)
    assert top("brewing pot", "bw") == ["brewing"]
    assert section("blackwood", "brewing").source == "imported:bw.md"
    with pytest.raises(RulesError, match="no built-in rulebook for blackwood"):
        load_rulebook("blackwood")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.txt", None, "file not found"),
        ("rules.pdf", b"%PDF-1.4", "unsupported file type '.pdf'"),
        ("binary.txt", b"abc\0def", "binary data"),
        ("latin.txt", "caf\xe9 rules".encode("latin-1"), "not UTF-8 text"),
        ("blank.txt", b"  \n\n 123 \n", "no text in the file"),
    ],
)
def test_unusable_files_are_refused(books: Path, tmp_path: Path, name: str, content: bytes | None,
                                    message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(RulesError, match=message):
        import_copy("blackwood", path)
    assert not (tmp_path / "home" / "rulebooks" / "blackwood.json").exists()


def test_import_needs_a_known_game(books: Path, tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_text("Some Heading\n\nText here.\n")
    with pytest.raises(RulesError, match="unknown game 'chess'"):
        import_copy("chess", path)
