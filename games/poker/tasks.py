"""Periodic work for solo poker, run by Celery beat (schedule: migration 0003)."""

import time

from celery import shared_task

from .services import cleanup, daily


@shared_task(name="poker.rotate_daily_challenge")
def rotate_daily_challenge() -> dict[str, list[str]]:
    """At midnight Europe/Bratislava: publish the new day, freeze the old table(s)."""
    return daily.rotate_daily_challenges(now=time.time())


@shared_task(name="poker.cleanup_abandoned_games")
def cleanup_abandoned_games() -> dict[str, int]:
    """End (hard, by time) or delete solo games abandoned for a day."""
    return cleanup.cleanup_abandoned_games(now=time.time())
