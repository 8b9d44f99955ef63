"""The teacher picks the poker settings on the class page in a real headless Chromium."""

import pytest
from playwright.sync_api import expect

from games.rooms.models import Room
from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_teacher_picks_hard_poker_on_a_phone_and_starts_the_group_game(transactional_db, page):
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.set_viewport_size({"width": 375, "height": 740})
    teacher = factories.make_teacher("nastavenia@skola.sk")
    classroom = factories.make_class(teacher, name="7.B")
    log_in(page, teacher)
    page.goto(f"/classes/{classroom.pk}/")

    settings = page.locator("[data-testid=settings-poker]")
    seconds = settings.locator("input[name=seconds]")
    expect(seconds).to_be_hidden()  # collapsed
    settings.locator("summary").click()
    expect(seconds).to_be_hidden()  # easy: no clock, so no seconds
    settings.get_by_label("Hard: a time limit for each number").check()
    expect(seconds).to_be_visible()
    seconds.fill("30")
    settings.get_by_label("Scoring table").select_option("school")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.click("text=Group game for the whole class")
    page.wait_for_url("**/rooms/*/")

    room = Room.objects.get(classroom=classroom)
    assert room.settings == {
        "table": "school",
        "difficulty": "hard",
        "seconds": 30,
        "host_plays": False,
    }
    assert problems == []
