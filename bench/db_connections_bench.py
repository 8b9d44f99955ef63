"""PostgreSQL connections held by ONE uvicorn process under WebSockets and HTTP.

One command starts throwaway PostgreSQL and Redis (bench_services from
bench/rooms_fanout.py), migrates, seats R rooms x P players (make_rooms: the
test-only counter game), starts one uvicorn (tests.rooms.asgi) and then:

1. ``idle``: the server started, no client yet;
2. ``sockets``: opens every room socket (R x (P + 1), default 20 x 50 = 1,000);
3. ``actions``: every room's host deals ``--actions`` times (each a database
   write, fanned out to the room);
4. ``http``: ``--requests`` HTTP requests, ``--concurrency`` at a time, with
   player cookies (the identity middleware queries on each; room pages more);
5. ``held``: 3 s later, all sockets still open;
6. ``closed``: 3 s after closing every socket.

A sampler counts the server's connections in ``pg_stat_activity`` (database
``matika``, its own connection excluded) every 0.1 s; the table reports the
highest count seen in each phase and the count at its end.

    .venv/bin/python bench/db_connections_bench.py                # pool (the settings)
    .venv/bin/python bench/db_connections_bench.py --persistent   # before: CONN_MAX_AGE=60
    .venv/bin/python bench/db_connections_bench.py --overhead 3000  # cost per consumer DB call
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

from rooms_fanout import (  # noqa: E402
    bench_services,
    fanout,
    machine,
    make_rooms,
    open_all,
    start_servers,
)


class Sampler(threading.Thread):
    """Counts the database's client connections (all but its own) every ``every`` s."""

    def __init__(self, database_url: str, every: float = 0.1) -> None:
        super().__init__(daemon=True)
        import psycopg

        self.conn = psycopg.connect(database_url, autocommit=True)
        self.every = every
        self.phase = "start"
        self.samples: dict[str, list[tuple[int, int]]] = {}
        self.stopping = threading.Event()

    def count(self) -> tuple[int, int]:
        total, active = self.conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE state = 'active') FROM pg_stat_activity"
            " WHERE datname = 'matika' AND pid <> pg_backend_pid()"
        ).fetchone()
        return total, active

    def run(self) -> None:
        while not self.stopping.is_set():
            self.samples.setdefault(self.phase, []).append(self.count())
            time.sleep(self.every)

    def enter(self, phase: str) -> None:
        self.samples.setdefault(self.phase, []).append(self.count())
        self.phase = phase

    def report(self) -> list[dict]:
        return [
            {
                "phase": phase,
                "max_connections": max(total for total, _a in values),
                "max_active": max(active for _t, active in values),
                "at_end": values[-1][0],
                "samples": len(values),
            }
            for phase, values in self.samples.items()
            if phase != "start"
        ]


