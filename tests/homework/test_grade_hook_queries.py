"""Issue 41: the LTI grade hook runs after every finished homework game. For
homework no LMS gradebook links to (the usual case) it reads nothing: no query
after the finishing placement's commit. A resource link leading to homework
marks it linked, so a linked homework's grades are still looked for
(tests/lti/test_lti_grades.py sends them through a real launch)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from homework.models import Assignment, Attempt
from lti import tasks
from tests.homework.conftest import GAMES, post, start
from tests.homework.test_placement_queries import _action

pytestmark = pytest.mark.django_db


def _finish(client, game):
    while not game["over"]:
        response = post(client, f"{GAMES}{game['id']}/actions/", _action(game))
        assert response.status_code == 200, response.content
        game = response.json()["game"]
    return game


def test_a_finished_homework_without_an_lms_makes_no_query_after_its_commit(
    make_assignment, pupils, django_capture_on_commit_callbacks
):
    client = pupils[0][0]
    game = start(client, make_assignment()["id"]).json()["game"]
    free = [i for i, cell in enumerate(game["cells"]) if cell is None]
    for _ in range(len(free) - 1):  # all but the last card
        game = post(client, f"{GAMES}{game['id']}/actions/", _action(game)).json()["game"]
    assert game["over"] is False
    with django_capture_on_commit_callbacks() as callbacks:
        game = _finish(client, game)
    assert Attempt.objects.get(ref=game["id"]).finished_at is not None
    assert callbacks, "the finished attempt is announced after its commit"
    with CaptureQueriesContext(connection) as captured:
        for callback in callbacks:
            callback()
    assert captured.captured_queries == []


def test_a_resource_link_marks_its_homework_linked_and_the_hook_then_reads(
    make_assignment, pupils, monkeypatch
):
    from lti.models import Course, Deployment, Platform, ResourceLink

    assignment = Assignment.objects.get(pk=make_assignment()["id"])
    assert assignment.lms_linked is False
    platform = Platform.objects.create(
        issuer="https://lms.example",
        client_id="c",
        authorization_endpoint="https://lms.example/a",
        token_endpoint="https://lms.example/t",
        jwks_uri="https://lms.example/j",
    )
    deployment = Deployment.objects.create(platform=platform, deployment_id="d")
    course = Course.objects.create(
        deployment=deployment, context_id="ctx", classroom=assignment.classroom
    )
    ResourceLink.objects.create(course=course, resource_link_id="r", assignment=assignment)
    assignment.refresh_from_db()
    assert assignment.lms_linked is True
    asked = []
    monkeypatch.setattr(
        tasks.ags, "grades_to_send", lambda attempt_id: asked.append(attempt_id) or []
    )
    tasks.on_attempt_finished(Attempt, attempt_id=7, lms_linked=True)
    tasks.on_attempt_finished(Attempt, attempt_id=8, lms_linked=False)
    assert asked == [7]
