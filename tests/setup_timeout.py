"""pytest-timeout's limit without the session's setup in it.

pytest-timeout (``timeout = 300`` in pyproject.toml) times a test's whole protocol:
setup, call and teardown. The first test that needs the database also waits for
pytest-django to create and migrate it, and the first live test for the servers
to start: on this 2-core machine at load 40 that setup alone took 140-217 s, so a
test could fail its 300 s for work that is the session's, not its own.

Loaded from tests/conftest.py, these hooks give the setup phase a budget of its
own (``SETUP_TIMEOUT``, or the test's timeout if that is longer) and then start the
test's timer afresh for its call and teardown. A setup that hangs still fails
(with pytest-timeout's stack dump); a test body that hangs fails after its own
timeout, however long its fixtures took. Tests with ``func_only`` timeouts, or no
timeout, are left as pytest-timeout has them.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

#: Seconds the setup phase may take: the test database's creation and migration
#: plus the servers' start (each patient up to 180 s, tests/conftest.py).
SETUP_TIMEOUT = 900.0


def _settings(item: pytest.Item):  # pytest_timeout.Settings | None
    try:
        from pytest_timeout import _get_item_settings
    except ImportError:  # pytest-timeout is not installed: nothing to adjust
        return None
    settings = _get_item_settings(item)
    if not settings.timeout or settings.timeout <= 0 or settings.func_only:
        return None
    return settings


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    settings = _settings(item)
    if settings is None:
        return (yield)
    hook = item.config.hook
    hook.pytest_timeout_cancel_timer(item=item)
    setup_settings = settings._replace(timeout=max(SETUP_TIMEOUT, settings.timeout))
    hook.pytest_timeout_set_timer(item=item, settings=setup_settings)
    try:
        return (yield)
    finally:
        # the test's own timeout, afresh, for its call and teardown
        hook.pytest_timeout_cancel_timer(item=item)
        hook.pytest_timeout_set_timer(item=item, settings=settings)
