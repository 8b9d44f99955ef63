"""Two workers (``make test TEST_WORKERS=2``): the slowest test files are handed out first.

``--dist loadfile`` gives each worker a whole test file at a time (a module's
servers start once), the next one when only two of its tests are left. By default
pytest-xdist hands the files out by their number of tests, most first
(``--loadscope-reorder``): the many fast parametrised files of rules and pages come
first and the slow browser and live-server files, often one to five tests of
20-120 s, come last, so a worker that draws one of them at the end runs on while
the other has nothing left. The Makefile turns that off (``--no-loadscope-reorder``)
and each worker puts the files in order of their expected time, longest first
(the "longest processing time" rule): what is left for the end is short, and the
two workers end close together.

A file's expected time is its measured time (``tests/file_times.json``, seconds
from a whole run) or, for a file not listed there, the sum of a rough estimate per
test by its kind (``PER_TEST``). ``MATIKA_FILE_TIMES=<file> make test
TEST_WORKERS=2`` writes every file's seconds (setup, call and teardown of its
tests, as the reports give them) to ``<file>`` at the end of the run: copy the
files of 30 s or more into tests/file_times.json to refresh it. Only the order changes: every test
runs, a file's tests stay together and in pytest-django's order, and a single
process (``TEST_WORKERS=0``) keeps pytest-django's order of the whole suite.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Rough seconds a test of each kind takes on a busy machine (load 5-15).
PER_TEST = {"browser": 12.0, "live": 4.0, "property": 4.0, "database": 0.3, "plain": 0.05}

#: Seconds per file measured in a whole run, for the slow files (the others use PER_TEST).
MEASURED: dict[str, float] = json.loads((Path(__file__).parent / "file_times.json").read_text())

SERVER_FIXTURES = {"asgi_server", "celery_worker_process", "live_server", "transactional_db"}


def kind(item: Any) -> str:
    """One of PER_TEST's kinds for a collected test."""
    if item.get_closest_marker("browser") or "page" in getattr(item, "fixturenames", ()):
        return "browser"
    fixtures = set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("live") or fixtures & SERVER_FIXTURES:
        return "live"
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return "property"
    if item.get_closest_marker("django_db") or "db" in fixtures:
        return "database"
    return "plain"


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def db_group(item: Any) -> int:
    """pytest-django's order: 0 database tests, 1 transactional ones, 2 the rest."""
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    if marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")):
        return 1
    if fixtures & {"transactional_db", "live_server"}:
        return 1
    return 0 if marker or "db" in fixtures else 2


def longest_first(tests: Sequence[tuple[str, float, int, bool]]) -> list[int]:
    """Indices of the tests (file, cost, pytest-django group, browser) in the new order.

    Two things a single process gets from pytest-django's order must hold in each
    worker too: the database tests run before any transactional test empties the
    rows the migrations wrote (scheduled tasks), and no in-process test runs after
    a browser test (Playwright keeps an event loop on the thread, and
    ``async_to_sync`` then refuses). So files go by their first group, then their
    last (a file with database and transactional tests after the files of database
    tests only), browser files after the others of those groups, and within that by expected time,
    longest first (ties: first seen first); each file's tests stay together in
    their old order."""
    total: dict[str, float] = {}
    first: dict[str, int] = {}
    group: dict[str, int] = {}
    last_group: dict[str, int] = {}
    browser: dict[str, bool] = {}
    for index, (name, cost, in_group, is_browser) in enumerate(tests):
        total[name] = total.get(name, 0.0) + cost
        first.setdefault(name, index)
        group[name] = min(group.get(name, 2), in_group)
        last_group[name] = max(last_group.get(name, 0), in_group)
        browser[name] = browser.get(name, False) or is_browser
    expected = {name: MEASURED.get(name, total[name]) for name in total}

    def key(index: int) -> tuple:
        name = tests[index][0]
        return (group[name], last_group[name], browser[name], -expected[name], first[name], index)

    return sorted(range(len(tests)), key=key)


def reorder(items: list[Any]) -> None:
    """In a pytest-xdist worker: ``items`` in the order of ``longest_first``.
    Every worker collects the same tests and orders them alike (xdist checks it)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    tests = []
    for item in items:
        sort = kind(item)
        tests.append((file_of(item.nodeid), PER_TEST[sort], db_group(item), sort == "browser"))
    items[:] = [items[index] for index in longest_first(tests)]


_times: dict[str, float] = {}


def record(report: Any) -> None:
    """With ``MATIKA_FILE_TIMES``: add a test phase's duration to its file's time."""
    if os.environ.get("MATIKA_FILE_TIMES"):
        name = file_of(report.nodeid)
        _times[name] = _times.get(name, 0.0) + report.duration


def write_times() -> None:
    """With ``MATIKA_FILE_TIMES``: every file's seconds, slowest first, into that file
    (by the main process: with two workers it receives both workers' reports)."""
    target = os.environ.get("MATIKA_FILE_TIMES")
    if not target or os.environ.get("PYTEST_XDIST_WORKER") or not _times:
        return
    ranked = sorted(_times.items(), key=lambda entry: -entry[1])
    Path(target).write_text(json.dumps({name: round(t, 1) for name, t in ranked}, indent=1) + "\n")
