"""Health of the process and of what it needs: PostgreSQL, Redis, Celery.

``/livez`` (liveness) answers 200 while the process serves requests at all; it
touches nothing else, so a database outage never gets healthy web processes
restarted. ``/readyz`` (readiness; ``/healthz`` is the same view, the URL the
README and the deploy files use) answers 200 when PostgreSQL answers
``SELECT 1``, Redis answers and at least one Celery worker wrote its heartbeat
recently (config/celery.py), 503 otherwise, with a JSON body naming what failed.

Probes cannot wedge the server: the views are async; the checks run in a small
thread pool of their own, each under ``HEALTH_CHECK_TIMEOUT`` (the database check
borrows a connection from Django's pool with that timeout, so it neither opens
connections of its own nor waits for the pool's longer one); concurrent probes
in one process share one run of the checks, and a result is reused for
``HEALTH_CACHE_SECONDS``. Celery is judged from heartbeats, never by a
broadcast ``control.ping`` per request. Beat's heartbeat is reported and only
counts when ``HEALTH_REQUIRE_BEAT`` is on (the site serves without beat).

``/ws/echo/<group>/`` is a tiny WebSocket endpoint that relays messages through
the Redis channel layer to every socket in the same group; the end-to-end test
and developers use it to prove the real-time path. It is routed only under
DEBUG or the test settings (config/routing.py): in production it would be an
open relay.
"""

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis
from celery import shared_task
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from config import celery as heartbeats
from config import redisconf

ECHO_MAX_TEXT = 2000
logger = logging.getLogger(__name__)

# Separate from the loop's default executor, which serves the rooms' database
# work: a stuck check can hold at most these threads, never the site's.
_EXECUTOR = ThreadPoolExecutor(max_workers=4, thread_name_prefix="health")
_REDIS_CLIENTS: dict[tuple[str, float], redis.Redis] = {}
_INFLIGHT: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task]" = (
    weakref.WeakKeyDictionary()
)
_LAST: dict = {}


def check_timeout() -> float:
    return float(getattr(settings, "HEALTH_CHECK_TIMEOUT", 2.0))


def _failure(exc: BaseException) -> dict:
    return {"ok": False, "error": exc.__class__.__name__}


def check_database(timeout: float | None = None) -> dict:
    """``SELECT 1`` on a pooled connection borrowed for at most ``timeout`` seconds."""
    from django.db import connections

    timeout = check_timeout() if timeout is None else timeout
    wrapper = connections["default"]
    try:
        pool = wrapper.pool  # type: ignore[attr-defined]  # PostgreSQL's backend only
        if pool is not None:
            pool.open()
            with pool.connection(timeout=timeout) as conn:
                conn.execute("SELECT 1").fetchone()
        else:
            try:
                with wrapper.cursor() as cursor:
                    cursor.execute("SELECT 1")
                    cursor.fetchone()
            finally:
                wrapper.close()  # this thread must not keep a connection
        return {"ok": True}
    except Exception as exc:  # any failure means "not ready"; the reason is reported
        return _failure(exc)


def _redis_client(url: str, timeout: float) -> redis.Redis:
    key = (url, timeout)
    client = _REDIS_CLIENTS.get(key)
    if client is None:
        client = redisconf.client(url, timeout=timeout)
        _REDIS_CLIENTS[key] = client
    return client


def redis_urls() -> dict[str, str]:
    """Each Redis the site uses, by role (several roles may share one URL)."""
    broker = getattr(settings, "CELERY_BROKER_URL", "") or ""
    roles = {
        "heartbeats": heartbeats.heartbeat_redis_url(),
        "channels": getattr(settings, "CHANNELS_REDIS_URL", None) or settings.REDIS_URL,
        "cache": getattr(settings, "CACHE_REDIS_URL", None) or settings.REDIS_URL,
    }
    if broker.startswith(("redis://", "rediss://")):
        roles["broker"] = broker
    # With Sentinel every role is the one Sentinel-managed master (config/redisconf.py).
    return roles


