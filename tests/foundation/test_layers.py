"""Imports point down only (docs/design: "Arrows point down only, also for
imports inside functions").

Every ``import`` and ``from ... import`` of every Python file of every
first-party package is read with ``ast`` -- at module level and inside
functions alike -- and the layer of the importing file must be at or above the
layer of what it imports:

    config          the project's wiring: settings, urls, routing (may import anything;
                    no package below imports ``config.*`` other than ``config.settings``)
    tools           dev tooling: service runner, generators, translation helpers
    lti             the LTI 1.3 tool
    homework        class assignments
    classrooms      classes, rosters, reports
    games.<game>    one game (never another game); a game is a folder of
                    ``games/`` with a ``game.py``
    games.rooms     the real-time runtime
    games           the shared results (``games.models``) and the game pages' ground
    accounts        identity, player profiles, the privacy jobs and their hooks
    core            the ground: the domain error, the game registry, room figures,
                    the page policy -- it imports no other first-party package

A lower app that must act on a higher one's tables calls a hook the higher one
registers (``accounts.privacy``, ``core.registry``).

No module imports itself back through other modules: no loop between files,
however long and wherever the import sits (a loop hidden in a function is one
module reaching up to its caller, as a gate rendering a view would).
"""

from __future__ import annotations

import ast
from pathlib import Path

BASE = Path(__file__).resolve().parents[2]
RANK = {
    "core": 0,
    "accounts": 1,
    "games": 2,
    "games.rooms": 3,
    "game": 4,
    "classrooms": 5,
    "homework": 6,
    "lti": 7,
    "tools": 8,
    "config": 9,
}
TOPS = ("core", "accounts", "games", "classrooms", "homework", "lti", "tools", "config")
#: What any layer may import of ``config``: the settings modules (``django.conf``
#: is the usual way; a settings module naming another is the one direct use).
CONFIG_OPEN = ("config.settings",)


_GAMES: dict[Path, set[str]] = {}


def _games() -> set[str]:
    """The game folders: ``games/<name>/`` with a ``game.py`` (no list of names here)."""
    if BASE not in _GAMES:
        _GAMES[BASE] = {path.parent.name for path in (BASE / "games").glob("*/game.py")}
    return _GAMES[BASE]


def _layer(module: str) -> tuple[str, int] | None:
    """(the component, its rank) of a dotted module name; None outside the apps."""
    parts = module.split(".")
    top = parts[0]
    if top not in TOPS:
        return None
    if top == "games" and len(parts) > 1 and parts[1] == "rooms":
        return "games.rooms", RANK["games.rooms"]
    if top == "games" and len(parts) > 1 and parts[1] in _games():
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
            skipped = {"migrations", "__pycache__", "node_modules"}
            if skipped.intersection(path.parts):
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
        if there[0] == "config" and name.startswith(CONFIG_OPEN):
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
    """Every set of modules that import each other in a loop (strongly
    connected, more than one module), imports inside functions included.
    A module importing its own package (``from . import x`` in ``pkg/y.py``) is
    the package's business, not a loop."""
    modules = {_module_name(path) for path in _files()}
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for _path, module, _here, _node, name in _layered_imports():
        target = _own_module(name, modules)
        if target is None or target == module or module.startswith(f"{target}."):
            continue
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
    """The scan itself: an import of a higher app hidden in a function is found,
    one game importing another is found, and so is any package importing the
    project's wiring (``config``) other than its settings."""
    files = {
        "accounts/__init__.py": "",
        "accounts/sneaky.py": (
            "def later():\n    from classrooms.models import Membership\n    return Membership\n"
        ),
        "core/errors.py": "from accounts.models import PlayerProfile\n",
        "games/alpha/game.py": "",
        "games/alpha/x.py": "from ..beta import rules\n",
        "games/beta/game.py": "",
        "lti/views.py": "from config.security import policy_for\nfrom config import settings\n",
        "tools/gen.py": "import config.metrics\nfrom config.settings import base\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.setattr(__import__(__name__, fromlist=["BASE"]), "BASE", tmp_path)
    assert sorted(upward_imports()) == [
        "accounts/sneaky.py:2: accounts imports classrooms.models.Membership (classrooms)",
        "core/errors.py:1: core imports accounts.models.PlayerProfile (accounts)",
        "games/alpha/x.py:1: games.alpha imports games.beta.rules (games.beta)",
        "lti/views.py:1: lti imports config.security.policy_for (config)",
        "tools/gen.py:1: tools imports config.metrics (config)",
    ]


def test_no_module_imports_itself_in_a_loop_also_inside_functions():
    assert import_loops() == []


def test_the_loop_check_sees_a_loop_through_a_function(tmp_path, monkeypatch):
    """The scan itself: a gate that renders a view (imported inside a function)
    while the view imports the gate is a loop; a module importing its package is not."""
    game = tmp_path / "games" / "alpha"
    game.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (game / "__init__.py").write_text("")
    (game / "game.py").write_text("")
    (game / "views.py").write_text("from .assignments import gate\n")
    (game / "assignments.py").write_text(
        "from . import models\n\ndef gate():\n    from .views import render\n    return render\n"
    )
    (game / "models.py").write_text("from games import alpha\n")
    # Across packages too: a task module and the module whose receiver imports it.
    (tmp_path / "lti").mkdir()
    (tmp_path / "lti" / "ags.py").write_text("def later():\n    from .tasks import send\n")
    (tmp_path / "lti" / "tasks.py").write_text("from . import ags\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["BASE"]), "BASE", tmp_path)
    assert import_loops() == [
        ["games.alpha.assignments", "games.alpha.views"],
        ["lti.ags", "lti.tasks"],
    ]
