"""Private pages stay private on shared computers (issue 16, section 5).

"No Cache-Control on personal pages and exports, and the exports vary only on
Accept-Language though the identity comes from a cookie. Required: private,
no-store on pages with personal data and Vary: Cookie wherever the identity
cookie was read."
"""

from __future__ import annotations

import pytest
from django.utils.cache import get_max_age

from classrooms.models import Membership
from games.rooms import services as room_services
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def _private(response) -> None:
    cache_control = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= cache_control, response["Cache-Control"]
    assert "cookie" in response["Vary"].lower(), response.get("Vary")


def test_a_pupils_pages_and_exports_are_private(browser):
    pupil = browser()
    assert pupil.post("/accounts/player/new/", {"nickname": "Private Nick"}).status_code == 302
    classroom = factories.make_class(roster="")
    assert (
        pupil.post(
            f"/classes/join/{classroom.join_code}/", {"typed_name": "Private Pupil"}
        ).status_code
        == 302
    )
    Membership.objects.filter(classroom=classroom).update(status=Membership.Status.APPROVED)
    room = room_services.create_room(
        game="poker", mode="group", host=factories.make_player(), settings={}
    )
    for path in (
        "/accounts/player/",
        "/accounts/player/export.json",
        "/accounts/player/export.csv",
        f"/classes/{classroom.pk}/",
        f"/classes/{classroom.pk}/my-results.csv",
        f"/rooms/{room.code}/",
        f"/classes/join/{classroom.join_code}/",
    ):
        response = pupil.get(path)
        assert response.status_code in (200, 302), (path, response.status_code)
        _private(response)


def test_a_teachers_class_pages_and_exports_are_private(client):
    teacher = factories.make_teacher()
    classroom = factories.make_class(teacher, roster="Anna Nová")
    client.force_login(teacher)
    for path in (
        f"/classes/{classroom.pk}/",
        f"/classes/{classroom.pk}/members/",
        f"/classes/{classroom.pk}/results/",
        f"/classes/{classroom.pk}/results/sessions.csv",
        f"/classes/{classroom.pk}/results/participation.csv",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        _private(response)


def test_pages_that_choose_their_own_caching_keep_it(browser):
    room = room_services.create_room(
        game="poker", mode="group", host=factories.make_player(), settings={}
    )
    qr = browser().get(f"/rooms/{room.code}/qr.svg")
    assert qr.status_code == 200
    assert "private" in qr["Cache-Control"] and get_max_age(qr) == 3600
