"""The room WebSocket through a real uvicorn: it tells nobody whether a code
exists, caps the sockets one player opens to one room, and the server refuses
huge frames (issue 16, section 2).

Today an anonymous client learns from the socket whether a code exists
(``unknown_room`` against ``no_identity``) at 90 guesses a second, and one
player opened 1,000 sockets to one room.
"""

from __future__ import annotations

import json
import time

import pytest
from django.conf import settings
from django.core import signing
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts import identity
from accounts import services as account_services
from games.rooms import services as room_services
from games.rooms import sockets
from games.rooms.models import Room

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(token: str) -> str:
    return f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=identity.SALT)}"


def _player(nickname: str):
    profile, token = account_services.create_profile(browser_token=None, nickname=nickname)
    return profile, _cookie(token)


def _open(server: str, code: str, cookie: str | None):
    url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
    headers = {"Cookie": cookie} if cookie else {}
    return connect(url, origin=server, additional_headers=headers, open_timeout=10)


def _first(server: str, code: str, cookie: str | None) -> dict:
    with _open(server, code, cookie) as ws:
        return json.loads(ws.recv(timeout=10))


def _rooms(host):
    live = room_services.create_room(game="poker", mode="group", host=host, settings={})
    finished = room_services.create_room(game="poker", mode="group", host=host, settings={})
    expired = room_services.create_room(game="poker", mode="group", host=host, settings={})
    Room.objects.filter(pk=finished.pk).update(status=Room.Status.FINISHED)
    Room.objects.filter(pk=expired.pk).update(status=Room.Status.EXPIRED)
    return live, finished, expired


def test_the_socket_tells_nobody_whether_a_code_exists(asgi_server):
    host, _host_cookie = _player("Socket Host")
    _stranger, stranger_cookie = _player("Socket Stranger")
    live, finished, expired = _rooms(host)
    codes = [live.code, finished.code, expired.code, "ZZZZZ2"]
    anonymous = {_first(asgi_server, code, None)["code"] for code in codes}
    assert anonymous == {"no_identity"}
    strangers = {_first(asgi_server, code, stranger_cookie)["code"] for code in codes}
    assert strangers == {"not_in_room"}


def test_one_player_cannot_open_a_flood_of_sockets_to_one_room(asgi_server):
    host, _host_cookie = _player("Flood Host")
    flooder, cookie = _player("Flood Player")
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    room_services.join_room(room=room, player=flooder)
    cap = settings.ROOM_SOCKETS_PER_PLAYER
    opened = []
    try:
        for _number in range(cap):
            ws = _open(asgi_server, room.code, cookie)
            opened.append(ws)
            assert json.loads(ws.recv(timeout=10))["type"] == "sync"
        with _open(asgi_server, room.code, cookie) as extra:
            refusal = json.loads(extra.recv(timeout=10))
            assert refusal["code"] == "too_many_sockets"
        # A closed socket gives its place back (the server releases it on disconnect;
        # a loaded machine may take a while to notice, so the wait is generous).
        opened.pop().close()
        deadline = time.monotonic() + 60
        while True:
            answer = _first(asgi_server, room.code, cookie)
            if answer["type"] == "sync" or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert answer["type"] == "sync"
    finally:
        for ws in opened:
            ws.close()


def test_the_server_cuts_off_a_huge_frame(asgi_server):
    host, _host_cookie = _player("Frame Host")
    player, cookie = _player("Frame Player")
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    room_services.join_room(room=room, player=player)
    with _open(asgi_server, room.code, cookie) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "sync"
        ws.send(json.dumps({"id": "big", "type": "ping", "pad": "x" * 64 * 1024}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_socket_counters_cap_release_and_fail_open(settings):
    key = sockets.address_key(f"test-{time.time_ns()}")
    assert [sockets.acquire(key, 3) for _ in range(4)] == [True, True, True, False]
    sockets.release(key)
    assert sockets.acquire(key, 3) is True
    for _ in range(5):
        sockets.release(key)  # more releases than sockets never go below zero
    assert sockets.acquire(key, 1) is True
    settings.CACHES = {
        **settings.CACHES,
        "down": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    }
    settings.RATELIMIT_USE_CACHE = "down"
    assert sockets.acquire(key, 1) is None  # not counted, not refused
    sockets.release(key)  # and no error


def test_a_fresh_socket_works_after_the_server_cut_off_a_frame(asgi_server):
    """--ws-max-size 4096 is the protocol's limit in bytes of UTF-8: 4,097 bytes
    (here about 2,050 two-byte letters, far fewer than 4,096 characters) are
    closed with 1009; exactly 4,096 bytes still get the consumer's stable code."""
    host, _host_cookie = _player("Edge Host")
    player, cookie = _player("Edge Player")
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    room_services.join_room(room=room, player=player)

    def sized(size: int) -> str:
        bare = json.dumps({"id": "edge", "type": "teleport", "pad": ""}, ensure_ascii=False)
        room_left = size - len(bare.encode())
        pad = "č" * (room_left // 2) + "x" * (room_left % 2)
        text = json.dumps({"id": "edge", "type": "teleport", "pad": pad}, ensure_ascii=False)
        assert len(text.encode()) == size and len(text) < 4096
        return text

    with _open(asgi_server, room.code, cookie) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "sync"
        ws.send(sized(4096))
        answer = json.loads(ws.recv(timeout=10))
        assert answer["type"] == "error" and answer["code"] == "unknown_type"
        ws.send(sized(4097))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with _open(asgi_server, room.code, cookie) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "sync"
        ws.send(json.dumps({"id": "after", "type": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "id": "after"}


def test_no_legitimate_client_message_comes_near_4_kib():
    """The longest messages any game's client can send, at their worst (the
    longest ids and card ids, a deck name of 60 four-byte characters, a full
    rack), are far below the protocol's 4,096 bytes, so the server's frame cap
    never cuts off a real player."""
    from games.abaku.rules import RACK_SIZE
    from games.abaku.rules.data import BOARD_SIZE
    from games.rooms.consumers import MAX_ID_LENGTH, MAX_MESSAGE_BYTES
    from games.theorems.adapter import MAX_DECK_NAME
    from games.theorems.rules.catalogue import CATALOGUE
    from games.theorems.rules.engine import MAX_DECK

    envelope = {"id": "i" * MAX_ID_LENGTH, "room": "ABCDEF"}
    longest_cards = sorted(CATALOGUE, key=len, reverse=True)
    deck = {
        **envelope,
        "type": "deck",
        "name": "\U0001f9ee" * MAX_DECK_NAME,
        "mathematician": longest_cards[0],
        "cards": [longest_cards[0]] * MAX_DECK,
    }
    play = {
        **envelope,
        "type": "action",
        "action": {
            "type": "choose",
            "card": longest_cards[0],
            "choice": {"player": 3, "card": longest_cards[0]},
        },
    }
    stones = [[BOARD_SIZE - 1, BOARD_SIZE - 1, 13, True]] * RACK_SIZE
    place = {**envelope, "type": "place", "placements": stones}
    exchange = {**envelope, "type": "exchange", "stones": [13] * RACK_SIZE}
    board = {**envelope, "type": "place_kept_joker", "cell": 24, "value": 13}
    for message in (deck, play, place, exchange, board):
        size = len(json.dumps(message, ensure_ascii=False).encode())
        assert size < MAX_MESSAGE_BYTES // 2, (message["type"], size)
