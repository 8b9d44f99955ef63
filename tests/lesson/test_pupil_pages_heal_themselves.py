"""Issue 40 §3: a pupil who opens the projector link gets a friendly page with
the way to their own board (not a 404), and the pupil waiting for approval is
not told to reload the page: it refreshes by itself (static/js/classrooms/live.js)."""

from __future__ import annotations

import pytest
from django.conf import settings

from classrooms.models import Membership
from tests.classrooms import factories
from tests.poker_room.test_poker_room_views import as_player, started_group
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.django_db]


def test_a_pupil_on_the_projector_link_is_sent_to_their_board(client):
    room, host, (pupil, _other) = started_group()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = as_player(client, pupil).get(f"/poker/room/{room.code}/projector/")
    assert page.status_code == 403
    html = page.content.decode()
    assert "This page is for the projector" in html
    assert f'href="/rooms/{room.code}/"' in html
    assert "pr-projector" not in html  # nothing of the projector's view

    # Nobody's cookie at all (a shared link): the same friendly page.
    client.cookies.clear()
    anonymous = client.get(f"/poker/room/{room.code}/projector/")
    assert anonymous.status_code == 403 and b"pr-projector" not in anonymous.content
    assert as_player(client, host).get(f"/poker/room/{room.code}/projector/").status_code == 200


def test_a_waiting_pupil_is_not_told_to_reload_the_page(client):
    classroom = factories.make_class(factories.make_teacher(), name="7.B")
    profile, cookie = player_cookie("Tichý Ježek")
    factories.add_member(
        classroom, profile, roster_name="Cyril Pekný", status=Membership.Status.PENDING
    )
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    html = client.get(f"/classes/{classroom.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="pending-note"' in html
    assert "Reload" not in html and "reload" not in html
    assert "updates by itself" in html
    assert "data-class-status" in html and "js/classrooms/live.js" in html
