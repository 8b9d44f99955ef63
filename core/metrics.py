"""The room figures the runtime counts, for ``GET /metrics`` (``config/metrics.py``).

The runtime (``games/rooms/consumers.py``) calls these; the endpoint that
serves them, with the Celery figures and the bearer token, is the project's
wiring in ``config/`` and reads them from prometheus-client's registry.

- ``matika_room_sockets_open``: room WebSockets open now (gauge, live processes summed);
- ``matika_room_messages_total{outcome}``: room messages handled, ``accepted`` or
  the refusal's code, and ``matika_room_message_seconds``: their handling time.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

ROOM_SOCKETS = Gauge(
    "matika_room_sockets_open", "Room WebSockets open now.", multiprocess_mode="livesum"
)
ROOM_MESSAGES = Counter("matika_room_messages", "Room messages handled, by outcome.", ["outcome"])
ROOM_MESSAGE_SECONDS = Histogram(
    "matika_room_message_seconds",
    "Time to handle one room message (checks, the move, the answer).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)


def socket_opened() -> None:
    ROOM_SOCKETS.inc()


def socket_closed() -> None:
    ROOM_SOCKETS.dec()


def message_handled(outcome: str, seconds: float) -> None:
    ROOM_MESSAGES.labels(outcome=outcome).inc()
    ROOM_MESSAGE_SECONDS.observe(seconds)
