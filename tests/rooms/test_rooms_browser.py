"""The room page in a real browser: join by link on a phone, live seats, host controls."""

import pytest
from playwright.sync_api import expect

from games.rooms import services
from games.rooms.models import Room, Seat
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live, pytest.mark.browser]


def _context(browser, base_url, player=None, **options):
    context = browser.new_context(base_url=base_url, locale="en-GB", **options)
    if player is not None:
        for part in player.cookie.split("; "):
            name, value = part.split("=", 1)
            context.add_cookies([{"name": name, "value": value, "url": base_url}])
    return context


def _collect_problems(page, problems):
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))


def test_join_by_link_play_reload_and_get_kicked(
    transactional_db, browser, rooms_servers, make_player
):
    server = rooms_servers[0]
    host = make_player("Teacher Anna")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    problems: list[str] = []

    host_context = _context(browser, server, host)
    host_page = host_context.new_page()
    _collect_problems(host_page, problems)
    host_page.goto(f"/rooms/{room.code}/")
    expect(host_page.locator("[data-room-connection]")).to_have_text("Connected")
    expect(host_page.get_by_test_id("room-code")).to_have_text(room.code)

    phone = _context(browser, server, viewport={"width": 375, "height": 720}, is_mobile=True)
    guest_page = phone.new_page()
    _collect_problems(guest_page, problems)
    guest_page.goto(f"/rooms/{room.code}/")
    guest_page.get_by_label("Your nickname").fill("Quick Fox")
    guest_page.get_by_role("button", name="Join the game").click()
    expect(guest_page.locator("[data-room-connection]")).to_have_text("Connected")
    expect(guest_page.locator("[data-room-seats]")).to_contain_text("Quick Fox")
    expect(host_page.locator("[data-room-seats]")).to_contain_text("Quick Fox")  # live
    expect(host_page.locator("[data-room-count]")).to_have_text("2/2")

    host_page.get_by_role("button", name="Start the game").click()
    expect(guest_page.locator("[data-room-status]")).to_have_text("The game is running.")
    assert Room.objects.get(pk=room.pk).status == "running"

    guest_page.reload()  # reconnect: the seat and the state come back
    expect(guest_page.locator("[data-room-connection]")).to_have_text("Connected")
    expect(guest_page.locator("[data-room-status]")).to_have_text("The game is running.")

    host_page.locator("[data-room-seats] li", has_text="Quick Fox").get_by_role(
        "button", name="Remove"
    ).click()
    host_page.get_by_role("dialog").get_by_role("button", name="Yes").click()
    expect(guest_page.locator("[data-room-connection]")).to_have_text(
        "The host removed you from this room."
    )
    assert Seat.objects.get(room=room, player__nickname="Quick Fox").status == "kicked"
    guest_page.reload()
    expect(guest_page.get_by_text("The host removed you from this room.")).to_be_visible()
    assert problems == []
    host_context.close()
    phone.close()
