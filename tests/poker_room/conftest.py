"""Fixtures for the poker group game and duel: a real uvicorn, players, sockets.

The server runs the project's ASGI application on pytest-django's test
database and the test Redis (settings: tests/poker_room/settings.py, which only
adds the poker room URLs). Players and sockets come from the rooms tests.
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import pytest

from tests.conftest import BASE_DIR, _free_port, _server_env, _stop
from tests.rooms.conftest import Player, Socket  # noqa: F401  (re-exported for tests)


@pytest.fixture(scope="session")
def poker_server(django_db_setup, django_db_blocker) -> Iterator[str]:
    with django_db_blocker.unblock():
        env = _server_env()
    env["DJANGO_SETTINGS_MODULE"] = "tests.poker_room.settings"
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--ws",
            "websockets-sansio",
            "--log-level",
            "warning",
        ],
        cwd=BASE_DIR,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/privacy/", timeout=2):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                _stop(process)
                pytest.fail("the poker room test server did not start")
            time.sleep(0.2)
    yield url
    _stop(process)


@pytest.fixture
def make_player():
    return Player


@pytest.fixture
def open_socket():
    sockets: list[Socket] = []

    def opener(server: str, code: str, player: Player) -> Socket:
        socket = Socket(server, code, player)
        sockets.append(socket)
        return socket

    yield opener
    for socket in sockets:
        try:
            socket.close()
        except Exception:  # noqa: BLE001 - closing a dead socket in teardown
            pass
