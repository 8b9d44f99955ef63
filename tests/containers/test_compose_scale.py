"""platform/compose.scale.yaml up under podman-compose (issue 43): two web
containers, worker, beat, PgBouncer (transaction mode), PostgreSQL, a Redis
master + replica + three Sentinels, nginx with TLS and Prometheus, from the
images ``make images`` builds. Through nginx: ``/readyz``, then group poker
games over ``wss://`` with players on both web containers while the Redis
master container is killed mid-game (the drill of tests/scale/test_failover.py:
no acknowledged placement lost, every player gets every number, ``/readyz``
recovers), and Prometheus scrapes both web targets as "up"."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import ssl
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest
import redis
import yaml

from tests.containers import podman
from tests.production.test_smoke import _self_signed_certificate
from tests.scale import test_failover as drill

# Building up a whole kit on a busy 2-core machine: patience, not a timing check.
pytestmark = pytest.mark.timeout(1800)

HOST = "matika.test"
PROJECT = "matika"
NETWORK = f"{PROJECT}_default"
SERVICES = ["postgres", "redis", "redis-replica", "sentinel-1", "sentinel-2", "sentinel-3",
            "pgbouncer", "migrate", "web", "worker", "beat", "nginx", "prometheus"]  # fmt: skip
IMAGES = ["matika", "matika-pgbouncer", "matika-postgres", "matika-redis", "matika-nginx",
          "matika-prometheus"]  # fmt: skip


def _compose(workdir: Path, env: dict, *args: str, timeout: float = 900):
    files = [workdir / "compose.yaml", workdir / "compose.scale.yaml",
             workdir / "podman" / "compose.podman.yaml"]  # fmt: skip
    merged = workdir / "compose.podman-merged.yaml"
    merged.write_text(yaml.safe_dump(podman.compose_for_podman(files), sort_keys=False))
    command = ["podman-compose", "-p", PROJECT, "-f", str(merged), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)


def _address(container: str) -> str:
    networks = podman.inspect(container)["NetworkSettings"]["Networks"]
    return networks[NETWORK]["IPAddress"]


def _sentinel_master() -> str:
    result = podman.run("exec", f"{PROJECT}_sentinel-1_1", "redis-cli", "-p", "26379", "--raw",
                        "SENTINEL", "get-master-addr-by-name", "matika", check=False)  # fmt: skip
    return result.stdout.split("\n", 1)[0].strip()


def _remove_volumes() -> None:
    """The kit's named volumes (podman-compose 1.0's ``down -v`` may leave them)."""
    for name in yaml.safe_load((podman.PLATFORM / "compose.yaml").read_text())["volumes"]:
        podman.run("volume", "rm", "-f", f"{PROJECT}_{name}", check=False)


@pytest.fixture(scope="module")
def kit():
    missing = [name for name in IMAGES if not podman.image_exists(name)]
    assert not missing, f"build the images first (make images): {missing}"
    workdir = Path(tempfile.mkdtemp(prefix="matika-compose-")) / "platform"
    shutil.copytree(podman.PLATFORM, workdir, ignore=shutil.ignore_patterns(".env", "certs"))
    _self_signed_certificate(workdir / "certs")
    password, token = secrets.token_hex(12), secrets.token_urlsafe(24)
    secret_key = secrets.token_urlsafe(50)
    (workdir / "metrics-token").write_text(token)
    (workdir / ".env").write_text(
        "\n".join([
            f"SECRET_KEY={secret_key}", f"ALLOWED_HOSTS={HOST}",
            f"CSRF_TRUSTED_ORIGINS=https://{HOST}", f"POSTGRES_PASSWORD={password}",
            f"METRICS_TOKEN={token}", "ROOM_SOCKETS_PER_ADDRESS=10000",
            "HEALTH_HEARTBEAT_SECONDS=2", "LOG_LEVEL=WARNING", "MATIKA_WAIT_SECONDS=1500",
        ]) + "\n"
    )  # fmt: skip
    env = {**podman.ENV, "POSTGRES_PASSWORD": password, "METRICS_TOKEN": token}
    podman.run("network", "rm", "-f", NETWORK, check=False)
    _remove_volumes()  # a previous run's database would keep its old password
    podman.run("network", "create", "--subnet", "172.30.0.0/24", NETWORK)
    try:
        up = _compose(workdir, env, "up", "-d", *SERVICES)
        assert up.returncode == 0, up.stdout[-3000:] + up.stderr[-3000:]
        nginx = _address(f"{PROJECT}_nginx_1")
        podman.wait_http(f"https://{nginx}/readyz", host=HOST, patience=600,
                         why=lambda: podman.logs(f"{PROJECT}_web_1") + podman.logs(f"{PROJECT}_migrate_1"))  # fmt: skip
        for web in (f"{PROJECT}_web_1", f"{PROJECT}_web_2"):  # both serve before the game
            podman.wait_http(f"http://{_address(web)}:8000/readyz", patience=900,
                             why=lambda web=web: podman.logs(web))  # fmt: skip
        yield {"workdir": workdir, "env": env, "nginx": nginx, "password": password,
               "token": token, "secret_key": secret_key}  # fmt: skip
    finally:
        if os.environ.get("MATIKA_KEEP_KIT") != "1":
            _compose(workdir, env, "down", "-v", timeout=600)
            podman.run("network", "rm", "-f", NETWORK, check=False)
            _remove_volumes()
            shutil.rmtree(workdir.parent, ignore_errors=True)


_TLS = ssl.create_default_context()
_TLS.check_hostname = False
_TLS.verify_mode = ssl.CERT_NONE
urllib.request.install_opener(
    urllib.request.build_opener(urllib.request.HTTPSHandler(context=_TLS))
)


class ThroughNginx(drill.Player):
    """A player of the failover drill whose socket goes through nginx over TLS."""

    nginx = ""

    async def open(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        for attempt in range(10):  # as the client kit does: a refused opening is tried again
            try:
                await self._connect(connect)
                break
            except InvalidStatus:
                if attempt == 9:
                    raise
                await drill.asyncio.sleep(3)
        first = json.loads(await self.ws.recv())
        assert first["type"] == "sync", first
        self._snapshot(first)
        self.reader = drill.asyncio.create_task(self.read())

    async def _connect(self, connect) -> None:
        self.ws = await connect(
            f"wss://{HOST}/ws/rooms/{self.code}/",
            host=self.nginx,
            port=443,
            ssl=_TLS,
            server_hostname=HOST,
            origin=f"https://{HOST}",
            additional_headers={"Cookie": self.cookie},
            open_timeout=60,
        )


FAILOVERS = 3  # the Redis master is killed in three games running one after another


class MasterContainer:
    """What the drill kills: the container of the Redis master, with SIGKILL."""

    def __init__(self, container: str) -> None:
        self.master, self.container = self, container

    def kill(self) -> None:
        podman.run("kill", "--signal", "KILL", self.container)


def _rooms(kit, rooms: int) -> list[dict]:
    """Started group poker rooms, made by the image's own code inside a web container
    (bench/rooms_fanout.py copied in), so the kit's schema and code always match."""
    web = f"{PROJECT}_web_1"
    podman.run("cp", str(podman.BASE_DIR / "bench" / "rooms_fanout.py"), f"{web}:/tmp/")
    code = ("import json, sys; sys.path.append('/tmp'); import rooms_fanout; "
            f"print(json.dumps(rooms_fanout.make_rooms({rooms}, {drill.PLAYERS}, game='poker')))")  # fmt: skip
    made = podman.run("exec", "-e", "LOG_LEVEL=WARNING", web, "python", "-c", code, timeout=600)
    return json.loads(made.stdout.strip().splitlines()[-1])


