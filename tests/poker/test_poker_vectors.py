"""The shared vectors and the JS copy of the tables must match the Python engine."""

from __future__ import annotations

from games.poker.vectors import (
    JS_TABLES_FILE,
    VECTORS_FILE,
    render_js_tables,
    render_vectors,
)

REGENERATE = "stale: run `python -m games.poker.vectors` and commit the result"


def test_vectors_file_is_up_to_date():
    assert VECTORS_FILE.read_text(encoding="utf-8") == render_vectors(), REGENERATE


def test_js_tables_copy_is_up_to_date():
    assert JS_TABLES_FILE.read_text(encoding="utf-8") == render_js_tables(), REGENERATE


def test_vectors_file_stays_small():
    assert VECTORS_FILE.stat().st_size < 3_000_000
