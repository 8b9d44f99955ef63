"""Issue 28: under database-pool exhaustion the identity middleware treated a
pupil as anonymous, so the poker API answered ``403 no_profile`` (start) or
``404 not_found`` (an action on the pupil's own game) -- misleading and not
retryable. Now a database failure while resolving the identity is ``503`` with
``Retry-After`` and the stable code ``identity_unavailable`` (JSON on API
paths, a short page otherwise), and nothing changes.

The outage is real PostgreSQL, not a mock: a real uvicorn process connects as a
role of its own; the test sets that role's ``CONNECTION LIMIT`` to 0 and
terminates its connections (``pg_terminate_backend``), so the server's pool
cannot get a connection and times out (``DB_POOL_TIMEOUT``), exactly as when
the pool is exhausted. Then the limit is lifted and the same request succeeds.
"""

import json
import os
import time
import urllib.error
import urllib.request

import pytest
from django.conf import settings
from django.db import connection

from games.poker.models import SoloGame
from tests.conftest import _server_env, _stop, start_uvicorn, wait_up

from .conftest import SETTINGS, pupil_client

ROLE = f"matika_outage_{os.getpid()}"
CSRF = "c" * 32


def request(url, *, cookie=None, data=None, accept="application/json", method=None):
    headers = {"Accept": accept, "Accept-Language": "en", "X-CSRFToken": CSRF}
    headers["Cookie"] = f"csrftoken={CSRF}"
    if cookie:
        headers["Cookie"] += f"; {settings.PLAYER_COOKIE_NAME}={cookie}"
    body = None
    if data is not None:
        body = json.dumps(data).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def sql(statement, params=None):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


@pytest.fixture
def outage_role(transactional_db):
    name = connection.settings_dict["NAME"]
    sql(f'CREATE ROLE "{ROLE}" LOGIN')
    sql(f'GRANT CONNECT ON DATABASE "{name}" TO "{ROLE}"')
    sql(f'GRANT USAGE ON SCHEMA public TO "{ROLE}"')
    sql(f'GRANT ALL ON ALL TABLES IN SCHEMA public TO "{ROLE}"')
    sql(f'GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO "{ROLE}"')
    yield ROLE
    sql(f'ALTER ROLE "{ROLE}" CONNECTION LIMIT -1')
    sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [ROLE])
    sql(f'DROP OWNED BY "{ROLE}"')
    sql(f'DROP ROLE "{ROLE}"')


@pytest.fixture
def outage_server(outage_role):
    params = connection.settings_dict
    env = _server_env()
    env["DATABASE_URL"] = (
        f"postgres://{outage_role}@{params['HOST']}:{params['PORT']}/{params['NAME']}"
    )
    env["DB_POOL"] = "on"
    env["DB_POOL_MIN_SIZE"] = "1"
    env["DB_POOL_MAX_SIZE"] = "2"
    env["DB_POOL_TIMEOUT"] = "2"
    process, url = start_uvicorn(env)
    wait_up(process, url)
    yield url
    _stop(process)


def cut_off(role):
    sql(f'ALTER ROLE "{role}" CONNECTION LIMIT 0')
    sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [role])


@pytest.mark.live
def test_a_pupil_gets_a_retryable_503_not_anonymous_answers_when_the_database_is_out(
    outage_server, outage_role, make_assignment_committed
):
    assignment, cookie = make_assignment_committed
    url = outage_server
    status, _headers, body = request(
        url + "/poker/api/games/",
        cookie=cookie,
        data={"mode": "assignment", "assignment": assignment},
    )
    assert status == 201, body
    game = json.loads(body)["game"]
    free = [i for i, cell in enumerate(game["cells"]) if cell is None]
    action = {"type": "place", "cell": free[0]}
    if game["hand"] == "J":
        action = {"type": "use_joker", "cell": free[0], "value": 7}
    before = SoloGame.objects.get(pk=game["id"]).state

    cut_off(outage_role)

    # an action on the pupil's own game: 503 + Retry-After, never 404 not_found
    status, headers, body = request(
        f"{url}/poker/api/games/{game['id']}/actions/", cookie=cookie, data=action
    )
    assert status == 503, body
    assert int(headers["Retry-After"]) > 0
    answer = json.loads(body)
    assert answer["code"] == "identity_unavailable"
    assert answer["message"]
    # a second start: 503, never 403 no_profile
    status, headers, body = request(
        url + "/poker/api/games/",
        cookie=cookie,
        data={"mode": "assignment", "assignment": assignment},
    )
    assert status == 503 and json.loads(body)["code"] == "identity_unavailable"
    # a page: a readable 503 page (no traceback, no anonymous page)
    status, headers, body = request(url + "/", cookie=cookie, accept="text/html")
    assert status == 503
    assert "Retry-After" in headers
    page = body.decode()
    assert 'data-code="identity_unavailable"' in page
    assert "try again" in page.lower()
    assert "Traceback" not in page
    # nothing changed while the database was out
    assert SoloGame.objects.get(pk=game["id"]).state == before
    assert SoloGame.objects.filter(player__isnull=False).count() == 1

    sql(f'ALTER ROLE "{outage_role}" CONNECTION LIMIT -1')
    # the same action, retried as Retry-After says, is applied once
    deadline = time.monotonic() + 120
    while True:
        status, headers, body = request(
            f"{url}/poker/api/games/{game['id']}/actions/", cookie=cookie, data=action
        )
        if status != 503 or time.monotonic() > deadline:
            break
        time.sleep(int(headers.get("Retry-After", "1")))
    assert status == 200, body
    after = json.loads(body)["game"]
    assert after["cells"][free[0]] is not None
    assert sum(cell is not None for cell in after["cells"]) == len(game["cells"]) - len(free) + 1


@pytest.fixture
def make_assignment_committed(outage_role):
    """A class, its teacher, one pupil and an open poker homework, committed
    (the server is another process)."""
    from datetime import timedelta

    from django.utils import timezone

    from homework.models import Assignment
    from tests.classrooms import factories

    teacher = factories.make_teacher("vypadek@skola.cz")
    classroom = factories.make_class(teacher, name="8.A")
    _client, profile = pupil_client("Dana")
    factories.add_member(classroom, profile, roster_name="Dana Malá")
    cookie = _client.cookies[settings.PLAYER_COOKIE_NAME].value
    assignment = Assignment.objects.create(
        classroom=classroom,
        game="poker",
        title="Výpadek",
        settings={**SETTINGS, "seconds_per_card": None},
        opens_at=timezone.now() - timedelta(minutes=1),
        due_at=timezone.now() + timedelta(days=1),
        created_by=teacher,
    )
    return assignment.pk, cookie
