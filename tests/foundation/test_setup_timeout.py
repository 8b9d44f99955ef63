"""tests/setup_timeout.py: a test's timeout covers its own work, not the session's setup.

Run in a child pytest (pytester, subprocess: two pytest-timeout timers cannot share
one process's SIGALRM) with a 1 s timeout: a test whose fixture takes longer than
the timeout passes, and a test with the same fixture whose body takes longer than
the timeout still fails with pytest-timeout's "Timeout". Without the plugin both
fail in their setup (pytest-timeout times setup, call and teardown as one).
"""

from pathlib import Path

pytest_plugins = ["pytester"]

CHILD = """
import time
import pytest

@pytest.fixture
def slow_setup():
    time.sleep(1.3)

def test_setup_longer_than_the_timeout(slow_setup):
    pass

def test_body_longer_than_the_timeout(slow_setup):
    time.sleep(1.3)
"""


def test_setup_has_its_own_budget_and_the_body_keeps_its_timeout(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    pytester.makepyfile(CHILD)
    result = pytester.runpytest_subprocess(
        "-p", "pytest_timeout", "-p", "tests.setup_timeout", "-o", "timeout=1"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*test_body_longer_than_the_timeout*", "*Failed: Timeout (>1.0s) from pytest-timeout*"]
    )
