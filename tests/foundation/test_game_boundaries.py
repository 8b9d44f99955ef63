"""Guards of the one-folder-per-game layout.

- Outside a game's own folder nothing names a game -- the platform (core,
  accounts, classrooms, homework, lti, config, games' shared modules, the rooms
  runtime, project templates and static files), the dev tools and the project's
  configuration files: every game is found through ``core.registry`` or by
  glob. Settings (``INSTALLED_APPS``), migrations and generated files
  (``protocol.js``, ``jsconfig.json``'s list of static roots) are the only
  exceptions.
- The four rules engines import without Django.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parents[2]
GAMES = ("poker", "mathesso", "abaku", "theorems")
GAME_WORDS = re.compile(r"poker|mathesso|abaku|theorem|matematici", re.IGNORECASE)
PLATFORM = (
    "core",
    "accounts",
    "classrooms",
    "config",
    "games",
    "homework",
    "lti",
    "tools",
    "templates",
    "static",
)
ROOT_FILES = ("Makefile", "pyproject.toml", ".pre-commit-config.yaml")
SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".txt"}


def _platform_files() -> list[Path]:
    files = []
    for top in PLATFORM:
        for path in (BASE / top).rglob("*"):
            relative = path.relative_to(BASE)
            parts = relative.parts
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            if {"migrations", "__pycache__", "node_modules"}.intersection(parts):
                continue
            if parts[0] == "games" and len(parts) > 2 and parts[1] in GAMES:
                continue  # a game's own folder
            if parts[:2] == ("config", "settings"):
                continue  # INSTALLED_APPS names each game once
            if parts == ("static", "js", "kit", "protocol.js"):
                continue  # generated from every registered game's models (tools/)
            files.append(path)
    return files + [BASE / name for name in ROOT_FILES]


def test_the_platform_never_names_a_game():
    offenders = []
    for path in _platform_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if GAME_WORDS.search(line):
                offenders.append(f"{path.relative_to(BASE)}:{number}: {line.strip()[:100]}")
    assert offenders == []


def test_the_rules_engines_import_without_django():
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'django' or name.startswith('django.'):\n"
        "            raise ImportError('rules engines must not import ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        + "".join(f"import games.{game}.rules\n" for game in GAMES)
        + "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=BASE, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_every_registered_game_has_valid_room_adapters():
    from core import registry as game_registry
    from games.rooms import registry as rooms_registry

    declared = {(spec.slug, mode) for spec in game_registry.games() for mode in spec.rooms}
    assert declared <= set(rooms_registry.registered())  # each one passed the checks
    assert {slug for slug, _mode in declared} == set(GAMES)
