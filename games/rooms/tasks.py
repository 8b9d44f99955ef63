"""Periodic work for rooms, run by Celery beat (schedule: migration 0002)."""

from celery import shared_task

from games.rooms import services


@shared_task(name="rooms.expire_stale_rooms")
def expire_stale_rooms() -> int:
    """Expire rooms still unfinished six hours after they were created."""
    return services.expire_stale_rooms()


@shared_task(name="rooms.tick_due_rooms")
def tick_due_rooms() -> int:
    """Evaluate passed deadlines in rooms where nobody is acting right now."""
    return services.tick_due_rooms()
