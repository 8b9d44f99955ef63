"""Delivery: channel-layer groups, encoding, and sending committed steps.

Every accepted step is announced only after its transaction commits
(``transaction.on_commit``), so nobody ever hears of a move that could still be
rolled back. Inside the WebSocket consumer the deliveries are collected in
``OUTBOX`` and sent from the event loop, so the database thread never waits on
Redis; anywhere else (Celery, views, shell) they are sent at once.
"""

from __future__ import annotations

import contextvars
import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room.{room_id}"


def player_group(room_id: int, player_id: int) -> str:
    return f"room.{room_id}.p.{player_id}"


# Set by the WebSocket consumer around a service call: committed deliveries are
# collected here and sent from the event loop, so the database thread never
# waits on Redis. Anywhere else (Celery, views, shell) they are sent at once.
OUTBOX: contextvars.ContextVar[list | None] = contextvars.ContextVar("rooms_outbox", default=None)


def send(group: str, message: dict) -> None:
    """Send one message to a group now, or leave it in the consumer's outbox."""
    deliver([(group, message)])


def deliver(deliveries: list[tuple[str, dict]]) -> None:
    outbox = OUTBOX.get()
    if outbox is not None:
        outbox.extend(deliveries)
    else:
        send_now(deliveries)


def send_now(deliveries: list[tuple[str, dict]]) -> None:
    """Send from synchronous code that runs outside an event loop (Celery, views, shell).

    The step is already stored: a failed broadcast is logged and clients
    recover with ``sync``.
    """
    layer = get_channel_layer()
    if layer is None or not deliveries:
        return

    async def send_all() -> None:
        for group, message in deliveries:
            await layer.group_send(group, message)

    try:
        async_to_sync(send_all)()
    except Exception:  # the step is stored; clients recover with sync
        logger.exception("room broadcast failed")


def encode(payload: dict) -> str:
    """Serialise once here, not once per receiving socket."""
    return json.dumps(payload, separators=(",", ":"))


def announce_later(
    room_id: int,
    seq: int | None,
    public: list[dict] | None,
    private: dict[int, list[dict]],
    *,
    close: str | None = None,
) -> None:
    """Send a committed step: public part to the room, private parts to their players."""

    def after_commit() -> None:
        deliveries = []
        if public is not None:
            payload = {"type": "event", "seq": seq, "events": public}
            deliveries.append(
                (
                    room_group(room_id),
                    {"type": "room.event", "text": encode(payload), "close": close},
                )
            )
        for player_id, events in private.items():
            if events:
                payload = {"type": "private", "seq": seq, "events": events}
                deliveries.append(
                    (
                        player_group(room_id, int(player_id)),
                        {"type": "room.event", "text": encode(payload), "close": None},
                    )
                )
        deliver(deliveries)

    transaction.on_commit(after_commit)
