"""Retention: delete what ``settings.RETENTION`` says is kept no longer.

``apply_retention`` runs from Celery beat (``privacy.apply_retention``, every
15 minutes) and can be run by hand. It is

- idempotent: it selects by age (``< now - period``), never by a time window,
  so a second run finds nothing and a run after downtime catches up;
- safe on several workers: one PostgreSQL advisory lock lets a single run work
  at a time, and every batch also locks its rows with ``SKIP LOCKED``;
- batched: ``RETENTION_BATCH`` rows (default 1,000) per transaction, so a
  million old rows never lock a table for long.

Game records and results are not deleted: class reports need them, and they
carry no nickname (a deleted player's results have ``player = NULL``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import Browser, PlayerProfile

KINDS = (
    "expired_rooms",
    "deleted_rooms",
    "stripped_class_rooms",
    "processed_messages",
    "sessions",
    "browsers",
    "profiles",
    "login_records",
)
# pg_try_advisory_lock key: "matika retention".
ADVISORY_KEY = 0x6D617469_6B61


def period(key: str) -> timedelta:
    value = settings.RETENTION[key]
    return timedelta(hours=value) if key.endswith("_hours") else timedelta(days=value)


def _batch() -> int:
    return int(getattr(settings, "RETENTION_BATCH", 1000))


def _delete_in_batches(queryset) -> int:
    """Delete the queryset's rows, a batch per transaction, skipping rows others hold."""
    model = queryset.model
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(
                queryset.order_by("pk")
                .select_for_update(skip_locked=True)
                .values_list("pk", flat=True)[: _batch()]
            )
            if ids:
                model._default_manager.filter(pk__in=ids).delete()
        deleted += len(ids)
        if len(ids) < _batch():
            return deleted


def _ended_before(now: datetime):
    from games.rooms.models import Room

    cutoff = now - period("ended_room_days")
    return Room.objects.filter(status__in=[Room.Status.FINISHED, Room.Status.EXPIRED]).filter(
        Q(finished_at__lt=cutoff) | Q(finished_at__isnull=True, expires_at__lt=cutoff)
    )


def delete_ended_rooms(now: datetime) -> int:
    """Ended rooms after the period: deleted with seats, log and state -- except a
    class game's room, which is stripped instead (``strip_class_rooms``)."""
    return _delete_in_batches(
        _ended_before(now).exclude(classroom__isnull=False, record__isnull=False)
    )


def strip_class_rooms(now: datetime) -> int:
    """A class game's room after the period keeps only its seats' who-and-status:
    class reports mark pupils who left or were removed early from them
    (``classrooms.selectors.departures``). The log, the game state, the seats'
    states and remembered answers -- moves and nicknames -- are deleted."""
    from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat

    pending = (
        _ended_before(now)
        .filter(classroom__isnull=False, record__isnull=False)
        .filter(
            ~Q(state={})
            | Q(pk__in=RoomEvent.objects.values("room_id"))
            | Q(pk__in=Seat.objects.exclude(state={}).values("room_id"))
        )
    )
    stripped = 0
    while True:
        with transaction.atomic():
            ids = list(
                pending.order_by("pk")
                .select_for_update(skip_locked=True, of=("self",))
                .values_list("pk", flat=True)[: _batch()]
            )
            if ids:
                RoomEvent.objects.filter(room_id__in=ids).delete()
                ProcessedMessage.objects.filter(room_id__in=ids).delete()
                Seat.objects.filter(room_id__in=ids).update(state={})
                Room.objects.filter(pk__in=ids).update(state={})
        stripped += len(ids)
        if len(ids) < _batch():
            return stripped


def delete_processed_messages(now: datetime) -> int:
    from games.rooms.models import ProcessedMessage

    cutoff = now - period("processed_message_days")
    return _delete_in_batches(ProcessedMessage.objects.filter(created_at__lt=cutoff))


def delete_expired_sessions(now: datetime) -> int:
    return _delete_in_batches(Session.objects.filter(expire_date__lt=now))


def delete_unused_browsers(now: datetime) -> int:
    cutoff = now - period("unused_browser_days")
    return _delete_in_batches(Browser.objects.filter(last_seen_at__lt=cutoff))


def delete_login_records(now: datetime) -> int:
    """django-axes' records of login attempts (address, browser, time) after the period;
    lockouts last minutes, so old attempts are no longer needed for them."""
    from django.apps import apps

    cutoff = now - period("login_record_days")
    deleted = 0
    for label in ("axes.AccessAttempt", "axes.AccessLog", "axes.AccessFailureLog"):
        try:
            model = apps.get_model(label)
        except LookupError:
            continue
        deleted += _delete_in_batches(model._default_manager.filter(attempt_time__lt=cutoff))
    return deleted


def unused_profiles(now: datetime):
    """Profiles without a teacher account nobody has used for the period."""
    cutoff = now - period("unused_profile_days")
    return PlayerProfile.objects.filter(user__isnull=True, last_seen_at__lt=cutoff)


def erase_unused_profiles(now: datetime) -> int:
    """Each profile through the full erasure (``accounts.erasure``), one transaction each."""
    from accounts import erasure

    erased, after = 0, 0
    while True:
        ids = list(
            unused_profiles(now)
            .filter(pk__gt=after)
            .order_by("pk")
            .values_list("pk", flat=True)[: _batch()]
        )
        for player_id in ids:
            with transaction.atomic():
                # Still unused under the lock (the player may have come back meanwhile);
                # a row another transaction holds is left for the next run.
                held = PlayerProfile.objects.select_for_update(skip_locked=True).filter(
                    pk=player_id, pk__in=unused_profiles(now).values("pk")
                )
                if held.exists():
                    erased += erasure.erase_profile(player_id)
        if len(ids) < _batch():
            return erased
        after = ids[-1]


def apply_retention(*, now: datetime | None = None) -> dict[str, int] | None:
    """Apply every period; returns counts, or None when another worker is at it."""
    from games.rooms.expiry import expire_stale_rooms

    now = now or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_KEY])
        if not cursor.fetchone()[0]:
            return None
    try:
        return {
            "expired_rooms": expire_stale_rooms(now=now),
            "deleted_rooms": delete_ended_rooms(now),
            "stripped_class_rooms": strip_class_rooms(now),
            "processed_messages": delete_processed_messages(now),
            "sessions": delete_expired_sessions(now),
            "browsers": delete_unused_browsers(now),
            "profiles": erase_unused_profiles(now),
            "login_records": delete_login_records(now),
        }
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_KEY])


def periods_for_display() -> dict[str, int]:
    """The table as the privacy page shows it (the same numbers, nothing restated)."""
    return dict(settings.RETENTION)
