"""A rulebook's numbers are read from its TOML, and a session keeps them, parsed, in the data
directory's cache for the next start: always what the TOML says, however the cache is found."""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.engine import facts
from referee.rules.paths import builtin_dir

RULEBOOKS = sorted(path.stem for path in builtin_dir().glob("*.toml") if not path.name.endswith(".vocab.toml"))


@pytest.fixture
def fresh(referee_home: Path) -> Iterator[Path]:
    """An empty data directory and no numbers in memory; the cache folder it will hold."""
    referee_home.mkdir()  # (the numbers are kept only in a data directory that exists)
    facts.numbers.cache_clear()
    yield referee_home / "cache"
    facts.numbers.cache_clear()


def read_toml(rulebook: str, folder: Path | None = None) -> object:
    return tomllib.loads(((folder or builtin_dir()) / f"{rulebook}.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_the_numbers_are_the_tomls_whether_kept_or_not(fresh: Path, rulebook: str) -> None:
    assert facts.numbers(rulebook) == read_toml(rulebook)  # read from the TOML
    assert not fresh.exists()  # reading writes nothing
    facts.keep_numbers()  # as a session does when it closes
    assert (fresh / f"numbers-{rulebook}.json").is_file()
    facts.numbers.cache_clear()
    assert facts.numbers(rulebook) == read_toml(rulebook)  # read from what was kept


def test_a_changed_rulebook_is_read_again(fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rulebook = RULEBOOKS[0]
    copy = tmp_path / "rulebooks"
    shutil.copytree(builtin_dir(), copy)
    monkeypatch.setenv("REFEREE_RULEBOOKS", str(copy))
    before = facts.numbers(rulebook)
    facts.numbers.cache_clear()
    path = copy / f"{rulebook}.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n[cache-test]\nchanged = 1\n", encoding="utf-8")
    after = facts.numbers(rulebook)
    assert after == read_toml(rulebook, copy) and after["cache-test"] == {"changed": 1} and "cache-test" not in before


@pytest.mark.parametrize("damage", [b"", b"{", b'{"key": "x", "numbers": {}}', b'{"key": 1}', b"\xff"])
def test_a_damaged_kept_copy_is_read_from_the_toml_again(fresh: Path, damage: bytes) -> None:
    rulebook = RULEBOOKS[0]
    facts.numbers(rulebook)
    facts.keep_numbers()
    facts.numbers.cache_clear()
    (fresh / f"numbers-{rulebook}.json").write_bytes(damage)
    assert facts.numbers(rulebook) == read_toml(rulebook)


def test_without_a_usable_data_directory_the_toml_is_read(referee_home: Path) -> None:
    facts.numbers.cache_clear()
    referee_home.parent.mkdir(parents=True, exist_ok=True)
    referee_home.write_text("a file where the data directory would be")
    try:
        assert facts.numbers(RULEBOOKS[0]) == read_toml(RULEBOOKS[0])
        facts.keep_numbers()  # nowhere to keep them: nothing happens
    finally:
        facts.numbers.cache_clear()


def test_a_session_keeps_its_rulebooks_numbers_when_it_closes(fresh: Path, referee_home: Path) -> None:
    from referee.games.registry import load_game
    from referee.session import LiveSession
    from referee.store import Store

    live = LiveSession.start(Store(referee_home), load_game("blackwood"), ["Ann", "Bo"], {})
    assert not (fresh / "numbers-blackwood.json").exists()  # nothing written before the first question
    live.close()
    live.release()
    assert (fresh / "numbers-blackwood.json").is_file()
    facts.numbers.cache_clear()
    assert facts.numbers("blackwood") == read_toml("blackwood")
