"""The solo poker page's small things (issue 21): readable score-preview gains on a
phone, the Draw button only when it can act, and a kept joker lost at the end said."""

import pytest
from playwright.sync_api import expect

from games.poker.rules import JOKER
from tests.poker_web.test_poker_browser import (
    DIALOG_END,
    DIALOG_JOKER,
    cell,
    choose_joker_value,
    hand,
    start_rigged,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_gains_are_readable_on_a_phone_and_draw_shows_only_when_it_can_act(player_page):
    """'the score-preview gains are ~8 px on a phone (readable ≥ 12 px)'"""
    page = player_page
    page.set_viewport_size({"width": 360, "height": 740})
    first = start_rigged(page, [JOKER, *range(1, 14), *range(1, 14)])
    expect(page.locator("#poker-hand")).to_have_text(str(first))
    # a number is in hand all game long: the Draw button would only say no
    expect(page.locator("#poker-draw")).to_be_hidden()
    cell(page, 0).click()
    choose_joker_value(page, first)  # a pair beside the first number: gains show
    gain = cell(page, 1).locator(".poker-gain")
    expect(gain).to_have_text("+15")
    size = gain.evaluate("node => parseFloat(getComputedStyle(node).fontSize)")
    assert size >= 12, size
    expect(page.locator("#poker-draw")).to_be_hidden()


def test_a_kept_joker_lost_at_the_end_is_mentioned(player_page):
    page = player_page
    page.set_viewport_size({"width": 1280, "height": 800})
    numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 2
    first = start_rigged(page, [JOKER, JOKER, *numbers])
    expect(page.locator("#poker-hand")).to_have_text(str(first))
    cell(page, 0).click()
    choose_joker_value(page, first)
    cell(page, 1).click()
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_be_visible()
    page.click("#poker-keep-joker")
    expect(page.locator("#poker-kept-count")).to_have_text("1")
    for index in range(2, 25):
        value = hand(page)
        cell(page, index).click()
        if index < 24:
            expect(cell(page, index).locator(".poker-value")).to_have_text(value)
    expect(page.locator(f"{DIALOG_END}[open]")).to_be_visible()
    detail = page.locator("#poker-end-detail")
    expect(detail).to_contain_text("All 25 cells are filled.")
    expect(detail).to_contain_text("1 kept joker was lost")