def check_redis_and_celery(timeout: float | None = None) -> dict:
    """``PING`` on every Redis the site uses, then the Celery heartbeats."""
    timeout = check_timeout() if timeout is None else timeout
    down = {"ok": False, "error": "redis_down"}
    pinged: set[str] = set()
    redis_check: dict = {"ok": True}
    heartbeat_client = None
    for role, url in redis_urls().items():
        if url in pinged:
            continue
        pinged.add(url)
        try:
            client = _redis_client(url, timeout)
            client.ping()
        except Exception as exc:
            redis_check = {**_failure(exc), "role": role}
            if role == "heartbeats":
                return {"redis": redis_check, "celery": down, "beat": dict(down)}
            continue
        if role == "heartbeats":
            heartbeat_client = client
    try:
        seen = heartbeats.read_heartbeats(heartbeat_client)
    except Exception as exc:
        return {"redis": redis_check, "celery": _failure(exc), "beat": _failure(exc)}
    beat_ok = seen["beat_age_s"] is not None
    return {
        "redis": redis_check,
        "celery": {
            "ok": seen["workers"] > 0,
            "workers": seen["workers"],
            "heartbeat_age_s": seen["worker_age_s"],
        },
        "beat": {"ok": beat_ok, "heartbeat_age_s": seen["beat_age_s"]},
    }


async def _in_thread(function: Callable[[float], Any], timeout: float) -> Any:
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(_EXECUTOR, function, timeout), timeout + 0.5)


async def _run_checks() -> dict:
    started = time.monotonic()
    timeout = check_timeout()
    database: dict[str, Any] | BaseException
    rest: dict[str, Any] | BaseException
    database, rest = await asyncio.gather(
        _in_thread(check_database, timeout),
        _in_thread(check_redis_and_celery, timeout),
        return_exceptions=True,
    )
    if isinstance(database, BaseException):  # the timeout, or the pool refused the job
        database = {"ok": False, "error": "timeout" if _is_timeout(database) else "failed"}
    if isinstance(rest, BaseException):
        error = "timeout" if _is_timeout(rest) else "failed"
        rest = {
            "redis": {"ok": False, "error": error},
            "celery": {"ok": False, "error": "redis_down"},
            "beat": {"ok": False, "error": "redis_down"},
        }
    checks: dict[str, dict[str, Any]] = {"database": database, **rest}
    required = ["database", "redis", "celery"]
    if getattr(settings, "HEALTH_REQUIRE_BEAT", False):
        required.append("beat")
    healthy = all(checks[name]["ok"] for name in required)
    return {
        "status": "ok" if healthy else "unavailable",
        "checks": checks,
        "ms": round((time.monotonic() - started) * 1000),
    }


def _is_timeout(exc: BaseException) -> bool:
    return isinstance(exc, (asyncio.TimeoutError, TimeoutError))


async def readiness_report() -> dict:
    """The checks' result, shared by concurrent callers and reused briefly."""
    reuse = float(getattr(settings, "HEALTH_CACHE_SECONDS", 1.0))
    last = _LAST.get("report")
    if reuse > 0 and last is not None and time.monotonic() - last[0] < reuse:
        return last[1]
    loop = asyncio.get_running_loop()
    task = _INFLIGHT.get(loop)
    if task is None or task.done():
        task = loop.create_task(_run_checks())
        _INFLIGHT[loop] = task
    report = await asyncio.shield(task)
    if reuse > 0:
        _LAST["report"] = (time.monotonic(), report)
    return report


@never_cache
async def livez(request: HttpRequest) -> JsonResponse:
    """Liveness: the process answers. No database, Redis or Celery involved."""
    return JsonResponse({"status": "ok"})


@never_cache
async def readyz(request: HttpRequest) -> JsonResponse:
    report = await readiness_report()
    healthy = report["status"] == "ok"
    response = JsonResponse(report, status=200 if healthy else 503)
    # A 503 here is an answer, not a server error: no "Service Unavailable"
    # error line (and error report) per probe. A change of state is logged once.
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own flag
    if _LAST.get("healthy", True) != healthy:
        _LAST["healthy"] = healthy
        failed = sorted(name for name, check in report["checks"].items() if not check["ok"])
        if healthy:
            logger.info("readiness: ok again")
        else:
            logger.warning("readiness: unavailable (%s)", ", ".join(failed))
    return response


healthz = readyz


@shared_task(name="health.beat_heartbeat", ignore_result=True)
def beat_heartbeat() -> None:
    """Sent by beat every ``HEALTH_BEAT_HEARTBEAT_SECONDS`` (CELERY_BEAT_SCHEDULE)."""
    heartbeats.write_beat_heartbeat()


@shared_task(name="health.add")
def add(a: int, b: int) -> int:
    """A trivial task so tests and operators can see a worker execute something."""
    return a + b


class EchoConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.group = "echo." + self.scope["url_route"]["kwargs"]["group"][:50]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        text = content.get("text") if isinstance(content, dict) else None
        if not isinstance(text, str) or len(text) > ECHO_MAX_TEXT:
            await self.send_json({"type": "error", "code": "bad_message"})
            return
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text})

    async def echo_message(self, event: dict) -> None:
        await self.send_json({"type": "echo", "text": event["text"]})

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None
