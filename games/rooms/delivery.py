"""Delivery: channel-layer groups, encoding, and sending committed steps.

Every accepted step is announced only after its transaction commits
(``transaction.on_commit``), so nobody ever hears of a move that could still be
rolled back. Inside the WebSocket consumer the deliveries are collected in
``OUTBOX`` and sent from the event loop, so the database thread never waits on
Redis; anywhere else (Celery, views, shell) they are sent at once.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import re
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def room_group(room_id: int) -> str:
    return f"room.{room_id}"


def player_group(room_id: int, player_id: int) -> str:
    return f"room.{room_id}.p.{player_id}"


_ROOM_OF_GROUP = re.compile(r"^(room\.\d+)(?:\.p\.\d+)?$")


def room_of_group(group: str) -> str | None:
    """The room group a room or player group belongs to (None for other groups)."""
    found = _ROOM_OF_GROUP.match(group)
    return found.group(1) if found else None


# Set by the WebSocket consumer around a service call: committed deliveries are
# collected here and sent from the event loop, so the database thread never
# waits on Redis. Anywhere else (Celery, views, shell) they are sent at once.
OUTBOX: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar(
    "rooms_outbox", default=None
)


def send(group: str, message: dict[str, Any]) -> None:
    """Send one message to a group now, or leave it in the consumer's outbox."""
    deliver([(group, message)])


def deliver(deliveries: list[tuple[str, dict[str, Any]]]) -> None:
    outbox = OUTBOX.get()
    if outbox is not None:
        outbox.extend(deliveries)
    else:
        send_now(deliveries)


def send_now(deliveries: list[tuple[str, dict[str, Any]]]) -> None:
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
    except Exception:  # the step is stored; the room's sockets are told to resync
        logger.exception("room broadcast failed")
        rooms = {room_of_group(group) for group, _message in deliveries} - {None}
        if rooms:
            threading.Thread(
                target=async_to_sync(resync_when_back),
                args=(layer, sorted(rooms)),
                name="rooms-resync",
                daemon=True,
            ).start()


# A step is stored but its broadcast failed (Redis away): the room's sockets, in
# every process, are asked to fetch a snapshot as soon as Redis takes messages
# again (games/rooms/layer.py). Tried for this long, then left to the clients'
# own recovery (a gap in ``seq``, a reconnect).
RESYNC_PATIENCE_S = 120.0
RESYNC_MESSAGE = {"type": "room.resync"}
_RESYNCING: set[str] = set()


async def resync_when_back(layer: BaseChannelLayer, groups: list[str]) -> None:
    """Send ``room.resync`` to each of ``groups`` once Redis accepts it (with backoff)."""
    waiting = [group for group in groups if group not in _RESYNCING]
    _RESYNCING.update(waiting)
    deadline = time.monotonic() + RESYNC_PATIENCE_S
    pause = 0.2
    try:
        while waiting and time.monotonic() < deadline:
            for group in list(waiting):
                try:
                    await layer.group_send(group, RESYNC_MESSAGE)
                except Exception as exc:  # still away: wait and try again
                    logger.info("room resync of %s waits (%s)", group, type(exc).__name__)
                    break
                waiting.remove(group)
                _RESYNCING.discard(group)
            if waiting:
                await asyncio.sleep(pause)
                pause = min(2.0, pause * 2)
        if waiting:
            logger.warning("room resync gave up for %s", ", ".join(waiting))
    finally:
        _RESYNCING.difference_update(waiting)


def resync_later(layer: BaseChannelLayer | None, groups: list[str]) -> asyncio.Task[None] | None:
    """From the event loop: ``resync_when_back`` for the rooms of ``groups``, in the background."""
    rooms = sorted({room for group in groups if (room := room_of_group(group)) is not None})
    if not rooms or layer is None:
        return None
    task = asyncio.get_running_loop().create_task(resync_when_back(layer, rooms))
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    return task


_BACKGROUND: set[asyncio.Task[None]] = set()


def encode(payload: dict[str, Any]) -> str:
    """Serialise once here, not once per receiving socket."""
    return json.dumps(payload, separators=(",", ":"))


def announce_later(
    room_id: int,
    seq: int | None,
    public: list[dict[str, Any]] | None,
    private: dict[int, list[dict[str, Any]]],
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
