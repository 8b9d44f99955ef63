"""Liveness and readiness (config/health.py) and the Celery heartbeats (config/celery.py).

Issue 22: "/healthz calls Celery control.ping inside the request: 30 concurrent
probes exhaust kombu's connection pool and every later probe hangs forever ...
With an identity cookie and PostgreSQL down it answers 500, not 503."
Required: "a cheap liveness URL and a readiness URL ..., Celery health from a
heartbeat the worker/beat write (not a ping per request), per-check timeouts;
100 concurrent probes all answer."
"""

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.conf import settings as django_settings
from django.core import signing
from django.test import override_settings

from accounts import identity
from config import celery as heartbeats
from config.health import beat_heartbeat
from tests.conftest import BASE_DIR, _free_port, _server_env, _stop


def get(url: str, cookie: str | None = None, timeout: float = 30) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def identity_cookie() -> str:
    token = identity.new_token()
    return f"{django_settings.PLAYER_COOKIE_NAME}={signing.dumps(token, salt=identity.SALT)}"


def probe_many(url: str, count: int, cookie: str | None = None) -> list[tuple[int, dict]]:
    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(lambda _: get(url, cookie), range(count)))


def test_liveness_and_readiness_urls():
    assert django_settings.HEALTH_PATHS == ["/livez", "/readyz", "/healthz"]


@pytest.mark.live
def test_readiness_is_green_with_database_redis_and_a_worker_heartbeat(
    transactional_db, asgi_server, celery_worker_process
):
    for path in ("/healthz", "/readyz"):
        status, body = get(asgi_server + path)
        assert status == 200, body
        assert body["status"] == "ok"
        assert body["checks"]["database"] == {"ok": True}
        assert body["checks"]["redis"] == {"ok": True}
        assert body["checks"]["celery"]["ok"] is True
        assert body["checks"]["celery"]["workers"] >= 1
        assert body["checks"]["celery"]["heartbeat_age_s"] is not None
    assert get(asgi_server + "/livez") == (200, {"status": "ok"})


@pytest.mark.live
def test_a_hundred_concurrent_probes_all_answer(
    transactional_db, asgi_server, celery_worker_process
):
    ready = probe_many(asgi_server + "/readyz", 100, cookie=identity_cookie())
    assert [status for status, _body in ready] == [200] * 100
    alive = probe_many(asgi_server + "/livez", 100)
    assert [status for status, _body in alive] == [200] * 100
    # and the server still answers afterwards: nothing was exhausted
    assert get(asgi_server + "/readyz")[0] == 200


DEAD_REDIS = "redis://127.0.0.1:1/0"
ALL_REDIS_ROLES = {
    name: DEAD_REDIS
    for name in (
        "REDIS_URL",
        "HEALTH_REDIS_URL",
        "CHANNELS_REDIS_URL",
        "CACHE_REDIS_URL",
        "CELERY_BROKER_URL",
    )
}


@pytest.mark.django_db
def test_readiness_reports_503_when_redis_is_unreachable(client):
    with override_settings(**ALL_REDIS_ROLES):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["celery"] == {"ok": False, "error": "redis_down"}
    assert client.get("/livez").status_code == 200


