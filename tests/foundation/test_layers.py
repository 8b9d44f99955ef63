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


def upward_imports() -> list[str]:
    offenders = []
    for path in _files():
        module = _module_name(path)
        here = _layer(module)
        if here is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for name in _imported(node, module, path.name == "__init__.py"):
                there = _layer(name)
                if there is None or there[0] == here[0]:
                    continue
                if there[1] > here[1] or (there[1] == here[1] == RANK["game"]):
                    where = f"{path.relative_to(BASE)}:{node.lineno}"
                    offenders.append(f"{where}: {here[0]} imports {name} ({there[0]})")
    return offenders


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
