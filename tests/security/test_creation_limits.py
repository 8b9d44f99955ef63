"""Creation limits per browser and address, the pending cap, and the limits'
store going away (issue 16, section 2).

Today one browser opened 300 lobbies in 8 s and 60 profiles a second, and 205
junk joins filled a class to its 200 cap so that a real pupil was refused; the
limiter answered 500 while Redis was down.
"""

from __future__ import annotations

import pytest

from classrooms import services as classroom_services
from classrooms.models import Membership
from games.rooms.models import Room
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_limits(settings):
    settings.MATIKA_LIMITS = {
        "room_creations_identity": "3/h",
        "profile_creations_identity": "3/h",
        "profile_creations_address": "5/h",
        "class_joins_address": "50/h",
    }


def _new_lobby(client):
    return client.post("/poker/room/new/group/", {"nickname": "Lobby Opener"})


def test_one_browser_cannot_open_a_flood_of_lobbies(browser, small_limits):
    opener = browser()
    assert opener.post("/accounts/player/new/", {"nickname": "Lobby Flood"}).status_code == 302
    answers = [_new_lobby(opener).status_code for _ in range(5)]
    assert answers == [302, 302, 302, 400, 400]
    assert Room.objects.filter(host__nickname="Lobby Flood").count() == 3
    # Someone else behind the same address still opens a lobby.
    other = browser()
    assert other.post("/accounts/player/new/", {"nickname": "Other Opener"}).status_code == 302
    assert _new_lobby(other).status_code == 302


def test_profiles_are_limited_per_browser_and_address(browser, small_limits):
    same = browser()
    # The first profile comes before the browser has its cookie (the address's
    # bucket); the next three count against the browser itself (3 an hour).
    first = [
        same.post("/accounts/player/new/", {"nickname": f"Same Browser {n}"}).status_code
        for n in range(5)
    ]
    assert first == [302, 302, 302, 302, 429]
    # Browsers without cookies share the address's ceiling (5, one used above).
    fresh = [
        browser().post("/accounts/player/new/", {"nickname": f"Fresh Browser {n}"}).status_code
        for n in range(5)
    ]
    assert fresh == [302] * 4 + [429]


def test_junk_joins_cannot_lock_a_real_pupil_out(browser):
    classroom = factories.make_class(roster="Real Pupil")
    for number in range(classroom_services.MAX_PENDING):
        factories.add_member(
            classroom, roster_name=f"Junk {number}", status=Membership.Status.PENDING
        )
    flooder = browser()
    refused = flooder.post(
        f"/classes/join/{classroom.join_code}/",
        {"typed_name": "Junk more", "nickname": "Junk Nick"},
    )
    assert refused.status_code == 400
    assert "waiting for the teacher" in refused.content.decode()
    # The real pupil claims their roster name with the claim code the teacher
    # printed (a claim without it waits for the teacher like a typed name):
    # the waiting joins do not count.
    real = classroom.members.get(roster_name="Real Pupil")
    pupil = browser()
    joined = pupil.post(
        f"/classes/join/{classroom.join_code}/",
        {"member": real.pk, "nickname": "Real Nick", "claim_code": real.claim_code},
    )
    assert joined.status_code == 302
    real.refresh_from_db()
    assert real.player is not None and real.status == Membership.Status.APPROVED


def test_pending_joins_never_fill_the_members_cap(browser, settings):
    classroom = factories.make_class(roster="")
    for number in range(classroom_services.MAX_MEMBERS - 1):
        factories.add_member(classroom, roster_name=f"Approved {number}")
    for number in range(classroom_services.MAX_PENDING - 1):
        factories.add_member(
            classroom, roster_name=f"Waiting {number}", status=Membership.Status.PENDING
        )
    pupil = browser()
    joined = pupil.post(
        f"/classes/join/{classroom.join_code}/",
        {"typed_name": "Last Real Pupil", "nickname": "Last Nick"},
    )
    assert joined.status_code == 302


def test_the_teacher_removes_all_waiting_joins_in_one_click(client):
    teacher = factories.make_teacher()
    classroom = factories.make_class(teacher, roster="Kept Name")
    approved = factories.add_member(classroom, roster_name="Approved Pupil")
    for number in range(12):
        factories.add_member(
            classroom, roster_name=f"Junk {number}", status=Membership.Status.PENDING
        )
    client.force_login(teacher)
    page = client.get(f"/classes/{classroom.pk}/").content.decode()
    assert 'data-testid="remove-pending"' in page and "data-confirm=" in page
    answer = client.post(f"/classes/{classroom.pk}/members/pending/remove/", follow=True)
    assert "12 waiting joins were removed." in answer.content.decode()
    assert not classroom.members.filter(status=Membership.Status.PENDING).exists()
    assert set(classroom.members.values_list("roster_name", flat=True)) == {
        "Kept Name",
        approved.roster_name,
    }
    # Somebody else's class: not found, nothing removed.
    other = factories.make_class(roster="")
    factories.add_member(other, roster_name="Their pupil", status=Membership.Status.PENDING)
    assert client.post(f"/classes/{other.pk}/members/pending/remove/").status_code == 404
    assert other.members.count() == 1


@pytest.fixture
def store_down(settings):
    settings.CACHES = {
        **settings.CACHES,
        "down": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    }
    settings.RATELIMIT_USE_CACHE = "down"


def test_requests_are_served_while_the_limits_store_is_down(browser, store_down, caplog):
    classroom = factories.make_class(roster="")
    profile = factories.make_player("Outage Nick")
    visitor = browser()
    assert visitor.post("/classes/join/", {"code": "ZZZZZZ"}).status_code == 400
    assert visitor.post("/classes/join/", {"code": classroom.join_code}).status_code == 302
    assert visitor.get("/rooms/ZZZZZ2/").status_code == 404
    assert visitor.post("/accounts/player/continue/", {"code": "WRONGCODE1"}).status_code == 400
    assert visitor.post("/accounts/player/continue/", {"code": profile.code}).status_code == 302
    assert visitor.post("/poker/room/new/group/", {}).status_code == 302
    assert "store unavailable" in caplog.text
