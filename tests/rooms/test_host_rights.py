"""Host rights of class games belong to the teacher's account and end at logout
(issue 16 §1). Each attack that worked before is replayed through HTTP and a
real WebSocket and must now fail."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client

from accounts import services as account_services
from classrooms import invitation_services
from classrooms import services as classroom_services
from classrooms.models import CoTeacher
from games.rooms import services as room_services
from games.rooms.models import Room
from tests.classrooms import factories

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


def _session_socket_user(client: Client) -> SimpleNamespace:
    """What a browser with only this session (no identity cookie) sends."""
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return SimpleNamespace(cookie=f"{settings.SESSION_COOKIE_NAME}={session}; matika_lang=en")


def _start_group_game(client: Client, classroom) -> Room:
    response = client.post(
        f"/classes/{classroom.pk}/games/start/", {"game": "poker", "mode": "group"}
    )
    assert response.status_code == 302, response
    return Room.objects.get(classroom=classroom, game="poker", mode="group")


def test_the_teacher_hosts_by_session_and_logging_out_ends_every_right(server, open_socket):
    teacher = factories.make_teacher("host@skola.cz")
    classroom = factories.make_class(teacher)
    browser = Client(headers={"accept-language": "en"})
    browser.force_login(teacher)
    room = _start_group_game(browser, classroom)
    teacher.refresh_from_db()
    assert room.host == teacher.player
    # The teacher's profile never enters the browser's identity cookie.
    assert settings.PLAYER_COOKIE_NAME not in browser.cookies
    assert browser.get(f"/poker/room/{room.code}/projector/").status_code == 200
    logged_in = _session_socket_user(browser)
    socket = open_socket(server, room.code, logged_in)
    snapshot = socket.recv_until(lambda m: m["type"] == "sync")
    assert snapshot["you"]["role"] == "host"
    assert socket.request({"type": "lock"})["type"] == "ack"

    browser.post("/accounts/logout/")
    page = browser.get("/accounts/player/").content.decode()
    assert teacher.player.nickname not in page and teacher.player.code[:5] not in page
    assert browser.get(f"/poker/room/{room.code}/projector/").status_code == 403
    assert b"data-host-controls" not in browser.get(f"/rooms/{room.code}/").content
    stale = open_socket(server, room.code, logged_in)
    refusal = stale.recv_until(lambda m: m["type"] == "error")
    assert refusal["code"] == "no_identity"


def test_the_teachers_profile_code_does_not_bring_the_profile_to_a_pupils_device():
    teacher = factories.make_teacher("code@skola.cz")
    player = classroom_services.ensure_teacher_player(user=teacher)
    with pytest.raises(Exception) as refused:
        account_services.continue_with_code(browser_token=None, code=player.code, limit_key="t")
    assert getattr(refused.value, "code", None) == "unknown_code"


def _class_with_a_co_teacher():
    """A class, its owner, an accepted co-teacher and the co-teacher's browser."""
    owner, colleague = factories.make_teacher(), factories.make_teacher()
    classroom = factories.make_class(owner)
    factories.add_co_teacher(classroom, colleague)
    browser = Client(headers={"accept-language": "en"})
    browser.force_login(colleague)
    return owner, colleague, classroom, browser


def test_a_removed_co_teacher_loses_host_rights_at_once(server, open_socket):
    owner, colleague, classroom, browser = _class_with_a_co_teacher()
    room = _start_group_game(browser, classroom)
    socket = open_socket(server, room.code, _session_socket_user(browser))
    socket.recv_until(lambda m: m["type"] == "sync")
    invite = CoTeacher.objects.get(classroom=classroom)
    invitation_services.remove_co_teacher(classroom=classroom, co_teacher_id=invite.pk, user=owner)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    # Their open socket is told and closed at once (tests/security/test_logout_push.py).
    notice = socket.recv_until(lambda m: m["type"] == "error")
    assert notice["code"] == "not_class_teacher"
    assert browser.get(f"/classes/{classroom.pk}/").status_code == 404


