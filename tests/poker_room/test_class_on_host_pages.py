"""The class on the host's own pages of a class game (issue 40 §3), over HTTP.

Seen in a lesson: a latecomer waiting for approval was shown only on the class
page, so the teacher had to leave the running game to let them in; and the
host's lobby listed nicknames only ("Tichá Myška" twice), the roster names came
only once the game ran. Now the host's room page and the projector carry the
class's waiting list (approve one or all there) and the lobby names each pupil
by roster name beside the nickname -- for the teacher only.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from classrooms import launch
from classrooms.models import Membership
from games.rooms import services as rooms
from tests.classrooms import factories
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def lesson():
    teacher = factories.make_teacher("vcas@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    seated = []
    for roster_name, nickname in (("Adam Kováč", "Tichá Myška"), ("Bára Nová", "Tichý Ježek")):
        profile, cookie = player_cookie(nickname)
        factories.add_member(classroom, player=profile, roster_name=roster_name)
        rooms.join_room(room=room, player=profile)
        seated.append(cookie)
    return teacher, classroom, room, seated


def test_the_host_lobby_names_each_pupil_by_roster_name_and_a_pupil_sees_nicknames(client, lesson):
    teacher, _classroom, room, (cookie, _other) = lesson
    client.force_login(teacher)
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert "Tichá Myška (Adam Kováč)" in page and "Tichý Ježek (Bára Nová)" in page
    assert "data-roster=" in page and "js/rooms/classlive.js" in page
    assert 'data-formal="true"' in page  # the teacher reads vy
    client.logout()
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    pupil_page = client.get(f"/rooms/{room.code}/").content.decode()
    assert "Tichá Myška" in pupil_page
    assert "Adam Kováč" not in pupil_page and "Bára Nová" not in pupil_page
    assert "data-class-waiting" not in pupil_page and "data-roster=" not in pupil_page


def test_the_running_host_page_and_the_projector_carry_the_waiting_list(client, lesson):
    teacher, classroom, room, _cookies = lesson
    rooms.start_room(room=room, actor=room.host)
    client.force_login(teacher)
    waiting_url = f"/classes/{classroom.pk}/waiting.json"
    for path in (f"/rooms/{room.code}/", f"/poker/room/{room.code}/projector/"):
        page = client.get(path).content.decode()
        assert 'data-testid="class-waiting"' in page, path
        assert f'data-url="{waiting_url}"' in page, path


def test_the_teacher_reads_and_approves_the_waiting_joins_there(client, lesson):
    teacher, classroom, room, _cookies = lesson
    rooms.start_room(room=room, actor=room.host)
    late = [
        factories.add_member(classroom, roster_name=name, status="pending")
        for name in ("Cyril Malý", "Dana Velká", "Ema Tichá")
    ]
    client.force_login(teacher)
    answer = client.get(f"/classes/{classroom.pk}/waiting.json").json()
    assert answer["count"] == 3
    assert [m["name"] for m in answer["waiting"]] == ["Cyril Malý", "Dana Velká", "Ema Tichá"]
    # roster names of the approved pupils by player id, for the seats list
    assert "Adam Kováč" in answer["roster"].values()
    assert "Cyril Malý" not in answer["roster"].values()

    one = client.post(
        f"/classes/{classroom.pk}/waiting/approve/",
        json.dumps({"members": [late[0].pk]}),
        content_type="application/json",
    )
    assert one.json() == {"approved": 1}
    # "Approve all" approves those the teacher saw: one who came since still waits
    unseen = factories.add_member(classroom, roster_name="Filip Nový", status="pending")
    every = client.post(
        f"/classes/{classroom.pk}/waiting/approve/",
        json.dumps({"members": [m.pk for m in late[1:]]}),
        content_type="application/json",
    )
    assert every.json() == {"approved": 2}
    statuses = dict(
        Membership.objects.filter(classroom=classroom).values_list("roster_name", "status")
    )
    assert statuses["Ema Tichá"] == "approved" and statuses["Filip Nový"] == "pending"
    assert client.get(f"/classes/{classroom.pk}/waiting.json").json()["count"] == 1
    junk = client.post(
        f"/classes/{classroom.pk}/waiting/approve/", "[1, 2", content_type="application/json"
    )
    assert junk.status_code == 200 and junk.json() == {"approved": 0}
    unseen.refresh_from_db()
    assert unseen.status == "pending"


def test_nobody_else_reads_or_approves_the_waiting_list(client, lesson):
    _teacher, classroom, _room, (cookie, _other) = lesson
    member = factories.add_member(classroom, roster_name="Cyril Malý", status="pending")
    approve = f"/classes/{classroom.pk}/waiting/approve/"
    body = json.dumps({"members": [member.pk]})
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie  # a pupil of the class
    assert client.get(f"/classes/{classroom.pk}/waiting.json").status_code == 302
    assert client.post(approve, body, content_type="application/json").status_code == 302
    client.force_login(factories.make_teacher("cizi@skola.sk"))
    assert client.get(f"/classes/{classroom.pk}/waiting.json").status_code == 404
    assert client.post(approve, body, content_type="application/json").status_code == 404
    junk = client.post(approve, "[1, 2", content_type="application/json")
    assert junk.status_code == 404  # not their class: refused before the body is read
    member.refresh_from_db()
    assert member.status == "pending"