@pytest.mark.django_db
def test_every_redis_role_is_checked(client, settings):
    settings.HEALTH_REDIS_URL = empty_redis_db()
    heartbeats.write_worker_heartbeat("w1@test")
    assert client.get("/readyz").status_code == 200
    settings.CACHE_REDIS_URL = DEAD_REDIS  # the cache's own Redis is down
    response = client.get("/readyz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["redis"]["ok"] is False
    assert checks["redis"]["role"] == "cache"
    assert checks["celery"]["ok"] is True  # heartbeats are elsewhere and still read


def empty_redis_db() -> str:
    """The test Redis, another database number: no heartbeats there yet."""
    url = django_settings.HEALTH_REDIS_URL.rsplit("/", 1)[0] + "/13"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.mark.django_db
def test_without_a_worker_heartbeat_readiness_is_503_and_says_why(client):
    with override_settings(HEALTH_REDIS_URL=empty_redis_db()):
        response = client.get("/readyz")
        assert response.status_code == 503
        celery = response.json()["checks"]["celery"]
        assert celery == {"ok": False, "workers": 0, "heartbeat_age_s": None}

        heartbeats.write_worker_heartbeat("w1@test")
        response = client.get("/readyz")
        assert response.status_code == 200
        assert response.json()["checks"]["celery"]["workers"] == 1
        assert response.json()["checks"]["beat"] == {"ok": False, "heartbeat_age_s": None}

        heartbeats.forget_worker("w1@test")  # a worker that stops says so at once
        assert client.get("/readyz").status_code == 503


def test_a_heartbeat_older_than_three_intervals_is_dead(settings):
    settings.HEALTH_REDIS_URL = empty_redis_db()
    settings.HEALTH_HEARTBEAT_SECONDS = 10
    client = redis.Redis.from_url(settings.HEALTH_REDIS_URL)
    heartbeats.write_worker_heartbeat("w1@test")
    now = time.time()
    assert heartbeats.read_heartbeats(client, now=now + 29)["workers"] == 1
    assert heartbeats.read_heartbeats(client, now=now + 31)["workers"] == 0


@pytest.mark.django_db
def test_the_beat_task_writes_the_beat_heartbeat_and_beat_can_be_required(client, settings):
    settings.HEALTH_REDIS_URL = empty_redis_db()
    heartbeats.write_worker_heartbeat("w1@test")
    settings.HEALTH_REQUIRE_BEAT = True
    assert client.get("/readyz").status_code == 503
    beat_heartbeat()
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"]["beat"]["ok"] is True
    schedule = settings.CELERY_BEAT_SCHEDULE["health-beat-heartbeat"]
    assert schedule["task"] == "health.beat_heartbeat"


def test_the_worker_refreshes_its_heartbeat_from_its_timer():
    assert heartbeats.HealthHeartbeat in heartbeats.app.steps["worker"]
    started = []

    class Timer:
        def call_repeatedly(self, seconds, function, args, priority=0):
            started.append((seconds, function, args))
            return None

    class Worker:
        hostname = "w2@test"
        timer = Timer()

    step = heartbeats.HealthHeartbeat(Worker())
    step.start(Worker())
    assert started == [(10.0, heartbeats.write_worker_heartbeat, ("w2@test",))]


def start_server(database_url: str, extra_env: dict | None = None) -> tuple[subprocess.Popen, str]:
    env = _server_env()
    env["DATABASE_URL"] = database_url
    env.update(extra_env or {})
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        cwd=BASE_DIR,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    # as patient as tests/conftest.py's wait_up: at load 20 this server took over 60 s
    deadline = time.monotonic() + 180
    while True:
        try:
            with urllib.request.urlopen(url + "/livez", timeout=2):
                return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                _stop(process)
                pytest.fail("the ASGI server did not start")
            time.sleep(0.2)


@pytest.mark.live
@pytest.mark.django_db
@pytest.mark.parametrize("outage", ["refused", "silent"])
def test_postgresql_down_gives_503_not_500_even_with_an_identity_cookie(outage):
    """refused: nothing listens on the port; silent: a socket accepts and never answers
    (the check's own timeout must answer for it)."""
    silent = None
    if outage == "silent":
        silent = socket.socket()
        silent.bind(("127.0.0.1", 0))
        silent.listen(200)
        port = silent.getsockname()[1]
    else:
        port = _free_port()
    # A page that needs the identity waits for a pooled connection up to the pool's
    # timeout (10 s by default) before its 503: 2 s here, the same path (PoolTimeout)
    # in a fifth of the wait (each variant took about 18 s on a quiet machine).
    process, url = start_server(
        f"postgres://postgres@127.0.0.1:{port}/matika", {"DB_POOL_TIMEOUT": "2"}
    )
    try:
        cookie = identity_cookie()
        answers = probe_many(url + "/readyz", 100, cookie=cookie)
        assert [status for status, _body in answers] == [503] * 100
        for _status, body in answers:
            assert body["status"] == "unavailable"
            assert body["checks"]["database"]["ok"] is False
            assert body["checks"]["redis"] == {"ok": True}
        assert get(url + "/healthz", cookie)[0] == 503
        assert get(url + "/livez", cookie) == (200, {"status": "ok"})
        # elsewhere an identity cookie that cannot be checked is a retryable
        # 503 with a short page (issue 28), never a 500 and never "anonymous"
        page = urllib.request.Request(url + "/privacy/", headers={"Cookie": cookie})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(page, timeout=60)
        assert refused.value.code == 503
        assert int(refused.value.headers["Retry-After"]) > 0
        assert b'data-code="identity_unavailable"' in refused.value.read()
        # without the cookie a page that needs no database still renders
        with urllib.request.urlopen(url + "/privacy/", timeout=60) as response:
            assert response.status == 200
    finally:
        _stop(process)
        if silent is not None:
            silent.close()


# --- container health checks for the Celery processes (config/healthcheck.py) ----------


def test_worker_and_beat_health_checks_read_the_heartbeats(settings):
    from config import healthcheck

    settings.HEALTH_REDIS_URL = empty_redis_db()
    assert healthcheck.check("worker", "celery@box") == (False, "celery@box: no heartbeat")
    heartbeats.write_worker_heartbeat("celery@box")
    assert healthcheck.check("worker", "celery@box")[0] is True
    assert healthcheck.check("worker", "celery@other")[0] is False
    assert healthcheck.check("worker", "celery@box", now=time.time() + 31)[0] is False
    assert healthcheck.check("beat")[0] is False
    heartbeats.write_beat_heartbeat()
    assert healthcheck.check("beat")[0] is True
    with override_settings(HEALTH_REDIS_URL=DEAD_REDIS):
        healthy, message = healthcheck.check("worker", "celery@box")
    assert not healthy and "Redis unavailable" in message


@pytest.mark.live
def test_the_worker_health_check_command_sees_the_real_worker(
    transactional_db, celery_worker_process
):
    import os

    name = f"test-{os.getpid()}@{socket.gethostname()}"
    env = _server_env()
    command = [sys.executable, "-m", "config.healthcheck", "worker"]
    alive = subprocess.run([*command, name], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert alive.returncode == 0, alive.stdout + alive.stderr
    other = subprocess.run(
        [*command, "celery@no-such-host"], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert other.returncode == 1
    assert "no heartbeat" in other.stdout


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_a_worker_writes_its_heartbeat_when_ready_and_removes_it_when_it_stops():
    name = f"heartbeat-{time.monotonic_ns()}@test"
    client = redis.Redis.from_url(django_settings.HEALTH_REDIS_URL)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--loglevel",
            "warning",
            "--hostname",
            name,
            "--queues",
            f"nothing-{name}",  # takes no tasks from the other tests' worker
        ],
        cwd=BASE_DIR,
        env=_server_env(),
    )
    try:
        deadline = time.monotonic() + 180  # a new process importing Django, under load
        while client.zscore(heartbeats.WORKERS_KEY, name) is None:
            assert worker.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "no heartbeat within 180 s"
            time.sleep(0.2)
    finally:
        _stop(worker)
    assert client.zscore(heartbeats.WORKERS_KEY, name) is None
