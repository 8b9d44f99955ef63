"""Shared fixtures: real server processes against the test database.

``make test`` (tools/devservices.py) starts throwaway PostgreSQL and Redis
and passes their URLs in the environment. Fixtures here start the real ASGI
server (uvicorn) and a real Celery worker pointed at pytest-django's test
database, so tests exercise the same path as production. Tests that use them
need ``transactional_db`` so their data is committed and visible to the servers.
"""

import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests import balance, fast_flush, static_table

# Autouse: every room event a database test writes must match its schema.
from tests.rooms.schema_check import room_events_match_their_schemas  # noqa: F401

# pytest-timeout's 300 s for a test's own work: its setup (the test database's
# creation, the servers' start) has a budget of its own (tests/setup_timeout.py).
from tests.setup_timeout import pytest_runtest_setup  # noqa: F401
from tools.services import free_port as _free_port

# Hypothesis fails an example that takes over 200 ms by default: a timing check,
# which on this busy 2-core machine fails at random (a Mathesso layout example
# did at load 15-24). No deadline; tests that set their own settings keep the rest.
hypothesis_settings.register_profile("matika", deadline=None)
hypothesis_settings.load_profile("matika")

# After each transactional test, back to the freshly flushed state without
# Django's full flush and post_migrate (tests/fast_flush.py says how and why).
fast_flush.install()

# Each test client's WhiteNoise takes the static files' table built once, not a
# walk of the static folders of its own (tests/static_table.py says why).
static_table.install()

BASE_DIR = Path(__file__).resolve().parent.parent


def _test_database_url() -> str:
    from django.db import connection

    params = connection.settings_dict
    return f"postgres://{params['USER']}@{params['HOST']}:{params['PORT']}/{params['NAME']}"


def _server_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DATABASE_URL"] = _test_database_url()
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
    env["DB_CONN_MAX_AGE"] = "0"
    return env


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def start_uvicorn(
    env: dict, app: str = "config.asgi:application", *extra: str
) -> tuple[subprocess.Popen, str]:
    """A real uvicorn process for ``app`` on a free port, with the WebSocket flags
    tools/devservices.py and platform/ use; (process, base URL)."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port)]
        + ["--ws", "websockets-sansio", "--ws-max-size", "4096", "--log-level", "warning"]
        + list(extra),
        cwd=BASE_DIR,
        env=env,
    )
    return process, f"http://127.0.0.1:{port}"


def wait_up(process: subprocess.Popen, url: str, what: str = "the ASGI server") -> None:
    """Wait until ``url`` answers a page; fail the test (and stop it) if it never does.

    Patience, not a timing check: on a busy 2-core machine (load 15) a uvicorn with
    two workers took over 60 s to import Django three times."""
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(url + "/privacy/", timeout=2):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                _stop(process)
                pytest.fail(f"{what} did not start")
            time.sleep(0.2)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker) -> Iterator[str]:
    """Base URL of a real uvicorn process serving config.asgi on the test database."""
    with django_db_blocker.unblock():
        env = _server_env()
    process, url = start_uvicorn(env)
    wait_up(process, url)
    yield url
    _stop(process)


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker) -> Iterator[subprocess.Popen]:
    """A real Celery worker (solo pool) consuming from the test Redis."""
    with django_db_blocker.unblock():
        env = _server_env()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "warning",
            "--hostname",
            f"test-{os.getpid()}@%h",
        ],
        cwd=BASE_DIR,
        env=env,
    )
    from config.celery import app

    # as patient as the test servers: on a busy 2-core machine importing Django
    # and the apps took the worker over a minute (a failure, not a check of speed)
    deadline = time.monotonic() + 180
    while not app.control.ping(timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            _stop(process)
            pytest.fail("the Celery worker did not start")
    yield process
    _stop(process)


@pytest.fixture
def tasks_inline(monkeypatch):
    """Celery tasks queued during the test run at once in the test process
    (``task_always_eager``), e.g. so a mail they send lands in ``mail.outbox``.
    Tests of the queue itself use ``celery_worker_process`` instead."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


@pytest.fixture
def client():
    """The Django test client, speaking English unless a test asks otherwise."""
    from django.test import Client

    return Client(headers={"accept-language": "en"})


def _chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    """Headless system Chromium through Playwright (its own browser download cannot work here)."""
    executable = _chromium_path()
    if executable is None:
        reason = "NO CHROMIUM: browser tests cannot run (install it: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    # Playwright's sync API keeps an asyncio loop on this thread for the rest of
    # the session; the ORM calls of later tests are ordinary synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    # For the same reason the rooms' synchronous sends (a test calling a room
    # service directly) cannot run async_to_sync on this thread: send them from
    # a short-lived helper thread while the browser fixture is in use.
    from games.rooms import delivery

    send_now = delivery.send_now

    def send_from_a_helper_thread(deliveries):
        helper = threading.Thread(target=send_now, args=(deliveries,))
        helper.start()
        helper.join()

    delivery.send_now = send_from_a_helper_thread
    # Assertions wait up to 15 s (Playwright's default is 5 s): a server, a
    # database and a browser share two CPUs here, and a busy moment must not
    # fail a test. A real failure still fails, only later.
    expect.set_options(timeout=15_000)
    _screenshots_on_request()

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield instance
        instance.close()
    delivery.send_now = send_now


def _screenshots_on_request() -> None:
    """Screenshots saved for people to look at (``page.screenshot(path=...)`` into
    test-results/: 46 calls in 20 modules, some once per width; a full-page one of a
    long page took 1.7-4.7 s at load 16) are taken only with ``MATIKA_SCREENSHOTS=1``:
    no test reads them back. A screenshot whose bytes a test uses (no ``path``) is
    always taken."""
    if os.environ.get("MATIKA_SCREENSHOTS") == "1":
        return
    from playwright.sync_api import Page

    if getattr(Page.screenshot, "matika_on_request", False):
        return
    take = Page.screenshot

    def screenshot(self, *args, **kwargs):
        if kwargs.get("path") is None:
            return take(self, *args, **kwargs)
        return b""

    screenshot.matika_on_request = True  # type: ignore[attr-defined]
    Page.screenshot = screenshot  # type: ignore[method-assign]


@pytest.fixture
def page(browser, asgi_server):
    context = browser.new_context(base_url=asgi_server, locale="en-GB")
    page = context.new_page()
    yield page
    context.close()


def pytest_report_header(config) -> str:
    chromium = _chromium_path()
    return f"chromium: {chromium or 'MISSING — browser tests will be skipped (fail under CI=true)'}"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items) -> None:
    """With two workers the slowest test files go first (tests/balance.py says why)."""
    balance.reorder(items)


def pytest_runtest_logreport(report) -> None:
    balance.record(report)


def pytest_sessionfinish() -> None:
    balance.write_times()
