"""The players' questions each section answers, the rule a ruling settles, the verbs of play and
the everyday names: their data, and what they do to a lookup."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.rules import library, load_rulebook, search
from referee.rules.asked import parse_asked, questions_path, read_asked
from referee.rules.imports import import_copy
from referee.rules.model import RulesError
from referee.rules.vocabulary import read_vocabulary, vocabulary_path

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
FIXTURES = Path(__file__).parent / "fixtures" / "rules"
GAMES = ("blackwood", "council-of-blackthorn", "council-of-serpents", "cutthroat-kingdoms", "got-lcg-1e")
LEAST_QUESTIONS = 4


@pytest.fixture
def real_rulebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(RULEBOOKS))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)


@pytest.fixture
def books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "rulebooks"
    shutil.copytree(FIXTURES, folder)
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(folder))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)
    return folder


def top(query: str, game: str, limit: int = 3) -> list[str]:
    return [result.section for result in search(query, game, limit)]


# -- the data ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_section_answers_at_least_four_player_questions_and_names_no_unknown_id(real_rulebooks: None,
                                                                                    game: str) -> None:
    sections = [section.id for section in load_rulebook(game).sections]
    asked = read_asked(questions_path(RULEBOOKS, game), set(sections))  # an unknown id is refused here
    few = {section: len(asked.get(section, ())) for section in sections
           if len(asked.get(section, ())) < LEAST_QUESTIONS}
    assert not few, f"{game}: sections with fewer than {LEAST_QUESTIONS} questions: {few}"
    for section, questions in asked.items():
        assert len(set(questions)) == len(questions), (game, section, "a question twice")


def test_the_lookup_looks_for_questions_files_where_they_are_read_from() -> None:
    from referee.rules.asked import SUFFIX

    assert library.QUESTIONS_SUFFIX == SUFFIX


def test_there_are_questions_for_every_one_of_the_sections_of_all_rulebooks(real_rulebooks: None) -> None:
    count = sum(len(load_rulebook(game).sections) for game in GAMES)
    asked = sum(len(read_asked(questions_path(RULEBOOKS, game))) for game in GAMES)
    assert asked == count >= 260


@pytest.mark.parametrize(("text", "message"), [
    ('nowhere = ["who goes first"]', "'nowhere' is not a section"),
    ('setup = "who goes first"', "must be a list of questions"),
    ("setup = []", "must be a list of questions"),
    ('setup = ["", "who goes first"]', "each entry is a question in words"),
    ('setup = ["' + "why " * 60 + '"]', "at most 200"),
    ("setup = [", "not valid TOML"),
])
def test_a_faulty_questions_file_is_refused_in_one_line_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        parse_asked(text, "lantern-watch.questions.toml", {"setup", "relight"})
    assert message in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("game", GAMES)
def test_every_ruling_settles_a_rule_of_its_own_rulebook(real_rulebooks: None, game: str) -> None:
    rulebook = load_rulebook(game)
    rules = {section.id for section in rulebook.sections if not section.id.startswith("ruling-")}
    for section in rulebook.sections:
        if section.id.startswith("ruling-"):
            assert section.settles and set(section.settles) <= rules, (game, section.id, section.settles)
        else:
            assert not section.settles, (game, section.id)


@pytest.mark.parametrize("game", GAMES)
def test_the_verbs_of_play_point_at_sections_that_exist(real_rulebooks: None, game: str) -> None:
    does = read_vocabulary(vocabulary_path(RULEBOOKS, game)).does
    known = {section.id for section in load_rulebook(game).sections}
    assert does, f"{game}: no [does] verbs"
    assert all(set(sections) <= known for sections in does.values()), game


# -- what they do -----------------------------------------------------------------------------


def write_questions(books: Path, text: str) -> None:
    (books / "lantern-watch.questions.toml").write_text(text, encoding="utf-8")
    library._memory = None


def test_a_section_is_found_by_a_players_question_whose_words_its_text_never_uses(books: Path) -> None:
    assert "ruling-blank-die" not in top("wonky wobble", "lantern-watch")
    write_questions(books, 'ruling-blank-die = ["mine wonky wobble on the table, now what"]\n')
    assert top("wonky wobble", "lantern-watch")[0] == "ruling-blank-die"


def test_a_players_question_weighs_above_the_body_text(books: Path) -> None:
    # "clockwise" is in the text of #turn-order; a question of #storm-dice asks it.
    assert top("clockwise", "lantern-watch")[0] == "turn-order"
    write_questions(books, 'storm-dice = ["which way round is it, clockwise"]\n')
    assert top("clockwise", "lantern-watch")[0] == "storm-dice"


def test_an_edited_questions_file_rebuilds_the_index(books: Path) -> None:
    write_questions(books, 'fog-cards = ["the harbour is a pea souper"]\n')
    assert top("pea souper", "lantern-watch")[0] == "fog-cards"
    write_questions(books, 'setup = ["the harbour is a pea souper"]\n')
    assert top("pea souper", "lantern-watch")[0] == "setup"


def test_an_imported_copy_carries_the_questions_of_its_sections(books: Path, tmp_path: Path) -> None:
    copy = tmp_path / "notes.md"
    copy.write_text("# Blackwood notes\n\n## Night Market\nPotions sell for double at night.\n", encoding="utf-8")
    questions = tmp_path / "notes.questions.toml"
    questions.write_text('night-market = ["the moon is up, what is my brew worth"]\n', encoding="utf-8")
    import_copy("blackwood", copy, questions)
    library._memory = None
    assert top("moon is up", "blackwood")[0] == "night-market"
    questions.write_text('day-market = ["when the sun is out"]\n', encoding="utf-8")
    with pytest.raises(RulesError, match="'day-market' is not a section"):
        import_copy("blackwood", copy, questions)


def test_a_ruling_ranks_close_behind_the_rule_it_settles_and_each_names_the_other(real_rulebooks: None) -> None:
    found = search("who wins a tie", "blackwood", 3)
    assert {"tie-breaks", "ruling-final-tie"} <= {result.section for result in found}
    by_id = {result.section: result for result in found}
    assert "ruling-final-tie" in [section for section, _ in by_id["tie-breaks"].related]
    assert by_id["ruling-final-tie"].related[0][0] == "tie-breaks"
    # a question about the ruling's own point puts the ruling first
    assert top("still tied after potions and coins, can two witches share the seat", "blackwood")[0] == \
        "ruling-final-tie"


def test_see_also_names_two_sections_the_player_reads_next(real_rulebooks: None) -> None:
    best = search("how many cards do i draw", "got", 1)[0]
    assert best.section == "phase-draw"
    assert [section for section, _ in best.related] == ["ruling-empty-draw-deck", "title-powers"]


@pytest.mark.parametrize(("game", "question", "section"), [
    ("got-lcg-1e", "how many cards do i draw each round", "phase-draw"),
    ("got-lcg-1e", "do i get power if he doesn't defend", "unopposed"),
    ("council-of-blackthorn", "my building is turned sideways, when can i use it", "phase-construction"),
    ("council-of-blackthorn", "what is a half built building worth at the end", "building-value"),
    ("blackwood", "who is the tree guy", "fagus-loan"),
    ("council-of-serpents", "the time thing is empty, what now", "forming-a-time-track"),
    ("cutthroat-kingdoms", "we got hitched, can i still attack her land", "marriage"),
    ("council-of-serpents", "the bot has two houses tied, where does she play", "serpentess-turn"),
])
def test_the_situation_and_the_players_words_reach_the_rule(real_rulebooks: None, game: str, question: str,
                                                            section: str) -> None:
    assert section in top(question, game), (question, top(question, game))


def test_a_verb_of_play_leans_toward_its_phase(books: Path) -> None:
    before = search("when may i relight", "lantern-watch", 10)
    (books / "lantern-watch.vocab.toml").write_text(
        '[says]\nlamp = ["lantern"]\n[does]\nrelight = ["turn-order"]\n', encoding="utf-8")
    library._memory = None
    after = search("when may i relight", "lantern-watch", 10)
    assert "turn-order" not in [result.section for result in before]
    ranked = [result.section for result in after]
    assert ranked[0] == "relight" and "turn-order" in ranked[:3]