def test_a_removed_co_teacher_keeps_no_rights_over_the_class_rooms_they_hosted(server, open_socket):
    """The rooms they hosted in the class stay theirs on record, but their session
    no longer acts there: no projector of the finished group game (the pupils'
    standings), no "Play again" that would open a new class game seating the
    pupils, no host socket."""
    owner, colleague, classroom, browser = _class_with_a_co_teacher()
    group = _start_group_game(browser, classroom)
    colleague.refresh_from_db()
    pupil = factories.make_player("Pupil")
    table = room_services.create_room(
        game="mathesso", mode="table", host=colleague.player, settings={}, classroom=classroom
    )
    room_services.join_room(room=table, player=pupil)
    room_services.start_room(room=table, actor=colleague.player)
    room_services.end_room(room=table, actor=colleague.player)
    # While they teach the class, the finished table is theirs to play again.
    assert b"rematch" in browser.get(f"/rooms/{table.code}/").content
    assert browser.get(f"/poker/room/{group.code}/projector/").status_code == 200

    invite = CoTeacher.objects.get(classroom=classroom)
    invitation_services.remove_co_teacher(classroom=classroom, co_teacher_id=invite.pk, user=owner)

    assert browser.get(f"/poker/room/{group.code}/projector/").status_code == 404
    rooms_before = Room.objects.filter(classroom=classroom).count()
    refused = browser.post(f"/rooms/{table.code}/rematch/")
    assert refused.status_code in (403, 404, 409), refused.status_code
    assert Room.objects.filter(classroom=classroom).count() == rooms_before
    assert b"rematch" not in browser.get(f"/rooms/{table.code}/").content
    socket = open_socket(server, group.code, _session_socket_user(browser))
    assert socket.recv_until(lambda m: m["type"] == "error")["code"] in (
        "no_identity",
        "not_in_room",
    )
    # The owner still teaches the class: hosting a new game there works.
    owner_browser = Client(headers={"accept-language": "en"})
    owner_browser.force_login(owner)
    assert (
        owner_browser.post(
            f"/classes/{classroom.pk}/games/start/", {"game": "poker", "mode": "group"}
        ).status_code
        == 302
    )


def test_only_the_owner_may_allow_publication():
    owner = factories.make_teacher("own@skola.cz")
    colleague = factories.make_teacher("col@skola.cz")
    classroom = factories.make_class(owner)
    factories.add_co_teacher(classroom, colleague)
    co_client = Client(headers={"accept-language": "en"})
    co_client.force_login(colleague)
    response = co_client.post(
        f"/classes/{classroom.pk}/edit/", {"name": classroom.name, "public_publication": "on"}
    )
    assert response.status_code == 200
    assert "Only the teacher who owns the class" in response.content.decode()
    classroom.refresh_from_db()
    assert not classroom.public_publication
    api = co_client.patch(
        f"/api/classes/{classroom.pk}/",
        {"public_publication": True},
        content_type="application/json",
    )
    assert api.status_code == 400 and api.json()["code"] == "owner_only"
    owner_client = Client(headers={"accept-language": "en"})
    owner_client.force_login(owner)
    owner_client.post(
        f"/classes/{classroom.pk}/edit/", {"name": classroom.name, "public_publication": "on"}
    )
    classroom.refresh_from_db()
    assert classroom.public_publication


def test_a_new_profile_code_and_signing_out_other_devices(player_on_two_devices):
    phone, tablet, player = player_on_two_devices
    old_code = player.code
    phone.post("/accounts/player/code/renew/")
    player.refresh_from_db()
    assert player.code != old_code
    with pytest.raises(Exception) as refused:
        account_services.continue_with_code(browser_token=None, code=old_code, limit_key="t2")
    assert getattr(refused.value, "code", None) == "unknown_code"
    assert tablet.get("/accounts/player/").context["player"] == player
    phone.post("/accounts/player/sign-out-others/")
    assert tablet.get("/accounts/player/").context["player"] is None
    assert phone.get("/accounts/player/").context["player"] == player


@pytest.fixture
def player_on_two_devices():
    phone = Client(headers={"accept-language": "en"})
    phone.post("/accounts/player/new/", {"nickname": "Dvě Zařízení"})
    player = phone.get("/accounts/player/").context["player"]
    tablet = Client(headers={"accept-language": "en"})
    tablet.post("/accounts/player/continue/", {"code": player.code})
    assert tablet.get("/accounts/player/").context["player"] == player
    return phone, tablet, player
