"""Liveness of the parts the platform needs: PostgreSQL, Redis, a Celery worker.

``/healthz`` answers 200 when all three respond and 503 otherwise, with a JSON
body naming what failed. ``/ws/echo/<group>/`` is a tiny WebSocket endpoint that
relays messages through the Redis channel layer to every socket in the same
group; the end-to-end test and operators use it to prove the real-time path.
"""

import time

import redis
from celery import shared_task
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

from config.celery import app as celery_app

ECHO_MAX_TEXT = 2000


def check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True}
    except Exception as exc:  # any failure means "not healthy"; the reason is reported
        return {"ok": False, "error": exc.__class__.__name__}


def check_redis() -> dict:
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1
        )
        client.ping()
        return {"ok": True}
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}


def check_celery(timeout: float = 0.5) -> dict:
    try:
        replies = celery_app.control.ping(timeout=timeout)
    except Exception as exc:
        return {"ok": False, "error": exc.__class__.__name__}
    return {"ok": bool(replies), "workers": len(replies)}


def healthz(request: HttpRequest) -> JsonResponse:
    started = time.monotonic()
    checks = {"database": check_database(), "redis": check_redis()}
    checks["celery"] = (
        check_celery() if checks["redis"]["ok"] else {"ok": False, "error": "redis_down"}
    )
    healthy = all(check["ok"] for check in checks.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "checks": checks,
        "ms": round((time.monotonic() - started) * 1000),
    }
    return JsonResponse(body, status=200 if healthy else 503)


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

    async def receive_json(self, content, **kwargs) -> None:
        text = content.get("text") if isinstance(content, dict) else None
        if not isinstance(text, str) or len(text) > ECHO_MAX_TEXT:
            await self.send_json({"type": "error", "code": "bad_message"})
            return
        await self.channel_layer.group_send(self.group, {"type": "echo.message", "text": text})

    async def echo_message(self, event: dict) -> None:
        await self.send_json({"type": "echo", "text": event["text"]})

    @classmethod
    async def decode_json(cls, text_data):
        try:
            return await super().decode_json(text_data)
        except ValueError:
            return None
