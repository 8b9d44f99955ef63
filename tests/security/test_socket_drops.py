"""Whatever ends a room socket releases what it holds (issue 27, section 3).

A pupil whose connection drops abruptly (tab killed, Wi-Fi lost: a TCP reset,
no close frame) while the server is answering one of its messages kept that
socket counted for an hour: the failed send ended the consumer before its
clean-up. After 5–6 such drops every reconnect was refused with 4403 "open in
too many tabs". Here a real uvicorn (tests/conftest.py) is dropped on twelve
times in a row, each right after a message, and the seated player reconnects.

The client is a bare TCP socket speaking just enough WebSocket: a library client
reads in a thread of its own, and closing a socket another thread reads from
does not reset the connection.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from accounts import services as account_services
from games.rooms import services as room_services

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(token: str) -> str:
    return f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=identity.SALT)}"


def _player(nickname: str):
    profile, token = account_services.create_profile(browser_token=None, nickname=nickname)
    return profile, _cookie(token)


class RawSocket:
    """A WebSocket client on a plain TCP socket, so it can end with a reset."""

    def __init__(self, server: str, path: str, cookie: str) -> None:
        parts = urlsplit(server)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: {server}\r\nCookie: {cookie}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buffer += chunk

    def _take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self._more()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def recv(self) -> dict:
        first, second = self._take(2)
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._take(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._take(8))
        payload = self._take(length)
        assert first & 0x0F == 0x1, f"not a text frame: opcode {first & 0x0F}"
        return json.loads(payload)

    def send(self, message: dict) -> None:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        assert len(payload) < 126
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        self.sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    def reset(self) -> None:
        """End the connection with a TCP reset: no close frame, no FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def _admitted(server: str, path: str, cookie: str) -> RawSocket:
    """A socket that got its snapshot. The server releases a dropped socket once it
    notices the reset; one still being noticed may hold a place for a moment, so a
    refusal (``too_many_sockets``) is tried again until a deadline. A socket that
    is never released keeps every attempt refused. The deadline is generous: a
    loaded machine may take seconds to notice a reset, only a leak takes a minute."""
    deadline = time.monotonic() + 60
    while True:
        raw = RawSocket(server, path, cookie)
        first = raw.recv()
        if first["type"] == "sync":
            return raw
        raw.reset()
        assert first.get("code") == "too_many_sockets", first
        assert time.monotonic() < deadline, "the dropped sockets stay counted"
        time.sleep(0.2)


def test_twelve_abrupt_drops_while_answering_never_lock_a_seated_player_out(asgi_server):
    host, _host_cookie = _player("Drop Host")
    pupil, cookie = _player("Drop Pupil")
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    room_services.join_room(room=room, player=pupil)
    path = f"/ws/rooms/{room.code}/"
    assert settings.ROOM_SOCKETS_PER_PLAYER < 12
    for drop in range(12):
        raw = _admitted(asgi_server, path, cookie)
        # Messages the server answers from the database: the reset arrives while
        # it is still answering them.
        for number in range(3):
            raw.send({"id": f"d{drop}-{number}", "type": "sync"})
        raw.reset()
    _admitted(asgi_server, path, cookie).reset()
