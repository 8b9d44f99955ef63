"""The pieces operators put in front of Matika, started for a test: PgBouncer (from
Debian, transaction pooling) and Redis with a replica and three Sentinels (the same
``redis-server`` binary that tools/services.py runs, with ``--sentinel``).

Used by tests/scale/test_failover.py and bench/scale_bench.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tools.services import Postgres, Redis, free_port, port_open, redis_server_bin

PGBOUNCER_PATHS = ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer")


def pgbouncer_binary() -> str | None:
    for path in (shutil.which("pgbouncer"), *PGBOUNCER_PATHS):
        if path and os.access(path, os.X_OK):
            return path
    return None


def _wait_port(port: int, process: subprocess.Popen, what: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + 30
    while not port_open(port):
        if process.poll() is not None or time.monotonic() > deadline:
            text = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{what} did not start on :{port}\n{text}")
        time.sleep(0.05)


def _stop(process: subprocess.Popen | None, sig: int = signal.SIGTERM) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(sig)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


class PgBouncer:
    """PgBouncer in transaction mode in front of the PostgreSQL on ``pg_port``.

    PgBouncer refuses to run as root: as root it runs as the system user that
    tools/services.py made for PostgreSQL."""

    def __init__(self, pg_port: int, *, pool_size: int = 20) -> None:
        self.pg_port, self.pool_size = pg_port, pool_size
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="matika-pgbouncer-"))
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = pgbouncer_binary()
        if binary is None:
            raise RuntimeError("pgbouncer is not installed (apt-get install -y pgbouncer)")
        (self.dir / "userlist.txt").write_text('"postgres" ""\n')
        (self.dir / "pgbouncer.ini").write_text(
            "[databases]\n"
            f"* = host=127.0.0.1 port={self.pg_port}\n"
            "[pgbouncer]\n"
            "listen_addr = 127.0.0.1\n"
            f"listen_port = {self.port}\n"
            "unix_socket_dir =\n"
            "auth_type = trust\n"
            f"auth_file = {self.dir / 'userlist.txt'}\n"
            "pool_mode = transaction\n"
            "max_client_conn = 2000\n"
            f"default_pool_size = {self.pool_size}\n"
            "ignore_startup_parameters = extra_float_digits,options\n"
            f"logfile = {self.dir / 'pgbouncer.log'}\n"
        )
        kwargs: dict = {}
        user = Postgres._system_user()
        self.dir.chmod(0o755)
        if user is not None:
            for path in [self.dir, *self.dir.iterdir()]:
                os.chown(path, user.pw_uid, user.pw_gid)
            kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        self.process = subprocess.Popen(
            [binary, str(self.dir / "pgbouncer.ini")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            **kwargs,
        )
        _wait_port(self.port, self.process, "pgbouncer", self.dir / "pgbouncer.log")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        _stop(self.process, signal.SIGINT)
        shutil.rmtree(self.dir, ignore_errors=True)


class RedisNode(Redis):
    """One redis-server (master, or replica of ``replica_of``)."""

    def __init__(self, workdir: Path, *, replica_of: int | None = None) -> None:
        port = free_port()
        replica = ["--replicaof", "127.0.0.1", str(replica_of)] if replica_of is not None else []
        super().__init__(workdir / f"redis-{port}", port, durable=False, extra_args=replica)


class Sentinel:
    def __init__(self, workdir: Path, master: str, master_port: int, quorum: int = 2) -> None:
        self.port = free_port()
        self.dir = workdir / f"sentinel-{self.port}"
        self.master, self.master_port, self.quorum = master, master_port, quorum
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        conf = self.dir / "sentinel.conf"  # Sentinel rewrites it: a file of its own
        conf.write_text(
            f"port {self.port}\nbind 127.0.0.1\ndir {self.dir}\n"
            f"logfile {self.dir / 'sentinel.log'}\n"
            f"sentinel monitor {self.master} 127.0.0.1 {self.master_port} {self.quorum}\n"
            f"sentinel down-after-milliseconds {self.master} 1000\n"
            f"sentinel failover-timeout {self.master} 10000\n"
            f"sentinel parallel-syncs {self.master} 1\n"
        )
        self.process = subprocess.Popen(
            [redis_server_bin(), str(conf), "--sentinel"],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        _wait_port(self.port, self.process, "redis sentinel", self.dir / "sentinel.log")

    def stop(self) -> None:
        _stop(self.process)


class SentinelRedis:
    """A Redis master, one replica and three Sentinels watching them."""

    MASTER = "matika"

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="matika-sentinel-"))
        self.master = RedisNode(self.dir)
        self.replica: RedisNode | None = None
        self.sentinels: list[Sentinel] = []

    def start(self, patience: float = 60) -> None:
        import redis

        self.master.start()
        self.replica = RedisNode(self.dir, replica_of=self.master.port)
        self.replica.start()
        self.sentinels = [Sentinel(self.dir, self.MASTER, self.master.port) for _ in range(3)]
        for sentinel in self.sentinels:
            sentinel.start()
        # Ready when every Sentinel knows the replica and the two other Sentinels
        # (they find each other through the master within a few seconds).
        deadline = time.monotonic() + patience
        while True:
            ready = True
            for sentinel in self.sentinels:
                client = redis.Redis(port=sentinel.port, socket_timeout=2, decode_responses=True)
                try:
                    state = client.sentinel_master(self.MASTER)
                    ready &= state.get("num-slaves", 0) >= 1
                    ready &= state.get("num-other-sentinels", 0) >= 2
                except redis.RedisError:
                    ready = False
                finally:
                    client.close()
            if ready:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("the Sentinels did not find the replica and each other")
            time.sleep(0.2)

    @property
    def sentinel_list(self) -> str:
        return ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)

    def master_port(self) -> int | None:
        """The master the Sentinels name now (None when they cannot be asked)."""
        import redis

        for sentinel in self.sentinels:
            client = redis.Redis(port=sentinel.port, socket_timeout=2, decode_responses=True)
            try:
                _host, port = client.sentinel_get_master_addr_by_name(self.MASTER)
                return int(port)
            except (redis.RedisError, TypeError):
                continue
            finally:
                client.close()
        return None

    def stop(self) -> None:
        # All asked to stop at once, then waited for one by one.
        nodes = [node for node in (self.replica, self.master) if node is not None]
        for process in [s.process for s in self.sentinels] + [n.process for n in nodes]:
            if process is not None and process.poll() is None:
                process.terminate()
        for sentinel in self.sentinels:
            sentinel.stop()
        for node in (self.replica, self.master):
            if node is not None:
                node.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def run_async(coroutine):
    """``asyncio.run`` in a thread of its own: in a full run the session's Playwright
    keeps an event loop running in the main thread, where ``asyncio.run`` refuses."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
