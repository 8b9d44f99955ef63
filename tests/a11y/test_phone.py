"""A 360 × 740 phone: every cell, tile and card a child taps is at least 24 × 24 CSS px
(WCAG 2.5.8) and what the child plays is in view without scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.a11y.keyboard import PHONE, poker_started, solo_room
from tests.foundation import test_site_crawl as crawl

pytestmark = [pytest.mark.browser, pytest.mark.live]

MIN_TARGET = 24
# The boxes of the visible targets and of the play area, as the page lays them out.
MEASURE = """([targets, area]) => {
  const shown = [...document.querySelectorAll(targets)].filter((el) => el.getClientRects().length);
  const boxes = shown.map((el) => el.getBoundingClientRect());
  const box = document.querySelector(area).getBoundingClientRect();
  return {
    count: boxes.length,
    small: boxes.filter((b) => b.width < 23.99 || b.height < 23.99).length,
    smallest: boxes.length ? Math.min(...boxes.map((b) => Math.min(b.width, b.height))) : null,
    top: box.top,
    bottom: box.bottom,
    height: window.innerHeight,
  };
}"""


def _theorems_table():
    """A table of the player and a robot (robots take the seats nobody took)."""
    me, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("theorems", "table", me, started=True)
    return f"/rooms/{room.code}/", cookies


def _measure(page, targets: str, area: str) -> dict:
    return page.evaluate(MEASURE, [targets, area])


def test_poker_board_on_a_phone(transactional_db, open_page):
    page = poker_started(open_page, PHONE)
    found = _measure(page, "#poker-board .poker-cell", "#poker-board")
    assert found["small"] == 0, found
    assert found["bottom"] <= found["height"], found


@pytest.mark.parametrize(
    "game,targets,area",
    [
        ("abaku", ".ab-cell, .ab-rack-stone", "[data-ab-board]"),
        ("mathesso", ".mt-tile", "[data-board]"),
    ],
)
def test_solo_board_on_a_phone(transactional_db, open_page, game, targets, area):
    path, cookies = solo_room(game)
    page = open_page(path, PHONE, cookies)
    expect(page.locator(area)).to_be_visible()
    page.wait_for_timeout(300)
    found = _measure(page, targets, area)
    assert found["small"] == 0, found
    assert found["bottom"] <= found["height"], found


def test_matematici_hand_on_a_phone(transactional_db, open_page):
    path, cookies = _theorems_table()
    page = open_page(path, PHONE, cookies)
    page.locator("[data-choose-deck]").first.click()
    table = "[data-theorems-table]"
    page.locator(f"{table}[data-phase=playing]").wait_for()
    expect(page.locator("[data-th-hand] .th-hand-card").first).to_be_visible()
    skip = page.get_by_role("button", name="Skip the tutorial")  # shown on a first visit
    if skip.is_visible():
        skip.click()
        expect(skip).to_be_hidden()
    found = _measure(page, "[data-th-hand] button", "[data-th-hand]")
    assert found["small"] == 0, found
    assert found["top"] < found["height"] - 200, found
