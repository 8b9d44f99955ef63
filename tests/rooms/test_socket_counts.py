"""A socket's counts run in the rooms DB threads on one Redis client per process
(issue 41): Django's ``caches`` gives each context of each thread its own, and
every DB-thread call runs in a fresh copy of the socket's context, so each count
made a new client, pool and Redis connection."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time

from games.rooms import sockets
from games.rooms.dbthreads import DatabaseThreads


def test_counts_from_the_db_threads_share_one_cache_client(settings):
    threads = DatabaseThreads(2, name="count-test")
    key = sockets.address_key(f"test-shared-{time.time_ns()}")

    async def counts() -> list[int]:
        seen = []
        for _ in range(4):
            assert await threads.run(sockets.acquire, key, 100) is True
            seen.append(await threads.run(lambda: id(sockets._cache())))
        await threads.run(sockets.release_all, [key] * 4)
        return seen

    # In a thread of its own: in a full run the session's Playwright keeps an event
    # loop running in the main thread, where ``asyncio.run`` refuses.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        seen = pool.submit(asyncio.run, counts()).result()
    assert len(set(seen)) == 1
    assert sockets._cache().get(key) is None  # all four released: the counter is gone


def test_a_changed_cache_setting_is_followed(settings):
    before = sockets._cache()
    settings.CACHES = {**settings.CACHES, "other": {**settings.CACHES["default"]}}
    settings.RATELIMIT_USE_CACHE = "other"
    assert sockets._cache() is not before
