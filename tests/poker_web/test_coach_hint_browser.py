"""The coach's Hint button on a phone (360 px): easy solo game and scoresheet;
no Hint button in ranked games, where the server refuses hints anyway."""

import re

import pytest
from playwright.sync_api import expect

from games.poker.models import SoloGame
from tests.poker_web.test_poker_browser import start_rigged

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}
# The coach's sentence: the line the move helps, the empty line it starts, or where a
# parked number costs least (games/poker/coach_advice.py).
REASON = re.compile(r"at row \d, column \d: it (helps|starts an empty line)")


def test_the_easy_game_hint_highlights_an_empty_cell_and_says_why(player_page, artifacts):
    page = player_page
    page.set_viewport_size(PHONE)
    start_rigged(page, [7, 7, 7, 7, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13] * 3)
    game = SoloGame.objects.latest("created_at")
    hint = page.get_by_test_id("hint")
    expect(hint).to_be_visible()
    hint.click()
    highlighted = page.locator(".poker-cell.is-hint")
    expect(highlighted).to_have_count(1)
    expect(page.locator("#poker-status")).to_contain_text(REASON)
    # The button fits the phone width and the hinted cell is an empty, playable one.
    box = hint.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"]
    index = int(highlighted.get_attribute("data-cell"))
    assert game.state["cells"][index] is None
    page.screenshot(path=str(artifacts / "coach-hint-360.png"), full_page=True)
    highlighted.click()
    # A placement clears the highlight; the server counted the hint.
    expect(page.locator(".poker-cell.is-hint")).to_have_count(0)
    game.refresh_from_db()
    assert game.hints == 1
    assert game.moves[0]["cell"] == index


def test_the_scoresheet_hint_on_a_phone(page, asgi_server, artifacts):
    page.set_viewport_size(PHONE)
    page.goto("/poker/scoresheet/")
    for index, value in ((0, "9"), (1, "9"), (6, "2")):
        page.locator(f".poker-cell[data-cell='{index}']").fill(value)
    page.fill("#poker-sheet-card", "9")
    page.get_by_test_id("hint").click()
    highlighted = page.locator(".poker-cell.is-hint")
    expect(highlighted).to_have_count(1)
    assert highlighted.input_value() == ""
    expect(page.locator("#poker-status")).to_contain_text(REASON)
    page.screenshot(path=str(artifacts / "coach-scoresheet-hint-360.png"), full_page=True)


def test_a_ranked_game_has_no_hint_button(player_page):
    page = player_page
    page.set_viewport_size(PHONE)
    page.goto("/poker/ranked/")
    expect(page.get_by_test_id("hint")).to_have_count(0)
