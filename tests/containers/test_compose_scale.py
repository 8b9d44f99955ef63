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
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psycopg
import pytest
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


class MasterContainer:
    """What the drill kills: the Redis master's container, with SIGKILL."""

    def __init__(self) -> None:
        self.master = self

    def kill(self) -> None:
        podman.run("kill", "--signal", "KILL", f"{PROJECT}_redis_1")


def _rooms(kit) -> list[dict]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "SECRET_KEY": kit["secret_key"],
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": f"postgres://matika:{kit['password']}@{_address(f'{PROJECT}_postgres_1')}:5432/matika",
        "REDIS_URL": f"redis://{_address(f'{PROJECT}_redis_1')}:6379/0",
        "PYTHONPATH": str(podman.BASE_DIR / "bench"),
    }  # fmt: skip
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    code = ("import json, rooms_fanout; "
            f"print(json.dumps(rooms_fanout.make_rooms({drill.ROOMS}, {drill.PLAYERS}, game='poker')))")  # fmt: skip
    made = subprocess.run([sys.executable, "-c", code], cwd=podman.BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert made.returncode == 0, made.stderr[-3000:]
    return json.loads(made.stdout.strip().splitlines()[-1])


def _sockets_by_web(token: str) -> list[float]:
    counts = []
    for web in (f"{PROJECT}_web_1", f"{PROJECT}_web_2"):
        request = urllib.request.Request(f"http://{_address(web)}:8000/metrics",
                                         headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        with urllib.request.urlopen(request, timeout=20) as response:
            found = re.search(r"^matika_room_sockets_open (\S+)$", response.read().decode(), re.M)
        counts.append(float(found.group(1)) if found else 0.0)
    return counts


def test_the_scale_kit_plays_through_nginx_and_survives_a_redis_master_kill(kit, monkeypatch):
    lobbies = _rooms(kit)
    first_master = _sentinel_master()
    assert first_master, "the Sentinels name no master"
    ThroughNginx.nginx = kit["nginx"]
    monkeypatch.setattr(drill, "Player", ThroughNginx)
    seen_sockets: list[list[float]] = []

    async def play():
        async def watch():  # players on both web containers, seen while the games run
            while True:
                await drill.asyncio.sleep(1)
                seen_sockets.append(await drill.asyncio.to_thread(_sockets_by_web, kit["token"]))

        watcher = drill.asyncio.create_task(watch())
        try:
            return await drill._play_and_fail_over(lobbies, [kit["nginx"]] * 2, MasterContainer())
        finally:
            watcher.cancel()

    played = drill.run_async(play())
    assert any(all(count > 0 for count in counts) for counts in seen_sockets), seen_sockets
    # Sentinel promoted the replica; every draw was acknowledged and stored.
    deadline = time.monotonic() + 120
    while _sentinel_master() in ("", first_master) and time.monotonic() < deadline:
        time.sleep(1)
    assert _sentinel_master() not in ("", first_master)
    assert played["refusals"] == [] and played["draws"] == [drill.SEQUENCE] * drill.ROOMS
    url = f"postgres://matika:{kit['password']}@{_address(f'{PROJECT}_postgres_1')}:5432/matika"
    with psycopg.connect(url) as conn:
        for lobby in lobbies:
            state, status = conn.execute(
                "SELECT state, status FROM rooms_room WHERE id = %s", [lobby["id"]]
            ).fetchone()
            assert len(state["sequence"]) == drill.SEQUENCE
        seats = conn.execute(
            "SELECT player_id, state FROM rooms_seat WHERE room_id = ANY(%s)",
            [[lobby["id"] for lobby in lobbies]],
        ).fetchall()
    for player_id, state in seats:
        if player_id in played["acked"]:  # no acknowledged placement lost
            filled = sum(1 for value in state.get("cells", []) if value is not None)
            assert filled >= played["acked"][player_id]
    # Nobody stalled: every player learned all the numbers and placed them all.
    assert played["known"] == [[drill.SEQUENCE] * drill.PLAYERS] * drill.ROOMS
    assert played["placed"] == [[drill.SEQUENCE] * drill.PLAYERS] * drill.ROOMS, played["refused"]
    # /readyz recovers through nginx.
    podman.wait_http(f"https://{kit['nginx']}/readyz", host=HOST, patience=180)
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
