"""The coach's game review in a real browser at 360 px (phone) and 1280 px
(a projected classroom screen): reached from the end dialog, stepped through."""

import re

import pytest
from playwright.sync_api import expect

from tests.poker_web.test_poker_browser import play_to_end, start

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.mark.parametrize("width", [360, 1280])
def test_the_review_steps_through_the_game_beside_the_coach(player_page, artifacts, width):
    page = player_page
    page.set_viewport_size({"width": width, "height": 800})
    start(page)
    play_to_end(page)
    score = page.get_by_test_id("end-score").inner_text()
    link = page.get_by_test_id("review-link")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_selector("[data-testid=review]")
    expect(page.get_by_test_id("review-score")).to_have_text(score)
    expect(page.get_by_test_id("coach-score")).to_have_text(re.compile(r"^\d+$"))
    expect(page.get_by_test_id("review-counter")).to_contain_text("1")
    expect(page.locator("#poker-board .poker-cell.is-player")).to_have_count(1)
    first = page.get_by_test_id("review-move").inner_text()
    page.get_by_test_id("review-next").click()
    expect(page.get_by_test_id("review-move")).not_to_have_text(first)
    expect(page.locator("#poker-board .poker-cell.is-filled")).to_have_count(2)
    expect(page.locator("tr.is-current")).to_have_count(1)
    # Nothing wider than the screen (phone) and the board fully visible.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#poker-board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    page.screenshot(path=str(artifacts / f"coach-review-{width}.png"), full_page=True)
    # The shared link works in another browser without a profile.
    url = page.url
    page.context.clear_cookies()
    page.goto(url)
    expect(page.get_by_test_id("coach-score")).to_have_text(re.compile(r"^\d+$"))
