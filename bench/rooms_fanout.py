"""Fan-out benchmark of the rooms runtime over real WebSockets on loopback.

One command starts throwaway PostgreSQL and Redis (tools/services.py),
migrates, starts uvicorn (the project's app plus the test-only game from
tests/rooms/testgame.py) and opens R rooms x P player sockets:

    .venv/bin/python bench/rooms_fanout.py --rooms 1 --players 50 --actions 200 --interval 0.05
    .venv/bin/python bench/rooms_fanout.py --rooms 20 --players 50 --duration 120 --interval 2

Phase "fanout": each room's host sends a room-wide action (``deal``); we time
the host's send to the ack, and to the moment the last of the room's players
received the event (all clients share this process's monotonic clock). Every
player checks the seq numbers it received: lost and duplicated events are counted.

Phase "placements" (``--placements N``): in the first room, after each deal all
players send a per-seat move at the same moment (the poker group game's case);
we time the first send to the last ack, and count accepted moves per second.

Server memory per connection = growth of the uvicorn process's RSS while the
sockets were opened, divided by their number.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from tools.services import free_port, throwaway  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def rounded(value):
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def layer_settings(workdir: Path, capacity: int, pubsub: bool, max_connections: int) -> str:
    """A settings module that changes only the channel layer (to compare configurations)."""
    backend = (
        "channels_redis.pubsub.RedisPubSubChannelLayer"
        if pubsub
        else "channels_redis.core.RedisChannelLayer"
    )
    host = "REDIS_URL"
    if max_connections:
        host = f"{{'address': REDIS_URL, 'max_connections': {max_connections}}}"
    config = f"{{'hosts': [{host}], 'prefix': 'matika'}}"
    if capacity:
        config = config[:-1] + f", 'capacity': {capacity}}}"
    (workdir / "bench_layer_settings.py").write_text(
        "from config.settings.test import *  # noqa\n"
        f"CHANNEL_LAYERS = {{'default': {{'BACKEND': '{backend}', 'CONFIG': {config}}}}}\n"
    )
    return "bench_layer_settings"


def migrate(env: dict) -> None:
    """Migrate the throwaway database that ``env`` names."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        check=True,
        cwd=BASE_DIR,
        env=env,
    )


@contextmanager
def bench_services(prefix: str) -> Iterator[tuple[Path, dict, list]]:
    """Throwaway PostgreSQL and Redis (tools/services.py), migrated: yields the folder,
    the environment for Django and a list to put started servers in; stops them all."""
    servers: list = []
    with throwaway(prefix) as services:
        env = services.env(DB_CONN_MAX_AGE="60", ALLOWED_HOSTS="127.0.0.1,localhost")
        migrate(env)
        try:
            yield services.workdir, env, servers
        finally:
            for process, _address in servers:
                stop_server(process)


