"""The class on the host's pages of a class game, in Chromium (issue 40 §3).

The teacher's lobby names a pupil who joins by roster name beside the nickname
(live, from the socket and the class's list); once the game runs, a latecomer
waiting for approval shows on the host's room page and as a count on the
projector, and "Approve all" (confirmed in the site's dialog) lets them in
without leaving the game.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from classrooms import launch
from classrooms.models import Membership
from games.rooms import services as rooms
from tests.classrooms import factories
from tests.classrooms.login import log_in
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_the_host_names_pupils_in_the_lobby_and_approves_latecomers_in_the_game(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("pozdni@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    context = browser.new_context(
        base_url=asgi_server, viewport={"width": 1280, "height": 800}, locale="en-GB"
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, teacher)
    page.goto(f"/rooms/{room.code}/")
    expect(page.locator("[data-room-connection]")).to_have_attribute("data-state", "online")

    # A pupil joins the lobby while the teacher watches: the roster name comes with them.
    profile, _cookie = player_cookie("Tichá Myška")
    factories.add_member(classroom, player=profile, roster_name="Adam Kováč")
    rooms.join_room(room=room, player=profile)
    expect(page.locator("[data-room-seats]")).to_contain_text("Tichá Myška (Adam Kováč)")

    rooms.start_room(room=room, actor=room.host)
    waiting = page.get_by_test_id("class-waiting")
    for name in ("Bára Nová", "Cyril Malý"):
        factories.add_member(classroom, roster_name=name, status="pending")
    expect(waiting.get_by_test_id("class-waiting-count")).to_have_text(
        "2 pupils are waiting for your approval to join the class"
    )
    expect(waiting.get_by_test_id("class-waiting-list")).to_contain_text("Bára Nová")

    projector = context.new_page()
    projector.goto(f"/poker/room/{room.code}/projector/")
    expect(projector.get_by_test_id("class-waiting-count")).to_have_text(
        "2 pupils are waiting for your approval to join the class"
    )
    projector.close()

    page.get_by_test_id("approve-all-waiting").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Approve all 2 waiting pupils?")
    dialog.locator("text=Yes").click()
    expect(waiting).to_be_hidden()
    assert not Membership.objects.filter(classroom=classroom, status="pending").exists()
    context.close()
