"""DATABASE_POOLER=pgbouncer: settings safe behind PgBouncer in transaction mode (issue 30)."""

import json
import os
import subprocess
import sys

from tests.conftest import BASE_DIR


def database_settings(**env) -> dict:
    full = {k: v for k, v in os.environ.items() if k not in {"DATABASE_POOLER"}}
    full.update(DJANGO_SETTINGS_MODULE="config.settings.test", **env)
    code = (
        # The settings and the connection's parameters need no app (no django.setup()).
        "import json; from django.db import connection as c; "
        "print(json.dumps({'ssc': c.settings_dict.get('DISABLE_SERVER_SIDE_CURSORS', False), "
        "'params': {k: repr(v) for k, v in c.get_connection_params().items()}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=full, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_behind_pgbouncer_no_server_side_cursors_and_no_prepared_statements():
    found = database_settings(DATABASE_POOLER="pgbouncer")
    assert found["ssc"] is True
    assert found["params"]["prepare_threshold"] == "None"
    assert "ServerBindingCursor" not in found["params"]["cursor_factory"]


def test_without_a_pooler_server_side_cursors_stay():
    assert database_settings()["ssc"] is False


def test_an_unknown_pooler_is_refused():
    full = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    full["DATABASE_POOLER"] = "pgpool"
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=BASE_DIR,
        env=full,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and "DATABASE_POOLER" in result.stderr


def test_the_abandoned_games_cleanup_walks_in_short_batches(monkeypatch):
    """Every stale game in more than one batch, each a query of its own (no cursor
    held across statements, which PgBouncer may route to another server connection)."""
    from games.poker.services import cleanup

    class Ids:
        def __init__(self, ids):
            self.ids, self.after = ids, None

        def filter(self, pk__gt):
            self.after = pk__gt
            return self

        def order_by(self, *_fields):
            return self

        def values_list(self, *_fields, flat):
            return [pk for pk in self.ids if pk > self.after]

    monkeypatch.setattr(cleanup, "CLEANUP_BATCH", 2)
    assert list(cleanup._ids_in_batches(Ids([3, 5, 8, 13, 21]))) == [3, 5, 8, 13, 21]
    assert list(cleanup._ids_in_batches(Ids([3, 5]))) == [3, 5]
    assert list(cleanup._ids_in_batches(Ids([]))) == []
