"""Celery tasks counted by the workers in the broker's Redis, for ``/metrics``.

The workers add (``count_task``, from ``config/celery.py``'s task signals);
``config/metrics.py`` reads the counts at scrape time, so every worker's
figures show whichever machine it runs on. A module of its own so that the
Celery wiring and the metrics page each import it without importing each other.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from config import redisconf

logger = logging.getLogger(__name__)

CELERY_TASKS_KEY = "matika:metrics:celery-tasks"


def broker_redis(timeout: float = 2.0) -> Any:
    broker = getattr(settings, "CELERY_BROKER_URL", "") or ""
    url = broker if broker.startswith(("redis://", "rediss://")) else settings.REDIS_URL
    return redisconf.client(url, timeout=timeout)


_WORKER_CLIENT: list = []  # one client per (forked) worker process, made on first use


def count_task(task: str, state: str) -> None:
    """From a worker: one more task ``state`` (never raises: metrics must not fail a task)."""
    try:
        if not _WORKER_CLIENT:
            _WORKER_CLIENT.append(broker_redis())
        _WORKER_CLIENT[0].hincrby(CELERY_TASKS_KEY, f"{task}|{state}", 1)
    except Exception as exc:
        logger.info("task metric not counted: %s", type(exc).__name__)
