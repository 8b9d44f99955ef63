"""The rooms' database work: a pool of threads that keep their connection
between messages, a service run once more on a fresh connection when a kept
one was lost, and what counts as PostgreSQL or Redis being unreachable."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.utils import translation
from django.utils.translation import gettext as _

from games.rooms import dbthreads, delivery

T = TypeVar("T")

# The consumer's log, as before this module was split from it.
logger = logging.getLogger("games.rooms.consumers")


def _db_threads() -> int:
    """Threads for the rooms' database work: half of the connection pool.

    The work is round trips to PostgreSQL (the GIL is free meanwhile), so the
    number of threads, not the CPU, bounds how many moves are in flight; asyncio's
    default executor has only CPUs + 4. Each thread keeps the connection it took
    (see ``_before_service``), so the other half stays for pages.
    """
    options = settings.DATABASES["default"].get("OPTIONS", {})
    pool = options.get("pool")
    size = pool.get("max_size", 16) if isinstance(pool, dict) else 16
    return getattr(settings, "ROOMS_DB_THREADS", None) or max(1, size // 2)


DB_THREADS = dbthreads.DatabaseThreads(_db_threads())


# A rooms DB thread keeps its PostgreSQL connection between messages: taken from
# the pool once, not borrowed, checked (one round trip) and given back for every
# message. A kept connection that PostgreSQL closed meanwhile (a restart, a
# terminated backend) fails on its first query; the service then runs once more
# on a fresh connection from the pool, which checks it. Running it again is safe:
# nothing was applied on the dead connection, and a message applied just before
# the connection died is answered from its stored answer (``moves.submit``).
# The pool is sized for these threads plus the pages (``_db_threads``).


# A restart leaves every kept connection dead; the pool lends only checked ones,
# but one may die between the check and the query: a few attempts, not one.
LOST_CONNECTION_ATTEMPTS = 3


def _before_service() -> bool:
    """Whether this thread already holds a connection (kept from an earlier message)."""
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.connection is None:
        return False
    # no check per message; a dead one is replaced below (Django's own flag)
    conn.health_check_done = True  # type: ignore[attr-defined]
    return True


def _connection_lost() -> bool:
    raw = connections[DEFAULT_DB_ALIAS].connection
    return raw is None or getattr(raw, "closed", False)


def _after_service() -> None:
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.in_atomic_block:  # never left open by a service; do not keep it
            conn.close()
            continue
        conn.close_at = None  # kept by this thread
        conn.close_if_unusable_or_obsolete()  # closed when it failed and is unusable


def _run_service(
    outbox: list[Any],
    language: str,
    function: Callable[..., T],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> T:
    kept = _before_service()
    delivery.OUTBOX.set(outbox)  # in this call's own copy of the context
    # A frame's handling already runs in the socket's language (a copy of the
    # caller's context comes along): activating it again is work per move.
    language_set = translation.get_language() == language
    try:
        with contextlib.nullcontext() if language_set else translation.override(language):
            for attempt in range(1, LOST_CONNECTION_ATTEMPTS + 1):
                try:
                    return function(*args, **kwargs)
                except (OperationalError, InterfaceError) as exc:
                    if not (kept and _connection_lost()) or attempt == LOST_CONNECTION_ATTEMPTS:
                        raise
                    logger.warning(
                        "rooms: a kept database connection was lost (%s); reconnecting", exc
                    )
                    connections[DEFAULT_DB_ALIAS].close()
        raise AssertionError("unreachable: the last attempt returns or raises")
    finally:
        _after_service()


async def in_db_thread(
    outbox: list[Any],
    language: str,
    function: Callable[..., T],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> T:
    """Run a service in a rooms DB thread, in a copy of the caller's context.

    Not asgiref's SyncToAsync (thread-sensitive contexts, per-call executors,
    closing old connections before and after) nor run_in_executor: the hop was
    the largest single cost per move in the group-game benchmark (bench/).
    """
    return await DB_THREADS.run(_run_service, outbox, language, function, args, kwargs)


def unavailable(exc: BaseException) -> bool:
    """PostgreSQL or Redis cannot be reached (restart, failover, exhausted pool)."""
    if isinstance(exc, OperationalError | InterfaceError | ConnectionError | TimeoutError):
        return True
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover - channels_redis brings redis
        return False
    return isinstance(exc, RedisConnectionError | RedisTimeoutError)


def unavailable_text() -> str:
    text: str = _("The game cannot be reached for a moment. Try again.")
    return text
