"""A process that loses its channel-layer connection notices, reconnects and
brings its sockets back in step (issue 30).

Before: after a Redis restart redis-py subscribed again by itself, but what was
published meanwhile -- and what could not be published at all -- was gone; the
sockets stayed open and nobody heard of the missed step. Now every socket of
the room is sent a fresh ``sync`` snapshot unasked once Redis is back.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator

import pytest
from redis.exceptions import ConnectionError

from games.rooms import delivery, services
from games.rooms.layer import ResyncingPubSubChannelLayer
from tests.conftest import _server_env, _stop
from tests.rooms.conftest import _start_server, _wait_up
from tests.rooms.test_rooms_outage import RedisServer
from tests.rooms.testgame import GAME
from tests.scale.topology import run_async

pytestmark = [pytest.mark.live]


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    redis = RedisServer()
    redis.start()
    yield redis
    redis.stop()
    shutil.rmtree(redis.data_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def own_redis_server(django_db_setup, django_db_blocker, redis_server) -> Iterator[str]:
    """An ASGI process whose Redis (channel layer, cache) the test may stop."""
    with django_db_blocker.unblock():
        env = _server_env()
    env.update(
        REDIS_URL=redis_server.url(),
        CHANNELS_REDIS_URL=redis_server.url(),
        CACHE_REDIS_URL=redis_server.url(),
    )
    process, url = _start_server(env)
    _wait_up(process, url)
    yield url
    _stop(process)


def test_room_group_names_map_to_their_room():
    assert delivery.room_of_group("room.12") == "room.12"
    assert delivery.room_of_group("room.12.p.7") == "room.12"
    assert delivery.room_of_group("echo.x") is None
    assert delivery.room_of_group("room.12.session.ab") is None


def test_the_layer_tells_its_channels_after_redis_came_back(redis_server):
    """Layer level: a subscribed channel gets ``room.resync`` after a restart, and
    group messages flow again afterwards."""

    async def scenario() -> list[dict]:
        layer = ResyncingPubSubChannelLayer(hosts=[{"address": redis_server.url()}])
        channel = await layer.new_channel()
        await layer.group_add("room.1", channel)
        layer.resync_on_reconnect(channel)
        await layer.group_send("room.1", {"type": "room.event", "text": "before"})
        got = [await asyncio.wait_for(layer.receive(channel), 10)]
        redis_server.stop()
        redis_server.start()
        got.append(await asyncio.wait_for(layer.receive(channel), 30))
        for _attempt in range(20):  # a pooled publishing connection may still be the dead one
            try:
                await layer.group_send("room.1", {"type": "room.event", "text": "after"})
                break
            except ConnectionError:
                await asyncio.sleep(0.5)
        got.append(await asyncio.wait_for(layer.receive(channel), 10))
        await layer.flush()
        return got

    got = run_async(scenario())
    assert got[0]["text"] == "before"
    assert got[1] == {"type": "room.resync"}
    assert got[2]["text"] == "after"


def test_a_step_whose_broadcast_was_lost_reaches_the_others_as_a_snapshot(
    transactional_db, make_player, open_socket, own_redis_server, redis_server
):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    guest_socket = open_socket(own_redis_server, room.code, guest)
    host_socket = open_socket(own_redis_server, room.code, host)
    assert guest_socket.recv()["type"] == "sync"
    assert host_socket.recv()["type"] == "sync"
    redis_server.stop()
    try:
        # PostgreSQL is up: the move is stored and acknowledged; its broadcast fails.
        assert guest_socket.request({"id": "during", "type": "add", "n": 2})["type"] == "ack"
    finally:
        redis_server.start()
    # The host asks for nothing: the server brings its socket back in step.
    pushed = host_socket.recv_until(
        lambda m: m["type"] == "sync" or m["type"] == "event", timeout=60
    )
    assert pushed["type"] == "sync" and "id" not in pushed
    assert pushed["view"]["total"] == 2
