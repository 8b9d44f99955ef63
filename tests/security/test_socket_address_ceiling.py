"""What the per-address socket ceiling protects (issue 38 §4).

"Sockets from one address grow with every extra browser (12 browsers -> 240):
say in docs/security.md what the per-address ceiling protects and test it."

Each browser holds at most ``ROOM_SOCKETS_PER_BROWSER`` sockets, so sockets
from one address grow with its browsers; ``ROOM_SOCKETS_PER_ADDRESS`` is the
bound on the server's resources (connections, memory, counters) that no number
of browsers at one address passes. It is a far ceiling (5,000), not a share
between pupils. Replayed against the suite's server with its real ceiling: an
address of the test's own (the server takes the proxy's ``X-Forwarded-For``
from the loopback, as behind nginx) already holds all but ``LEFT`` places (the
school's other browsers: its counter is set so, rather than opening thousands
of sockets); browsers there open sockets in turn until the ceiling refuses the
next, even from a browser holding none (``too_many_sockets``, close 4429), and
a closed socket gives its place back.
"""

from __future__ import annotations

import itertools
import json
import time
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

pytestmark = pytest.mark.django_db(transaction=True)

LEFT = 10  # places the address has left when the test starts
BROWSERS = 4
_numbers = itertools.count(1)


def _open(server: str, code: str, token: str, address: str):
    cookie = f"{settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=identity.SALT)}"
    url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
    headers = {"Cookie": cookie, "X-Forwarded-For": address}
    return connect(url, origin=server, additional_headers=headers, open_timeout=20)


def _first(ws) -> dict:
    return json.loads(ws.recv(timeout=30))


def test_no_number_of_browsers_at_one_address_passes_the_ceiling(asgi_server, address):
    ceiling = settings.ROOM_SOCKETS_PER_ADDRESS
    counter = sockets.address_key(limits.address_of(address))
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
    assert BROWSERS * per_browser > LEFT  # the browsers could hold more together
    sockets._cache().set(counter, ceiling - LEFT, timeout=sockets.COUNTER_TTL)

    with ExitStack() as opened:
        held = []
        for number in range(LEFT):
            ws = opened.enter_context(
                _open(asgi_server, room.code, pupils[number % BROWSERS], address)
            )
            first = _first(ws)
            assert first["type"] == "sync", (number, first)
            held.append(ws)
        assert sockets._cache().get(counter) == ceiling  # each socket counted at the address
        # A browser that holds nothing yet is refused too: the ceiling is the address's.
        fresh_player, fresh = account_services.create_profile(
            browser_token=None, nickname="Ceiling Latecomer"
        )
        room_services.join_room(room=room, player=fresh_player)
        with _open(asgi_server, room.code, fresh, address) as extra:
            refusal = _first(extra)
            with pytest.raises(ConnectionClosed) as closed:
                extra.recv(timeout=30)
        assert refusal["code"] == "too_many_sockets", refusal
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        # One socket closes: its place is free for the latecomer.
        held[0].close()
        # The server releases the place when it sees the close: patience, not timing.
        for _attempt in range(40):
            with _open(asgi_server, room.code, fresh, address) as ws:
                if _first(ws)["type"] == "sync":
                    break
            time.sleep(0.5)
        else:
            pytest.fail("the closed socket's place was never given back")