def _database_url(kit) -> str:
    return f"postgres://matika:{kit['password']}@{_address(f'{PROJECT}_postgres_1')}:5432/matika"


def _sockets_by_web(token: str) -> list[float]:
    counts = []
    for web in (f"{PROJECT}_web_1", f"{PROJECT}_web_2"):
        request = urllib.request.Request(f"http://{_address(web)}:8000/metrics",
                                         headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=20) as response:
            found = re.search(r"^matika_room_sockets_open (\S+)$", response.read().decode(), re.M)
        counts.append(float(found.group(1)) if found else 0.0)
    return counts


def _redis_container(address: str) -> str:
    """The container the Sentinels' master address names (a service name or an address)."""
    for service in ("redis", "redis-replica"):
        container = f"{PROJECT}_{service}_1"
        if address == service or address == _address(container):
            return container
    raise AssertionError(f"the Sentinels name {address!r}, neither Redis container")


def _a_replica_follows_the_master(patience: float = 240) -> None:
    """Until every Sentinel sees a live replica of the master, linked to it: the next
    kill can then fail over (patience on a busy machine, not a timing check)."""
    deadline = time.monotonic() + patience
    seen: object = None
    while time.monotonic() < deadline:
        linked = 0
        for index in (1, 2, 3):
            client = redis.Redis(host=_address(f"{PROJECT}_sentinel-{index}_1"), port=26379,
                                 socket_timeout=5, decode_responses=True)  # fmt: skip
            try:
                seen = client.sentinel_slaves("matika")
                linked += any(r.get("master-link-status") == "ok" and not r.get("is_sdown")
                              and not r.get("is_disconnected") for r in seen)  # fmt: skip
            except (redis.RedisError, OSError) as error:
                seen = error
            finally:
                client.close()
        if linked == 3:
            return
        time.sleep(2)
    raise AssertionError(f"no replica follows the master {_sentinel_master()}: {seen}")


