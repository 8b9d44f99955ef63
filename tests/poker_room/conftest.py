"""Fixtures for the poker group game and duel: a real uvicorn, players, sockets.

The server is the shared ``asgi_server`` (the project's ASGI application on
pytest-django's test database and the test Redis). Players and sockets come
from the rooms tests.
"""

from __future__ import annotations

import pytest

from tests.rooms.conftest import Player, Socket  # noqa: F401  (re-exported for tests)


@pytest.fixture(scope="session")
def poker_server(asgi_server) -> str:
    """The project's real uvicorn server; config/urls.py routes the poker room pages."""
    return asgi_server


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
