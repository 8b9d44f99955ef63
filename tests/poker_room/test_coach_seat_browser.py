"""The coach seat in a real group room: the teacher's projector ranks the coach
with the class, its board filled as soon as each number is drawn."""

from __future__ import annotations

import re

import pytest

from games.rooms import services
from games.rooms.models import Room
from tests.poker_room.live import rig_deck, standings
from tests.poker_room.test_poker_room_browser import _context

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_the_coach_seat_on_the_projector_ranking(
    transactional_db, browser, poker_server, make_player
):
    from playwright.sync_api import expect

    host = make_player("Pani učiteľka")
    pupil = make_player("Adam")
    room = services.create_room(
        game="poker", mode="group", host=host.profile, settings={"coach_seat": True}
    )
    host_context = _context(browser, poker_server, host, phone=False)
    host_page = host_context.new_page()
    host_page.set_viewport_size({"width": 1280, "height": 800})
    host_page.goto(f"/rooms/{room.code}/")
    expect(host_page.locator("[data-room-connection]")).to_have_text("Connected")
    pupil_page = _context(browser, poker_server, pupil, phone=True).new_page()
    pupil_page.goto(f"/rooms/{room.code}/")
    pupil_page.get_by_role("button", name="Join the game").click()
    expect(pupil_page.locator("[data-room-connection]")).to_have_text("Connected")
    expect(host_page.locator("[data-room-seats]")).to_contain_text("Adam")
    host_page.get_by_role("button", name="Start the game").click()
    expect(host_page.locator("[data-testid=draw]")).to_be_enabled()
    # Numbers only: a joker's dialog would cover the board the pupil clicks.
    rig_deck(Room.objects.get(pk=room.pk), [5, 6, 7])
    for turn in range(3):
        host_page.keyboard.press("g")
        hand = pupil_page.locator("[data-pr-hand]")
        expect(hand).to_have_attribute("data-dealt", str(turn + 1))
        pupil_page.locator("[data-pr-board] .poker-cell:not(.is-filled)").first.click()
        expect(pupil_page.locator("#pr-root")).not_to_have_class(re.compile("is-busy"))
    data = standings(poker_server, room, host)
    coach = [entry for entry in data["ranking"] if entry.get("robot")]
    assert len(coach) == 1 and coach[0]["handled"] == 3
    # The class waits only for the pupil, never for the robot.
    assert data["total"] == 1
    projector = host_context.new_page()
    projector.set_viewport_size({"width": 1280, "height": 800})
    projector.goto(f"/poker/room/{room.code}/projector/")
    ranking = projector.locator("[data-testid=projector-ranking] li")
    expect(ranking).to_have_count(2)
    expect(projector.locator("[data-testid=projector-ranking]")).to_contain_text("Coach (robot)")
    projector.screenshot(path="test-results/poker/coach-seat-projector-1280.png", full_page=True)
