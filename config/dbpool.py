"""The connection pool's check before it lends a connection (issue 41).

With ``CONN_HEALTH_CHECKS`` Django hands psycopg_pool its
``ConnectionPool.check_connection``: an empty query, one round trip to
PostgreSQL on every borrow -- about 0.25 ms of a homework placement's web CPU
(bench/RESULTS-homework.md, fifth pass). The connections it is there to catch
are those PostgreSQL ended while they sat in the pool (a restart, a failover,
``pg_terminate_backend``, an idle timeout): the server sends its termination
notice and closes the socket, so the socket turns readable or hung up.

``check_connection`` asks the socket first, without waiting: the quiet socket
of an open connection is lent at once; anything else -- data or an end waiting
on the socket, a connection not ``OK`` -- gets the pool's own check, which
fails on a broken connection, so the pool discards it and lends another, as
before. ``install`` (config/handlers.py, the web process) puts it in the pool
Django made: Django passes its own check to the pool and takes no other, so
it is swapped on the pool's first connection (``connection_created``).
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.signals import connection_created
from psycopg import pq
from psycopg_pool import ConnectionPool

#: What the socket of an idle connection may not show to be lent unchecked.
_WAITING = select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP


def check_connection(conn: Any) -> None:
    """psycopg_pool's ``check`` callback: raise if ``conn`` must not be lent."""
    if not conn.closed and conn.pgconn.status == pq.ConnStatus.OK:
        poller = select.poll()  # poll, not select: a busy process's fds pass 1024
        poller.register(conn.pgconn.socket, _WAITING)
        if not poller.poll(0):
            return
    ConnectionPool.check_connection(conn)


def _use_socket_check(sender: Any, connection: Any, **kwargs: Any) -> None:
    pool = getattr(connection, "pool", None)
    # psycopg_pool keeps the callback it was given as ``_check`` (3.2, 3.3)
    if pool is not None and getattr(pool, "_check", None) is ConnectionPool.check_connection:
        pool._check = check_connection


def install() -> None:
    """Lend pooled connections with ``check_connection`` where Django set the
    round-trip check (``DB_HEALTH_CHECKS`` on); off stays off."""
    connection_created.connect(_use_socket_check, dispatch_uid="matika.dbpool")
