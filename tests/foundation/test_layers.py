"""Imports point down only (docs/design: "Arrows point down only, also for
imports inside functions").

Every ``import`` and ``from ... import`` of every Python file of the apps is
read with ``ast`` -- at module level and inside functions alike -- and the
layer of the importing file must be at or above the layer of what it imports:

    config          the project: settings, urls, routing (may import anything)
    homework        class assignments
    classrooms      classes, rosters, reports
    games.<game>    one game (never another game)
    games.rooms     the real-time runtime
    accounts        identity, player profiles, the privacy jobs and their hooks
    games           the ground: games.registry, the shared models, games.errors

A lower app that must act on a higher one's tables calls a hook the higher one
registers (``accounts.privacy``, ``games.registry``).

Inside one component the modules import one way too: no loop, however long and
wherever the import sits (a loop hidden in a function is one module reaching up
to its caller, as a gate rendering a view would).
"""

from __future__ import annotations

import ast
from pathlib import Path

BASE = Path(__file__).resolve().parents[2]
GAMES = {"poker", "mathesso", "abaku", "theorems"}
RANK = {"games": 0, "accounts": 1, "games.rooms": 2, "game": 3, "classrooms": 4, "homework": 5}
TOPS = ("accounts", "classrooms", "games", "homework")


def _layer(module: str) -> tuple[str, int] | None:
    """(the component, its rank) of a dotted module name; None outside the apps."""
    parts = module.split(".")
    top = parts[0]
    if top not in TOPS:
        return None
    if top == "games" and len(parts) > 1 and parts[1] == "rooms":
        return "games.rooms", RANK["games.rooms"]
    if top == "games" and len(parts) > 1 and parts[1] in GAMES:
        return f"games.{parts[1]}", RANK["game"]
    return top, RANK[top]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(BASE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            package = module.split(".")
            if not is_package:
                package = package[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        # ``from games import registry``: the name may be a module of the package.
        return [f"{base}.{alias.name}" for alias in node.names]
    return []


def _files() -> list[Path]:
    files = []
    for top in TOPS:
        for path in sorted((BASE / top).rglob("*.py")):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            files.append(path)
    return files


def _layered_imports():
    """(path, module, its layer, import node, imported name) for every import of
    every layered module, imports inside functions included."""
    for path in _files():
        module = _module_name(path)
        here = _layer(module)
        if here is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for name in _imported(node, module, path.name == "__init__.py"):
                yield path, module, here, node, name


def upward_imports() -> list[str]:
    offenders = []
    for path, _module, here, node, name in _layered_imports():
        there = _layer(name)
        if there is None or there[0] == here[0]:
            continue
        if there[1] > here[1] or (there[1] == here[1] == RANK["game"]):
            where = f"{path.relative_to(BASE)}:{node.lineno}"
            offenders.append(f"{where}: {here[0]} imports {name} ({there[0]})")
    return offenders


def _own_module(name: str, modules: set[str]) -> str | None:
    """The module of ``modules`` a dotted import name lands in (longest prefix)."""
    parts = name.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts) or None


def import_loops() -> list[list[str]]:
    """Every set of modules of one component that import each other in a loop
    (strongly connected, more than one module), imports inside functions included.
    A module importing its own package (``from . import x`` in ``pkg/y.py``) is
    the package's business, not a loop."""
    modules = {_module_name(path) for path in _files()}
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for _path, module, here, _node, name in _layered_imports():
        target = _own_module(name, modules)
        if target is None or target == module or module.startswith(f"{target}."):
            continue
        there = _layer(target)
        if there is not None and there[0] == here[0]:
            graph[module].add(target)
    # Tarjan's strongly connected components, iteratively (no recursion limit).
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    loops.append(sorted(component))
    return sorted(loops)


def test_imports_point_down_only_also_inside_functions():
    assert upward_imports() == []


def test_the_check_sees_imports_inside_functions(tmp_path, monkeypatch):
    """The scan itself: an import of a higher app hidden in a function is found."""
    app = tmp_path / "accounts"
    app.mkdir()
    (app / "__init__.py").write_text("")
    (app / "sneaky.py").write_text(
        "def later():\n    from classrooms.models import Membership\n    return Membership\n"
    )
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "poker").mkdir()
    (tmp_path / "games" / "poker" / "x.py").write_text("from ..mathesso import rules\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["BASE"]), "BASE", tmp_path)
    found = upward_imports()
    assert found == [
        "accounts/sneaky.py:2: accounts imports classrooms.models.Membership (classrooms)",
        "games/poker/x.py:1: games.poker imports games.mathesso.rules (games.mathesso)",
    ]


def test_no_component_imports_in_a_loop_also_inside_functions():
    assert import_loops() == []


def test_the_loop_check_sees_a_loop_through_a_function(tmp_path, monkeypatch):
    """The scan itself: a gate that renders a view (imported inside a function)
    while the view imports the gate is a loop; a module importing its package is not."""
    game = tmp_path / "games" / "poker"
    game.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (game / "views.py").write_text("from .assignments import gate\n")
    (game / "assignments.py").write_text(
        "from . import models\n\ndef gate():\n    from .views import render\n    return render\n"
    )
    (game / "models.py").write_text("from games import poker\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["BASE"]), "BASE", tmp_path)
    assert import_loops() == [["games.poker.assignments", "games.poker.views"]]
