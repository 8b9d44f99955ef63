"""Statements of the per-seat hot path sent with server-side binding, prepared.

Django's psycopg backend binds parameters on the client (it quotes every value
into the SQL text), so PostgreSQL parses and plans each per-seat statement
anew -- the two statements of every placement of a group game. Here they go
through a psycopg cursor of their own on the same connection: parameters
travel apart from the text, and the statement is prepared once per connection
and then only executed (no parse, no plan; bench/RESULTS-placement-cpu.md).

Behind PgBouncer in transaction mode (``DATABASE_POOLER=pgbouncer``: the
backend's ``prepare_threshold`` is None) a named prepared statement may land
on another server connection, so there the statements are bound on the
server but not prepared. Errors are Django's (``wrap_database_errors``), as
from any cursor, so ``IntegrityError`` and "unavailable" are caught as before.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

import psycopg
from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

PREPARE_THRESHOLD = 5  # psycopg's default; ``prepare=True`` prepares at once anyway

# Connections on which ``plan_cache_mode`` was set (dropped with the connection).
_GENERIC: weakref.WeakSet[Any] = weakref.WeakSet()


class SeatCursor:
    """One server-side-binding cursor for a move's statements on ``db``'s connection."""

    def __init__(self, db: BaseDatabaseWrapper) -> None:
        db.ensure_connection()
        self.db = db
        # PgBouncer in transaction mode: no named prepared statements (the settings
        # pin prepare_threshold None there). Elsewhere Django leaves psycopg's
        # threshold at None too (it binds on the client and never prepares), and
        # psycopg then prepares nothing, not even on ``prepare=True``: give the
        # connection a threshold. Django's own (client-side) cursors still never
        # prepare; only this cursor's statements are.
        self.prepare = getattr(settings, "DATABASE_POOLER", "") != "pgbouncer"
        if self.prepare and db.connection.prepare_threshold is None:
            db.connection.prepare_threshold = PREPARE_THRESHOLD
        with db.wrap_database_errors:
            self.cursor = psycopg.Cursor(db.connection)
            if self.prepare and db.connection not in _GENERIC and not db.in_atomic_block:
                # PostgreSQL plans the first executions of a prepared statement
                # for their parameters and may go on doing so (custom plans:
                # planned on every call, as before). The plans of these
                # statements do not depend on the values (primary keys, a
                # seat's version): plan once. Only prepared statements are
                # affected; Django's own queries are bound on the client.
                self.cursor.execute("SET plan_cache_mode = force_generic_plan")
                _GENERIC.add(db.connection)

    def one(self, sql: str, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of ``sql`` run with ``params`` (None when it returns none).
        Logged like Django's debug cursor when queries are logged (tests, DEBUG)."""
        rows = self._run(sql, params, every=False)
        return rows[0] if rows else None

    def all(self, sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of ``sql`` run with ``params`` (logged as ``one``)."""
        return self._run(sql, params, every=True)

    def _run(self, sql: str, params: dict[str, Any], *, every: bool) -> list[tuple[Any, ...]]:
        started = time.monotonic() if self.db.queries_logged else None
        try:
            with self.db.wrap_database_errors:
                self.cursor.execute(sql, params, prepare=self.prepare)
                if every:
                    return self.cursor.fetchall()
                row: tuple[Any, ...] | None = self.cursor.fetchone()
                return [] if row is None else [row]
        finally:
            if started is not None:
                self.db.queries_log.append(
                    {"sql": sql, "time": f"{time.monotonic() - started:.3f}"}
                )

    def close(self) -> None:
        self.cursor.close()
