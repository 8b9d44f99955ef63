"""A latecomer on a 360 px phone joins the running class group game (issue 31).

Seen in the lesson: a class member who opened the class page after the host
started got only "The game has already started.". Now the class page offers
"Join the game", the pupil plays the number in hand, and the page says how many
numbers drawn before them count as missed.
"""

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from classrooms import launch
from games.rooms import services as rooms
from tests.classrooms import factories
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "lesson"
PHONE = {"width": 360, "height": 740}


def test_a_latecomer_joins_the_running_group_game_from_the_class_page(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("pozde@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(
        classroom=classroom, user=teacher, game="poker", settings={"table": "contiguous"}
    )
    host = room.host
    early = factories.add_member(classroom, roster_name="Adam Kováč").player
    rooms.join_room(room=room, player=early)
    rooms.start_room(room=room, actor=host)
    room.refresh_from_db()
    room.state["deck"][:4] = [5, 9, 2, 11]  # no joker among the first draws
    type(room).objects.filter(pk=room.pk).update(state=room.state)
    for turn in range(3):
        rooms.submit(room_id=room.pk, player=host, client_id=f"d{turn}", message={"type": "draw"})

    profile, cookie = player_cookie()
    factories.add_member(classroom, player=profile, roster_name="Bára Nová")
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    phone = context.new_page()
    problems: list[str] = []
    phone.on("pageerror", lambda error: problems.append(str(error)))

    phone.goto(f"/classes/{classroom.pk}/")
    rooms_list = phone.locator("[data-testid=live-rooms]")
    rooms_list.get_by_role("button", name="Join the game").click()
    phone.wait_for_url(f"**/rooms/{room.code}/")
    expect(phone.locator("[data-testid=missed]")).to_have_text(
        "You came late: 2 numbers drawn before you count as missed."
    )
    expect(phone.locator("[data-testid=hand]")).to_have_text("2")
    cell = phone.locator("[data-testid=board] [data-cell='12']")
    cell.click()
    expect(cell.locator(".poker-value")).to_have_text("2")
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / "latecomer-phone.png"))

    rooms.submit(room_id=room.pk, player=host, client_id="d3", message={"type": "draw"})
    expect(phone.locator("[data-testid=hand]")).to_have_text("11")
    assert not problems, problems
    context.close()
