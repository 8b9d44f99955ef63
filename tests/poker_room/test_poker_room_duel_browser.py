"""Two browsers: open a duel from the poker pages, auto-draw, either draws, one leaves."""

from __future__ import annotations

import re

import pytest

from games.models import GameResult
from games.rooms.models import Room
from tests.poker_room.live import rig_deck, seed_dealing_first, set_seed
from tests.poker_room.test_poker_room_browser import _context

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _place(page, expect):
    page.locator("[data-pr-board] .poker-cell:not(.is-filled)").first.click()
    expect(page.locator("#pr-root")).not_to_have_class(re.compile("is-busy"))


def test_a_duel_opened_from_the_poker_pages_played_and_left(
    transactional_db, browser, poker_server, make_player
):
    from playwright.sync_api import expect

    anna, boris = make_player("Anna"), make_player("Boris")
    context_a = _context(browser, poker_server, anna, phone=True)
    context_b = _context(browser, poker_server, boris, phone=True)
    page_a, page_b = context_a.new_page(), context_b.new_page()
    page_a.goto("/poker/room/new/duel/")
    page_a.get_by_role("button", name="Open the duel").click()
    page_a.wait_for_url(re.compile(r"/rooms/\w+/$"))
    room = Room.objects.get(game="poker", mode="duel")
    # A fixed deck: numbers only, so no joker dialog covers "Leave the duel".
    set_seed(room, seed_dealing_first("duel", 5))
    expect(page_a.locator("[data-room-connection]")).to_have_text("Connected")
    page_b.goto(f"/rooms/{room.code}/")
    page_b.get_by_role("button", name="Join the game").click()
    expect(page_b.locator("[data-room-connection]")).to_have_text("Connected")
    # The duel starts by itself once Boris is in: nobody presses Start.
    for page in (page_a, page_b):
        expect(page.locator("[data-pr-hand]")).to_have_attribute("data-dealt", "1")
        expect(page.locator("[data-testid=opponent]")).to_be_visible()
    assert Room.objects.get(pk=room.pk).state["sequence"] == [5]
    rig_deck(Room.objects.get(pk=room.pk), [6, 7, 8, 9])
    _place(page_a, expect)
    expect(page_a.locator("[data-pr-hand]")).to_have_attribute("data-dealt", "1")  # waits for Boris
    _place(page_b, expect)
    for page in (page_a, page_b):  # both placed: the next number came by itself
        expect(page.locator("[data-pr-hand]")).to_have_attribute("data-dealt", "2")
    _place(page_a, expect)
    page_a.keyboard.press("g")  # Anna does not wait: either player may draw
    expect(page_a.locator("[data-pr-hand]")).to_have_attribute("data-dealt", "3")
    expect(page_b.locator("[data-testid=opponent-score]")).to_contain_text("2 of 25 cells")
    page_b.get_by_role("button", name="Leave the duel").click()
    page_b.get_by_role("button", name="Yes").click()
    for page in (page_a, page_b):
        expect(page.locator("[data-testid=final]")).to_be_visible()
        expect(page.locator("[data-testid=final-ranking] > li")).to_have_count(2)
        expect(page.locator("[data-testid=final]")).to_contain_text("no win is recorded")
    room.refresh_from_db()
    results = GameResult.objects.filter(record=room.record)
    assert results.count() == 2
    assert all("outcome" not in r.details for r in results)
    context_a.close()
    context_b.close()
