"""The vocabularies of how players speak: their data format, and what they do to a lookup."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from referee.games.registry import GAMES
from referee.rules import library, load_rulebook, search
from referee.rules.index import SearchIndex
from referee.rules.model import Rulebook, RulesError, Section
from referee.rules.questions import REFERENCE_FACTOR, Form, form_of
from referee.rules.text import STOPWORDS, stem, terms, words
from referee.rules.vocabulary import SHARED, parse_vocabulary, read_vocabulary, vocabulary_path

RULEBOOKS = Path(__file__).resolve().parent.parent / "rulebooks"
FIXTURES = Path(__file__).parent / "fixtures" / "rules"


def indexed_terms(game: str) -> set[str]:
    """Every term a game's rulebook uses, as the index stems it."""
    rulebook = load_rulebook(game)
    found: set[str] = set()
    for section in rulebook.sections:
        for text in (section.title, section.text, " ".join(section.covers)):
            found |= {stem(word) for word in words(text) if word not in STOPWORDS}
    return found


@pytest.fixture
def real_rulebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(RULEBOOKS))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)


def test_every_game_has_a_vocabulary_and_all_of_them_read(real_rulebooks: None) -> None:
    assert vocabulary_path(RULEBOOKS, SHARED).is_file()
    for game in GAMES:
        vocabulary = read_vocabulary(vocabulary_path(RULEBOOKS, game.id))
        assert len(vocabulary.says) >= 20, game.id


@pytest.mark.parametrize("game", [game.id for game in GAMES])
def test_a_games_vocabulary_points_at_words_and_sections_of_its_own_rulebook(real_rulebooks: None,
                                                                             game: str) -> None:
    vocabulary = read_vocabulary(vocabulary_path(RULEBOOKS, game))
    known = indexed_terms(game)
    for phrase, meaning in vocabulary.says.items():
        found = [term for item in meaning for term in terms(item)]
        assert found and any(term in known for term in found), (phrase, meaning)
    sections = {section.id for section in load_rulebook(game).sections}
    assert vocabulary.reference <= sections


def test_the_shared_vocabulary_points_at_words_the_rulebooks_use(real_rulebooks: None) -> None:
    vocabulary = read_vocabulary(vocabulary_path(RULEBOOKS, SHARED))
    known = set().union(*(indexed_terms(game.id) for game in GAMES))
    for phrase, meaning in vocabulary.says.items():
        assert any(term in known for item in meaning for term in terms(item) or words(item)), phrase
    every_section = {section.id for game in GAMES for section in load_rulebook(game.id).sections}
    assert vocabulary.reference <= every_section
    assert {"glossary", "components"} <= vocabulary.reference


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("says = 3", "[says] must be a table"),
        ("[says]\nhusband = \"marriage\"", "says.'husband' must be a list of words"),
        ("[says]\nhusband = []", "says.'husband' names no rulebook word"),
        ("[says]\n\"a b c d e\" = [\"x\"]", "must be 1 to 4 words"),
        ("[says]\ntie = [\"tiebreak\"]\ntied = [\"equal\"]", "says.'tied' is the same phrase as says.'tie'"),
        ("ignore = \"stuff\"", "ignore must be a list of words"),
        ("reference = [1]", "reference must be a list of words"),
        ("synonyms = []", "unknown key 'synonyms'; allowed: ignore, reference, says"),
        ("[says\n", "not valid TOML"),
    ],
)
def test_a_bad_vocabulary_is_refused_with_its_file_and_key(text: str, message: str) -> None:
    with pytest.raises(RulesError, match="^mine.vocab.toml: ") as raised:
        parse_vocabulary(text, "mine.vocab.toml")
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_phrases_are_matched_by_their_stems_and_read_longest_first() -> None:
    vocabulary = parse_vocabulary('[says]\n"goes first" = ["opening player"]\nfirst = ["initial"]\n'
                                  'husband = ["marriage"]', "v")
    sections = tuple(Section("g", section_id, title, 2, "table", (), (), text) for section_id, title, text in (
        ("opening", "Opening", "The opening player is the eldest."),
        ("initial", "Initial hand", "Every initial hand holds five cards."),
        ("marriage", "Marriage", "A marriage joins two houses."),
    ))
    index = SearchIndex.build([Rulebook("g", "G", sections)], {"g": vocabulary})
    assert index.search("who goes first", ["g"])[0].section == "opening"
    assert index.search("first", ["g"])[0].section == "initial"
    assert index.search("my husbands", ["g"])[0].section == "marriage"
    assert index.search("my husbnd", ["g"])[0].section == "marriage"  # a slip in a player's word


