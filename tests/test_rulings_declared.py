"""Rulings are typed: each game declares its rulings with every value they may take, a comparison
with a value a ruling lacks is refused (by the type checker, and here for every one in the code),
and a TOML that disagrees with the declarations stops the game from loading."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from referee.engine.rulings import Ruling, RulingSet, RulingsMismatch, checked
from referee.errors import SessionError
from referee.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
GAME_PACKAGES = sorted(path.parent for path in (ROOT / "referee" / "games").glob("*/rulings.py"))
SPLIT = Ruling("gem-split", ("best", "most-sets"))


def compared_values(package: Path) -> list[tuple[str, str, str]]:
    """(file:line, ruling constant, value) of every `RULING.of(...) == "value"` in the package."""
    found = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            for side, other in zip(sides, sides[1:], strict=False):
                for call, value in ((side, other), (other, side)):
                    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "of"
                            and isinstance(call.func.value, ast.Name) and isinstance(value, ast.Constant)):
                        found.append((f"{path.name}:{node.lineno}", call.func.value.id, str(value.value)))
    return found


@pytest.mark.parametrize("package", GAME_PACKAGES, ids=lambda package: package.name)
def test_every_ruling_value_the_code_compares_with_is_one_the_ruling_has(package: Path) -> None:
    rulings = importlib.import_module(f"referee.games.{package.name}.rulings")
    compared = compared_values(package)
    assert compared, f"{package.name} reads no ruling through its declaration"
    wrong = [(where, name, value) for where, name, value in compared if value not in getattr(rulings, name).values]
    assert wrong == []


@pytest.mark.parametrize("info", [info for info in GAMES if info.guided], ids=lambda info: info.id)
def test_every_game_declares_exactly_the_rulings_its_toml_offers(info) -> None:  # type: ignore[no-untyped-def]
    from referee.engine.facts import ruling_choices

    assert info.guided is not None
    game = info.guided()
    assert dict(game.rulings.choices) == ruling_choices(game.rulebook)
    assert {ruling.name for ruling in game.rulings} == set(ruling_choices(game.rulebook))


def test_a_toml_that_disagrees_with_the_declarations_stops_the_game_loading() -> None:
    assert checked("ck", [SPLIT], {"gem-split": ("most-sets", "best")}) == {"gem-split": ("most-sets", "best")}
    with pytest.raises(RulingsMismatch, match="has no value 'bets' \\(the TOML's default\\)"):
        checked("ck", [SPLIT], {"gem-split": ("bets", "most-sets")})
    with pytest.raises(RulingsMismatch, match="the TOML offers rulings the game does not declare: tied-top"):
        checked("ck", [SPLIT], {"gem-split": ("best", "most-sets"), "tied-top": ("share", "nobody")})
    with pytest.raises(RulingsMismatch, match="declared but not in the TOML"):
        checked("ck", [SPLIT], {})
    with pytest.raises(RulingsMismatch, match="does not offer gem-split=most-sets"):
        checked("ck", [SPLIT], {"gem-split": ("best",)})


def test_a_ruling_read_from_a_state_must_hold_one_of_its_values() -> None:
    assert SPLIT.of({"gem-split": "most-sets"}) == "most-sets"
    with pytest.raises(RulingsMismatch, match="has no value 'most'"):
        SPLIT.of({"gem-split": "most"})
    with pytest.raises(KeyError):
        SPLIT.of({})  # a state without the ruling is refused, never read as its default


def test_the_tables_overrides_are_checked_against_the_declared_choices() -> None:
    rulings = RulingSet(None, (SPLIT,), {"gem-split": ("best", "most-sets")})
    assert rulings.chosen({}) == {"gem-split": "best"}
    assert rulings.chosen({"rulings": {"gem-split": "most-sets"}}) == {"gem-split": "most-sets"}
    refused = re.escape("unknown ruling override gem-split=most; allowed: gem-split=best|most-sets")
    with pytest.raises(SessionError, match=refused):
        rulings.chosen({"rulings": {"gem-split": "most"}})
