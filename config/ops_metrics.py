"""Figures for the shipped alert rules (platform/prometheus-alerts.yml), read at
scrape time by ``GET /metrics`` (config/metrics.py) -- nothing is kept between
scrapes, so every web process answers the same and no exporter is needed:

- ``matika_ready{check}``: 1 when the readiness check passes (``database``,
  ``redis``, ``celery``: the checks of ``/readyz``, config/health.py), else 0;
- ``matika_postgres_connections`` and ``matika_postgres_max_connections``: the
  server's backends now (``pg_stat_activity``) and its limit;
- ``matika_redis_master{master, address}``: 1 for the Redis master the
  Sentinels name now (only with ``REDIS_SENTINELS``): a new address is a failover.

A check that fails leaves its figure out of that scrape (or 0 for readiness);
the page itself never fails for them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger(__name__)

READY_CHECKS = ("database", "redis", "celery")


def _postgres() -> tuple[float, float] | None:
    """(client connections now, max_connections) from the server, on a connection of
    this (the checks') thread that is closed again."""
    from django.db import connections

    wrapper = connections["default"]
    try:
        with wrapper.cursor() as cursor:
            cursor.execute(
                "SELECT count(*), current_setting('max_connections')::int FROM pg_stat_activity"
                " WHERE backend_type = 'client backend'"
            )
            used, limit = cursor.fetchone()
        return float(used), float(limit)
    except Exception as exc:
        logger.info("postgres metrics unavailable: %s", type(exc).__name__)
        return None
    finally:
        wrapper.close()


def _sentinel_master() -> tuple[str, str] | None:
    """(master name, "host:port") as the Sentinels name it now, when Redis is Sentinel-managed."""
    from redis.sentinel import Sentinel

    from config import health, redisconf

    url = health.redis_urls()["heartbeats"]
    if not redisconf.is_sentinel(url):
        return None
    sentinels, master, _db = redisconf.parse_sentinel_url(url)
    times = {"socket_timeout": 2.0, "socket_connect_timeout": 2.0}
    try:
        host, port = Sentinel(sentinels, sentinel_kwargs=times, **times).discover_master(master)
    except Exception as exc:
        logger.info("sentinel master unavailable: %s", type(exc).__name__)
        return None
    return master, f"{host}:{port}"


class OperationsCollector:
    """Readiness, PostgreSQL connections and the Redis master, for the alert rules."""

    def describe(self) -> list[Any]:
        return self._families()

    def _families(self) -> list[Any]:
        return [
            GaugeMetricFamily(
                "matika_ready", "1 when this readiness check passes, else 0.", labels=["check"]
            ),
            GaugeMetricFamily(
                "matika_postgres_connections", "PostgreSQL client connections now (all users)."
            ),
            GaugeMetricFamily(
                "matika_postgres_max_connections", "PostgreSQL's max_connections setting."
            ),
            GaugeMetricFamily(
                "matika_redis_master",
                "The Redis master the Sentinels name now (1).",
                labels=["master", "address"],
            ),
        ]

    def collect(self) -> Iterator[Any]:
        ready, used, limit, master = self._families()
        try:
            found = _EXECUTOR.submit(_gather).result(timeout=_patience())
        except Exception as exc:  # too slow or failed: not ready, and nothing else known
            logger.info("operations metrics unavailable: %s", type(exc).__name__)
            found = {"ready": {}, "postgres": None, "master": None}
        for check in READY_CHECKS:
            ready.add_metric([check], 1.0 if found["ready"].get(check, {}).get("ok") else 0.0)
        yield ready
        if found["postgres"] is not None:
            used.add_metric([], found["postgres"][0])
            limit.add_metric([], found["postgres"][1])
            yield used
            yield limit
        if found["master"] is not None:
            master.add_metric(list(found["master"]), 1.0)
            yield master


def _patience() -> float:
    from config import health

    return 3 * health.check_timeout() + 1.0


def _gather() -> dict:
    """Every check, in the checks' own thread: the scrape's request keeps its connection."""
    from config import health

    ready = {"database": health.check_database()}
    try:
        ready.update(health.check_redis_and_celery())
    except Exception as exc:
        logger.info("readiness metrics unavailable: %s", type(exc).__name__)
    return {"ready": ready, "postgres": _postgres(), "master": _sentinel_master()}


# One thread: scrapes of one process wait for each other rather than pile up connections.
_EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="matika-metrics")
