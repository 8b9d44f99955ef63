"""Each app's tables are written only by that app's own code (docs/decisions.md
"Integrations write through the owner's services").

Every Python file of the project's apps is read with ``ast``; a manager write
-- ``Model.objects.create/get_or_create/update_or_create/bulk_create/
bulk_update`` or ``Model.objects.<filter, exclude, all, ...>(...).update/delete()``
-- on a model of another app fails the test. Another app calls the owner's
service instead, which keeps the owner's rules (caps, claim rules, locks) in
one place. Migrations and tests are not read; reads are free.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps

BASE = Path(__file__).resolve().parents[2]
TOPS = ("core", "accounts", "games", "classrooms", "homework", "lti", "tools", "config")
WRITES = {"create", "get_or_create", "update_or_create", "bulk_create", "bulk_update"}
QUERYSET_WRITES = {"update", "delete"}
MANAGERS = {"objects", "_default_manager", "_base_manager"}


def _module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _owner(module: str, app_names: dict[str, str]) -> str | None:
    """The label of the app a module belongs to (longest app name that prefixes it)."""
    best = None
    for name, label in app_names.items():
        if (module == name or module.startswith(f"{name}.")) and (
            best is None or len(name) > len(best[0])
        ):
            best = (name, label)
    return best[1] if best else None


def _manager_model(node: ast.AST) -> str | None:
    """``Model.objects`` (or ``module.Model.objects``): the dotted model expression."""
    if isinstance(node, ast.Attribute) and node.attr in MANAGERS:
        return ast.unparse(node.value)
    return None


def _written_model(call: ast.Call) -> str | None:
    """The model expression a call writes through its manager, if it is a write."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr in WRITES:
        return _manager_model(func.value)
    if func.attr in QUERYSET_WRITES:
        inner = func.value
        # Model.objects.filter(...).exclude(...).update(...): walk down the chain.
        while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            found = _manager_model(inner.func.value)
            if found is not None:
                return found
            inner = inner.func.value
        return _manager_model(inner)
    return None


def cross_app_writes(
    base: Path, models: dict[tuple[str, str], str], app_names: dict[str, str]
) -> list[str]:
    """``path:line: app writes Model (owner)`` for every manager write on another app's model.

    ``models`` maps (module, class name) of every model to its app label;
    ``app_names`` maps each app's dotted name to its label."""
    by_module: dict[str, dict[str, str]] = {}
    for (module, name), label in models.items():
        by_module.setdefault(module, {})[name] = label
    offenders = []
    for top in TOPS:
        for path in sorted((base / top).rglob("*.py")):
            if {"migrations", "__pycache__", "node_modules"}.intersection(path.parts):
                continue
            module = _module_name(path, base)
            here = _owner(module, app_names)
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            # Names bound to models (``from x.models import M as N``) and to
            # model modules (``from x import models as m``), anywhere in the file.
            bound: dict[str, str] = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    source = node.module
                elif isinstance(node, ast.ImportFrom) and node.level:
                    package = module.split(".")
                    if path.name != "__init__.py":
                        package = package[:-1]
                    package = package[: len(package) - (node.level - 1)]
                    source = ".".join(package + ([node.module] if node.module else []))
                else:
                    continue
                for alias in node.names:
                    local = alias.asname or alias.name
                    if alias.name in by_module.get(source, {}):
                        bound[local] = by_module[source][alias.name]
                    for name, label in by_module.get(f"{source}.{alias.name}", {}).items():
                        bound[f"{local}.{name}"] = label
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                target = _written_model(node)
                owner = bound.get(target) if target else None
                if owner is not None and owner != here:
                    where = f"{path.relative_to(base)}:{node.lineno}"
                    offenders.append(f"{where}: {here} writes {target} ({owner})")
    return offenders


def _project() -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    first_party = [config for config in apps.get_app_configs() if config.name.split(".")[0] in TOPS]
    models = {
        (model.__module__, model.__name__): config.label
        for config in first_party
        for model in config.get_models()
    }
    return models, {config.name: config.label for config in first_party}


#: Writes not yet moved into the owner's services (issue 39 §2), by file and
#: model: this list may only shrink -- a new write fails (delete an entry here
#: once its write is gone; ``cross_app_writes`` lists what is left).
NOT_YET: set[str] = set()  # the last one, lti/nrps.py, went in 276d362 (issue 37 §3)


def _without_line(offender: str) -> str:
    where, _sep, what = offender.partition(": ")
    return f"{where.rsplit(':', 1)[0]}: {what}"


def test_no_app_writes_another_apps_tables():
    found = {_without_line(offender) for offender in cross_app_writes(BASE, *_project())}
    assert sorted(found - NOT_YET) == [], "write through the owner's service instead"


def test_the_check_sees_every_kind_of_write(tmp_path):
    """The scan itself: creates, chained updates and deletes through another app's
    manager are found, under any import name; the app's own writes and reads are not."""
    (tmp_path / "classrooms").mkdir()
    (tmp_path / "classrooms" / "services.py").write_text(
        "from accounts.models import PlayerProfile as Profile\n"
        "from accounts import models as account_models\n"
        "from games.models import GameResult\n"
        "from .models import Membership\n"
        "def f(p):\n"
        "    Profile.objects.create(nickname='a')\n"
        "    account_models.Browser.objects.filter(pk=1).exclude(pk=2).update(x=1)\n"
        "    GameResult.objects.filter(player=p).delete()\n"
        "    GameResult.objects.filter(player=p).count()\n"
        "    Membership.objects.bulk_create([])\n"
        "    Membership.objects.filter(pk=1).update(x=2)\n"
    )
    models = {
        ("accounts.models", "PlayerProfile"): "accounts",
        ("accounts.models", "Browser"): "accounts",
        ("games.models", "GameResult"): "games",
        ("classrooms.models", "Membership"): "classrooms",
    }
    names = {"accounts": "accounts", "games": "games", "classrooms": "classrooms"}
    assert cross_app_writes(tmp_path, models, names) == [
        "classrooms/services.py:6: classrooms writes Profile (accounts)",
        "classrooms/services.py:7: classrooms writes account_models.Browser (accounts)",
        "classrooms/services.py:8: classrooms writes GameResult (games)",
    ]
