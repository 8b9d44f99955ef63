"""Retention: delete what ``settings.RETENTION`` says is kept no longer.

``apply_retention`` runs from Celery beat (``privacy.apply_retention``, every
15 minutes) and can be run by hand. It is

- idempotent: it selects by age (``< now - period``), never by a time window,
  so a second run finds nothing and a run after downtime catches up;
- safe on several workers: one transaction-scoped PostgreSQL advisory lock
  (``pg_try_advisory_xact_lock``, held by a transaction of its own for the
  run, so it also works behind PgBouncer in transaction mode) lets a single
  run work at a time, and every batch also locks its rows with ``SKIP LOCKED``;
- batched: ``RETENTION_BATCH`` rows (default 1,000) per transaction, so a
  million old rows never lock a table for long.

Each app applies the periods of its own tables through its privacy hook
(``accounts.privacy``: the rooms runtime its rooms and remembered answers);
this module holds the run, the shared batching and the accounts' own tables.

Game records and results are not deleted: class reports need them, and they
carry no nickname (a deleted player's results have ``player = NULL``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection, connections, transaction
from django.db.models import Model, QuerySet
from django.utils import timezone

from accounts import erasure, privacy
from accounts.models import Browser, PlayerProfile

# What the accounts' own part of a run counts (the apps' hooks count the rest).
ACCOUNT_KINDS = ("sessions", "browsers", "profiles", "login_records")
# pg_try_advisory_xact_lock key: "matika retention".
ADVISORY_KEY = 0x6D617469_6B61


def period(key: str) -> timedelta:
    value = settings.RETENTION[key]
    return timedelta(hours=value) if key.endswith("_hours") else timedelta(days=value)


def batch_size() -> int:
    return int(getattr(settings, "RETENTION_BATCH", 1000))


def delete_in_batches(queryset: QuerySet[Model]) -> int:
    """Delete the queryset's rows, a batch per transaction, skipping rows others hold."""
    model = queryset.model
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(
                queryset.order_by("pk")
                .select_for_update(skip_locked=True)
                .values_list("pk", flat=True)[: batch_size()]
            )
            if ids:
                model._default_manager.filter(pk__in=ids).delete()
        deleted += len(ids)
        if len(ids) < batch_size():
            return deleted


def delete_expired_sessions(now: datetime) -> int:
    return delete_in_batches(Session.objects.filter(expire_date__lt=now))


def delete_unused_browsers(now: datetime) -> int:
    cutoff = now - period("unused_browser_days")
    return delete_in_batches(Browser.objects.filter(last_seen_at__lt=cutoff))


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
        deleted += delete_in_batches(model._default_manager.filter(attempt_time__lt=cutoff))
    return deleted


def unused_profiles(now: datetime) -> QuerySet[PlayerProfile]:
    """Profiles without a teacher account nobody has used for the period."""
    cutoff = now - period("unused_profile_days")
    return PlayerProfile.objects.filter(user__isnull=True, last_seen_at__lt=cutoff)


def erase_unused_profiles(now: datetime) -> int:
    """Each profile through the full erasure (``accounts.erasure``), one transaction each."""
    erased, after = 0, 0
    while True:
        ids = list(
            unused_profiles(now)
            .filter(pk__gt=after)
            .order_by("pk")
            .values_list("pk", flat=True)[: batch_size()]
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
        if len(ids) < batch_size():
            return erased
        after = ids[-1]


@contextmanager
def _one_run_at_a_time() -> Iterator[bool]:
    """Yield True when this run holds the retention lock, False when another has it.

    The lock is transaction-scoped (``pg_try_advisory_xact_lock``) on a
    connection of its own whose transaction stays open for the run: behind
    PgBouncer in transaction mode that transaction keeps one server
    connection, and committing, rolling back or losing the connection always
    releases the lock -- no session-level lock is left behind on a pooled
    server connection that another client then gets."""
    holder = connections.create_connection(connection.alias)
    try:
        holder.set_autocommit(False)
        with holder.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [ADVISORY_KEY])
            yield bool(cursor.fetchone()[0])
    finally:
        try:
            holder.rollback()
        finally:
            holder.close()


def kinds() -> tuple[str, ...]:
    """What a run counts: the registered apps' kinds, then the accounts' own."""
    return (
        tuple(
            kind
            for hooks in privacy.registered()
            if hooks.apply_retention is not None
            for kind in hooks.retention_kinds
        )
        + ACCOUNT_KINDS
    )


def apply_retention(*, now: datetime | None = None) -> dict[str, int] | None:
    """Apply every period; returns counts, or None when another worker is at it.

    Each app that keeps data applies its own periods (``accounts.privacy``
    hooks: rooms, logs, ...); then the accounts' own tables."""
    now = now or timezone.now()
    with _one_run_at_a_time() as mine:
        if not mine:
            return None
        counts: dict[str, int] = {}
        for hooks in privacy.registered():
            if hooks.apply_retention is not None:
                counts.update(hooks.apply_retention(now))
        counts.update(
            {
                "sessions": delete_expired_sessions(now),
                "browsers": delete_unused_browsers(now),
                "profiles": erase_unused_profiles(now),
                "login_records": delete_login_records(now),
            }
        )
        return counts


def periods_for_display() -> dict[str, int]:
    """The table as the privacy page shows it (the same numbers, nothing restated)."""
    return dict(settings.RETENTION)
