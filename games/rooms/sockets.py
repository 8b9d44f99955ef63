"""How many room WebSockets are open: per player in one room, per player and per
browser over all rooms, and per address.

The per-player and per-browser caps stop one pupil from holding hundreds of
sockets; the per-address cap is only a ceiling far above what a whole school
needs (everyone there shares it). Whatever ends a socket releases its counts
(``consumers.RoomConsumer.__call__``), and a socket that stays silent (no frame,
not even the client's heartbeat) is closed after ``ROOM_SOCKET_IDLE_SECONDS``.

A counter per key in the cache (Redis), incremented when a socket opens and
decremented when it closes. A process that dies cannot decrement: every
counter therefore lives at most ``COUNTER_TTL`` seconds from its first socket
(the expiry is never pushed back), so whatever a crash left behind is gone
within that time. The price is that sockets older than the counter are not
counted for a while after it expires (the caps are ceilings against floods, not
exact accounting). When the store cannot be reached, sockets are not counted
(logged): a Redis outage must not shut rooms.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.core.signals import setting_changed
from django.dispatch import receiver

logger = logging.getLogger(__name__)

COUNTER_TTL = 3600


# One cache object (one Redis connection pool) per alias for the process. Django's
# ``caches`` keeps one per context and thread (asgiref's ``Local``), and the counts
# run in the rooms DB threads, each call in a fresh copy of the socket's context:
# there every count made a new client, a new pool and a new Redis connection
# (bench/RESULTS-placement-cpu.md, fourth pass). The redis client is thread-safe.
_CACHES: dict[str, BaseCache] = {}


def _cache() -> BaseCache:
    alias = getattr(settings, "RATELIMIT_USE_CACHE", "default")
    cache = _CACHES.get(alias)
    if cache is None:
        cache = _CACHES.setdefault(alias, caches.create_connection(alias))
    return cache


@receiver(setting_changed)
def _forget_caches(*, setting: str, **kwargs: object) -> None:
    if setting in ("CACHES", "RATELIMIT_USE_CACHE"):
        _CACHES.clear()


def player_key(room_id: int, player_id: int) -> str:
    return f"room-sockets:player:{room_id}:{player_id}"


def player_all_key(player_id: int) -> str:
    return f"room-sockets:player-all:{player_id}"


def browser_key(browser_id: int) -> str:
    return f"room-sockets:browser:{browser_id}"


def address_key(address: str) -> str:
    return f"room-sockets:address:{address}"


def acquire(key: str, cap: int) -> bool | None:
    """Count one more socket under ``key``: True when held, False when ``cap`` is
    already reached (nothing counted), None when the store is away (not counted)."""
    cache = _cache()
    try:
        cache.add(key, 0, timeout=COUNTER_TTL)
        held = cache.incr(key)
        if held > cap:
            cache.decr(key)
            return False
    except ValueError:  # the counter expired between add and incr: start again
        cache.add(key, 1, timeout=COUNTER_TTL)
        return True
    except Exception as exc:
        logger.warning("socket count %s skipped, store unavailable: %s", key, exc)
        return None
    return True


def release_all(keys: list[str]) -> None:
    """``release`` each of ``keys`` (one hop to a DB thread for a closing socket)."""
    for key in keys:
        release(key)


def release(key: str) -> None:
    """One socket under ``key`` closed (a counter that expired meanwhile is left alone)."""
    cache = _cache()
    try:
        if cache.decr(key) <= 0:
            cache.delete(key)
    except ValueError:  # expired: nothing to take back
        pass
    except Exception as exc:
        logger.warning("socket count %s not released, store unavailable: %s", key, exc)
