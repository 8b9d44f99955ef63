"""``make run`` and ``make test``: the application or the suite against real
PostgreSQL and Redis started from Python packages (tools/services.py).

``python -m tools.devservices run``
    Persistent services with data under ``.data/``, then migrate, load demo
    data, and run the ASGI server, a Celery worker and Celery beat until Ctrl-C.
    ``DATABASE_URL`` / ``REDIS_URL`` in the environment replace the embedded ones.

``python -m tools.devservices test [pytest args...]``
    Throwaway services on free ports in a temporary directory, the test suite
    against them, then everything is stopped and removed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from tools.services import (
    Postgres,
    Redis,
    RunLock,
    bind_socket,
    log,
    pick_port,
    redis_server_bin,
    throwaway,
)

BASE_DIR = Path(__file__).resolve().parent.parent


def _stop_children(children: list[subprocess.Popen]) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()


def _manage(*args: str, env: dict, capture: bool = False) -> str:
    """Run a management command; with ``capture`` its output is also returned."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        check=True,
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE if capture else None,
        text=True,
    )
    if capture:
        sys.stdout.write(result.stdout)
        sys.stdout.flush()
        return result.stdout
    return ""


def demo_login(load_demo_output: str) -> str | None:
    """The "Demo login: ..." line that ``load_demo`` prints, if any."""
    for line in load_demo_output.splitlines():
        if "Demo login:" in line:
            return line[line.index("Demo login:") :].strip()
    return None


def _readiness(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            return json.loads(error.read())
        except ValueError:
            return None
    except (OSError, ValueError):
        return None


def _wait_ready(url: str, children: list[subprocess.Popen], timeout: float = 120) -> bool:
    """Until ``/readyz`` is green with beat's heartbeat too: by then the worker and
    beat have printed their banners, so what is printed next stays at the bottom."""
    deadline = time.monotonic() + timeout
    ready_since = None
    while time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            return False
        body = _readiness(url)
        if body and body.get("status") == "ok":
            ready_since = ready_since or time.monotonic()
            beat = body.get("checks", {}).get("beat", {})
            # beat writes its heartbeat when it starts; do not wait forever for it
            if beat.get("ok") or time.monotonic() - ready_since > 20:
                return True
        time.sleep(0.5)
    return False


def summary(url: str, demo: str | None) -> list[str]:
    rule = "-" * 64
    lines = [rule, f"Matika is running at {url}"]
    if demo:
        lines.append(demo)
    lines += [f"health: {url}readyz (liveness: {url}livez) -- Ctrl-C stops everything", rule]
    return lines


def run() -> int:
    """``make run``: services, migrations, demo data, web + worker + beat until Ctrl-C."""
    data = BASE_DIR / ".data"
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    started: list = []
    children: list[subprocess.Popen] = []
    stopping = False
    lock = RunLock(data / "run.lock")
    if not lock.acquire():
        log(
            f"another `make run` (pid {lock.holder()}) is using .data in this checkout; "
            "stop it first (Ctrl-C there)"
        )
        lock.release()
        return 1

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    web_socket = None
    try:
        if "DATABASE_URL" not in env:
            postgres = Postgres(
                data / "postgres",
                pick_port(int(env.get("MATIKA_PG_PORT", "55432")), "PostgreSQL"),
                durable=True,
            )
            postgres.start()
            started.append(postgres)
            postgres.ensure_database("matika")
            env["DATABASE_URL"] = postgres.url("matika")
            log(f"PostgreSQL on 127.0.0.1:{postgres.port} (data in .data/postgres)")
        if "REDIS_URL" not in env:
            redis = Redis(
                data / "redis",
                pick_port(int(env.get("MATIKA_REDIS_PORT", "56379")), "Redis"),
                durable=True,
            )
            redis.start()
            started.append(redis)
            env["REDIS_URL"] = redis.url()
            log(f"Redis on 127.0.0.1:{redis.port} (data in .data/redis)")
        host = env.get("HOST", "127.0.0.1")
        # Bound now, before the slow steps: nobody can take the port meanwhile.
        web_socket = bind_socket(int(env.get("PORT", "8000")), "the web server", host)
        port = web_socket.getsockname()[1]
        _manage("migrate", "--noinput", env=env)
        demo = demo_login(_manage("load_demo", env=env, capture=True))
        venv_bin = Path(sys.executable).parent
        # Warnings and errors only by default: an INFO line per task every few
        # seconds pushed the URL and the demo login off the screen at once.
        celery_level = env.get("CELERY_LOG_LEVEL", "warning")
        commands = [
            [
                str(venv_bin / "uvicorn"),
                "config.asgi:application",
                "--fd",
                str(web_socket.fileno()),
                "--ws",
                "websockets-sansio",
                # The protocol's 4,096 bytes (games.rooms.consumers.MAX_MESSAGE_BYTES):
                # a longer frame is closed with 1009 before it is buffered.
                "--ws-max-size",
                "4096",
            ],
            [
                str(venv_bin / "celery"),
                "-A",
                "config",
                "worker",
                "-l",
                celery_level,
                "--concurrency",
                "2",
            ],
            [
                str(venv_bin / "celery"),
                "-A",
                "config",
                "beat",
                "-l",
                celery_level,
                "--scheduler",
                "django_celery_beat.schedulers:DatabaseScheduler",
                "--pidfile",
                str(data / "celerybeat.pid"),
            ],
        ]
        data.mkdir(exist_ok=True)
        for index, command in enumerate(commands):
            children.append(
                subprocess.Popen(
                    command,
                    cwd=BASE_DIR,
                    env=env,
                    start_new_session=True,
                    pass_fds=(web_socket.fileno(),) if index == 0 else (),
                )
            )
        web_socket.close()  # uvicorn has its own copy
        shown = "127.0.0.1" if host == "0.0.0.0" else host
        url = f"http://{shown}:{port}/"
        if _wait_ready(f"http://127.0.0.1:{port}/readyz", children):
            time.sleep(1)  # let the worker's "ready." line and beat's banner out first
            for line in summary(url, demo):
                log(line)
        else:
            log("some part did not come up; see the output above (still running what runs)")
            if demo:
                log(f"{url}  {demo}")
        while not stopping:
            if any(child.poll() is not None for child in children):
                log("a process exited; stopping everything")
                break
            time.sleep(0.5)
        return 0
    finally:
        log("stopping…")
        if web_socket is not None:
            web_socket.close()
        _stop_children(children)
        for service in reversed(started):
            service.stop()
        lock.release()
        log("stopped")


def test(pytest_args: list[str]) -> int:
    """``make test``: throwaway PostgreSQL and Redis around one pytest run (pytest-django
    creates its own test database, so none is made here)."""
    with throwaway("matika-test-", database=None) as services:
        log(
            f"test services: PostgreSQL :{services.postgres.port}, "
            f"Redis :{services.redis.port} ({redis_server_bin()})"
        )
        return subprocess.call(
            [sys.executable, "-m", "pytest", *pytest_args], cwd=BASE_DIR, env=services.env()
        )


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print("usage: python -m tools.devservices run | test [pytest args]", file=sys.stderr)
        return 2
    if argv[0] == "run":
        return run()
    return test(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
