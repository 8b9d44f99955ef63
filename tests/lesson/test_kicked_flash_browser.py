"""A pupil the host removes no longer reads the green "You are in the room."
(issue 31, low), on a 360 px phone."""

import pytest
from playwright.sync_api import expect

from classrooms import launch
from games.rooms import services as rooms
from games.rooms.models import Seat
from tests.classrooms import factories

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_the_kicked_pupil_loses_the_joined_flash(transactional_db, browser, asgi_server):
    teacher = factories.make_teacher("odebrat@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    context = browser.new_context(
        base_url=asgi_server, viewport={"width": 360, "height": 740}, locale="en-GB"
    )
    context.set_default_timeout(20_000)
    phone = context.new_page()
    phone.goto(f"/rooms/{room.code}/")
    phone.get_by_label("Your nickname").fill("Quick Fox")
    phone.get_by_role("button", name="Join the game").click()
    flash = phone.locator(".messages .message-success")
    expect(flash).to_have_text("You are in the room.")
    expect(phone.locator("[data-room-connection]")).to_have_text("Connected")

    player = Seat.objects.get(room=room, player__nickname="Quick Fox").player
    rooms.kick(room=room, actor=room.host, player_id=player.pk)
    expect(phone.locator("[data-room-connection]")).to_have_text(
        "The host removed you from this room."
    )
    expect(flash).to_have_count(0)
    context.close()