def _play_one_failover(kit, lobbies: list[dict], seen_sockets: list) -> dict:
    """One drill: the games of ``lobbies`` with the master killed mid-game; then the
    Sentinels name another master and every acknowledged placement is stored."""
    first_master = _sentinel_master()
    assert first_master, "the Sentinels name no master"
    victim = _redis_container(first_master)

    async def play():
        async def watch():  # players on both web containers, seen while the games run
            while True:
                await drill.asyncio.sleep(1)
                seen_sockets.append(await drill.asyncio.to_thread(_sockets_by_web, kit["token"]))

        watcher = drill.asyncio.create_task(watch())
        try:
            return await drill._play_and_fail_over(
                lobbies, [kit["nginx"]] * 2, MasterContainer(victim)
            )
        finally:
            watcher.cancel()

    played = drill.run_async(play())
    # Sentinel promoted the replica; every draw was acknowledged and stored.
    deadline = time.monotonic() + 120
    while _sentinel_master() in ("", first_master) and time.monotonic() < deadline:
        time.sleep(1)
    assert _sentinel_master() not in ("", first_master), victim
    assert played["refusals"] == [] and played["draws"] == [drill.SEQUENCE] * drill.ROOMS
    with psycopg.connect(_database_url(kit)) as conn:
        for lobby in lobbies:
            state, _status = conn.execute(
                "SELECT state, status FROM rooms_room WHERE id = %s", [lobby["id"]]
            ).fetchone()
            assert len(state["sequence"]) == drill.SEQUENCE
        seats = conn.execute(
            "SELECT player_id, state FROM rooms_seat WHERE room_id = ANY(%s)",
            [[lobby["id"] for lobby in lobbies]],
        ).fetchall()
    lost = {}
    for player_id, state in seats:
        if player_id in played["acked"]:  # no acknowledged placement lost
            filled = sum(1 for value in state.get("cells", []) if value is not None)
            if filled < played["acked"][player_id]:
                lost[player_id] = (filled, played["acked"][player_id])
    assert not lost, f"acknowledged placements missing (stored, acknowledged): {lost}"
    assert set(played["acked"]) <= {player_id for player_id, _state in seats}
    # Nobody stalled: every player learned all the numbers and placed them all.
    assert played["known"] == [[drill.SEQUENCE] * drill.PLAYERS] * drill.ROOMS
    assert played["placed"] == [[drill.SEQUENCE] * drill.PLAYERS] * drill.ROOMS, played["refused"]
    # /readyz recovers through nginx; the killed Redis comes back as a replica.
    podman.wait_http(f"https://{kit['nginx']}/readyz", host=HOST, patience=180,
                     why=lambda: podman.logs(f"{PROJECT}_worker_1") + podman.logs(f"{PROJECT}_beat_1"))  # fmt: skip
    podman.run("start", victim)
    return {"killed": victim, "acked": sum(played["acked"].values())}


def test_the_scale_kit_plays_through_nginx_and_survives_redis_master_kills(kit, monkeypatch):
    """Three games, the Redis master killed in each: three failovers, back and forth
    between the two Redis containers (the killed one restarts as a replica)."""
    lobbies = _rooms(kit, drill.ROOMS * FAILOVERS)
    ThroughNginx.nginx = kit["nginx"]
    monkeypatch.setattr(drill, "Player", ThroughNginx)
    seen_sockets: list[list[float]] = []
    drills = []
    for index in range(FAILOVERS):
        _a_replica_follows_the_master()
        rooms = lobbies[index * drill.ROOMS : (index + 1) * drill.ROOMS]
        drills.append(_play_one_failover(kit, rooms, seen_sockets))
    print(f"failovers: {drills}")
    assert len({d["killed"] for d in drills}) == 2, drills  # both Redis were master once
    assert any(all(count > 0 for count in counts) for counts in seen_sockets), seen_sockets
    # Prometheus scrapes both web containers, and both are "up".
    prometheus = _address(f"{PROJECT}_prometheus_1")
    deadline = time.monotonic() + 180
    while True:
        with urllib.request.urlopen(f"http://{prometheus}:9090/api/v1/targets", timeout=20) as r:
            targets = json.loads(r.read())["data"]["activeTargets"]
        web = [t for t in targets if t["labels"].get("job") == "matika-web"]
        if len(web) == 2 and all(t["health"] == "up" for t in web):
            break
        assert time.monotonic() < deadline, web
        time.sleep(3)


def test_nginx_finds_the_web_containers_again_after_they_restart(kit):
    """Restarted web containers come back with new addresses; nginx (not restarted)
    looks ``web`` up again and serves through them -- with the name resolved only at
    nginx's start it answered 502 until nginx itself was restarted."""
    webs = [f"{PROJECT}_web_1", f"{PROJECT}_web_2"]
    before = {web: _address(web) for web in webs}
    nginx_started = podman.inspect(f"{PROJECT}_nginx_1")["State"]["StartedAt"]
    podman.run("restart", *webs, timeout=300)
    after = {web: _address(web) for web in webs}
    assert not set(before.values()) & set(after.values()), (before, after)
    for web in webs:
        podman.wait_http(f"http://{after[web]}:8000/readyz", patience=600,
                         why=lambda web=web: podman.logs(web))  # fmt: skip
    body = podman.wait_http(f"https://{kit['nginx']}/readyz", host=HOST, patience=120,
                            why=lambda: podman.logs(f"{PROJECT}_nginx_1"))  # fmt: skip
    assert json.loads(body)["status"] == "ok"
    assert podman.inspect(f"{PROJECT}_nginx_1")["State"]["StartedAt"] == nginx_started
