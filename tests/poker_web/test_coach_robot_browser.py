"""A game against the robot in a real browser on a phone (360 px) and a wide
screen: the robot's board fills along with the player's; the end says who won."""

import re

import pytest
from playwright.sync_api import expect

from games.models import GameResult
from tests.poker_web.test_poker_browser import DIALOG_JOKER, choose_joker_value, play_to_end

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.mark.parametrize("width", [360, 1280])
def test_playing_the_coach_robot(player_page, artifacts, width):
    page = player_page
    page.set_viewport_size({"width": width, "height": 800})
    page.goto("/poker/robot/")
    page.check("input[name=level][value=coach]")
    page.click("#poker-start")
    page.wait_for_selector("#poker-game:not([hidden])")
    robot = page.get_by_test_id("robot")
    expect(robot).to_be_visible()
    expect(page.get_by_test_id("hint")).to_have_count(0)
    expect(robot.locator(".poker-cell.is-filled")).to_have_count(0)
    if page.locator(f"{DIALOG_JOKER}[open]").count():  # a joker first: it gets a value
        choose_joker_value(page, 7)
    page.locator("#poker-board .poker-cell:not([disabled])").first.click()
    # The robot plays the number the player has just handled (a joker it may keep).
    expect(page.locator("#poker-board .poker-cell.is-filled, dialog[open]")).not_to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(artifacts / f"coach-robot-{width}.png"), full_page=True)
    play_to_end(page)
    expect(page.get_by_test_id("end-robot")).to_have_text(re.compile(r"robot \(coach\)"))
    expect(robot.locator(".poker-cell.is-filled")).to_have_count(25)
    result = GameResult.objects.get(player=page.profile)
    assert result.record.mode == "robot"
    assert result.details["outcome"] in ("win", "loss", "draw")
