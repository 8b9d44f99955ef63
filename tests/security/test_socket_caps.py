"""One pupil cannot hold a school's game sockets (issue 27, section 3).

Today one pupil held 500 idle sockets (8.5 s to open them), the per-address
cap, and every game socket of the school's address was refused. Now sockets are
capped per player and per browser over all rooms, the address's cap is far
above what a school needs, and a socket that stays silent is closed. Through a
real uvicorn (tests/conftest.py).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from django.conf import settings
from django.core import signing
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts import identity
from accounts import services as account_services
from games.rooms import services as room_services
from tests.conftest import _server_env, _stop, start_uvicorn, wait_up

pytestmark = pytest.mark.django_db(transaction=True)
_hosts = itertools.count(1)


def _cookie(token: str) -> str:
    return f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=identity.SALT)}"


def _open(server: str, code: str, cookie: str):
    url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
    return connect(url, origin=server, additional_headers={"Cookie": cookie}, open_timeout=10)


def _rooms(count: int, *players) -> list:
    host, _token = account_services.create_profile(
        browser_token=None, nickname=f"Caps Host {next(_hosts)}"
    )
    rooms = []
    for _number in range(count):
        room = room_services.create_room(game="poker", mode="group", host=host, settings={})
        for player in players:
            room_services.join_room(room=room, player=player)
        rooms.append(room)
    return rooms


def _first(ws) -> dict:
    return json.loads(ws.recv(timeout=20))


def test_one_pupil_cannot_hold_the_schools_sockets(asgi_server):
    """All from one address (the test server's loopback: one school)."""
    hoarder, hoarder_token = account_services.create_profile(browser_token=None, nickname="Hoarder")
    classmate, classmate_token = account_services.create_profile(
        browser_token=None, nickname="Classmate"
    )
    cap = settings.ROOM_SOCKETS_PER_PLAYER_ALL
    per_room = settings.ROOM_SOCKETS_PER_PLAYER
    rooms = _rooms(cap // per_room + 2, hoarder, classmate)
    assert settings.ROOM_SOCKETS_PER_ADDRESS >= 100 * cap
    with ExitStack() as opened:
        # Every room up to the per-room cap, until the cap over all rooms.
        for number in range(cap):
            code = rooms[number // per_room].code
            ws = opened.enter_context(_open(asgi_server, code, _cookie(hoarder_token)))
            assert _first(ws)["type"] == "sync", number
        with _open(asgi_server, rooms[-1].code, _cookie(hoarder_token)) as extra:
            refusal = _first(extra)
        assert refusal["code"] == "too_many_sockets", refusal
        # The classmate behind the same address plays on.
        with _open(asgi_server, rooms[0].code, _cookie(classmate_token)) as ws:
            assert _first(ws)["type"] == "sync"


def test_one_browser_cannot_switch_profiles_to_hold_more_sockets(asgi_server):
    first, token = account_services.create_profile(browser_token=None, nickname="Switch One")
    cap = settings.ROOM_SOCKETS_PER_BROWSER
    per_room = settings.ROOM_SOCKETS_PER_PLAYER
    half = cap // 2
    with ExitStack() as opened:
        first_rooms = _rooms(half // per_room + 1, first)
        for number in range(half):
            code = first_rooms[number // per_room].code
            ws = opened.enter_context(_open(asgi_server, code, _cookie(token)))
            assert _first(ws)["type"] == "sync", number
        # A second profile of the same browser, selected now.
        second, same_token = account_services.create_profile(
            browser_token=token, nickname="Switch Two"
        )
        assert same_token == token
        second_rooms = _rooms((cap - half) // per_room + 2, second)
        for number in range(cap - half):
            code = second_rooms[number // per_room].code
            ws = opened.enter_context(_open(asgi_server, code, _cookie(token)))
            assert _first(ws)["type"] == "sync", number
        with _open(asgi_server, second_rooms[-1].code, _cookie(token)) as extra:
            refusal = _first(extra)
        assert refusal["code"] == "too_many_sockets", refusal


@pytest.fixture(scope="module")
def impatient_server(django_db_setup, django_db_blocker) -> Iterator[str]:
    """A uvicorn that closes sockets silent for one second."""
    with django_db_blocker.unblock():
        env = _server_env()
    env["ROOM_SOCKET_IDLE_SECONDS"] = "1"
    process, url = start_uvicorn(env)
    wait_up(process, url, "the impatient server")
    yield url
    _stop(process)


def test_a_silent_socket_is_closed_and_its_place_given_back(impatient_server):
    pupil, token = account_services.create_profile(browser_token=None, nickname="Silent Pupil")
    (room,) = _rooms(1, pupil)
    with _open(impatient_server, room.code, _cookie(token)) as ws:
        assert _first(ws)["type"] == "sync"
        # nothing sent: the server gives up on the socket
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
    # Its places are free again: the pupil's page reconnects (4408 is not final).
    for _attempt in range(settings.ROOM_SOCKETS_PER_PLAYER + 1):
        with _open(impatient_server, room.code, _cookie(token)) as ws:
            assert _first(ws)["type"] == "sync"
