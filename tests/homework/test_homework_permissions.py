"""Only the class's teachers reach its homework (issue 28): a pupil of the class,
a teacher of another class and an anonymous visitor get 401/403/404 from every
teacher endpoint and page, and nothing changes."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from homework.models import Assignment, Attempt
from tests.classrooms import factories
from tests.homework.conftest import play_to_end, post, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_assignment, pupils, classroom):
    assignment = make_assignment()
    play_to_end(pupils[0][0], start(pupils[0][0], assignment["id"]).json()["game"])
    return assignment


@pytest.fixture
def outsiders(pupils):
    other_teacher = Client(headers={"accept-language": "en"})
    other_teacher.force_login(factories.make_teacher("jina@skola.cz"))
    return {
        "pupil": pupils[1][0],
        "other_teacher": other_teacher,
        "anonymous": Client(headers={"accept-language": "en"}),
    }


def _snapshot():
    return (
        list(Assignment.objects.order_by("pk").values()),
        list(Attempt.objects.order_by("pk").values()),
    )


def test_outsiders_get_nothing_from_the_teacher_api_and_change_nothing(
    played, outsiders, classroom
):
    pk, class_pk = played["id"], classroom.pk
    attempt = Attempt.objects.get()
    before = _snapshot()
    body = {
        "game": "poker",
        "title": "Vetřelec",
        "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
    }
    requests = [
        ("get", f"/api/classes/{class_pk}/assignments/", None),
        ("post", f"/api/classes/{class_pk}/assignments/", body),
        ("get", f"/api/assignments/{pk}/", None),
        ("patch", f"/api/assignments/{pk}/", {"title": "Změněno", "closed": True}),
        ("delete", f"/api/assignments/{pk}/", None),
        ("post", f"/api/assignments/{pk}/close/", None),
        ("get", f"/api/assignments/{pk}/results/", None),
        ("get", f"/api/assignments/{pk}/results.csv", None),
        ("get", f"/api/assignments/{pk}/results.xlsx", None),
    ]
    for who, client in outsiders.items():
        for method, url, data in requests:
            if data is None:
                response = getattr(client, method)(url)
            else:
                response = getattr(client, method)(
                    url, json.dumps(data), content_type="application/json"
                )
            assert response.status_code in (401, 403, 404), (who, method, url, response.status_code)
            assert "Adam" not in response.content.decode("utf-8", "replace"), (who, url)
    assert _snapshot() == before
    assert Attempt.objects.get().pk == attempt.pk


def test_outsiders_get_nothing_from_the_teacher_pages_and_change_nothing(
    played, outsiders, classroom
):
    pk, class_pk = played["id"], classroom.pk
    attempt = Attempt.objects.get()
    before = _snapshot()
    pages = [
        ("get", f"/classes/{class_pk}/homework/new/"),
        ("post", f"/classes/{class_pk}/homework/new/"),
        ("get", f"/classes/{class_pk}/homework/{pk}/"),
        ("get", f"/classes/{class_pk}/homework/{pk}/edit/"),
        ("post", f"/classes/{class_pk}/homework/{pk}/close/"),
        ("post", f"/classes/{class_pk}/homework/{pk}/delete/"),
        ("get", f"/classes/{class_pk}/homework/{pk}/review/{attempt.pk}/"),
    ]
    for who, client in outsiders.items():
        for method, url in pages:
            response = getattr(client, method)(url)
            if who != "other_teacher" and response.status_code == 302:  # not logged in
                assert response["Location"].startswith("/accounts/login/"), url
                continue
            assert response.status_code in (401, 403, 404), (who, method, url)
    assert _snapshot() == before
    # the pupil's own game review stays hidden while the homework runs
    game_ref = attempt.ref
    for client in outsiders.values():
        assert client.get(f"/poker/review/{game_ref}/").status_code == 404


def test_a_pupil_sees_the_class_table_only_after_the_deadline_when_shown(
    make_assignment, pupils, classroom, teacher_client
):
    hidden, shown = make_assignment(), make_assignment(table_visible=True, title="Ukázat")
    client = pupils[1][0]
    for assignment in (hidden, shown):
        assert (
            client.get(f"/classes/{classroom.pk}/homework/{assignment['id']}/").status_code == 404
        )
        post(teacher_client, f"/api/assignments/{assignment['id']}/close/")
    assert client.get(f"/classes/{classroom.pk}/homework/{hidden['id']}/").status_code == 404
    page = client.get(f"/classes/{classroom.pk}/homework/{shown['id']}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Adam Kovář" in text and "homework-review" not in text and "Download" not in text
