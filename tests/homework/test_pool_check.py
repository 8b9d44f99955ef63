"""Issue 41: the pool checked every connection it lent with a round trip (an
empty query), about 0.25 ms of a homework placement's web CPU. config/dbpool.py
asks the connection's socket first: a quiet one is lent without a round trip,
one that PostgreSQL ended while it sat in the pool (its notice and close wait
on the socket) still gets the pool's own check, fails it and is replaced.
Real PostgreSQL, real psycopg_pool; times go to bench/RESULTS-homework.md."""

import time

import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config import dbpool

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def round_trips(monkeypatch) -> list[object]:
    """Every connection the pool's own (round-trip) check is asked about."""
    seen: list[object] = []
    original = ConnectionPool.check_connection

    def counted(conn):
        seen.append(conn)
        return original(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return seen


def one_connection_pool() -> ConnectionPool:
    params = {**connection.get_connection_params(), "autocommit": True}
    pool = ConnectionPool(
        kwargs=params, min_size=1, max_size=1, check=dbpool.check_connection, open=True
    )
    pool.wait(timeout=60)
    return pool


def test_a_quiet_pooled_connection_is_lent_without_a_round_trip(round_trips):
    with one_connection_pool() as pool:
        for _ in range(3):
            with pool.connection() as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)
    assert round_trips == []


def test_a_connection_postgresql_ended_in_the_pool_is_checked_and_replaced(round_trips):
    with one_connection_pool() as pool:
        with pool.connection() as conn:
            ended = conn.info.backend_pid
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [ended])
            # gone from pg_stat_activity: its notice was sent and its socket closed
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [ended])
                if cursor.fetchone() == (0,):
                    break
                time.sleep(0.05)
        with pool.connection() as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
            assert conn.info.backend_pid != ended
    assert len(round_trips) >= 1  # the ended one was checked, and failed


def test_the_web_process_pool_lends_with_the_socket_check(monkeypatch):
    from django.db.backends.signals import connection_created

    pool = connection.pool
    monkeypatch.setattr(pool, "_check", ConnectionPool.check_connection)  # as Django made it
    dbpool.install()
    try:
        connection.close()
        connection.ensure_connection()
        assert pool._check is dbpool.check_connection
    finally:
        connection_created.disconnect(dispatch_uid="matika.dbpool")
