"""Write ``jsconfig.json``, the TypeScript check of the shipped JavaScript (``make lint``).

Run from the project root:  python -m tools.jsconfig  (``--check``: fail when stale)

Every ``.js`` file under a ``static/`` folder -- the project's, each app's and
each game's -- is checked (``checkJs``), found by glob, so a new game's files
are checked as they land. The static folders are merged into one tree for
TypeScript (``rootDirs``, as the static files finder serves them: a game's
``../js/kit/dialog.js`` is the project's kit); that list is written here from
the folders that exist. Nothing is excluded: the file is entirely generated, so
``--check`` fails on an ``exclude`` list added by hand (and
tests/foundation/test_precommit.py on a ``// @ts-nocheck`` in a shipped file).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "jsconfig.json"
INCLUDE = ["static/**/*.js", "*/static/**/*.js", "games/*/static/**/*.js"]


def static_roots() -> list[str]:
    """``static`` and every app's or game's ``static/`` folder that holds JS."""
    found = {
        path.relative_to(ROOT).as_posix()
        for pattern in ("*/static", "games/*/static")
        for path in ROOT.glob(pattern)
        if path.is_dir() and any(path.rglob("*.js"))
    }
    return ["static", *sorted(found - {"static"})]


def render() -> str:
    config = {
        "compilerOptions": {
            "allowJs": True,
            "checkJs": True,
            "noEmit": True,
            "target": "es2022",
            "module": "es2022",
            "moduleResolution": "bundler",
            "lib": ["es2022", "dom", "dom.iterable"],
            "types": [],
            "rootDirs": static_roots(),
        },
        "include": INCLUDE,
    }
    return json.dumps(config, indent=2) + "\n"


def main(argv: list[str]) -> int:
    current = CONFIG.read_text(encoding="utf-8") if CONFIG.exists() else ""
    wanted = render()
    if "--check" in argv:
        if current != wanted:
            print("jsconfig.json is stale: run `python -m tools.jsconfig`", file=sys.stderr)
            return 1
        return 0
    CONFIG.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
