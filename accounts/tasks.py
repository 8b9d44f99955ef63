"""Periodic work for players' data, run by Celery beat (``CELERY_BEAT_SCHEDULE``)."""

from celery import shared_task

from accounts import retention


@shared_task(name="privacy.apply_retention")
def apply_retention() -> dict | None:
    """Delete what ``settings.RETENTION`` keeps no longer (see accounts/retention.py)."""
    return retention.apply_retention()
