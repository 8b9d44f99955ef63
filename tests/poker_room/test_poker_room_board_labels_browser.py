"""Every cell of a room board has a screen-reader name: its row, column and value.

The solo board always had them; the room boards (the one being played and the
read-only boards of the final ranking) are the same markup and painter now.
"""

from __future__ import annotations

import re

import pytest

from games.rooms import services
from games.rooms.models import Room
from tests.poker_room.live import rig_deck, seed_dealing_first, set_seed
from tests.poker_room.test_poker_room_browser import SHOTS, _context
from tests.poker_room.test_poker_room_duel_browser import _place

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _names(cells) -> list[str]:
    return [cell.get_attribute("aria-label") for cell in cells.all()]


def _expect_every_cell_named(expect, board, role: str) -> None:
    """25 cells, each found by its role and a name that starts with its place."""
    for row in range(1, 6):
        for column in range(1, 6):
            name = re.compile(rf"^Row {row}, column {column}: ")
            expect(board.get_by_role(role, name=name)).to_have_count(1)


def test_room_board_and_ranking_boards_name_every_cell_with_its_place_and_value(
    transactional_db, browser, poker_server, make_player
):
    from playwright.sync_api import expect

    anna, boris = make_player("Anna"), make_player("Boris")
    context_a = _context(browser, poker_server, anna, phone=False)
    context_b = _context(browser, poker_server, boris, phone=False)
    page_a, page_b = context_a.new_page(), context_b.new_page()
    page_a.goto("/poker/room/new/duel/")
    page_a.get_by_role("button", name="Open the duel").click()
    page_a.wait_for_url(re.compile(r"/rooms/\w+/$"))
    room = Room.objects.get(game="poker", mode="duel")
    # A fixed first card and, after it, numbers only: no joker dialog covers
    # "Leave the duel" (a clean-clone run failed on one).
    set_seed(room, seed_dealing_first("duel", 5))
    expect(page_a.locator("[data-room-connection]")).to_have_text("Connected")
    page_b.goto(f"/rooms/{room.code}/")
    page_b.get_by_role("button", name="Join the game").click()
    expect(page_b.locator("[data-room-connection]")).to_have_text("Connected")
    # The duel starts by itself once Boris is in: nobody presses Start.
    expect(page_a.locator("[data-pr-hand]")).to_have_attribute("data-dealt", "1")

    board = page_a.locator("[data-pr-board]")
    _expect_every_cell_named(expect, board, "button")
    expect(board.get_by_role("button", name=re.compile(r": empty"))).to_have_count(25)
    hand = page_a.locator("[data-pr-hand]").inner_text()
    assert hand == "5"
    _place(page_a, expect)
    first = board.get_by_role("button", name=re.compile(r"^Row 1, column 1: "))
    expect(first).to_have_attribute("aria-label", re.compile(rf"^Row 1, column 1: {hand}\b"))
    expect(board.get_by_role("button", name=re.compile(r": empty"))).to_have_count(24)

    page_b.get_by_role("button", name="Leave the duel").click()
    page_b.get_by_role("button", name="Yes").click()
    mine = page_a.locator(f"[data-testid=final-ranking] li[data-player-id='{anna.id}']")
    expect(mine).to_be_visible()
    mine.locator("summary").click()
    _expect_every_cell_named(expect, mine, "img")
    if SHOTS:
        page_a.screenshot(path=f"{SHOTS}/duel-final.png", full_page=True)
    names = _names(mine.locator(".poker-cell"))
    assert names[0].startswith(f"Row 1, column 1: {hand}")
    # a board that is over names its empty cells missed (issue 40 §3, 0f43ca1)
    assert all(name.endswith(": missed") for name in names[1:])
    context_a.close()
    context_b.close()


def test_projector_shows_the_winning_board_with_named_cells_when_the_game_ends(
    transactional_db, browser, poker_server, make_player
):
    from playwright.sync_api import expect

    host, player = make_player("Host"), make_player("Dana")
    room = services.create_room(game="poker", mode="group", host=host.profile, settings={})
    host_context = _context(browser, poker_server, host, phone=False)
    player_context = _context(browser, poker_server, player, phone=False)
    host_page, page = host_context.new_page(), player_context.new_page()
    host_page.goto(f"/rooms/{room.code}/")
    expect(host_page.locator("[data-room-connection]")).to_have_text("Connected")
    page.goto(f"/rooms/{room.code}/")
    page.get_by_role("button", name="Join the game").click()
    expect(host_page.locator("[data-room-seats]")).to_contain_text("Dana")
    host_page.get_by_role("button", name="Start the game").click()
    expect(host_page.locator("[data-testid=draw]")).to_be_enabled()
    rig_deck(Room.objects.get(pk=room.pk), [7, *range(1, 14)])
    host_page.keyboard.press("g")
    expect(page.locator("[data-pr-hand]")).to_have_attribute("data-dealt", "1")
    _place(page, expect)
    expect(page.get_by_role("button", name="Row 1, column 1: 7")).to_be_disabled()

    services.end_room(room=Room.objects.get(pk=room.pk), actor=host.profile)
    projector = host_context.new_page()
    projector.goto(f"/poker/room/{room.code}/projector/")
    winner = projector.locator("[data-testid=projector-ranking] li").first
    expect(winner).to_contain_text("Dana")
    _expect_every_cell_named(expect, winner, "img")
    expect(winner.get_by_role("img", name="Row 1, column 1: 7")).to_be_visible()
    expect(winner.get_by_role("img", name=re.compile(r": missed$"))).to_have_count(24)
    if SHOTS:
        projector.screenshot(path=f"{SHOTS}/projector-final.png", full_page=True)
    host_context.close()
    player_context.close()
