"""One job per file (issue 26 §4), kept: no product Python file over 600 lines
(a pure rules engine's module, under ``games/<game>/rules/``, up to 800) and no
shipped JS file over 700. A file that grows past its limit is a file that took a
second job; split it where the jobs part rather than raising the number here.

Tests, benchmarks, dev tools and migrations are not counted. The one exception
is ``static/js/kit/protocol.js``: it is generated (``python -m tools.protocol_schema``,
checked for staleness by ``make lint``) and holds only JSDoc typedefs, one job.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

BASE = Path(__file__).resolve().parents[2]
PYTHON_LIMIT = 600
RULES_ENGINE_LIMIT = 800
JS_LIMIT = 700
NOT_PRODUCT = ("tests/", "bench/", "tools/")
GENERATED = {"static/js/kit/protocol.js"}


def _tracked(pattern: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", pattern], cwd=BASE, capture_output=True, text=True, check=True
    )
    return [line for line in out.stdout.splitlines() if line]


def _lines(path: str) -> int:
    with (BASE / path).open(encoding="utf-8") as handle:
        return sum(1 for _ in handle)


def python_limit(path: str) -> int:
    parts = path.split("/")
    if len(parts) > 3 and parts[0] == "games" and parts[2] == "rules":
        return RULES_ENGINE_LIMIT
    return PYTHON_LIMIT


def _product_python() -> list[str]:
    return [
        path
        for path in _tracked("*.py")
        if not path.startswith(NOT_PRODUCT) and "/migrations/" not in path
    ]


def _shipped_js() -> list[str]:
    """JS the site serves: static files and templates (the poker service worker)."""
    return [path for path in _tracked("*.js") if not path.startswith(NOT_PRODUCT)]


def test_the_check_sees_the_product_files():
    python = _product_python()
    assert "games/rooms/consumers.py" in python
    assert "games/abaku/rules/movegen.py" in python
    assert not any(path.startswith("tests/") for path in python)
    assert python_limit("games/abaku/rules/movegen.py") == RULES_ENGINE_LIMIT
    assert python_limit("games/abaku/adapter.py") == PYTHON_LIMIT
    js = _shipped_js()
    assert "static/js/rooms/room.js" in js
    assert "games/poker/static/poker/game.js" in js
    assert "games/poker/templates/poker/sw.js" in js
    assert not any(path.startswith(NOT_PRODUCT) for path in js)


def test_no_product_python_file_holds_more_than_its_limit():
    lengths = {path: _lines(path) for path in _product_python()}
    too_long = {path: n for path, n in lengths.items() if n > python_limit(path)}
    assert not too_long, (
        f"split these files (limit {PYTHON_LIMIT}, rules engines {RULES_ENGINE_LIMIT}): {too_long}"
    )


def test_no_shipped_js_file_holds_more_than_700_lines():
    lengths = {path: _lines(path) for path in _shipped_js() if path not in GENERATED}
    too_long = {path: n for path, n in lengths.items() if n > JS_LIMIT}
    assert not too_long, f"split these files (limit {JS_LIMIT}): {too_long}"
