"""The Celery application: broker and result backend are the project's Redis.

Heartbeats for the readiness check (config/health.py): instead of asking the
workers over the broker on every probe (``control.ping`` took >= 0.5 s and 30
concurrent probes exhausted kombu's connection pool), every worker writes its
name and the time into a Redis sorted set when it is ready and then every
``HEALTH_HEARTBEAT_SECONDS`` from its own timer; beat writes a key when it starts
and then through a periodic task (``health.beat_heartbeat``) that a worker runs.
A probe reads both in one Redis round trip. An entry older than three intervals
counts as dead.
"""

import logging
import os
import time
from typing import Any

from celery import Celery, bootsteps
from celery.signals import beat_init, task_failure, task_retry, task_success, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("matika", include=["config.health"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)

WORKERS_KEY = "matika:health:workers"
BEAT_KEY = "matika:health:beat"


def heartbeat_seconds() -> float:
    from django.conf import settings

    return float(getattr(settings, "HEALTH_HEARTBEAT_SECONDS", 10))


def beat_heartbeat_seconds() -> float:
    from django.conf import settings

    return float(getattr(settings, "HEALTH_BEAT_HEARTBEAT_SECONDS", 30))


def heartbeat_redis_url() -> str:
    """Where heartbeats live: ``HEALTH_REDIS_URL`` (the broker's Redis by default)."""
    from django.conf import settings

    return getattr(settings, "HEALTH_REDIS_URL", None) or settings.REDIS_URL


def _redis() -> Any:
    from config import redisconf

    return redisconf.client(heartbeat_redis_url(), timeout=2)


def write_worker_heartbeat(hostname: str) -> None:
    """Record that ``hostname`` is alive now (never raises: a worker must not die of it)."""
    now = time.time()
    ttl = 3 * heartbeat_seconds()
    try:
        client = _redis()
        with client.pipeline(transaction=False) as pipe:
            pipe.zadd(WORKERS_KEY, {hostname: now})
            pipe.zremrangebyscore(WORKERS_KEY, "-inf", now - 10 * ttl)
            pipe.expire(WORKERS_KEY, int(10 * ttl))
            pipe.execute()
        client.close()
    except Exception as exc:  # Redis down: readiness reports that already
        logger.warning("worker heartbeat not written: %s", exc.__class__.__name__)


def forget_worker(hostname: str) -> None:
    try:
        client = _redis()
        client.zrem(WORKERS_KEY, hostname)
        client.close()
    except Exception:  # stopping anyway; the entry expires by itself
        pass


def write_beat_heartbeat() -> None:
    ttl = 3 * beat_heartbeat_seconds()
    try:
        client = _redis()
        client.set(BEAT_KEY, repr(time.time()), ex=int(ttl))
        client.close()
    except Exception as exc:
        logger.warning("beat heartbeat not written: %s", exc.__class__.__name__)


def read_heartbeats(client: Any, now: float | None = None) -> dict:
    """Live workers and the beat's age, from one pipelined round trip on ``client``."""
    now = time.time() if now is None else now
    worker_ttl = 3 * heartbeat_seconds()
    with client.pipeline(transaction=False) as pipe:
        pipe.zrangebyscore(WORKERS_KEY, now - worker_ttl, "+inf", withscores=True)
        pipe.get(BEAT_KEY)
        workers, beat = pipe.execute()
    newest = max((score for _name, score in workers), default=None)
    beat_age = None
    if beat is not None:
        try:
            beat_age = max(0.0, now - float(beat))
        except ValueError:
            beat_age = None
    return {
        "workers": len(workers),
        "worker_age_s": None if newest is None else round(max(0.0, now - newest), 1),
        "beat_age_s": None if beat_age is None else round(beat_age, 1),
    }


class HealthHeartbeat(bootsteps.StartStopStep):
    """Refresh this worker's heartbeat from the worker's own timer."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker: Any) -> None:
        self.tref = worker.timer.call_repeatedly(
            heartbeat_seconds(), write_worker_heartbeat, (worker.hostname,), priority=10
        )

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        forget_worker(worker.hostname)


app.steps["worker"].add(HealthHeartbeat)


@worker_ready.connect
def _worker_ready(sender: Any = None, **kwargs: Any) -> None:
    hostname = getattr(sender, "hostname", None)
    if hostname:
        write_worker_heartbeat(hostname)


@beat_init.connect
def _beat_started(sender: Any = None, **kwargs: Any) -> None:
    write_beat_heartbeat()


# Tasks run, failed and retried, for /metrics (config/task_counts.py): counted in the
# broker's Redis, so the web processes see every worker's figures.
def _count(state: str, sender: Any) -> None:
    from config import task_counts

    task_counts.count_task(getattr(sender, "name", None) or "unknown", state)


@task_success.connect
def _task_succeeded(sender: Any = None, **kwargs: Any) -> None:
    _count("succeeded", sender)


@task_failure.connect
def _task_failed(sender: Any = None, **kwargs: Any) -> None:
    _count("failed", sender)


@task_retry.connect
def _task_retried(sender: Any = None, **kwargs: Any) -> None:
    _count("retried", sender)
