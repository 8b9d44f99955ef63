"""Abaku on a 360 × 740 phone (issue 18) with the hint and the review (issue 19 §5).

Issue 18: "the whole board fits the width (pinch-zoom for detail is fine), the
rack is docked under the board in view, preview/errors next to the board; the
last move highlighted; tap-to-place and drag both work", and for all three
games "the game first; invite collapsed (and absent in solo/robot games)" and
"after a game, one button starts the same table again with the same players
(and robots)". Issue 19: "A hint button in solo and vs-robot games …; after a
game, a review: per turn the best move available and the points it would have
scored, shown on the board."

Screenshots at 360 and 1280 px of the start, the middle and the end go to
``test-results/abaku-phone/``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.abaku.rules import GameState, all_moves, best_move
from games.rooms.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 20_000
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "abaku-phone"


def wait_for_state(room_pk: int, predicate, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = Room.objects.get(pk=room_pk).state
        if predicate(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError("the server state did not change")
        time.sleep(0.05)


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-360-screen.png"))  # what the phone shows
    page.screenshot(path=str(SHOTS / f"{name}-360.png"), full_page=True)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(SHOTS / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def in_view(page, selector: str) -> bool:
    b = box(page, selector)
    return b["y"] >= 0 and b["y"] + b["height"] <= PHONE["height"] + 1


def rack_index(rack: list[int], kind: int, used: set[int]) -> int:
    index = next(i for i, k in enumerate(rack) if k == kind and i not in used)
    used.add(index)
    return index


def test_abaku_against_a_robot_on_a_phone_hint_review_and_rematch(
    transactional_db, page, asgi_server
):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    page.set_viewport_size(PHONE)
    page.goto("/abaku/")
    page.fill("#ab-nickname-robot", "Ada Phone")
    page.check("#ab-level-robot-greedy")
    page.click('[data-testid="play-robot"]')
    page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
    table = page.locator("[data-abaku-table]")
    expect(table).to_have_attribute("data-turn", "mine", timeout=TIMEOUT)
    room = Room.objects.get(game="abaku", status="running")

    # the game first: no invite in a robot game, the red end button below the board
    assert page.locator("[data-room-invite]").count() == 0
    board = box(page, "[data-ab-board]")
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    last_cell = box(page, '[data-ab-board] [data-row="14"][data-col="14"]')
    assert last_cell["x"] + last_cell["width"] <= PHONE["width"]  # all 15 columns
    assert box(page, '[data-room-action="end"]')["y"] > board["y"] + board["height"]
    # the game opens scrolled so that the whole board and the rack share the screen
    page.wait_for_function("window.scrollY > 0")
    assert in_view(page, "[data-ab-board]"), "the whole board is on the screen"
    assert in_view(page, "[data-ab-rack]"), "the rack is on the screen under the board"
    assert box(page, "[data-ab-rack]")["y"] >= box(page, "[data-ab-board]")["y"] + board["height"]
    shoot(page, "start")

    # the hint lays the best move on the board; the preview beside it scores it
    game = GameState.from_dict(room.state["game"])
    rack = list(game.players[0].rack)
    best = best_move(game.board, rack)
    hint = page.locator("[data-ab-hint]")
    expect(hint).to_be_visible()
    hint.click()
    if best is not None:
        expect(page.locator("[data-ab-board] .ab-pending")).to_have_count(len(best.placements))
        expect(page.locator("[data-ab-preview]")).to_contain_text(
            f"This move scores {best.score} point", timeout=TIMEOUT
        )
        assert table.get_attribute("data-hint") == str(best.score)
        page.locator("[data-ab-board]").scroll_into_view_if_needed()
        assert in_view(page, "[data-ab-rack]"), "the rack is docked in view under the board"
        assert in_view(page, "[data-ab-preview]"), "the preview is next to the board"
        page.click("[data-ab-recall]")
        expect(page.locator("[data-ab-board] .ab-pending")).to_have_count(0)

        # tap-to-place: tap a rack stone, then a square
        used: set[int] = set()
        for p in best.placements:
            page.click(
                f'[data-ab-rack] [data-index="{rack_index(rack, 10 if p.joker else p.digit, used)}"]'
            )
            page.click(f'[data-ab-board] [data-row="{p.row}"][data-col="{p.col}"]')
            if p.joker:
                page.click(f'[data-ab-joker-digits] >> text="{p.digit}"')
        expect(page.locator("[data-ab-preview]")).to_contain_text(
            f"This move scores {best.score} point", timeout=TIMEOUT
        )
        page.click("[data-ab-confirm]")
        # the last move is highlighted on the board
        expect(page.locator("[data-ab-board] .ab-last")).to_have_count(
            len(best.placements), timeout=TIMEOUT
        )
    else:
        expect(page.locator("[data-ab-error]")).to_contain_text("No move is possible")
        page.click("[data-ab-skip]")
        page.locator("dialog[open] >> text=Yes").click()

    # the robot answers; then a stone dragged onto a square lies there
    state = wait_for_state(
        room.pk, lambda s: s["game"]["turn"] == 0 and s["game"]["move_number"] >= 2
    )
    expect(table).to_have_attribute("data-turn", "mine", timeout=TIMEOUT)
    game = GameState.from_dict(state["game"])
    moves = all_moves(game.board, list(game.players[0].rack))
    if moves:
        target = moves[0].placements[0]
        kind = 10 if target.joker else target.digit
        index = list(game.players[0].rack).index(kind)
        page.locator(f'[data-ab-rack] [data-index="{index}"]').drag_to(
            page.locator(f'[data-ab-board] [data-row="{target.row}"][data-col="{target.col}"]')
        )
        if target.joker:
            page.click(f'[data-ab-joker-digits] >> text="{target.digit}"')
        expect(
            page.locator(
                f'[data-ab-board] [data-row="{target.row}"][data-col="{target.col}"].ab-pending'
            )
        ).to_have_count(1)
    shoot(page, "middle")
    page.click("[data-ab-recall]")

    # the end: the review shows per turn the best move on the board
    page.click('[data-room-action="end"]')
    page.locator("dialog[open] >> text=Yes").click()
    # against a robot alone, ending the game is giving it up (not "the host ended it")
    expect(page.locator("[data-ab-turn]")).to_have_text(
        "You gave up the game: a game not played to the end does not count.", timeout=TIMEOUT
    )
    page.click("[data-ab-review-open]")
    turns = page.locator("[data-ab-review] [data-review-turn]")
    expect(turns.first).to_be_visible(timeout=TIMEOUT)
    assert turns.count() >= 2
    # a first rack with no possible move (rare, random) is reviewed as an empty turn
    expect(turns.first).to_contain_text("best move" if best is not None else "no move was possible")
    turns.first.click()
    expect(turns.first).to_have_attribute("aria-pressed", "true")
    if best is not None:
        expect(page.locator("[data-ab-board] .ab-played")).to_have_count(len(best.placements))
    shoot(page, "end")

    # one button starts the same table again: a new running room, the same robot
    rematch = page.locator('[data-testid="rematch"]')
    expect(rematch).to_be_visible()
    rematch.click()
    page.wait_for_url(lambda url: "/rooms/" in url and room.code not in url, timeout=TIMEOUT)
    fresh = Room.objects.exclude(pk=room.pk).get(game="abaku")
    assert fresh.status == "running" and fresh.settings == room.settings
    assert [s["robot"] for s in fresh.state["seats"]] == [None, "greedy"]
    expect(page.locator("[data-ab-board] [data-row]")).to_have_count(225, timeout=TIMEOUT)
    assert errors == []