def http_burst(address: str, rooms: list[dict], requests: int, concurrency: int) -> dict:
    """``requests`` GETs, half the home page and half a room page, each with a
    player's identity cookie; returns status counts and latency percentiles."""
    jobs = []
    for i in range(requests):
        room = rooms[i % len(rooms)]
        cookie = room["players"][i % len(room["players"])]["cookie"]
        path = "/" if i % 2 else f"/rooms/{room['code']}/"
        jobs.append((path, cookie))

    def get(job) -> tuple[int, float]:
        path, cookie = job
        request = urllib.request.Request(
            f"http://{address}{path}", headers={"Cookie": cookie, "Accept-Language": "en"}
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()
                return response.status, time.monotonic() - started
        except urllib.error.HTTPError as error:
            return error.code, time.monotonic() - started
        except OSError:
            return 0, time.monotonic() - started

    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        results = list(pool.map(get, jobs))
    elapsed = time.monotonic() - began
    statuses: dict[str, int] = {}
    for status, _seconds in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    times = sorted(seconds for _s, seconds in results)
    return {
        "requests": requests,
        "concurrency": concurrency,
        "statuses": statuses,
        "per_s": round(requests / elapsed, 1),
        "ms_p50_p95_p99": [
            round(1000 * times[min(len(times) - 1, int(q * len(times)))]) for q in (0.5, 0.95, 0.99)
        ],
    }


async def scenario(args, rooms, address: str, sampler: Sampler) -> dict:
    result: dict = {}
    sampler.enter("idle")
    await asyncio.sleep(2)
    sampler.enter("sockets")
    began = time.monotonic()
    hosts, players = await open_all(rooms, [address])
    result["sockets"] = len(hosts) + sum(len(group) for group in players)
    result["connect_all_s"] = round(time.monotonic() - began, 1)
    sampler.enter("actions")
    f = await fanout(hosts, players, actions=args.actions, duration=0, interval=0.5)
    result["actions"] = {k: f[k] for k in ("actions", "lost", "errors", "fanout_ms", "ack_ms")}
    sampler.enter("http")
    result["http"] = await asyncio.to_thread(
        http_burst, address, rooms, args.requests, args.concurrency
    )
    sampler.enter("held")
    await asyncio.sleep(3)
    sampler.enter("closed")
    for client in [*hosts, *(p for group in players for p in group)]:
        await client.close()
    await asyncio.sleep(3)
    sampler.enter("end")
    result["dropped_by_server"] = sum(c.dropped for c in [*hosts, *sum(players, [])])
    return result


OVERHEAD_CONFIGURATIONS = {
    "pool, health checks on (the settings)": {"DB_POOL": "on"},
    "pool, DB_HEALTH_CHECKS=off": {"DB_POOL": "on", "DB_HEALTH_CHECKS": "off"},
    "no pool, CONN_MAX_AGE=60 (before)": {"DB_POOL": "off", "DB_CONN_MAX_AGE": "60"},
    "no pool, CONN_MAX_AGE=0": {"DB_POOL": "off", "DB_CONN_MAX_AGE": "0"},
}


def overhead_child(calls: int) -> None:
    """What each database call of the rooms consumer costs around its query:
    Channels' DatabaseSyncToAsync closes old connections before and after, so
    with CONN_MAX_AGE=0 every call takes a connection and gives it back."""
    import django

    django.setup()
    from django.db import close_old_connections

    from accounts.models import Browser

    def call() -> None:
        close_old_connections()
        Browser.objects.filter(pk=0).exists()
        close_old_connections()

    for _ in range(200):  # warm up (pool filled, statements planned)
        call()
    began = time.perf_counter()
    for _ in range(calls):
        call()
    per_call = (time.perf_counter() - began) / calls
    print(json.dumps({"us_per_call": round(per_call * 1e6, 1)}))


def overhead(calls: int, env: dict) -> list[dict]:
    import subprocess

    rows = []
    for name, extra in OVERHEAD_CONFIGURATIONS.items():
        child_env = {**env, **extra}
        samples = []
        for _ in range(3):
            out = subprocess.run(
                [sys.executable, __file__, "--overhead-child", str(calls)],
                env=child_env,
                cwd=BASE_DIR,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            samples.append(json.loads(out.strip().splitlines()[-1])["us_per_call"])
        rows.append({"configuration": name, "us_per_call_min_of_3": min(samples)})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--players", type=int, default=49, help="players per room (+1 host)")
    parser.add_argument("--actions", type=int, default=5, help="deals per room")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument(
        "--persistent",
        action="store_true",
        help="the configuration before the pool: DB_POOL=off, CONN_MAX_AGE=60",
    )
    parser.add_argument("--pool-max", type=int, default=0, help="DB_POOL_MAX_SIZE (default: 16)")
    parser.add_argument(
        "--overhead",
        type=int,
        default=0,
        help="instead: time N consumer-style database calls per configuration",
    )
    parser.add_argument("--overhead-child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.overhead_child:
        overhead_child(args.overhead_child)
        return 0
    if args.overhead:
        load_before = f"{os.getloadavg()[0]:.1f}"
        with bench_services("matika-db-bench-") as (_workdir, env, _servers):
            env["LOG_LEVEL"] = "WARNING"
            rows = overhead(args.overhead, env)
        print(json.dumps({"overhead": rows, "machine": machine(load_before)}, indent=2))
        print("\n| configuration | µs per call (query + connection handling) |")
        print("|---|---|")
        for row in rows:
            print(f"| {row['configuration']} | {row['us_per_call_min_of_3']} |")
        return 0
    load_before = f"{os.getloadavg()[0]:.1f}"
    with bench_services("matika-db-bench-") as (_workdir, env, servers):
        if args.persistent:
            env.update(DB_POOL="off", DB_CONN_MAX_AGE="60")
        else:
            env.pop("DB_POOL", None)
        env["LOG_LEVEL"] = "WARNING"  # not a line per socket
        # A thousand loopback sockets come from one address (a school's cap is 500).
        env["ROOM_SOCKETS_PER_ADDRESS"] = str(2 * args.rooms * (args.players + 1))
        if args.pool_max:
            env["DB_POOL_MAX_SIZE"] = str(args.pool_max)
        os.environ.update(env)
        os.environ["DB_POOL"] = "off"  # this process: no pool of its own left open
        rooms = make_rooms(args.rooms, args.players)
        sampler = Sampler(env["DATABASE_URL"])
        sampler.start()
        servers += start_servers(env, 1)
        result = asyncio.run(scenario(args, rooms, servers[0][1], sampler))
        sampler.stopping.set()
        sampler.join()
        result["connections"] = sampler.report()
        sampler.conn.close()
    result["configuration"] = (
        "DB_POOL=off, CONN_MAX_AGE=60"
        if args.persistent
        else f"pool max_size={args.pool_max or 16}, CONN_MAX_AGE=0"
    )
    result["command"] = " ".join(["bench/db_connections_bench.py", *sys.argv[1:]])
    result["machine"] = machine(load_before)
    print(json.dumps(result, indent=2))
    print(f"\n{result['configuration']}: {result['sockets']} sockets, one uvicorn process")
    print("| phase | max connections | max active | at end |")
    print("|---|---|---|---|")
    for row in result["connections"]:
        print(
            f"| {row['phase']} | {row['max_connections']} | {row['max_active']} | {row['at_end']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
