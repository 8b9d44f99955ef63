"""Time: rooms past their six hours expire; passed deadlines are evaluated (Celery beat)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.rooms import registry
from games.rooms.models import Room
from games.rooms.steps import FINISH_FIELDS, MOVE_FIELDS, append, locked_room, tick_if_due

EXPIRY_BATCH = 100


def expire_stale_rooms(*, now: datetime | None = None) -> int:
    """Expire every live room past its six hours; returns how many this call expired.

    Idempotent and safe on several workers at once: each batch locks its rooms
    with SKIP LOCKED, and only rooms still live are touched. Because it selects
    by ``expires_at <= now`` (not a time window) it catches up after downtime.
    """
    now = now or timezone.now()
    expired = 0
    while True:
        with transaction.atomic():
            batch = list(
                Room.objects.select_for_update(skip_locked=True)
                .filter(status__in=Room.LIVE_STATUSES, expires_at__lte=now)
                .order_by("expires_at")[:EXPIRY_BATCH]
            )
            for room in batch:
                room.status = Room.Status.EXPIRED
                room.finished_at = now
                room.next_tick_at = None
                append(
                    room,
                    kind="expire",
                    actor_id=None,
                    public=[{"type": "expired"}],
                    now=now,
                    close="expired",
                )
                room.save(update_fields=["status", "finished_at", "next_tick_at", "seq"])
        expired += len(batch)
        if len(batch) < EXPIRY_BATCH:
            break
    # Old answers to repeated message ids, ended rooms with their logs and the
    # rest of settings.RETENTION: accounts/retention.py (its own periodic task).
    return expired


@transaction.atomic
def tick_room(*, room_id: int, now: datetime | None = None) -> int | None:
    """Evaluate time-based rules from stored timestamps; safe to call any time."""
    now = now or timezone.now()
    room = locked_room(room_id)
    if room.status != Room.Status.RUNNING:
        return None
    deadline_before = room.next_tick_at
    seq = tick_if_due(room, registry.get(room.game, room.mode), now)
    if seq is not None:
        room.save(update_fields=MOVE_FIELDS + FINISH_FIELDS)
    elif room.next_tick_at != deadline_before:  # nothing happened, only a new deadline
        room.save(update_fields=["next_tick_at"])
    return seq


def tick_due_rooms(*, now: datetime | None = None) -> int:
    """Evaluate deadlines of running rooms nobody is moving in (a safety net)."""
    now = now or timezone.now()
    due = Room.objects.filter(Q(status=Room.Status.RUNNING) & Q(next_tick_at__lte=now)).values_list(
        "pk", flat=True
    )[:500]
    ticked = 0
    for room_id in due:
        if tick_room(room_id=room_id, now=now) is not None:
            ticked += 1
    return ticked
