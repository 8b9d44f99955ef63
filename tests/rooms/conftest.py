"""Fixtures for the rooms runtime: two real uvicorn processes, players with cookies.

The servers run ``tests.rooms.asgi`` -- the project's application plus the
test-only game -- on pytest-django's test database and the test Redis, so a
message goes through the same consumer, services, PostgreSQL and channel layer
as in production. Two processes let tests prove cross-process delivery.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.core import signing
from websockets.sync.client import connect

from tests.conftest import _server_env, _stop, start_uvicorn, wait_up
from tests.rooms import testgame

testgame.register()
_nicknames = itertools.count(1)
# How long a socket waits for the server's next frame before the test fails:
# patience, not a check of speed. 10 s was too short at load 36 for a module's
# fresh server to admit its first socket (snapshot after 10 s); a test that
# expects silence passes its own shorter timeout.
PATIENCE = 30.0


def _start_server(env: dict) -> tuple[subprocess.Popen, str]:
    return start_uvicorn(env, "tests.rooms.asgi:application")


def _wait_up(process: subprocess.Popen, url: str) -> None:
    wait_up(process, url, "the rooms test server")


@pytest.fixture(scope="session")
def rooms_servers(django_db_setup, django_db_blocker) -> Iterator[list[str]]:
    """Base URLs of two uvicorn processes sharing the test database and Redis."""
    with django_db_blocker.unblock():
        env = _server_env()
    started = [_start_server(env) for _ in range(2)]
    for process, url in started:
        _wait_up(process, url)
    yield [url for _process, url in started]
    for process, _url in started:
        _stop(process)


@pytest.fixture
def server(rooms_servers) -> str:
    return rooms_servers[0]


class Player:
    """A player profile with its browser's identity cookie."""

    def __init__(self, nickname: str | None = None) -> None:
        from accounts import identity, services

        self.profile, self.token = services.create_profile(
            browser_token=None, nickname=nickname or f"Player {next(_nicknames)}"
        )
        signed = signing.dumps(self.token, salt=identity.SALT)
        self.cookie = f"{settings.PLAYER_COOKIE_NAME}={signed}; matika_lang=en"

    @property
    def id(self) -> int:
        return self.profile.pk


@pytest.fixture
def make_player():
    return Player


class Socket:
    """A WebSocket client speaking the room protocol, with helpers for tests."""

    def __init__(self, server: str, code: str, player: Player | None) -> None:
        url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
        headers = {"Cookie": player.cookie} if player else {}
        self.ws = connect(url, origin=server, additional_headers=headers, open_timeout=10)
        self.ws.__enter__()  # the sockets outlive one `with` block; closed by the fixture
        self._ids = itertools.count(1)
        self.seen: list[dict] = []

    def send(self, message: dict) -> str:
        if "id" not in message:
            message = {"id": f"m{next(self._ids)}", **message}
        self.ws.send(json.dumps(message))
        return message["id"]

    def recv(self, timeout: float = PATIENCE) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def recv_until(self, predicate, timeout: float = PATIENCE) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def answer_to(self, message_id: str) -> dict:
        return self.recv_until(
            lambda m: m.get("id") == message_id and m["type"] in ("ack", "error", "sync")
        )

    def request(self, message: dict) -> dict:
        """Send and wait for the answer; like RoomSocket, resend the same id
        after a short pause when the server asks the client to slow down."""
        for _attempt in range(50):
            answer = self.answer_to(self.send(message))
            if answer.get("code") != "rate_limited":
                return answer
            message = {"id": answer["id"], **message}
            time.sleep(0.2)
        return answer

    def event(self, event_type: str) -> dict:
        """The next public or private step containing an event of this type."""
        return self.recv_until(
            lambda m: (
                m["type"] in ("event", "private")
                and any(e.get("type") == event_type for e in m["events"])
            )
        )

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def open_socket():
    sockets: list[Socket] = []

    def opener(server: str, code: str, player: Player | None) -> Socket:
        socket = Socket(server, code, player)
        sockets.append(socket)
        return socket

    yield opener
    for socket in sockets:
        socket.close()
