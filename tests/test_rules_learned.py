"""The table's own words: learned after a lookup at a terminal, kept privately, listed, removed,
exported with the card catalogue, and never hiding a section that matches better."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cli import cards_cmd, rules_cmd
from referee.rules import learned, library, search

FIXTURES = Path(__file__).parent / "fixtures" / "rules"
RULEBOOKS = Path(__file__).resolve().parent.parent / "rulebooks"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "rulebooks"
    shutil.copytree(FIXTURES, folder)
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(folder))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PAGER", "cat")
    monkeypatch.setattr(library, "_memory", None)
    return folder


@pytest.fixture
def real_rulebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(RULEBOOKS))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)
    return tmp_path / "home"


def answers(*typed: str) -> Iterator[str]:
    yield from typed


def lookup(words: list[str], *typed: str) -> tuple[int, str]:
    """A lookup at a terminal, the table answering `typed` to "which one answered it?"."""
    screen = Terminal()
    replies = answers(*typed)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(replies)
        except StopIteration:
            raise EOFError from None

    code = rules_cmd.run(words, out=screen, ask=ask)
    return code, screen.getvalue() + "".join(prompts)


def top(query: str, game: str = "lantern-watch") -> list[str]:
    return [result.section for result in search(query, game, 3)]


def digest(folder: Path) -> str:
    return hashlib.sha256(b"".join(path.read_bytes() for path in sorted(folder.iterdir()))).hexdigest()


def test_the_table_says_which_result_answered_and_the_phrasing_is_kept_privately(books: Path,
                                                                                tmp_path: Path) -> None:
    shipped = digest(books)
    results = top("my lantern went out")
    assert results[0] != "relight" and "relight" in results
    chosen = results.index("relight") + 1
    code, screen = lookup(["lantern-watch", "my", "lantern", "went", "out"], str(chosen))
    assert code == 0 and "Which one answered it?" in screen
    assert "Kept: 'my lantern went out' for lantern-watch #relight" in screen
    kept = tmp_path / "home" / "rules" / "learned.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert json.loads(kept.read_text())["phrasings"] == [
        {"game": "lantern-watch", "section": "relight", "text": "my lantern went out"}]
    assert digest(books) == shipped  # the shipped rulebooks and their data never change
    library._memory = None
    assert top("my lantern went out")[0] == "relight"


def test_a_learned_phrasing_of_new_words_finds_its_section(books: Path) -> None:
    assert not top("skint again")
    learned.learn("lantern-watch", "relight", "skint again, no oil", library.section_ids("lantern-watch"))
    assert top("skint again")[0] == "relight"


def test_a_learned_phrasing_never_hides_a_better_match_of_another_section(books: Path) -> None:
    sections = library.section_ids("lantern-watch")
    learned.learn("lantern-watch", "fog-cards", "rolling the storm dice", sections)
    learned.learn("lantern-watch", "fog-cards", "rolling the storm dice at the start of a round", sections)
    # the section titled so, and whose text says so, still answers first
    assert top("rolling the storm dice at the start of a round")[0] == "storm-dice"
    assert "fog-cards" in top("rolling the storm dice at the start of a round")
    # and a phrasing weighs nothing on a question it does not resemble
    assert top("how do i relight a lantern")[0] == "relight"


def test_none_or_enter_keeps_nothing_and_a_wrong_answer_gets_one_line_and_a_second_chance(books: Path,
                                                                                          tmp_path: Path) -> None:
    for typed in ("", "none"):
        code, screen = lookup(["lantern-watch", "relight"], typed)
        assert code == 0 and "Kept" not in screen
    assert not (tmp_path / "home" / "rules").exists()
    code, screen = lookup(["lantern-watch", "storm", "dice"], "7", "1")
    assert "'7' is not one of the results; allowed: " in screen and screen.count("is not one of") == 1
    assert "Kept: 'storm dice' for lantern-watch #storm-dice" in screen
    code, screen = lookup(["lantern-watch", "storm", "dice"], "x", "y")
    assert screen.count("is not one of the results") == 2 and "Kept" not in screen.split("'x'")[1]


def test_piped_output_is_never_asked(books: Path, tmp_path: Path) -> None:
    piped = io.StringIO()
    assert rules_cmd.run(["lantern-watch", "relight"], out=piped) == 0
    assert "Which one answered it?" not in piped.getvalue()


def test_learned_phrasings_are_listed_and_removed_by_number(books: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sections = library.section_ids("lantern-watch")
    learned.learn("lantern-watch", "relight", "light it again", sections)
    learned.learn("lantern-watch", "storm-dice", "wind and rain", sections)
    learned.learn("copper-road", "final-scoring", "who has the most", library.section_ids("copper-road"))
    out = io.StringIO()
    assert rules_cmd.run(["learned", "lantern-watch"], out=out) == 0
    listing = out.getvalue()
    assert "  1. lantern-watch #relight (Relighting a lantern): 'light it again'" in listing
    assert "  2. lantern-watch #storm-dice" in listing and "copper-road" not in listing
    out = io.StringIO()
    assert rules_cmd.run(["learned"], as_json=True, out=out) == 0
    assert [row["number"] for row in json.loads(out.getvalue())["learned"]] == [1, 2, 3]
    out = io.StringIO()
    assert rules_cmd.run(["unlearn", "2"], out=out) == 0
    assert "Removed 1 learned phrasing." in out.getvalue()
    assert [item.text for item in learned.phrasings()] == ["light it again", "who has the most"]
    assert rules_cmd.run(["unlearn", "9"], out=io.StringIO()) == 2
    assert "no learned phrasing 9; allowed: 1 to 2" in capsys.readouterr().err
    assert rules_cmd.run(["unlearn", "all"], out=io.StringIO()) == 0
    assert learned.phrasings() == []


def test_commands_that_only_read_create_no_data_directory(books: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    out = io.StringIO()
    assert rules_cmd.run(["learned"], out=out) == 0 and "No phrasings learned yet" in out.getvalue()
    assert rules_cmd.run(["unlearn", "all"], out=io.StringIO()) == 0
    assert rules_cmd.run(["unlearn", "1"], out=io.StringIO()) == 2
    assert learned.for_search() == {}
    assert not home.exists()


def test_a_damaged_file_of_phrasings_never_stops_a_lookup(books: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    kept = tmp_path / "home" / "rules" / "learned.json"
    kept.parent.mkdir(parents=True)
    kept.write_text("{not json", encoding="utf-8")
    assert top("relight")[0] == "relight"
    assert rules_cmd.run(["learned"], out=io.StringIO()) == 2
    assert "cannot be read" in capsys.readouterr().err
    assert rules_cmd.run(["unlearn", "all"], out=io.StringIO()) == 0
    learned.learn("lantern-watch", "relight", "light it again", library.section_ids("lantern-watch"))
    assert [item.text for item in learned.phrasings()] == ["light it again"]


def test_the_card_catalogues_export_carries_a_games_phrasings_and_its_import_keeps_them(
        real_rulebooks: Path, tmp_path: Path) -> None:
    learned.learn("blackwood", "fagus-loan", "the tree bloke lends", library.section_ids("blackwood"))
    learned.learn("got-lcg-1e", "phase-draw", "how many do i pick up", library.section_ids("got-lcg-1e"))
    exported = tmp_path / "blackwood.json"
    assert cards_cmd.run("blackwood", "export", str(exported), [], False, None) == 0
    data = json.loads(exported.read_text())
    assert data["phrasings"] == [{"section": "fagus-loan", "text": "the tree bloke lends"}]
    learned.unlearn(None)
    assert cards_cmd.run("blackwood", "import", str(exported), [], False, None) == 0
    assert [(item.game, item.section, item.text) for item in learned.phrasings()] == [
        ("blackwood", "fagus-loan", "the tree bloke lends")]
    data["phrasings"].append({"section": "no-such-section", "text": "anything"})
    exported.write_text(json.dumps(data))
    learned.unlearn(None)
    assert cards_cmd.run("blackwood", "import", str(exported), [], False, None) == 2
    assert learned.phrasings() == []  # refused whole, before any card or phrasing was kept
