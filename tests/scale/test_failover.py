"""Beyond one box, under failure (issue 30): PostgreSQL behind PgBouncer in
transaction mode, Redis as a master with a replica and three Sentinels, two
uvicorn processes, a Celery worker and beat. Group poker games are played with
every room's players spread over both processes; the Redis master is killed
mid-game (SIGKILL, as a crashed machine) and Sentinel promotes the replica.

Checked: no acknowledged draw or placement is lost (read back from
PostgreSQL), every player learns every draw (by its event, or by the snapshot
the server pushes after the failover: nobody stalls), every room ends,
``/readyz`` is 200 again on both processes, Celery tasks -- the retention job
and the abandoned-games cleanup included -- run through PgBouncer, and
``/metrics`` counted the moves of both processes.

Eventual recovery is asserted with generous deadlines, never a timing margin.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest
from django.db import connection

from tests.conftest import BASE_DIR, _server_env, _stop, start_uvicorn
from tests.scale.topology import PgBouncer, SentinelRedis, pgbouncer_binary, run_async

# Two web processes, a worker, beat, PgBouncer and five Redis processes on a busy
# 2-core machine: patience (the suite's 300 s ran out under load), not a timing check.
pytestmark = [pytest.mark.live, pytest.mark.timeout(900)]

TOKEN = "failover-metrics-token-0123456789"
ROOMS, PLAYERS = 2, 3
KILL_AFTER_DRAWS = 6  # the master dies after the first room's sixth draw
DRAW_PAUSE_S = 0.3
SEQUENCE = 25  # a group game's numbers


@pytest.fixture(scope="module")
def topology(django_db_setup, django_db_blocker) -> Iterator[dict]:
    if pgbouncer_binary() is None:
        reason = "NO PGBOUNCER: install it (apt-get install -y pgbouncer; make test does as root)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    with django_db_blocker.unblock():
        env = _server_env()
        settings = connection.settings_dict
        pg_port, database = int(settings["PORT"]), settings["NAME"]
    bouncer = PgBouncer(pg_port)
    redis = SentinelRedis()
    children: list[subprocess.Popen] = []
    try:
        bouncer.start()
        redis.start()
        env.update(
            DATABASE_URL=bouncer.url(database),
            DATABASE_POOLER="pgbouncer",
            REDIS_SENTINELS=redis.sentinel_list,
            REDIS_SENTINEL_MASTER=SentinelRedis.MASTER,
            # ignored with Sentinels: a Redis that does not exist
            REDIS_URL="redis://127.0.0.1:9/0",
            METRICS_TOKEN=TOKEN,
            PROMETHEUS_MULTIPROC_DIR=tempfile.mkdtemp(prefix="matika-prom-"),
            HEALTH_HEARTBEAT_SECONDS="2",
            HEALTH_BEAT_HEARTBEAT_SECONDS="2",
            ROOM_SOCKETS_PER_ADDRESS="10000",
        )
        for name in ("CHANNELS_REDIS_URL", "CACHE_REDIS_URL", "CELERY_BROKER_URL"):
            env.pop(name, None)
        servers = []
        for _ in range(2):  # one after another: start-ups compete for the CPUs
            process, url = start_uvicorn(env)
            children.append(process)
            _wait_started(process, url)
            servers.append((process, url))
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        children.append(
            subprocess.Popen(
                [*celery, "worker", "--pool", "solo", "--loglevel", "warning"]
                + ["--hostname", f"scale-{time.monotonic_ns()}@%h"],
                cwd=BASE_DIR,
                env=env,
            )
        )
        beat_dir = tempfile.mkdtemp(prefix="matika-beat-")
        children.append(
            subprocess.Popen(
                [*celery, "beat", "--loglevel", "warning"]
                + ["--scheduler", "django_celery_beat.schedulers:DatabaseScheduler"]
                + ["--pidfile", f"{beat_dir}/beat.pid"],
                cwd=BASE_DIR,
                env=env,
            )
        )
        for _process, url in servers:
            assert _ready_within(url, 90), f"{url}/readyz never became ready"
        yield {"urls": [url for _p, url in servers], "redis": redis, "env": env}
    finally:
        # All asked to stop at once, then waited for: they shut down side by side.
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            _stop(child)
        redis.stop()
        bouncer.stop()


def _wait_started(process: subprocess.Popen, url: str, patience: float = 240) -> None:
    """Like tests/conftest.py's wait_up, with the patience of a machine whose CPUs
    also start the other processes of the topology."""
    deadline = time.monotonic() + patience
    while True:
        try:
            with urllib.request.urlopen(url + "/livez", timeout=5):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"a uvicorn behind PgBouncer and Sentinel did not start ({url})")
            time.sleep(0.5)


def _readyz(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url + "/readyz", timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")
    except OSError:
        return 0, {}


def _ready_within(url: str, patience: float) -> bool:
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if _readyz(url)[0] == 200:
            return True
        time.sleep(0.5)
    return False


def _metrics(url: str) -> str:
    request = urllib.request.Request(url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


class Player:
    """One socket of a group poker game. It learns the drawn numbers from their
    events, from the snapshot the server pushes after a failover, or -- seeing a
    gap in ``seq`` -- by asking for one (as the client kit does); and places every
    number it knows of, in order (easy mode: numbers wait in line, none is lost)."""

    def __init__(self, address: str, code: str, cookie: str, player_id: int = 0) -> None:
        self.address, self.code, self.cookie, self.player_id = address, code, cookie, player_id
        self.answers: dict[str, asyncio.Future] = {}
        self.counter = 0
        self.seq = -1
        self.sequence: list[int] = []
        self.next_cell = 0
        self.acked = 0
        self.pushed_snapshots = 0
        self.learned = asyncio.Event()
        self.background: set[asyncio.Task] = set()

    async def open(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            f"ws://{self.address}/ws/rooms/{self.code}/",
            origin=f"http://{self.address}",
            additional_headers={"Cookie": self.cookie},
            open_timeout=60,
        )
        first = json.loads(await self.ws.recv())
        assert first["type"] == "sync", first
        self._snapshot(first)
        self.reader = asyncio.create_task(self.read())

    def _snapshot(self, message: dict) -> None:
        if message["seq"] is not None and message["seq"] >= self.seq:
            self.seq = message["seq"]
            sequence = message["view"].get("sequence") or []
            if len(sequence) > len(self.sequence):
                self.sequence = list(sequence)
                self.learned.set()

    async def _sync(self) -> None:
        self._snapshot(await self.request({"type": "sync"}))

    def _event(self, message: dict) -> None:
        seq = message["seq"]
        if seq is None or seq <= self.seq:
            return
        gap = seq > self.seq + 1
        self.seq = seq
        if gap:
            task = asyncio.create_task(self._sync())
            self.background.add(task)
            task.add_done_callback(self.background.discard)
            return
        for event in message["events"]:
            if event.get("type") == "drawn":
                self.sequence.append(event["card"])
                self.learned.set()

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind, message_id = message.get("type"), message.get("id")
                if message_id in self.answers and kind in ("ack", "error", "sync"):
                    self.answers.pop(message_id).set_result(message)
                elif kind == "sync":
                    self.pushed_snapshots += 1
                    self._snapshot(message)
                elif kind == "event":
                    self._event(message)
        except ConnectionClosed:
            pass

    async def request(self, message: dict, patience: float = 60) -> dict:
        """Send and wait for the answer; "unavailable, retry" is sent again with
        the same id, as the client kit does (applied once by the server)."""
        self.counter += 1
        message_id = f"s{self.counter}"
        deadline = time.monotonic() + patience
        while True:
            future = asyncio.get_running_loop().create_future()
            self.answers[message_id] = future
            await self.ws.send(json.dumps({"id": message_id, **message}))
            answer = await asyncio.wait_for(future, timeout=patience)
            retry = answer.get("code") in ("unavailable", "rate_limited")
            if not retry or time.monotonic() > deadline:
                return answer
            await asyncio.sleep(0.5)

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            if self.next_cell >= min(SEQUENCE, len(self.sequence)):
                waiter = asyncio.create_task(self.learned.wait())
                stopper = asyncio.create_task(stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                stopper.cancel()
                self.learned.clear()
                continue
            card = self.sequence[self.next_cell]
            if card == 0:
                move = {"type": "use_joker", "cell": self.next_cell, "value": 1}
            else:
                move = {"type": "place", "cell": self.next_cell}
            self.learned.clear()
            answer = await self.request(move)
            if answer["type"] == "ack":
                self.acked += 1
                self.next_cell += 1
            else:  # not placeable now: wait for news rather than spin
                self.refused = answer
                await asyncio.sleep(0.2)

    async def close(self) -> None:
        self.reader.cancel()
        try:
            await asyncio.wait_for(self.ws.close(), timeout=5)
        except Exception:  # noqa: BLE001 - already gone
            pass


async def _play_and_fail_over(lobbies: list[dict], addresses: list[str], redis) -> dict:
    hosts, groups = [], []
    index = 0
    for lobby in lobbies:
        hosts.append(Player(addresses[index % 2], lobby["code"], lobby["host"]))
        index += 1
        group = []
        for seat in lobby["players"]:
            group.append(Player(addresses[index % 2], lobby["code"], seat["cookie"], seat["id"]))
            index += 1
        groups.append(group)
    everyone = [*hosts, *(p for g in groups for p in g)]
    for client in everyone:
        await client.open()
    stop = asyncio.Event()
    workers = [asyncio.create_task(p.play(stop)) for g in groups for p in g]
    draws = [0] * len(hosts)
    killed = asyncio.Event()
    refusals: list[dict] = []

    async def host_loop(r: int, host: Player) -> None:
        while draws[r] < SEQUENCE:
            answer = await host.request({"type": "draw"})
            if answer["type"] != "ack":
                refusals.append(answer)
                break
            draws[r] += 1
            if r == 0 and draws[r] == KILL_AFTER_DRAWS:
                redis.master.kill()
                killed.set()
            await asyncio.sleep(DRAW_PAUSE_S)

    await asyncio.gather(*(host_loop(r, h) for r, h in enumerate(hosts)))
    # Every player learns every number (event or pushed snapshot) and has placed it.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        behind = [p for g in groups for p in g if p.next_cell < SEQUENCE]
        if not behind:
            break
        await asyncio.sleep(0.5)
    ends = [await host.request({"type": "end"}) for host in hosts]
    stop.set()
    await asyncio.gather(*workers)
    result = {
        "draws": draws,
        "refusals": refusals,
        "ends": ends,
        "known": [[len(p.sequence) for p in g] for g in groups],
        "refused": [getattr(p, "refused", None) for g in groups for p in g],
        "placed": [[p.next_cell for p in g] for g in groups],
        "acked": {p.player_id: p.acked for g in groups for p in g},
        "pushed_snapshots": sum(p.pushed_snapshots for g in groups for p in g),
    }
    for client in everyone:
        await client.close()
    return result


def test_rooms_go_on_through_a_redis_failover_behind_pgbouncer(transactional_db, topology):
    sys.path.insert(0, str(BASE_DIR / "bench"))
    import rooms_fanout

    from games.rooms.models import Room, Seat

    urls, redis = topology["urls"], topology["redis"]
    first_master = redis.master_port()
    lobbies = rooms_fanout.make_rooms(ROOMS, PLAYERS, game="poker")
    addresses = [url.removeprefix("http://") for url in urls]

    played = run_async(_play_and_fail_over(lobbies, addresses, redis))

    # Sentinel promoted the replica.
    assert redis.master_port() == redis.replica.port != first_master
    # Every draw was acknowledged and stored; every acknowledged placement is on its board.
    assert played["refusals"] == [] and played["draws"] == [SEQUENCE] * ROOMS
    for lobby in lobbies:
        room = Room.objects.get(pk=lobby["id"])
        assert len(room.state["sequence"]) == SEQUENCE
    for seat in Seat.objects.filter(room_id__in=[lobby["id"] for lobby in lobbies]):
        if seat.player_id in played["acked"]:
            filled = sum(1 for value in seat.state.get("cells", []) if value is not None)
            assert filled >= played["acked"][seat.player_id]
    # The processes noticed the lost Redis and pushed fresh snapshots to their sockets.
    assert played["pushed_snapshots"] >= 1
    # Nobody stalled: every player learned all 25 numbers and placed them all.
    assert played["known"] == [[SEQUENCE] * PLAYERS] * ROOMS
    assert played["placed"] == [[SEQUENCE] * PLAYERS] * ROOMS, played["refused"]
    # Every room ended (by the host's end, or by itself once every board was full).
    assert set(
        Room.objects.filter(pk__in=[x["id"] for x in lobbies]).values_list("status", flat=True)
    ) == {Room.Status.FINISHED}
    # Health recovers on both processes.
    for url in urls:
        assert _ready_within(url, 60), _readyz(url)
    # Celery through Sentinel and PgBouncer: the retention job and the cleanup run.

    code = (
        "import json, django; django.setup(); from config.celery import app; "
        "r = [app.send_task(n, kwargs=k) for n, k in "
        "[('privacy.apply_retention', {}), ('poker.cleanup_abandoned_games', {}),"
        " ('health.add', {'a': 2, 'b': 3})]]; "
        "[x.get(timeout=90, propagate=False) for x in r]; "
        "print(json.dumps([x.state for x in r]))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env=topology["env"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert json.loads(ran.stdout.strip().splitlines()[-1]) == ["SUCCESS"] * 3, ran.stderr[-3000:]
    # The metrics of both processes counted the moves.
    text = _metrics(urls[0])
    found = re.search(r'^matika_room_messages_total\{outcome="accepted"\} ([0-9.e+]+)$', text, re.M)
    moves = sum(played["acked"].values()) + sum(played["draws"])
    assert found and float(found.group(1)) >= moves
    assert re.search(r"^matika_celery_tasks_total\{.*state=\"succeeded\"", text, re.M)
