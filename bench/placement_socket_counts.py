"""CPU of a room socket's counts at its open and close (issue 41, fourth pass).

A room socket holds four counters in the cache (``games/rooms/sockets.py``:
per address, player in the room, player everywhere, browser), taken when it
opens and given back when it closes, each through the rooms DB threads. This
measures the web process's CPU (user + system, ``getrusage``) per socket life
(4 acquires, then the releases) in two ways on throwaway Redis:

* old: a cache object from Django's ``caches`` per call -- in a rooms DB thread
  that is a new client, pool and Redis connection every time -- and one hop per
  release;
* new (shipped): one cache object per process, the releases in one hop.

    nice -n 19 .venv/bin/python bench/placement_socket_counts.py --sockets 400

Results: bench/RESULTS-placement-cpu.md ("Fourth pass").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from tools.services import throwaway  # noqa: E402


async def _lives(count: int, in_one_hop: bool, in_flight: int = 8) -> None:
    from games.rooms import sockets
    from games.rooms.dbcalls import DB_THREADS

    gate = asyncio.Semaphore(in_flight)

    async def life(index: int) -> None:
        keys = [f"bench-counts:{index}:{k}" for k in range(4)]
        async with gate:
            for key in keys:
                await DB_THREADS.run(sockets.acquire, key, 100)
            if in_one_hop:
                await DB_THREADS.run(sockets.release_all, keys)
            else:
                for key in keys:
                    await DB_THREADS.run(sockets.release, key)

    await asyncio.gather(*(life(i) for i in range(count)))


def _measure(name: str, count: int, in_one_hop: bool) -> None:
    import uvloop

    uvloop.run(_lives(20, in_one_hop))  # warm: threads, the shared client
    before, began = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    uvloop.run(_lives(count, in_one_hop))
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(
        f"| {name} | {1000 * cpu / count:.2f} | {time.monotonic() - began:.1f} "
        f"| {os.getloadavg()[0]:.1f} |",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with throwaway("matika-socket-counts-", database=None) as services:
        os.environ.update(services.env())
        import django

        django.setup()
        from django.conf import settings
        from django.core.cache import BaseCache, caches

        from games.rooms import sockets

        shipped = sockets._cache

        def per_call() -> BaseCache:  # the code before the fourth pass
            return caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")]

        print("| way | CPU ms per socket (open + close) | wall s | load |\n|---|---|---|---|")
        for _ in range(args.rounds):
            sockets._cache = per_call
            _measure("a cache per call, a hop per release (before)", args.sockets, False)
            sockets._cache = shipped
            _measure("one cache per process, one hop to release (shipped)", args.sockets, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
