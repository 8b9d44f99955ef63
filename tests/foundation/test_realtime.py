"""The real-time path end to end: uvicorn process -> Channels -> Redis layer -> back."""

import json

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

pytestmark = [pytest.mark.live]


def _ws_url(asgi_server: str, group: str) -> str:
    return asgi_server.replace("http://", "ws://") + f"/ws/echo/{group}/"


def _connect(asgi_server: str, group: str, origin: str | None = None):
    return connect(_ws_url(asgi_server, group), origin=origin or asgi_server)


def test_message_reaches_every_socket_in_the_group_through_redis(transactional_db, asgi_server):
    with (
        _connect(asgi_server, "room1") as alice,
        _connect(asgi_server, "room1") as bob,
        _connect(asgi_server, "other") as carol,
    ):
        alice.send(json.dumps({"text": "ahoj"}))
        assert json.loads(bob.recv(timeout=10)) == {"type": "echo", "text": "ahoj"}
        assert json.loads(alice.recv(timeout=10)) == {"type": "echo", "text": "ahoj"}
        with pytest.raises(TimeoutError):
            carol.recv(timeout=0.5)


def test_malformed_message_gets_an_error_and_the_socket_stays_usable(transactional_db, asgi_server):
    with _connect(asgi_server, "room2") as socket:
        socket.send("not json{")
        assert json.loads(socket.recv(timeout=10)) == {"type": "error", "code": "bad_message"}
        # Over the echo's 2,000 characters, under the server's 4,096-byte frame cap.
        socket.send(json.dumps({"text": "x" * 3000}))
        assert json.loads(socket.recv(timeout=10)) == {"type": "error", "code": "bad_message"}
        socket.send(json.dumps({"text": "still here"}))
        assert json.loads(socket.recv(timeout=10))["text"] == "still here"


def test_a_foreign_origin_is_refused(transactional_db, asgi_server):
    with pytest.raises(InvalidStatus) as refused:
        _connect(asgi_server, "room3", origin="https://evil.example")
    assert refused.value.response.status_code == 403
