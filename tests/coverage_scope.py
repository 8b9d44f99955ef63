"""Branch coverage in ``make test``: which tests are traced.

``make test`` starts the pytest process under coverage (``COVERAGE_PROCESS_START``,
``[tool.coverage]`` in pyproject.toml) and reports after the run, failing under the
floor (docs/decisions.md "Branch coverage in make test"). Python 3.11 has only
``sys.settrace`` tracing, which slows every line run while it is on, Django's and
the libraries' included: a database test's own work takes about 1.7 times its CPU
(measured per test, with and without coverage, on the same tests). Traced in full
the suite would take minutes longer, so the tracer runs only where it is cheap:

- while the modules are imported and the tests collected (every module's top level);
- during the call of one in-process test in ``SHARE`` (by a stable hash of its node
  id, so the same tests every run): HTTP tests through Django's test client,
  services, selectors, rules examples;
- during the call of each test in ``ALWAYS``: cheap tests that are the only
  in-process test of a module the hashed share leaves dark (a tool, an export, a
  launch path), chosen from the whole run's report, a few seconds of CPU in all;
- never during fixtures' setup and teardown (the test database, factories,
  flushes), nor for browser and live-server tests (``browser``/``live`` markers or
  a fixture of ``SERVER_FIXTURES``: the code they reach runs in the uvicorn and
  Celery processes, which are not traced -- starting each under the tracer costs
  more than the whole budget), nor for property tests (Hypothesis: hundreds of
  generated cases of code the examples beside them already cover).

``MATIKA_COVERAGE_ALL=1`` traces every in-process test (a fuller figure, minutes
slower). ``MATIKA_TEST_CPU=<file>`` appends each test's CPU seconds in the pytest
process (``time.process_time``) per phase to that file, ``nodeid setup call
teardown traced`` a line: run some tests with and without coverage and compare.

Loaded with ``-p tests.coverage_scope`` (the Makefile's test target).
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Generator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from coverage import Coverage

PHASES = ("setup", "call", "teardown")
#: One in-process test in SHARE is traced.
SHARE = 4
#: Always traced (see above): node ids (a file: all its tests), each with the
#: modules it lights; a renamed test simply falls back to the hashed share.
ALWAYS = (
    "tests/foundation/test_mergetranslations.py",  # tools/mergetranslations.py
    # games/poker/vectors.py
    "tests/poker/test_poker_vectors.py::test_vectors_file_is_up_to_date",
    # config/healthcheck.py
    "tests/foundation/test_health.py::test_worker_and_beat_health_checks_read_the_heartbeats",
    # games/theorems/presentation.py
    "tests/theorems/test_theorems_decks.py::"
    "test_every_card_has_a_name_and_words_for_its_effects_in_every_language",
    # games/poker/offline.py
    "tests/production/test_offline_precache.py::test_everything_an_offline_page_loads_is_precached",
    # lti/launch.py, lti/services.py, lti/views.py (a launch in-process)
    "tests/security/test_lti_login_limits.py::"
    "test_logins_from_one_address_are_limited_and_another_address_is_not",
    "tests/security/test_lti_shared_computer.py::"
    "test_a_roster_entry_claimed_with_its_code_is_not_offered_to_the_next_pupil",
    # lti/registration.py and the LTI staff page
    "tests/lti/test_lti_tool.py::test_staff_make_a_registration_link_on_the_staff_page_and_others_cannot",
    # classrooms/views/joining.py, classrooms/views/classes.py, classrooms/services.py
    "tests/classrooms/test_classrooms_join.py::test_typed_name_waits_for_the_teachers_approval",
    # games/theorems/views.py, games/theorems/selectors.py
    "tests/theorems/test_theorems_decks.py::test_the_builder_page_saves_a_deck_from_the_form",
    # classrooms/roster_services.py, classrooms/import_views.py
    "tests/classrooms/test_roster_import_lms.py::"
    "test_lms_learners_get_claim_codes_and_a_typed_entry_is_linked_not_doubled",
    "tests/classrooms/test_roster_import.py::test_upload_map_preview_and_import_a_bakalari_file",
    # accounts/teacher_data.py and the apps' erasure hooks
    "tests/sso/test_privacy.py::test_deleting_the_account_deletes_its_school_sign_in_and_nothing_else",
)
#: Fixtures of tests whose code under test runs in a server or worker process.
SERVER_FIXTURES = {"asgi_server", "celery_worker_process", "browser", "page"}

# pytest-xdist's workers are pytest processes like this one: each starts the tracer
# itself (its import and collection traced as here) from the value kept below.
_WORKERS_START = "MATIKA_COVERAGE_WORKERS"
if os.environ.get("COVERAGE_PROCESS_START"):
    os.environ[_WORKERS_START] = os.environ["COVERAGE_PROCESS_START"]
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get(_WORKERS_START):
    os.environ["COVERAGE_PROCESS_START"] = os.environ[_WORKERS_START]
    try:
        import coverage
    except ImportError:  # the production image has no coverage
        pass
    else:
        coverage.process_startup()

# The servers and workers the tests start are not traced (see above): the
# variables that would start coverage in every Python process go.
for _name in ("COVERAGE_PROCESS_START", "COVERAGE_PROCESS_CONFIG"):
    os.environ.pop(_name, None)


def _current() -> Coverage | None:
    try:
        import coverage
    except ImportError:  # the production image has no coverage
        return None
    return coverage.Coverage.current()


def in_process(item: pytest.Item) -> bool:
    """Whether the code the test reaches runs in this process, and cheaply."""
    if item.get_closest_marker("browser") or item.get_closest_marker("live"):
        return False
    if SERVER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return False
    return not getattr(getattr(item, "obj", None), "is_hypothesis_test", False)


def traced(item: pytest.Item) -> bool:
    if not in_process(item):
        return False
    if os.environ.get("MATIKA_COVERAGE_ALL") == "1":
        return True
    if any(item.nodeid == name or item.nodeid.startswith(f"{name}::") for name in ALWAYS):
        return True
    return zlib.crc32(item.nodeid.encode()) % SHARE == 0


_spent: dict[str, float] = {}


def _phase(name: str, trace: bool) -> Generator[None, object, object]:
    """Run one phase of a test with the tracer paused unless ``trace``; note its CPU."""
    cov = _current()
    paused = cov is not None and not trace
    if cov is not None and paused:
        cov.stop()
    started = time.process_time()
    try:
        return (yield)
    finally:
        _spent[name] = time.process_time() - started
        if cov is not None and paused:
            cov.start()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _phase("setup", trace=False))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    return (yield from _phase("call", trace=traced(item)))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    try:
        return (yield from _phase("teardown", trace=False))
    finally:
        record = os.environ.get("MATIKA_TEST_CPU")
        if record:
            phases = " ".join(f"{_spent.get(name, 0.0):.3f}" for name in PHASES)
            with open(record, "a") as out:
                out.write(f"{item.nodeid} {phases} {int(traced(item))}\n")
        _spent.clear()