def stop_server(process: subprocess.Popen) -> None:
    """A loaded server may take long to close its sockets: wait, then kill."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def machine(load_before: str) -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"load average before/after {load_before} / {os.getloadavg()[0]:.1f}"
    )


def start_servers(
    env: dict, count: int, extra_args: list[str] | None = None
) -> list[tuple[subprocess.Popen, str]]:
    servers = []
    for _ in range(count):
        port = free_port()
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "tests.rooms.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--ws",
                "websockets-sansio",
                "--ws-max-size",  # the protocol's 4,096 bytes, as shipped
                "4096",
                "--log-level",
                "warning",
                "--no-access-log",
                *(extra_args or []),
            ],
            cwd=BASE_DIR,
            env=env,
        )
        servers.append((process, f"127.0.0.1:{port}"))
    for process, address in servers:
        deadline = time.monotonic() + 240  # a niced start on a busy machine is slow
        while True:
            try:
                with urllib.request.urlopen(f"http://{address}/privacy/", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("uvicorn did not start") from None
                time.sleep(0.2)
    return servers


def make_rooms(
    rooms: int, players: int, *, game: str | None = None, settings: dict | None = None
) -> list[dict]:
    """Profiles, cookies and seated, started rooms, written straight through the
    services: the test-only counter game unless ``game`` (mode "group") is named.
    Each room: ``{"id", "code", "host": cookie, "players": [{"cookie", "id"}]}``."""
    import django

    django.setup()
    from django.conf import settings as django_settings
    from django.core import signing
    from django.db import connection

    from accounts import identity
    from accounts import services as accounts
    from games.rooms import services

    if game is None:
        from tests.rooms.testgame import GAME

        game, settings = GAME, {"seconds": 10**6}

    def cookie(token: str) -> str:
        name = django_settings.PLAYER_COOKIE_NAME
        return f"{name}={signing.dumps(token, salt=identity.SALT)}"

    made = []
    for r in range(rooms):
        host, host_token = accounts.create_profile(browser_token=None, nickname=f"Host {r}")
        room = services.create_room(game=game, mode="group", host=host, settings=settings or {})
        seated = []
        for p in range(players):
            profile, token = accounts.create_profile(browser_token=None, nickname=f"P{r}-{p}")
            services.join_room(room=room, player=profile)
            seated.append({"cookie": cookie(token), "id": profile.pk})
        services.start_room(room=room, actor=host)
        made.append(
            {"id": room.pk, "code": room.code, "host": cookie(host_token), "players": seated}
        )
    connection.close()
    return made


class Client:
    """One socket; records when each seq arrived and answers to its own ids."""

    def __init__(self, address: str, code: str, cookie: str) -> None:
        self.address, self.code, self.cookie = address, code, cookie
        self.arrivals: dict[int, float] = {}
        self.duplicates = 0
        self.answers: dict[str, asyncio.Future] = {}
        self.start_seq = 0
        self.counter = 0
        self.dropped = False

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://{self.address}/ws/rooms/{self.code}/",
            origin=f"http://{self.address}",
            additional_headers={"Cookie": self.cookie},
            max_queue=None,
            open_timeout=60,
        )
        first = json.loads(await self.ws.recv())
        if first.get("type") != "sync":
            raise RuntimeError(f"refused: {first}")
        self.start_seq = first["seq"]
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self._read()
        except ConnectionClosed:
            self.dropped = True
            for future in self.answers.values():
                if not future.done():
                    future.set_result((time.monotonic(), {"type": "error", "code": "closed"}))

    async def _read(self) -> None:
        async for raw in self.ws:
            now = time.monotonic()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "event":
                if message["seq"] in self.arrivals:
                    self.duplicates += 1
                else:
                    self.arrivals[message["seq"]] = now
            elif kind in ("ack", "error"):
                future = self.answers.pop(message.get("id"), None)
                if future and not future.done():
                    future.set_result((now, message))

    async def request(self, message: dict) -> tuple[float, float, dict]:
        self.counter += 1
        message_id = f"b{self.counter}"
        future = asyncio.get_running_loop().create_future()
        self.answers[message_id] = future
        sent = time.monotonic()
        try:
            await self.ws.send(json.dumps({"id": message_id, **message}))
            answered, answer = await asyncio.wait_for(future, timeout=30)
        except Exception as exc:  # a dropped socket or no answer: counted, not fatal
            self.answers.pop(message_id, None)
            return sent, time.monotonic(), {"type": "error", "code": type(exc).__name__}
        return sent, answered, answer

    async def close(self) -> None:
        self.reader.cancel()
        try:
            await asyncio.wait_for(self.ws.close(), timeout=5)
        except Exception:  # already gone
            pass


async def open_all(rooms, addresses) -> tuple[list[Client], list[list[Client]]]:
    gate = asyncio.Semaphore(50)
    hosts, players = [], []
    index = 0

    async def opened(client: Client) -> Client:
        async with gate:
            await client.open()
        return client

    jobs_hosts, jobs_players = [], []
    for room in rooms:
        jobs_hosts.append(
            opened(Client(addresses[index % len(addresses)], room["code"], room["host"]))
        )
        index += 1
        group = []
        for seat in room["players"]:
            address = addresses[index % len(addresses)]
            group.append(opened(Client(address, room["code"], seat["cookie"])))
            index += 1
        jobs_players.append(group)
    hosts = await asyncio.gather(*jobs_hosts)
    for group in jobs_players:
        players.append(await asyncio.gather(*group))
    return hosts, players


async def settle(clients: list[Client], quiet: float = 2.0, limit: float = 60.0) -> None:
    """Wait until nothing has arrived for ``quiet`` seconds: late is not lost."""
    started, last_total, last_change = time.monotonic(), -1, time.monotonic()
    while time.monotonic() - started < limit:
        total = sum(len(c.arrivals) for c in clients)
        if total != last_total:
            last_total, last_change = total, time.monotonic()
        elif time.monotonic() - last_change >= quiet:
            return
        await asyncio.sleep(0.25)


async def fanout(hosts, players, *, actions: int, duration: float, interval: float) -> dict:
    sends: list[tuple[int, int, float]] = []  # (room index, seq, sent)
    acks: list[float] = []
    errors: list[dict] = []

    async def drive(r: int, host: Client) -> None:
        await asyncio.sleep(interval * r / max(1, len(hosts)))  # spread the rooms
        started = time.monotonic()
        done = 0
        while (actions and done < actions) or (duration and time.monotonic() - started < duration):
            sent, answered, answer = await host.request({"type": "deal"})
            if answer["type"] != "ack":
                errors.append(answer)
            else:
                sends.append((r, answer["seq"], sent))
                acks.append(answered - sent)
            done += 1
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - sent)))

    began = time.monotonic()
    await asyncio.gather(*(drive(r, host) for r, host in enumerate(hosts)))
    elapsed = time.monotonic() - began
    await settle([p for group in players for p in group])
    fan, lost = [], 0
    for r, seq, sent in sends:
        arrivals = [p.arrivals.get(seq) for p in players[r]]
        lost += sum(1 for a in arrivals if a is None)
        received = [a for a in arrivals if a is not None]
        if received:
            fan.append(max(received) - sent)
    return {
        "actions": len(sends),
        "elapsed_s": elapsed,
        "actions_per_s": len(sends) / elapsed,
        "deliveries": len(sends) * (len(players[0]) if players else 0),
        "fanout_ms": [1000 * percentile(fan, q) for q in (0.5, 0.95, 0.99)],
        "fanout_max_ms": 1000 * max(fan) if fan else float("nan"),
        "ack_ms": [1000 * percentile(acks, q) for q in (0.5, 0.95, 0.99)],
        "lost": lost,
        "duplicated": sum(p.duplicates for group in players for p in group),
        "errors": len(errors),
        "sockets_dropped_by_server": sum(p.dropped for p in [*hosts, *sum(players, [])]),
    }


async def placements(host: Client, players: list[Client], rounds: int) -> dict:
    spans, accepted, refused, seqs = [], 0, 0, []
    began = time.monotonic()
    for _ in range(rounds):
        await host.request({"type": "deal"})
        first = time.monotonic()
        results = await asyncio.gather(*(p.request({"type": "place", "n": 5}) for p in players))
        spans.append(max(answered for _s, answered, _a in results) - first)
        accepted += sum(1 for _s, _a, answer in results if answer["type"] == "ack")
        refused += sum(1 for _s, _a, answer in results if answer["type"] != "ack")
        seqs += [answer["seq"] for _s, _a, answer in results if answer["type"] == "ack"]
    elapsed = time.monotonic() - began
    await settle(players)
    lost = sum(1 for seq in seqs for p in players if seq not in p.arrivals)
    if os.environ.get("BENCH_DEBUG"):
        print("missing per player", [sum(1 for q in seqs if q not in p.arrivals) for p in players])
        print("closed", [p.ws.close_code for p in players if p.ws.close_code is not None])
    return {
        "progress_events_lost": lost,
        "rounds": rounds,
        "all_placed_ms": [1000 * percentile(spans, q) for q in (0.5, 0.95, 0.99)],
        "accepted": accepted,
        "refused": refused,
        "moves_per_s": accepted / elapsed,
    }


async def run(args, rooms, servers) -> dict:
    addresses = [address for _process, address in servers]
    before = sum(rss_kib(process.pid) for process, _a in servers)
    opened_at = time.monotonic()
    hosts, players = await open_all(rooms, addresses)
    sockets = len(hosts) + sum(len(group) for group in players)
    connect_s = time.monotonic() - opened_at
    await asyncio.sleep(1)
    after = sum(rss_kib(process.pid) for process, _a in servers)
    result = {
        "sockets": sockets,
        "connect_all_s": connect_s,
        "server_kib_per_socket": (after - before) / sockets,
        "fanout": await fanout(
            hosts, players, actions=args.actions, duration=args.duration, interval=args.interval
        ),
    }
    if args.placements:
        result["placements"] = await placements(hosts[0], players[0], args.placements)
    for client in [*hosts, *(p for group in players for p in group)]:
        await client.close()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=1)
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--actions", type=int, default=0, help="actions per room (or --duration)")
    parser.add_argument("--duration", type=float, default=0, help="seconds of actions per room")
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between actions")
    parser.add_argument("--servers", type=int, default=1, help="uvicorn processes")
    parser.add_argument("--placements", type=int, default=0, help="rounds of 50 seat moves")
    parser.add_argument(
        "--capacity", type=int, default=0, help="channel layer capacity (default: settings)"
    )
    parser.add_argument("--pubsub", action="store_true", help="use RedisPubSubChannelLayer")
    parser.add_argument(
        "--max-connections", type=int, default=0, help="Redis pool size per server process"
    )
    args = parser.parse_args()
    if not args.actions and not args.duration:
        args.actions = 50
    load_before = f"{os.getloadavg()[0]:.1f}"
    with bench_services("matika-bench-") as (workdir, env, servers):
        if args.capacity or args.pubsub or args.max_connections:
            env["DJANGO_SETTINGS_MODULE"] = layer_settings(
                workdir, args.capacity, args.pubsub, args.max_connections
            )
            env["PYTHONPATH"] = os.pathsep.join([str(workdir), str(BASE_DIR)])
            sys.path.insert(0, str(workdir))
        os.environ.update(env)
        rooms = make_rooms(args.rooms, args.players)
        servers += start_servers(env, args.servers)
        result = asyncio.run(run(args, rooms, servers))
    result["command"] = " ".join(["bench/rooms_fanout.py", *sys.argv[1:]])
    result["machine"] = machine(load_before)
    print(json.dumps(rounded(result), indent=2))
    f = result["fanout"]
    print(
        f"\n{result['sockets']} sockets: fan-out p50/p95/p99 = "
        + "/".join(f"{v:.1f}" for v in f["fanout_ms"])
        + " ms, ack p50/p95/p99 = "
        + "/".join(f"{v:.1f}" for v in f["ack_ms"])
        + f" ms, lost {f['lost']}, duplicated {f['duplicated']}, errors {f['errors']}, "
        + f"{result['server_kib_per_socket']:.0f} KiB/socket, "
        + f"sockets dropped by the server {f['sockets_dropped_by_server']}"
    )
    if "placements" in result:
        placed = result["placements"]
        print(
            "50 simultaneous seat moves: all acked p50/p95/p99 = "
            + "/".join(f"{v:.0f}" for v in placed["all_placed_ms"])
            + f" ms, {placed['moves_per_s']:.0f} moves/s, refused {placed['refused']}, "
            + f"progress events lost {placed['progress_events_lost']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
