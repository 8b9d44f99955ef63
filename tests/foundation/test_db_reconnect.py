"""The database pool comes back within seconds after a PostgreSQL outage.

psycopg_pool retries a lost connection with a doubling delay (1, 2, 4, 8 ...
seconds) until its ``reconnect_timeout`` (300 s by default) runs out, so after
an outage of T seconds the pool's next try could come nearly T seconds after
PostgreSQL was back, and every request meanwhile waited ``DB_POOL_TIMEOUT`` and
got a 503. The settings bound a retry series (``DB_POOL_RECONNECT_TIMEOUT``);
once it gives up, the next request that finds no connection starts a new series
at once.
"""

import os
import time

import pytest
from django.conf import settings
from django.db import connection
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from tests.rooms.test_rooms_outage import _admin  # one statement on the maintenance database

ROLE = f"matika_reconnect_{os.getpid()}"


def _pool_options() -> dict:
    return settings.DATABASES["default"]["OPTIONS"]["pool"]


def _next_try_after_return(outage: float, reconnect_timeout: float) -> float:
    """Seconds from PostgreSQL's return to the pool's next connection attempt,
    for a pool whose connection was lost at 0 and a database back at ``outage``.

    The series follows psycopg_pool's own backoff (``AttemptWithBackoff``, as its
    ``_add_connection`` uses it): try, and if the series is over give up, else
    wait the next delay. A series that gave up is followed at once by a new one
    (a live site's next request finds no connection and grows the pool; the
    real-database test below checks that step)."""
    now = 0.0
    attempt = AttemptWithBackoff(timeout=reconnect_timeout)
    while now < outage:
        if attempt.time_to_give_up(now):
            attempt = AttemptWithBackoff(timeout=reconnect_timeout)
            continue
        attempt.update_delay(now)
        now += max(attempt.delay, 0.01)
    return now - outage


def test_after_any_outage_the_pool_tries_again_within_seconds_of_the_return():
    reconnect_timeout = _pool_options()["reconnect_timeout"]
    # Django builds its pool with these options (connection.pool is psycopg_pool's).
    assert connection.pool.reconnect_timeout == reconnect_timeout
    waits = {
        outage: _next_try_after_return(outage, reconnect_timeout)
        for outage in (5, 10, 20, 40, 75, 150, 300, 600, 1800)
    }
    # The library default (300 s) leaves up to nearly the outage's length.
    assert max(waits.values()) <= 3, waits


@pytest.fixture
def refused_role():
    """A login role PostgreSQL refuses (CONNECTION LIMIT 0) until the test lifts it."""
    _admin(f'CREATE ROLE "{ROLE}" LOGIN CONNECTION LIMIT 0')
    yield ROLE
    _admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [ROLE])
    _admin(f'DROP ROLE "{ROLE}"')


def test_a_retry_series_gives_up_and_the_next_request_connects_at_once(refused_role):
    params = connection.settings_dict
    options = _pool_options()
    pool = ConnectionPool(
        f"host={params['HOST']} port={params['PORT']} user={refused_role} dbname=postgres",
        min_size=1,
        max_size=1,
        timeout=1,
        reconnect_timeout=options["reconnect_timeout"],
        open=False,
    )
    pool.open(wait=False)
    try:
        # The first series fails, then gives up: the pool holds no connection
        # and no attempt is under way (with the library's 300 s it would retry on).
        deadline = time.monotonic() + 60
        while pool.get_stats()["pool_size"]:
            assert time.monotonic() < deadline, "the retry series never gave up"
            time.sleep(0.1)
        errors = pool.get_stats()["connections_errors"]
        assert errors >= 2
        # A request while PostgreSQL still refuses starts a new series at once.
        with pytest.raises(PoolTimeout):
            pool.getconn(timeout=0.5)
        deadline = time.monotonic() + 30  # its try may end after the request gave up
        while pool.get_stats()["connections_errors"] == errors:
            assert time.monotonic() < deadline, "the request started no new try"
            time.sleep(0.1)
        _admin(f'ALTER ROLE "{ROLE}" CONNECTION LIMIT -1')
        # PostgreSQL is back: a request connects at that series' next try (1-3 s).
        with pool.connection(timeout=30) as conn:
            assert conn.execute("SELECT current_user").fetchone() == (ROLE,)
    finally:
        pool.close()
