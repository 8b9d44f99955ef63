"""What the per-address socket ceiling protects (issue 38 §4).

"Sockets from one address grow with every extra browser (12 browsers -> 240):
say in docs/security.md what the per-address ceiling protects and test it."

Each browser holds at most ``ROOM_SOCKETS_PER_BROWSER`` sockets, so sockets
from one address grow with its browsers; ``ROOM_SOCKETS_PER_ADDRESS`` is the
bound on the server's resources (connections, memory, counters) that no number
of browsers at one address passes. It is a far ceiling (5,000), not a share
between pupils. Replayed with a server whose ceiling is 30: twelve browsers
behind one address open sockets in turn until the ceiling refuses the next
(``too_many_sockets``, close 4429), and a closed socket gives its place back.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from django.conf import settings
from django.core import signing
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts import identity, limits
from accounts import services as account_services
from games.rooms import services as room_services
from games.rooms import sockets
from tests.conftest import _server_env, _stop, start_uvicorn, wait_up

pytestmark = pytest.mark.django_db(transaction=True)

CEILING = 30
BROWSERS = 12
_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def low_ceiling_server(django_db_setup, django_db_blocker) -> Iterator[str]:
    with django_db_blocker.unblock():
        env = _server_env()
    env["ROOM_SOCKETS_PER_ADDRESS"] = str(CEILING)
    # The address's counter lives in the suite's shared Redis: sockets of servers that
    # earlier tests killed stay counted there for up to an hour (sockets.COUNTER_TTL),
    # which would spend part of this test's ceiling (it failed at the 19th socket).
    sockets._cache().delete(sockets.address_key(limits.address_of("127.0.0.1")))
    process, url = start_uvicorn(env)
    wait_up(process, url, "the server with a low address ceiling")
    yield url
    _stop(process)


def _open(server: str, code: str, token: str):
    cookie = f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=identity.SALT)}"
    url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
    return connect(url, origin=server, additional_headers={"Cookie": cookie}, open_timeout=20)


def _first(ws) -> dict:
    return json.loads(ws.recv(timeout=30))


def test_no_number_of_browsers_at_one_address_passes_the_ceiling(low_ceiling_server):
    host, _ = account_services.create_profile(browser_token=None, nickname="Ceiling Host")
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    pupils = []
    for _ in range(BROWSERS):
        number = next(_numbers)
        player, token = account_services.create_profile(
            browser_token=None, nickname=f"Ceiling Pupil {number}"
        )
        room_services.join_room(room=room, player=player)
        pupils.append(token)
    per_browser = min(settings.ROOM_SOCKETS_PER_PLAYER, settings.ROOM_SOCKETS_PER_BROWSER)
    assert BROWSERS * per_browser > CEILING  # the browsers could hold more together

    with ExitStack() as opened:
        held = []
        for number in range(CEILING):
            ws = opened.enter_context(_open(low_ceiling_server, room.code, pupils[number % 12]))
            first = _first(ws)
            assert first["type"] == "sync", (number, first)
            held.append(ws)
        # A browser that holds nothing yet is refused too: the ceiling is the address's.
        fresh_player, fresh = account_services.create_profile(
            browser_token=None, nickname="Ceiling Latecomer"
        )
        room_services.join_room(room=room, player=fresh_player)
        with _open(low_ceiling_server, room.code, fresh) as extra:
            refusal = _first(extra)
            with pytest.raises(ConnectionClosed) as closed:
                extra.recv(timeout=30)
        assert refusal["code"] == "too_many_sockets", refusal
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        # One socket closes: its place is free for the latecomer.
        held[0].close()
        # The server releases the place when it sees the close: patience, not timing.
        for _attempt in range(40):
            with _open(low_ceiling_server, room.code, fresh) as ws:
                if _first(ws)["type"] == "sync":
                    break
            time.sleep(0.5)
        else:
            pytest.fail("the closed socket's place was never given back")
