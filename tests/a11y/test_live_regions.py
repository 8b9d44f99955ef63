"""Screen readers: one announcement per event. A page has few live regions; the 12
line scores of a poker board and its total are read on demand, never announced."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.a11y.keyboard import PHONE, poker_started
from tests.foundation import test_site_crawl as crawl

pytestmark = [pytest.mark.browser, pytest.mark.live]

# Every element that announces its changes (aria-live other than off; the roles
# status, log, alert, timer and <output> are live unless told off).
LIVE_REGIONS = """() => [...document.querySelectorAll(
  "[aria-live], [role=status], [role=log], [role=alert], output"
)].filter((el) => el.getAttribute("aria-live") !== "off")
 .map((el) => el.getAttribute("data-testid") || el.className || el.tagName)"""
#: the page's own status line, the game's status line, the drawn number, an alert
MOST_LIVE_REGIONS = 5


def test_poker_solo_board_announces_once_per_event(transactional_db, open_page):
    page = poker_started(open_page, PHONE)
    regions = page.evaluate(LIVE_REGIONS)
    assert len(regions) <= MOST_LIVE_REGIONS, regions
    assert not [name for name in regions if "poker-line" in name], regions


def test_poker_pupils_room_page_announces_once_per_event(transactional_db, open_page):
    host, _ = crawl._player_cookie("Hostitel")
    pupil, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("poker", "group", host, [pupil], started=True)
    page = open_page(f"/rooms/{room.code}/", PHONE, cookies)
    expect(page.locator("[data-room-connection][data-state=online]")).to_be_attached()
    regions = page.evaluate(LIVE_REGIONS)
    # the room adds its connection line and its status line
    assert len(regions) <= MOST_LIVE_REGIONS + 2, regions
    assert not [name for name in regions if "poker-line" in name], regions
