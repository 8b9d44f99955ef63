"""A whole game against the robot in headless Chromium through the real server.

The human opens a game against the robot from the hub, lays the best first move
by tapping rack stones and squares (the test reads the server's state to know
the rack, as no client can see the bag), checks the preview, confirms, and then
skips until the third empty turn in a row ends the game by forfeit (spec 5). The
robot moves on the server's ticks in between. The result reaches GameResult.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.abaku.rules import GameState, all_moves
from games.models import GameResult
from games.rooms.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 20_000


def wait_for_state(room_pk: int, predicate, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = Room.objects.get(pk=room_pk).state
        if predicate(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError("the server state did not change")
        time.sleep(0.05)


def test_a_whole_game_against_the_robot_in_the_browser(transactional_db, browser, asgi_server):
    errors: list[str] = []
    context = browser.new_context(base_url=asgi_server, locale="en-GB")
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on(  # a CSP violation (inline style or script) is reported here
        "console",
        lambda message: (
            errors.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )
    try:
        page.goto("/abaku/")
        page.fill("#ab-nickname-robot", "Ada Digits")
        page.check("#ab-level-robot-greedy")
        page.click('[data-testid="play-robot"]')
        page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
        table = page.locator("[data-abaku-table]")
        expect(table).to_have_attribute("data-turn", "mine", timeout=TIMEOUT)
        room = Room.objects.get(game="abaku", status="running")
        assert room.mode == "solo"
        expect(page.locator("[data-ab-board] [data-row]")).to_have_count(225)
        expect(page.locator("[data-ab-bag]")).to_contain_text("92")

        game = GameState.from_dict(room.state["game"])
        rack = list(game.players[0].rack)
        moves = all_moves(game.board, rack)
        placed_a_move = bool(moves)
        if moves:
            move = max(moves, key=lambda m: m.score)
            used: set[int] = set()
            for p in move.placements:
                kind = 10 if p.joker else p.digit
                index = next(i for i, k in enumerate(rack) if k == kind and i not in used)
                used.add(index)
                page.click(f'[data-ab-rack] [data-index="{index}"]')
                page.click(f'[data-ab-board] [data-row="{p.row}"][data-col="{p.col}"]')
                if p.joker:
                    page.click(f'[data-ab-joker-digits] >> text="{p.digit}"')
            preview = page.locator("[data-ab-preview]")
            expect(preview).to_contain_text(
                f"This move scores {move.score} points", timeout=TIMEOUT
            )
            page.click("[data-ab-confirm]")
            expect(page.locator("[data-ab-log]")).to_contain_text(
                f"{move.score} points", timeout=TIMEOUT
            )
            # the robot answers on the server's tick, then it is our turn again
            wait_for_state(room.pk, lambda s: s["game"]["move_number"] >= 2)
            expect(table).to_have_attribute("data-turn", "mine", timeout=TIMEOUT)

        for skip in range(3):
            expect(page.locator("[data-ab-skip]")).to_be_enabled(timeout=TIMEOUT)
            page.click("[data-ab-skip]")
            page.locator("dialog[open] >> text=Yes").click()
            if skip < 2:
                wait_for_state(
                    room.pk, lambda s, n=skip: s["game"]["players"][0]["empty_turns"] > n
                )
                expect(table).to_have_attribute("data-turn", "mine", timeout=TIMEOUT)

        expect(page.locator("[data-ab-result]")).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("[data-ab-log]")).to_contain_text("gave up after three empty turns")
        room.refresh_from_db()
        assert room.status == "finished"
        assert room.state["game"]["result"]["reason"] == "forfeit"
        result = GameResult.objects.get(record__game="abaku")
        assert result.details["outcome"] == "loss"
        assert result.details["robots"] == 1
        if placed_a_move:
            assert result.score >= move.score  # no end adjustment after a forfeit
        assert errors == []
    finally:
        context.close()


def test_on_a_phone_the_board_fits_and_zooms_to_squares_of_40_px(
    transactional_db, browser, asgi_server
):
    context = browser.new_context(
        base_url=asgi_server, locale="en-GB", viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    try:
        page.goto("/abaku/")
        page.fill("#ab-nickname-practice", "Phone Ada")
        page.click('[data-testid="play-practice"]')
        page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
        board = page.locator("[data-ab-board]")
        expect(board.locator("[data-row]")).to_have_count(225, timeout=TIMEOUT)
        wrap = page.locator(".ab-board-wrap").bounding_box()
        assert board.bounding_box()["width"] <= wrap["width"] + 1  # fits without zoom
        cell = board.locator('[data-row="7"][data-col="7"]')
        assert cell.bounding_box()["width"] >= 20
        page.click("[data-ab-zoom]")
        expect(page.locator("[data-ab-zoom]")).to_have_attribute("aria-pressed", "true")
        assert cell.bounding_box()["width"] >= 40
        # a tap on a rack stone and a square still places it when zoomed
        page.click('[data-ab-rack] [data-index="0"]')
        cell.scroll_into_view_if_needed()
        cell.click()
        if page.locator("dialog[open]").count():
            page.click('[data-ab-joker-digits] >> text="1"')
        expect(cell).to_have_class(re.compile("ab-pending"))
    finally:
        context.close()
