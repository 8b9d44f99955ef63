"""Issue 28: a placement in a homework game is the hot path of a homework
evening (1,000 pupils placing a card every few seconds, bench/homework_bench.py).
Its database work is pinned here: the same small number of queries for the
first card and the twenty-fourth (nothing grows with the moves played), only
what a placement changes written back, the identity read without an ORDER BY,
and the finishing card recording the end without reading the pupil's profile
again. Times go to bench/RESULTS-homework.md, never here."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.poker.models import SoloGame
from games.poker.rules import JOKER
from tests.homework.conftest import GAMES, post, start

pytestmark = pytest.mark.django_db

#: The identity lookup, the game's read and its update (onto the version read).
PLACEMENT_QUERIES = 3


def _action(game, *, last: bool = False):
    free = [i for i, cell in enumerate(game["cells"]) if cell is None]
    cell = free[-1] if last else free[0]
    if game["hand"] == JOKER:
        return {"type": "use_joker", "cell": cell, "value": 7}
    return {"type": "place", "cell": cell}


def _statements(captured) -> list[str]:
    """What the request sent, without the test transaction's savepoints."""
    return [
        query["sql"]
        for query in captured.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    ]


def _place(client, game, **kwargs):
    with CaptureQueriesContext(connection) as captured:
        response = post(client, f"{GAMES}{game['id']}/actions/", _action(game, **kwargs))
    assert response.status_code == 200, response.content
    return response.json()["game"], _statements(captured)


def test_a_placement_makes_the_same_few_queries_early_and_late(make_assignment, pupils):
    client = pupils[0][0]
    game = start(client, make_assignment()["id"]).json()["game"]
    counts = []
    while True:
        game, statements = _place(client, game)
        if game["over"]:
            break
        counts.append(len(statements))
        if len(counts) == 1:
            identity, read, update = statements
            assert 'FROM "accounts_browser"' in identity and "ORDER BY" not in identity
            # read without a lock, written back onto the version read (issue 41)
            assert 'FROM "poker_sologame"' in read and "FOR UPDATE" not in read
            assert "xmin" in update.split("WHERE")[1]
            # the move list is appended to, not sent again whole
            assert '"moves" = "moves" ||' in update
            # only what a placement changes is written back
            assert update.startswith('UPDATE "poker_sologame" SET "state"')
            assert '"published"' not in update and '"player_id" =' not in update.split("WHERE")[0]
    assert len(counts) == 24
    assert counts == [PLACEMENT_QUERIES] * 24  # the 24th costs what the first did
    stored = SoloGame.objects.get(pk=game["id"])
    assert len(stored.moves) == 25 and stored.finished_at is not None


def test_the_finishing_placement_does_not_read_the_profile_again(make_assignment, pupils):
    from homework.models import Attempt

    client, profile, _member = pupils[1]
    game = start(client, make_assignment()["id"]).json()["game"]
    while True:
        before = game
        game, statements = _place(client, game, last=True)
        if game["over"]:
            break
    assert before["over"] is False
    profile_reads = [
        sql
        for sql in statements
        if sql.startswith("SELECT") and 'FROM "accounts_playerprofile"' in sql
    ]
    assert profile_reads == []
    # and the end was recorded for this pupil, as before
    stored = SoloGame.objects.get(pk=game["id"])
    assert stored.record is not None and stored.record.results.get().player_id == profile.pk
    attempt = Attempt.objects.get(ref=game["id"])
    assert attempt.finished_at is not None and attempt.score == stored.record.results.get().score


def test_the_start_and_the_end_look_up_unique_rows_without_an_order_by(make_assignment, pupils):
    """Issue 41: the homework's row lock at a start and the attempt's at the end
    are lookups on unique keys; ``first()`` compiled and sent the model's
    default ordering (``-due_at, -id``) for them."""
    client = pupils[2][0]
    assignment = make_assignment()
    with CaptureQueriesContext(connection) as captured:
        game = start(client, assignment["id"]).json()["game"]
    locks = [sql for sql in _statements(captured) if 'FROM "homework_assignment"' in sql]
    assert locks and all("ORDER BY" not in sql for sql in locks)
    while True:
        before = game
        with CaptureQueriesContext(connection) as captured:
            response = post(client, f"{GAMES}{game['id']}/actions/", _action(game))
        game = response.json()["game"]
        if game["over"]:
            break
    assert before["over"] is False
    ends = [sql for sql in _statements(captured) if 'FROM "homework_attempt"' in sql]
    assert ends and all("ORDER BY" not in sql for sql in ends if "FOR UPDATE" in sql)
    assert any("FOR UPDATE" in sql for sql in ends)
