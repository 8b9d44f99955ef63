"""The keyboard alone: every game's board is reached in a few Tab presses and played
with the arrows, Enter and Space (WAI-ARIA grid pattern: roving focus)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.a11y.keyboard import DESKTOP, PHONE, focused, poker_started, solo_room, tabs_to

pytestmark = [pytest.mark.browser, pytest.mark.live]

MOST_TABS = 6

POKER_CELL = "#poker-board button.poker-cell"
ABAKU_PLAYABLE = ".ab-cell, .ab-rack-stone"
MATHESSO_PLAYABLE = ".mt-tile"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_poker_board_is_reached_in_few_tabs(transactional_db, open_page, viewport):
    page = poker_started(open_page, viewport)
    assert tabs_to(page, POKER_CELL, skip_link=True) <= MOST_TABS


@pytest.mark.parametrize(
    "game,playable", [("abaku", ABAKU_PLAYABLE), ("mathesso", MATHESSO_PLAYABLE)]
)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_solo_board_is_reached_in_few_tabs(transactional_db, open_page, viewport, game, playable):
    path, cookies = solo_room(game)
    page = open_page(path, viewport, cookies)
    page.wait_for_selector(playable)
    page.wait_for_timeout(500)
    assert tabs_to(page, playable, skip_link=True) <= MOST_TABS


def _label(page) -> str:
    return focused(page)["label"]


def test_poker_is_played_to_the_end_with_the_keyboard(transactional_db, open_page):
    """Arrows, Home/End and Ctrl+Home/End move on the board; Enter places the number in
    hand (a joker's value is chosen in its dialog with Enter) until the board is full."""
    page = poker_started(open_page, PHONE)
    assert tabs_to(page, POKER_CELL, skip_link=True) <= MOST_TABS
    page.keyboard.press("Control+Home")
    assert _label(page).startswith("Row 1, column 1")
    page.keyboard.press("ArrowRight")
    assert _label(page).startswith("Row 1, column 2")
    page.keyboard.press("ArrowDown")
    assert _label(page).startswith("Row 2, column 2")
    page.keyboard.press("End")
    assert _label(page).startswith("Row 2, column 5")
    page.keyboard.press("Home")
    assert _label(page).startswith("Row 2, column 1")
    page.keyboard.press("Control+End")
    assert _label(page).startswith("Row 5, column 5")
    # the board is one Tab stop: Tab leaves it
    assert page.locator(f"{POKER_CELL}[tabindex='0']").count() == 1
    end = page.locator("#poker-end-dialog")
    for _move in range(80):
        if end.is_visible():
            break
        if page.locator("#poker-joker-dialog[open]").count() == 0:
            assert focused(page)["data"].get("cell") is not None, focused(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "() => !document.activeElement || document.activeElement !== document.body"
        )
    expect(end).to_be_visible()
    assert page.locator(f"{POKER_CELL}.is-filled").count() == 25


def test_abaku_stone_is_laid_and_taken_back_with_the_keyboard(transactional_db, open_page):
    """Enter on a rack stone picks it, Shift+Tab returns to the board, the arrows go to
    the centre square, Enter lays the stone there and Enter again takes it back."""
    path, cookies = solo_room("abaku")
    page = open_page(path, PHONE, cookies)
    page.locator(".ab-rack-stone[draggable=true]").first.wait_for()  # the player's turn
    tabs_to(page, ".ab-rack-stone", skip_link=True)
    page.keyboard.press("Enter")
    expect(page.locator(".ab-rack-stone[aria-pressed=true]")).to_have_count(1)
    page.keyboard.press("Shift+Tab")
    assert _label(page).startswith("row "), focused(page)
    page.keyboard.press("Control+Home")
    for _step in range(7):
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
    assert _label(page).startswith("row 8, column 8"), focused(page)
    page.keyboard.press("Enter")
    expect(page.locator(".ab-pending")).to_have_count(1)
    assert "not played yet" in _label(page), focused(page)
    page.keyboard.press("Enter")
    expect(page.locator(".ab-pending")).to_have_count(0)
    assert _label(page).startswith("row 8, column 8"), focused(page)
