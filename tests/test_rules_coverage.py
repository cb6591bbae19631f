"""Every heading of a source rulebook is restated by some section of the project's rulebook.

Each game's TOML lists the source's headings under `[source] headings`; a section names the ones
it restates on its `Covers:` line. When the sources are at hand (../shared/seeds), each listed
heading must also really occur in the source text, so the list cannot drift from the source.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from referee.rules.parse import parse_rulebook

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
GAMES = ("blackwood", "council-of-blackthorn", "council-of-serpents", "cutthroat-kingdoms", "got-lcg-1e")
SEED_DIRS = (Path("/work/shared/seeds"), ROOT.parent / "shared" / "seeds")


def seeds_dir() -> Path | None:
    return next((folder for folder in SEED_DIRS if folder.is_dir()), None)


def source_headings(game: str) -> tuple[str, list[str]]:
    data = tomllib.loads((RULEBOOKS / f"{game}.toml").read_text(encoding="utf-8"))
    return str(data["source"]["file"]), list(data["source"]["headings"])


def normalised(text: str) -> str:
    return " ".join(text.replace("\u2013", "-").replace("\u2014", "-").split()).lower()


@pytest.mark.parametrize("game", GAMES)
def test_every_source_heading_is_covered_by_a_section(game: str) -> None:
    _, headings = source_headings(game)
    assert headings, f"{game}: no [source] headings listed"
    rulebook = parse_rulebook((RULEBOOKS / f"{game}.md").read_text(encoding="utf-8"), game, "built-in")
    covered = {normalised(heading) for section in rulebook.sections for heading in section.covers}
    missing = [heading for heading in headings if normalised(heading) not in covered]
    assert not missing, f"{game}: headings no section covers: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_heading_occurs_in_the_source(game: str) -> None:
    folder = seeds_dir()
    if folder is None:
        pytest.skip("the rulebook sources (../shared/seeds) are not here")
    file, headings = source_headings(game)
    source = normalised((folder / file).read_text(encoding="utf-8").replace("\u2019", "'"))
    # a long heading cut short with "…" stands for the source heading it begins
    absent = [h for h in headings if normalised(h.rstrip("…").replace("\u2019", "'")) not in source]
    assert not absent, f"{game}: headings not found in {file}: {absent}"


@pytest.mark.parametrize("game", GAMES)
def test_covers_lines_name_only_listed_headings(game: str) -> None:
    _, headings = source_headings(game)
    listed = {normalised(heading) for heading in headings}
    rulebook = parse_rulebook((RULEBOOKS / f"{game}.md").read_text(encoding="utf-8"), game, "built-in")
    unknown = sorted({heading for section in rulebook.sections for heading in section.covers
                      if normalised(heading) not in listed})
    assert not unknown, f"{game}: Covers names headings missing from [source] headings: {unknown}"
