"""A taken nickname keeps what the child typed, and the free ones are buttons
(issue 31, low), on a 360 px phone.

Seen: joining a room with a nickname somebody already had replaced the typed
nickname with a new random one, and the free nicknames the error named were
plain text the child had to retype.
"""

import pytest
from playwright.sync_api import expect

from accounts.models import PlayerProfile
from classrooms import launch
from games.rooms.models import Seat
from tests.classrooms import factories

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}


def _phone(browser, asgi_server):
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    return context, context.new_page()


def test_joining_a_room_with_a_taken_nickname(transactional_db, browser, asgi_server):
    factories.make_player("Quick Fox")
    teacher = factories.make_teacher("prezdivky@skola.cz")
    room = launch.start_group_game(
        classroom=factories.make_class(teacher), user=teacher, game="poker"
    )
    context, phone = _phone(browser, asgi_server)
    phone.goto(f"/rooms/{room.code}/")
    field = phone.get_by_label("Your nickname")
    field.fill("quick fox")
    phone.get_by_role("button", name="Join the game").click()
    expect(phone.locator(".room-error")).to_contain_text("This nickname is already taken.")
    expect(field).to_have_value("quick fox")

    offered = phone.locator("[data-testid=nickname-suggestions] [data-use-nickname]")
    expect(offered).to_have_count(3)
    choice = offered.nth(1).inner_text()
    assert choice.startswith("quick fox ")
    box = offered.nth(1).bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 24
    offered.nth(1).click()
    expect(field).to_have_value(choice)
    phone.get_by_role("button", name="Join the game").click()
    expect(phone.locator(".messages .message-success")).to_have_text("You are in the room.")
    assert Seat.objects.filter(room=room, player__nickname=choice).exists()
    context.close()


def test_choosing_a_taken_nickname_on_the_profile_page(transactional_db, browser, asgi_server):
    factories.make_player("Tichá Myška")
    context, phone = _phone(browser, asgi_server)
    phone.goto("/accounts/player/")
    field = phone.locator("#id_nickname")
    field.fill("Tichá Myška")
    phone.get_by_role("button", name="Create profile").click()
    expect(phone.locator(".field.has-error .error")).to_contain_text("already taken")
    expect(field).to_have_value("Tichá Myška")
    offered = phone.locator("[data-use-nickname]")
    expect(offered).to_have_count(3)
    choice = offered.first.inner_text()
    offered.first.click()
    expect(field).to_have_value(choice)
    phone.get_by_role("button", name="Create profile").click()
    expect(phone.locator(".messages")).to_contain_text(f"Hello, {choice}!")
    assert PlayerProfile.objects.filter(nickname=choice).exists()
    context.close()
