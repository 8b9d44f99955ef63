"""``GET /metrics``: the site's figures in Prometheus' text format, for operators.

Answered only with ``METRICS_TOKEN`` set and ``Authorization: Bearer <token>``:
404 without the setting (the URL does not exist then), 401 without the header,
403 with a wrong token. Nothing here names a pupil.

With ``PROMETHEUS_MULTIPROC_DIR`` set (a directory every process of one
machine or pod writes to, emptied when it starts) prometheus-client keeps
its figures in files there, so ``uvicorn --workers N`` answers with the sum of
all its workers, whichever worker the scrape reaches. Without it, the
figures are this process's.

- ``matika_room_sockets_open``: room WebSockets open now (gauge, live processes summed);
- ``matika_room_messages_total{outcome}``: room messages handled, ``accepted`` or
  the refusal's code, and ``matika_room_message_seconds``: their handling time;
- ``django_http_responses_total_by_status_view_method_total`` and friends:
  HTTP requests by view and status (django-prometheus' middleware);
- ``matika_celery_tasks_total{task,state}``: Celery tasks ``succeeded``,
  ``failed`` or ``retried``, counted by the workers in Redis (they may run on
  other machines), and ``matika_celery_queue_length``: tasks waiting.
"""

from __future__ import annotations

import glob
import hmac
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import REGISTRY

from config.ops_metrics import OperationsCollector
from config.task_counts import CELERY_TASKS_KEY, broker_redis

# The room figures are the runtime's (core/metrics.py); imported so that every
# process serving this page has them registered, even before a room opens.
from core import metrics as _room_figures  # noqa: F401

logger = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# kombu's Redis transport keeps a queue's messages in a list per priority step.
CELERY_QUEUES = ("celery",)
PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")

# --- Celery: counted in Redis by the workers, read at scrape time -----------------------


class CeleryCollector:
    """Tasks run and failed (all workers) and the queue length, read from Redis."""

    def describe(self) -> list[Any]:
        """The names, without asking Redis (registering must not connect)."""
        return self._families()

    def _families(self) -> list[Any]:
        return [
            CounterMetricFamily(
                "matika_celery_tasks",
                "Celery tasks finished, by task and state.",
                labels=["task", "state"],
            ),
            GaugeMetricFamily(
                "matika_celery_queue_length", "Celery tasks waiting in the queue.", labels=["queue"]
            ),
        ]

    def collect(self) -> Iterator[Any]:
        tasks, queue = self._families()
        try:
            client = broker_redis()
            counted = client.hgetall(CELERY_TASKS_KEY)
            lengths = {}
            for name in CELERY_QUEUES:
                lengths[name] = sum(client.llen(name + suffix) for suffix in PRIORITY_SUFFIXES)
            client.close()
        except Exception as exc:  # Redis away: these figures are missing from this scrape
            logger.info("celery metrics unavailable: %s", type(exc).__name__)
            return
        for field, value in sorted(counted.items()):
            task, _sep, state = field.decode().rpartition("|")
            tasks.add_metric([task, state], float(value))
        for name, length in lengths.items():
            queue.add_metric([name], float(length))
        yield tasks
        yield queue


_CELERY = CeleryCollector()
REGISTRY.register(_CELERY)
# Readiness, PostgreSQL connections, the Redis master: for the alert rules.
_OPERATIONS = OperationsCollector()
REGISTRY.register(_OPERATIONS)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs here (a zombie, killed but not yet reaped, has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def forget_dead_processes(directory: str) -> None:
    """Drop the live gauges of worker processes that have ended (killed, crashed,
    replaced by uvicorn's supervisor): prometheus-client sums every file it finds,
    so a dead worker's open sockets would be counted until the pod restarts.
    Run at every scrape, so the figure is right by the next one. Counters and
    histograms keep the dead process's totals (they only ever grow)."""
    from prometheus_client import multiprocess

    for path in glob.glob(os.path.join(directory, "gauge_live*_*.db")):
        pid = os.path.basename(path)[: -len(".db")].rpartition("_")[2]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), directory)


def _registry() -> CollectorRegistry:
    """All workers' figures (multiprocess mode) or this process's."""
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not directory:
        return REGISTRY
    from prometheus_client import multiprocess

    forget_dead_processes(directory)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(_CELERY)
    registry.register(_OPERATIONS)
    return registry


def _bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    expected = getattr(settings, "METRICS_TOKEN", "") or ""
    if not expected:
        return HttpResponse("Not found.\n", status=404, content_type="text/plain")
    given = _bearer(request)
    if given is None:
        response = HttpResponse(
            "A bearer token is needed.\n", status=401, content_type="text/plain"
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    if not hmac.compare_digest(given.encode(), expected.encode()):
        return HttpResponse("Wrong token.\n", status=403, content_type="text/plain")
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE)


class MetricsMiddleware:
    """Answers ``/metrics`` before CommonMiddleware checks the Host header:
    Prometheus scrapes each process by its address (a pod's IP), which is no
    allowed host. The bearer token is the check here; the answer builds no URL
    from the Host header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/metrics":
            return metrics(request)
        return self.get_response(request)
