"""In a class game the host sees the roster name beside the nickname (issue 31).

Seen: two "Tichá Myška" among ten pupils, and the teacher could not tell who is
who (generated nicknames say nothing about the child). Only the host gets roster names; a pupil's standings never carry them.
"""

import pytest
from playwright.sync_api import expect

from classrooms import launch
from games.poker.room_games import standings
from games.rooms import services as rooms
from tests.classrooms import factories
from tests.classrooms.login import log_in
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_the_host_sees_roster_names_and_pupils_do_not(transactional_db, browser, asgi_server):
    teacher = factories.make_teacher("jmena@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    pupils = []
    for roster_name, nickname in (("Adam Kováč", "Tichá Myška"), ("Bára Nová", "Tichý Ježek")):
        profile, _cookie = player_cookie(nickname)
        factories.add_member(classroom, player=profile, roster_name=roster_name)
        rooms.join_room(room=room, player=profile)
        pupils.append(profile)
    rooms.start_room(room=room, actor=room.host)
    room.refresh_from_db()

    host_view = standings.group_standings(room, player_id=room.host_id)
    assert {e["roster_name"] for e in host_view["ranking"]} == {"Adam Kováč", "Bára Nová"}
    pupil_view = standings.group_standings(room, player_id=pupils[0].pk)
    assert "roster_name" not in str(pupil_view)

    context = browser.new_context(
        base_url=asgi_server, viewport={"width": 1280, "height": 800}, locale="en-GB"
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, teacher)
    page.goto(f"/rooms/{room.code}/")
    live = page.locator("[data-testid=live-ranking] tbody")
    expect(live).to_contain_text("Tichá Myška (Adam Kováč)")
    expect(live).to_contain_text("Tichý Ježek (Bára Nová)")
    context.close()
