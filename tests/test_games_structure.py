"""What every guided game shares since the engine owns the question: the same files with the same
roles, flows that never take an option's label apart, every question through `ask`, and a help
at every question that shows the game's own correction."""

from __future__ import annotations

import ast
import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from referee.engine.corrections import parse
from referee.engine.driver import Driver
from referee.engine.simulate import random_answer
from referee.games.registry import GAMES, load_game

ROOT = Path(__file__).resolve().parent.parent
GUIDED = [info for info in GAMES if info.guided]
PACKAGES = {info.id: ROOT / "referee" / "games" / info.guided.__module__.split(".")[2]
            for info in GUIDED if info.guided}
ROLES = ("__init__.py", "state.py", "rules.py", "parse.py", "game.py", "scoring.py")
NAMES = ["Ann", "Bo", "Cy", "Di"]
REACHED = {
    "council-of-blackthorn": {"setup-ring-holder", "setup-characters", "round-dice", "phase-play-card", "whispers"},
    "council-of-serpents": {"play-influence", "forming-a-time-track", "serpentess-turn", "intrigue-cards"},
    "blackwood": {"setup", "forest-exploration", "return-to-village", "brew-potion", "potion-cards"},
    "cutthroat-kingdoms": {"setup-houses", "cards-hireling", "resource-phase", "action-phase", "score-coins"},
    "got-lcg-1e": {"deck-building", "phase-plot", "challenge-steps", "challenge-claim", "phase-dominance"},
}
"""Sections each game's random games must reach, so that the check above covers the game's questions."""


def flow_modules(package: Path) -> list[Path]:
    single = package / "flow.py"
    return [single] if single.exists() else sorted((package / "flow").glob("*.py"))


@pytest.mark.parametrize("game_id", sorted(PACKAGES))
def test_every_game_package_has_the_same_files_with_the_same_roles(game_id: str) -> None:
    package = PACKAGES[game_id]
    missing = [name for name in ROLES if not (package / name).exists()]
    assert missing == [], f"{game_id} lacks {missing}"
    assert flow_modules(package), f"{game_id} has no flow"
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text()))
    assert docstring and len(docstring) > 40, f"{game_id}: the package docstring says what the package does"
    for module in flow_modules(package):
        assert len(module.read_text().splitlines()) <= 650, f"{module} is past ~600 lines: split it by rulebook part"


@pytest.mark.parametrize("game_id", sorted(PACKAGES))
def test_no_flow_takes_an_option_label_apart_or_asks_around_the_engine(game_id: str) -> None:
    for module in flow_modules(PACKAGES[game_id]):
        tree = ast.parse(module.read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        assert "re" not in imported, f"{module}: answer parsers live in parse.py, not in the flow"
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Yield):
                raise AssertionError(f"{module}:{node.lineno}: a bare '= yield'; ask through 'yield from ask(...)'")


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
def test_the_help_at_a_question_shows_the_games_own_correction(info) -> None:  # type: ignore[no-untyped-def]
    from referee.cli.answerers import ScriptedAnswerer
    from referee.cli.loop import SessionLoop

    game = load_game(info.id)
    assert game.correction_example, f"{info.id} has no correction example"
    others = {load_game(other.id).correction_example for other in GUIDED if other.id != info.id}
    driver = Driver(game, NAMES[: max(info.min_players, 2)], {})
    rng = random.Random(1)
    for _ in range(12):  # a few answers in, so that the example's names and fields exist
        if driver.pending is None:
            break
        try:
            driver.answer(random_answer(driver.pending, rng))
        except ValueError:
            continue
    example = game.correction_example.partition(";")[0].strip()
    parse(example, game.correction_targets(driver.state), game.correction_fields())  # it reads in this game

    class Live:
        def __init__(self) -> None:
            self.driver = driver
            self.game = game

    out = io.StringIO()
    loop = SessionLoop.__new__(SessionLoop)
    loop.live, loop.console = Live(), Console(file=out, width=200)  # type: ignore[assignment]
    loop.answerer = ScriptedAnswerer([], loop.console)  # not at a terminal: the help is printed, not paged
    assert driver.pending is not None
    loop.show_help(driver.pending)
    shown = out.getvalue()
    assert game.correction_example in shown
    assert not any(other in shown for other in others if other)


@pytest.mark.parametrize("info", GUIDED, ids=[info.id for info in GUIDED])
def test_every_section_a_question_names_is_one_the_referee_asks_or_automates(info) -> None:  # type: ignore[no-untyped-def]
    """A rulebook section tagged `table` is the table's alone: no guided question may rule by it."""
    from referee.engine.simulate import play_random_game
    from referee.rules.parse import parse_rulebook

    game = load_game(info.id)
    markdown = (ROOT / "rulebooks" / f"{game.rulebook}.md").read_text()
    tags = {section.id: section.referee for section in parse_rulebook(markdown, game.rulebook, "builtin").sections}
    named: set[str] = set()

    def note(driver: Driver) -> None:
        if driver.pending is not None:
            named.add(driver.pending.section)

    first = Driver(game, [f"P{seat}" for seat in range(info.min_players)], {}).pending
    assert first is not None
    named.add(first.section)  # asked before any answer
    rng = random.Random(7)
    for number in range(40):
        seats = info.min_players + number % (info.max_players - info.min_players + 1)
        play_random_game(game, [f"P{seat}" for seat in range(seats)], rng, after_each=note, max_answers=5000)
    assert named - set(tags) == set(), f"questions name sections the rulebook lacks: {named - set(tags)}"
    assert {section for section in named if tags[section] == "table"} == set()
    assert REACHED[info.id] <= named, f"random games never asked about {REACHED[info.id] - named}"