def test_a_word_to_ignore_is_dropped_from_questions_only() -> None:
    vocabulary = parse_vocabulary('ignore = ["stuff"]', "v")
    sections = (Section("g", "stuff", "Stuff", 2, "table", (), (), "Stuff is kept in the box."),
                Section("g", "box", "Box", 2, "table", (), (), "The box holds the board."))
    index = SearchIndex.build([Rulebook("g", "G", sections)], {SHARED: vocabulary})
    assert [r.section for r in index.search("stuff box", ["g"])][0] == "box"
    assert index.search("stuff", ["g"])[0].section == "stuff"  # nothing else asked: the word counts


def test_a_rule_question_ranks_describing_sections_below_rule_sections() -> None:
    vocabulary = parse_vocabulary('reference = ["glossary"]', "v")
    sections = (Section("g", "glossary", "Glossary", 2, "table", (), (),
                        "Fog card: a fog card, drawn at dusk. Dusk: when fog cards are drawn."),
                Section("g", "fog", "Fog", 2, "table", (), (),
                        "At dusk every keeper draws one fog card from the deck."))
    marked = SearchIndex.build([Rulebook("g", "G", sections)], {SHARED: vocabulary})
    plain = SearchIndex.build([Rulebook("g", "G", sections)])

    def scores(index: SearchIndex, question: str) -> dict[str, float]:
        return {result.section: result.score for result in index.search(question, ["g"])}

    rule_question = "what happens with a fog card at dusk"
    assert list(scores(marked, rule_question))[0] == "fog"
    assert scores(marked, rule_question)["glossary"] == pytest.approx(
        REFERENCE_FACTOR[Form.RULE] * scores(plain, rule_question)["glossary"])
    assert scores(marked, rule_question)["fog"] == scores(plain, rule_question)["fog"]
    assert scores(marked, "what is a fog card") == scores(plain, "what is a fog card")


@pytest.mark.parametrize(
    ("question", "form"),
    [("can i attack my husband's land", Form.RULE), ("what happens when the deck runs out", Form.RULE),
     ("who goes first", Form.RULE), ("i'm broke, can i get a loan", Form.RULE),
     ("what is a puppet", Form.MEANING), ("what does claim mean", Form.MEANING),
     ("renown", Form.TOPIC), ("lady crone abilities", Form.TOPIC)],
)
def test_the_form_of_a_question(question: str, form: Form) -> None:
    assert form_of(question) is form


def test_players_words_in_the_real_rulebooks(real_rulebooks: None) -> None:
    assert search("can i attack my husband's land", "cutthroat-kingdoms", 2)[0].section in ("marriage",
                                                                                            "attack-and-defend")
    assert "marriage" in [r.section for r in search("can i attack my husband's land", "cutthroat-kingdoms", 2)]
    assert search("does the king's axe fall on a tie", "council-of-blackthorn", 1)[0].section == "beheading"
    assert search("can we get divorced", "cutthroat-kingdoms", 1)[0].section == "marriage"
    assert search("can i attack with a guy who's turned sideways", "got-lcg-1e", 1)[0].section in (
        "challenge-rules", "challenge-steps")


def test_a_changed_vocabulary_rebuilds_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "rulebooks"
    shutil.copytree(FIXTURES, folder)
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(folder))
    monkeypatch.setenv("REFEREE_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(library, "_memory", None)
    assert search("lamp", "lantern-watch")[0].section == "lanterns"
    assert search("zeppelin", "lantern-watch") == []
    path = folder / "lantern-watch.vocab.toml"
    path.write_text(path.read_text() + 'zeppelin = ["fog"]\n')
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000_000))
    monkeypatch.setattr(library, "_memory", None)
    assert search("zeppelin", "lantern-watch")[0].section == "fog-cards"
    path.write_text("[says\n")
    monkeypatch.setattr(library, "_memory", None)
    with pytest.raises(RulesError, match="lantern-watch.vocab.toml: not valid TOML"):
        search("zeppelin", "lantern-watch")
