"""A faster wipe after each ``transactional_db`` test (all live-server tests use it).

Django's ``TransactionTestCase`` flushes the database after every such test:
``TRUNCATE`` of all 57 tables, then the ``post_migrate`` signal, which deletes
nothing but recreates every content type and permission (about 270 rows). That
took 0.6-1 s per test here (half the truncation, half the signal), times about
300 tests.

The state it leaves is always the same: every table empty except the content
types and permissions that ``post_migrate`` writes. So after one real flush this
module remembers those tables and a checksum of their rows (the *baseline*), and
after each later test it resets to that same state directly:

* one query tells which other tables have rows (at most 501 counted each) and
  the checksum of each baseline table;
* if a baseline table changed (a test added or edited a permission or content
  type) or the set of tables changed, it does the real flush and takes a new
  baseline -- never a guess;
* otherwise it deletes the rows of only the tables that have any, in one
  transaction with the (deferrable) foreign keys checked at its end, or for a
  large data set truncates those tables in one statement; any database error
  falls back to the real flush.

Sequences are not reset, exactly as Django's flush (``reset_sequences=False``)
does not. The content types keep their ids between tests, where the real flush
gave them new ones (which no test may rely on either way).

``MATIKA_FULL_FLUSH=1`` switches back to Django's own flush after every test (to
compare, or to rule this out when hunting a leak between tests).
"""

from __future__ import annotations

import os

from django.core.management import call_command
from django.db import DatabaseError, connections, transaction
from django.test import TransactionTestCase

# Above this many rows in total, one TRUNCATE is cheaper than DELETE with its
# deferred foreign-key checks (measured here: 3,000 users took 3 s to delete
# and about 1 s to truncate with the tables that point at them).
_DELETE_UP_TO = 500
_COUNT_CAP = 501

_original_fixture_teardown = TransactionTestCase._fixture_teardown
# database alias -> {table: md5 of its rows} for the tables a real flush leaves filled
_baselines: dict[str, dict[str, str]] = {}
# database alias -> the tables the baseline was taken over
_tables_seen: dict[str, tuple[str, ...]] = {}
stats = {"fast": 0, "full": 0}


def _quote(connection, table: str) -> str:
    return connection.ops.quote_name(table)


def _tables(connection) -> tuple[str, ...]:
    return tuple(
        sorted(connection.introspection.django_table_names(only_existing=True, include_views=False))
    )


def _checksum_sql(connection, table: str) -> str:
    name = _quote(connection, table)
    return f"(SELECT md5(coalesce(string_agg(r::text, ',' ORDER BY r::text), '')) FROM {name} r)"


def _state(connection, tables, baseline) -> dict[str, tuple[int, str | None]]:
    """{table: (rows up to the cap, checksum for baseline tables)} in one query."""
    parts = []
    for table in tables:
        name = _quote(connection, table)
        checksum = _checksum_sql(connection, table) if table in baseline else "NULL"
        parts.append(
            f"SELECT '{table}'::text, (SELECT count(*) FROM (SELECT 1 FROM {name} LIMIT {_COUNT_CAP}) c), "
            f"{checksum}"
        )
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts))
        return {table: (rows, checksum) for table, rows, checksum in cursor.fetchall()}


def _full_flush(alias: str) -> None:
    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        database=alias,
        reset_sequences=False,
        allow_cascade=False,
        inhibit_post_migrate=False,
    )
    stats["full"] += 1
    connection = connections[alias]
    tables = _tables(connection)
    filled = {table for table, (rows, _) in _state(connection, tables, set()).items() if rows}
    state = _state(connection, tables, filled)
    _baselines[alias] = {table: state[table][1] for table in filled}
    _tables_seen[alias] = tables


def _fast_reset(alias: str) -> bool:
    """Back to the baseline without the full flush; False when only the full flush will do."""
    connection = connections[alias]
    baseline = _baselines.get(alias)
    tables = _tables(connection)
    if baseline is None or tables != _tables_seen.get(alias):
        return False
    state = _state(connection, tables, baseline)
    if any(state[table][1] != checksum for table, checksum in baseline.items()):
        return False
    dirty = [table for table, (rows, _) in state.items() if rows and table not in baseline]
    if not dirty:
        return True
    names = [_quote(connection, table) for table in dirty]
    try:
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            if sum(state[table][0] for table in dirty) <= _DELETE_UP_TO:
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
                for name in names:
                    cursor.execute(f"DELETE FROM {name}")
            else:
                # CASCADE reaches the empty tables that point at these (a baseline
                # table pointing at one would be caught by its checksum next time)
                cursor.execute(f"TRUNCATE {', '.join(names)} CASCADE")
    except DatabaseError:
        return False
    return True


def _fixture_teardown(self) -> None:
    if (
        os.environ.get("MATIKA_FULL_FLUSH") == "1"
        or self.available_apps is not None
        or self.serialized_rollback
    ):
        _original_fixture_teardown(self)
        return
    for alias in self._databases_names(include_mirrors=False):
        if connections[alias].vendor != "postgresql":
            call_command("flush", verbosity=0, interactive=False, database=alias)
        elif _fast_reset(alias):
            stats["fast"] += 1
        else:
            _full_flush(alias)


def install() -> None:
    TransactionTestCase._fixture_teardown = _fixture_teardown
