"""The package's imports run one way: down the layers docs/architecture.md lists, never back up,
and never in a circle.

Every import of every module under referee/ counts: those at the top, those inside a function
(loaded late to keep start-up fast) and those only for the type checker. The layers are read from
the page itself (its `layers` block), so the page and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "referee"
PAGE = ROOT / "docs" / "architecture.md"


def layers() -> list[tuple[str, list[str]]]:
    """(name, paths) of each layer, lowest first, as the page's `layers` block lists them."""
    block = re.search(r"```layers\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert block, f"{PAGE} has no ```layers block"
    rows = [line.split() for line in block.group(1).splitlines() if line.strip()]
    return [(name, paths) for name, *paths in reversed(rows)]  # the page draws the top first


def module_paths() -> dict[str, Path]:
    """Every module of the package by its dotted name ('referee.engine.driver')."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def layer_of(path: Path, placed: list[tuple[str, list[str]]]) -> int | None:
    """The rank of the layer whose path is the longest that holds `path` (a file or a folder)."""
    relative = path.relative_to(ROOT).as_posix()
    best: tuple[int, int] | None = None
    for rank, (_, paths) in enumerate(placed):
        for given in paths:
            holds = relative == given or (given.endswith("/") and relative.startswith(given))
            if holds and (best is None or len(given) > best[1]):
                best = (rank, len(given))
    return None if best is None else best[0]


def imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that `path` imports anywhere in it ('from pkg import sub' is sub)."""

    def owner(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(owner(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}:{node.lineno}: a relative import; name the module whole"
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else owner(str(node.module)))
    found.discard("")
    return found


def graph() -> dict[str, set[str]]:
    modules = module_paths()
    return {name: imports(path, modules) - {name} for name, path in modules.items()}


def test_every_module_is_on_a_layer_of_the_page() -> None:
    placed = layers()
    unplaced = [name for name, path in module_paths().items() if layer_of(path, placed) is None]
    assert unplaced == [], f"modules on no layer of {PAGE.name}: {unplaced}"


def test_no_import_runs_back_up_the_layers() -> None:
    placed = layers()
    modules = module_paths()
    upward = []
    for name, imported in graph().items():
        rank = layer_of(modules[name], placed)
        assert rank is not None
        for other in sorted(imported):
            other_rank = layer_of(modules[other], placed)
            assert other_rank is not None
            if other_rank > rank:
                upward.append(f"{name} ({placed[rank][0]}) imports {other} ({placed[other_rank][0]})")
    assert upward == []


def test_no_modules_import_each_other_in_a_circle() -> None:
    edges = graph()
    circles = []
    state: dict[str, str] = {}  # "open" while on the path being walked, then "done"

    def visit(name: str, path: list[str]) -> None:
        state[name] = "open"
        for other in sorted(edges[name]):
            if state.get(other) == "open":
                circles.append(" -> ".join([*path[path.index(other):], other]))
            elif other not in state:
                visit(other, [*path, other])
        state[name] = "done"

    for name in sorted(edges):
        if name not in state:
            visit(name, [name])
    assert circles == []


def test_no_module_imports_by_name_at_run_time() -> None:
    """A module loaded by a name in a string (importlib, __import__) is an import the checks above
    cannot see."""
    hidden = [str(path.relative_to(ROOT)) for path in module_paths().values()
              if re.search(r"\bimport_module\(|__import__\(", path.read_text(encoding="utf-8"))]
    assert hidden == []


def test_the_checks_see_an_import_back_up_and_a_circle(tmp_path: Path) -> None:
    """The reading of imports above finds what it looks for (a late import inside a function too)."""
    (tmp_path / "a.py").write_text("def late():\n    from referee.cli import app\n")
    modules = {**module_paths(), "a": tmp_path / "a.py"}
    assert imports(tmp_path / "a.py", modules) == {"referee.cli.app"}
    edges = graph()
    assert "referee.engine.driver" in edges["referee.session"]
    assert "referee.games.blackthorn.game" in edges["referee.games.blackthorn"]  # the loader's late import
