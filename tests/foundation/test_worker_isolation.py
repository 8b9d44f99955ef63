"""Two pytest-xdist workers (``make test TEST_WORKERS=2``) share one Redis server.

Each worker has its own Redis database (config/settings/test.py), but Redis pub/sub
knows no database numbers: a PUBLISH on database 1 reaches a subscriber on database
2. The rooms' channel layer is a pub/sub layer, and both workers' test databases
number their rooms from 1, so each worker publishes under a prefix of its own.
"""

import asyncio
import importlib.util
import os

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from tests.scale.topology import run_async


def _worker_settings(monkeypatch, worker: str) -> dict:
    """config/settings/test.py as the worker ``worker`` reads it (a fresh run of the
    module; the environment it changes is put back afterwards)."""
    base = os.environ["REDIS_URL"].rsplit("/", 1)[0]
    monkeypatch.setenv("REDIS_URL", f"{base}/0")
    monkeypatch.delenv("MATIKA_WORKER_REDIS_URL", raising=False)
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    source = importlib.util.find_spec("config.settings.test").origin
    spec = importlib.util.spec_from_file_location("config.settings.as_a_worker", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {**vars(module), "WORKER_REDIS_URL": os.environ["REDIS_URL"]}


@pytest.fixture
def two_workers(monkeypatch) -> list[dict]:
    workers = [_worker_settings(monkeypatch, name) for name in ("gw0", "gw1")]
    monkeypatch.undo()
    return workers


def test_each_worker_has_a_redis_database_and_a_channel_prefix_of_its_own(two_workers):
    urls = {worker["WORKER_REDIS_URL"] for worker in two_workers}
    prefixes = {worker["CHANNEL_LAYERS"]["default"]["CONFIG"]["prefix"] for worker in two_workers}
    assert len(urls) == 2
    assert len(prefixes) == 2
    # the running settings (base's dict) are left as they were
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] in {"matika"} | prefixes


def _layer(worker: dict) -> RedisPubSubChannelLayer:
    config = worker["CHANNEL_LAYERS"]["default"]["CONFIG"]
    return RedisPubSubChannelLayer(hosts=[worker["WORKER_REDIS_URL"]], prefix=config["prefix"])


async def _first_message_heard_in_room_1(mine: dict, other: dict) -> dict:
    here, there = _layer(mine), _layer(other)
    try:
        channel = await here.new_channel()
        await here.group_add("room.1", channel)
        # once this one arrives the subscription is in place
        await here.group_send("room.1", {"type": "ready"})
        assert (await asyncio.wait_for(here.receive(channel), 30))["type"] == "ready"
        # the other worker's room 1, then this worker's own: in this order on the wire
        await there.group_send("room.1", {"type": "the.other.workers.room"})
        await here.group_send("room.1", {"type": "own"})
        return await asyncio.wait_for(here.receive(channel), 30)
    finally:
        await here.flush()
        await there.flush()


def test_a_worker_does_not_hear_the_other_workers_room_of_the_same_number(two_workers):
    heard = run_async(_first_message_heard_in_room_1(*two_workers))
    assert heard["type"] == "own"
