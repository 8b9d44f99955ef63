"""Container health checks for the Celery processes, from their heartbeats.

    python -m config.healthcheck worker [celery@hostname]   # this worker's heartbeat is fresh
    python -m config.healthcheck beat                       # beat's heartbeat is fresh

Exit status 0 when healthy, 1 otherwise, with one line saying why. The worker's
name defaults to ``celery@<this host>`` (Celery's default node name). These read
the Redis keys the processes write (config/celery.py); they never ping the
workers over the broker. The web process is probed over HTTP: ``/livez`` and
``/readyz`` (config/health.py).
"""

from __future__ import annotations

import os
import socket
import sys
import time


def check(what: str, hostname: str | None = None, now: float | None = None) -> tuple[bool, str]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import redis

    from config import celery as heartbeats
    from config import redisconf

    now = time.time() if now is None else now
    try:
        client = redisconf.client(heartbeats.heartbeat_redis_url(), timeout=3)
        if what == "worker":
            name = hostname or f"celery@{socket.gethostname()}"
            seen = client.zscore(heartbeats.WORKERS_KEY, name)
            limit = 3 * heartbeats.heartbeat_seconds()
        elif what == "beat":
            name = "beat"
            raw = client.get(heartbeats.BEAT_KEY)
            seen = float(raw) if raw is not None else None
            limit = 3 * heartbeats.beat_heartbeat_seconds()
        else:
            return False, f"unknown check {what!r} (worker or beat)"
    except (redis.RedisError, OSError, ValueError) as exc:
        return False, f"{what}: Redis unavailable ({exc.__class__.__name__})"
    if seen is None:
        return False, f"{name}: no heartbeat"
    age = now - float(seen)
    if age > limit:
        return False, f"{name}: last heartbeat {age:.0f} s ago (limit {limit:.0f} s)"
    return True, f"{name}: heartbeat {age:.0f} s ago"


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"worker", "beat"}:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    healthy, message = check(argv[0], argv[1] if len(argv) > 1 else None)
    print(message)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
