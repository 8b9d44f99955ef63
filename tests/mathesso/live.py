"""Players with identity cookies and WebSocket clients for the live Mathesso tests."""

from __future__ import annotations

import itertools
import json
import time

from django.conf import settings
from django.core import signing
from websockets.sync.client import connect

_numbers = itertools.count(1)


class Player:
    """A player profile with its browser's identity cookie."""

    def __init__(self, nickname: str | None = None) -> None:
        from accounts import identity, services

        self.profile, self.token = services.create_profile(
            browser_token=None, nickname=nickname or f"Tiler {next(_numbers)}"
        )
        self.signed = signing.dumps(self.token, salt=identity.SALT)
        self.cookie = f"{settings.PLAYER_COOKIE_NAME}={self.signed}; matika_lang=en"

    @property
    def id(self) -> int:
        return self.profile.pk


class Socket:
    """A room-protocol client that keeps every message it receives in ``seen``."""

    def __init__(self, server: str, code: str, player: Player) -> None:
        url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
        self.ws = connect(
            url, origin=server, additional_headers={"Cookie": player.cookie}, open_timeout=10
        )
        self.ws.__enter__()  # outlives one `with` block; closed by the test
        self._ids = itertools.count(1)
        self.seen: list[dict] = []
        self.raw: list[str] = []

    def recv(self, timeout: float = 30) -> dict:
        text = self.ws.recv(timeout=timeout)
        self.raw.append(text)
        message = json.loads(text)
        self.seen.append(message)
        return message

    def recv_until(self, predicate, timeout: float = 30) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message

    def send(self, message: dict) -> str:
        message = {"id": f"m{next(self._ids)}", **message}
        self.ws.send(json.dumps(message))
        return message["id"]

    def request(self, message: dict) -> dict:
        """Send and wait for the answer; like RoomSocket, resend the same id after a
        short pause when the server asks the client to slow down."""
        message = {"id": f"m{next(self._ids)}", **message}
        for _attempt in range(50):
            self.ws.send(json.dumps(message))
            answer = self.recv_until(
                lambda m: m.get("id") == message["id"] and m["type"] in ("ack", "error", "sync")
            )
            if answer.get("code") != "rate_limited":
                return answer
            time.sleep(0.2)
        return answer

    def until_seq(self, seq: int) -> None:
        """Read until the public step ``seq`` has arrived (or a snapshot covering it)."""
        self.recv_until(lambda m: m["type"] in ("event", "sync") and (m.get("seq") or 0) >= seq)

    def close(self) -> None:
        self.ws.close()
