"""Mathesso on a 360 × 740 phone: a tile turns with a flip, the end breakdown reads.

Issue 18: „The end-of-game breakdown is squeezed to one word per line at
360 px." and „A flip animation when a tile turns." Screenshots of the start,
middle and end at 360 and 1280 px go to test-results/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.rooms import services
from games.rooms.models import Room
from tests.mathesso.cheat import mismatch, next_moves
from tests.mathesso.live import Player
from tests.mathesso.test_mathesso_browser import click_tile, flips_done, wait_for_state

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 15_000
SHOTS = Path(__file__).resolve().parents[2] / "test-results"


def shoot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"mathesso-{name}-360.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=str(SHOTS / f"mathesso-{name}-1280.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})


def solo_room(settings: dict) -> tuple[Room, Player]:
    player = Player("Phone Pat")
    room = services.create_room(
        game="mathesso", mode="solo", host=player.profile, settings=settings
    )
    services.start_room(room=room, actor=player.profile)
    return room, player


def phone(browser, asgi_server, player: Player, reduced: bool = False):
    context = browser.new_context(
        base_url=asgi_server,
        locale="en-GB",
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce" if reduced else "no-preference",
    )
    context.add_cookies([{"name": "matika_player", "value": player.signed, "url": asgi_server}])
    return context


def open_board(page, room: Room) -> None:
    page.goto(f"/rooms/{room.code}/")
    page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=TIMEOUT)
    page.wait_for_function(
        "getComputedStyle(document.querySelector('.mt-tile')).position === 'absolute'"
    )


TURN_ANIMATION = """id => {
  const child = document.querySelector(`[data-tile-id="${id}"] > *`);
  return child && child.classList.contains("is-turning") ? getComputedStyle(child).animationName : "";
}"""


def turning(page, tile: int) -> str:
    """The animation of the tile's newly shown side (polled: the page's CSP forbids eval)."""
    for _attempt in range(150):
        name = page.evaluate(TURN_ANIMATION, tile)
        if name:
            return name
        page.wait_for_timeout(100)
    raise AssertionError("the tile did not turn")


def test_a_whole_solo_game_on_a_phone_flips_tiles_and_ends_with_a_readable_breakdown(
    transactional_db, browser, asgi_server
):
    room, player = solo_room({"variant": "atto", "points": True})
    context = phone(browser, asgi_server, player)
    page = context.new_page()
    try:
        open_board(page, room)
        shoot(page, "start")
        plan = mismatch(Room.objects.get(pk=room.pk).state)
        first = plan[0][1]["tile"]
        before = flips_done(Room.objects.get(pk=room.pk).state)
        click_tile(page, first)
        wait_for_state(room.pk, lambda s: flips_done(s) != before)
        plan = plan[1:]
        turning(page, first)
        assert page.evaluate(TURN_ANIMATION, first) == "mt-turn"
        turns = 0
        while True:
            for _player, message in plan:
                before = flips_done(Room.objects.get(pk=room.pk).state)
                click_tile(page, message["tile"])
                wait_for_state(room.pk, lambda s, b=before: flips_done(s) != b)
            turns += 1
            if turns == 5:
                shoot(page, "middle")
            state = Room.objects.get(pk=room.pk).state
            if state["phase"] == "over":
                break
            plan = next_moves(state)
        page.locator("[data-end] tbody tr").first.wait_for(timeout=TIMEOUT)
        page.locator("[data-end]").scroll_into_view_if_needed()
        # Each breakdown line: wide (most of the phone) and at most two text lines.
        lines = page.evaluate(
            """() => [...document.querySelectorAll(".mathesso-breakdown li")].map((li) => {
              const box = li.getBoundingClientRect();
              const height = parseFloat(getComputedStyle(li).lineHeight) || 20;
              const words = li.textContent.trim().split(/\\s+/).length;
              const card = li.closest("[data-end]").getBoundingClientRect().width;
              return { width: box.width, card, height: box.height, words, text: li.textContent, line: height };
            })"""
        )
        assert lines, "the breakdown lists the keys"
        for line in lines:
            assert line["width"] >= 0.75 * line["card"], line
            assert line["height"] <= 3 * max(line["line"], 31), line  # ≤ two rows of mini tiles
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        shoot(page, "end")
    finally:
        context.close()


def test_with_reduced_motion_a_tile_turns_without_animation(transactional_db, browser, asgi_server):
    room, player = solo_room({"variant": "atto"})
    context = phone(browser, asgi_server, player, reduced=True)
    page = context.new_page()
    try:
        open_board(page, room)
        first = mismatch(Room.objects.get(pk=room.pk).state)[0][1]["tile"]
        click_tile(page, first)
        turning(page, first)
        assert page.evaluate(TURN_ANIMATION, first) == "none"
    finally:
        context.close()
