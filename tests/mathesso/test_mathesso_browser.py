"""A whole two-player Pico game in headless Chromium, two browser contexts, real server.

The test reads the server-side state to know where the pairs lie (no client
can), then plays by clicking tiles in the page of the player on turn.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import GameResult
from games.rooms.models import Room, Seat
from tests.mathesso.cheat import mismatch, next_moves

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 15_000


def watch_errors(page, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on(
        "console",
        lambda message: (
            errors.append(f"console: {message.text}") if message.type == "error" else None
        ),
    )


def click_tile(page, tile: int) -> None:
    locator = page.locator(f'[data-tile-id="{tile}"].is-playable')
    locator.wait_for(state="visible", timeout=TIMEOUT)
    locator.click()


def wait_for_state(room_pk: int, predicate, timeout: float = 15) -> dict:
    import time

    deadline = time.monotonic() + timeout
    while True:
        state = Room.objects.get(pk=room_pk).state
        if predicate(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError("the server state did not change")
        time.sleep(0.05)


def flips_done(state: dict) -> int:
    """A counter that grows with every accepted flip."""
    taken = sum(len(p) for p in state["pairs"].values())
    return (
        sum(state["turns"].values()) * 10
        + len(state["flips"])
        + taken * 1000
        + sum(len(d) for d in state["draws"].values())
    )


def test_two_players_play_a_whole_pico_game_in_the_browser(transactional_db, browser, asgi_server):
    errors: list[str] = []
    contexts = [browser.new_context(base_url=asgi_server, locale="en-GB") for _ in range(2)]
    host, guest = (context.new_page() for context in contexts)
    for page in (host, guest):
        watch_errors(page, errors)
    try:
        host.goto("/mathesso/")
        host.select_option("#id_table-variant", "pico")
        host.fill("#id_table-nickname", "Ada Tiles")
        host.click('[data-testid="open-table"]')
        host.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
        code = host.locator('[data-testid="room-code"]').inner_text().strip()
        room_pk = Room.objects.get(code=code, status="lobby").pk

        guest.goto(f"/rooms/{code}/")
        guest.fill("#join-nickname", "Bob Pairs")
        guest.click('button[name="role"][value="player"]')
        guest.wait_for_selector("[data-room-live]")
        host.locator("[data-room-seats]").get_by_text("Bob Pairs").wait_for(timeout=TIMEOUT)

        host.click('[data-room-action="start"]')
        for page in (host, guest):
            page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=TIMEOUT)
        assert host.locator(".mt-tile").count() == 58
        assert "style" not in (host.locator("[data-board]").get_attribute("class") or "")

        seats = Room.objects.get(pk=room_pk).state["seats"]
        nickname_of = {
            str(s.player_id): s.player.nickname
            for s in Seat.objects.filter(room_id=room_pk).select_related("player")
        }
        pages = {pid: host if nickname_of[pid] == "Ada Tiles" else guest for pid in seats}

        missed = False
        while True:
            state = Room.objects.get(pk=room_pk).state
            if state["phase"] == "over":
                break
            is_miss = state["phase"] == "play" and not missed and not state["flips"]
            plan = mismatch(state) if is_miss else next_moves(state)
            missed = missed or is_miss
            for player, message in plan:
                before = flips_done(Room.objects.get(pk=room_pk).state)
                click_tile(pages[player], message["tile"])
                wait_for_state(room_pk, lambda s, b=before: flips_done(s) != b)
            if is_miss:
                # A miss: the other player sees both coloured faces until the next flip.
                other = guest if pages[plan[0][0]] is host else host
                for _player, message in plan:
                    other.locator(f'[data-tile-id="{message["tile"]}"][data-face]').wait_for(
                        timeout=TIMEOUT
                    )

        for page in (host, guest):
            end = page.locator("[data-end]")
            end.wait_for(state="visible", timeout=TIMEOUT)
            end.locator("tbody tr").first.wait_for(timeout=TIMEOUT)
            assert end.locator("tbody tr").count() == 2
        results = {
            r.player.nickname: r.score
            for r in GameResult.objects.filter(record__game="mathesso").select_related("player")
        }
        assert set(results) == {"Ada Tiles", "Bob Pairs"}
        for page in (host, guest):
            rows = page.locator("[data-end] tbody tr")
            shown = {
                rows.nth(i).locator("th").inner_text(): int(
                    rows.nth(i).locator('[data-testid="final-score"]').inner_text()
                )
                for i in range(2)
            }
            assert shown == results
            assert page.locator("[data-end] .mathesso-breakdown li").count() >= 2
            expect(page.locator("[data-board] .mt-tile:not([hidden])")).to_have_count(0)
        summary = host.locator("[data-end-summary]").inner_text()
        assert "wins" in summary or "draw" in summary.lower()

        host.click("[data-ruler-toggle]")
        assert host.locator("[data-ruler-strip] li").count() == 10
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()


def test_solo_practice_on_a_phone_fits_the_screen_and_counts_turns(
    transactional_db, browser, asgi_server
):
    errors: list[str] = []
    context = browser.new_context(
        base_url=asgi_server,
        locale="en-GB",
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
    )
    page = context.new_page()
    watch_errors(page, errors)
    try:
        page.goto("/mathesso/")
        page.select_option("#id_solo-variant", "atto")
        page.fill("#id_solo-nickname", "Solo Sam")
        page.click('[data-testid="start-solo"]')
        page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
        page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=TIMEOUT)
        # A solo room has no invite card: its code is in the address.
        code = re.search(r"/rooms/([A-Z0-9]+)/$", page.url).group(1)
        assert page.locator('[data-testid="room-code"]').count() == 0
        room_pk = Room.objects.get(code=code).pk
        tiles = page.locator(".mt-tile")
        assert tiles.count() == 22
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.mt-tile')).position === 'absolute'"
        )
        for i in range(tiles.count()):
            box = tiles.nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360
            assert box["width"] >= 36  # comfortably tappable without zooming
        state = Room.objects.get(pk=room_pk).state
        plan = mismatch(state)
        while True:
            for _player, message in plan:
                before = flips_done(Room.objects.get(pk=room_pk).state)
                click_tile(page, message["tile"])
                wait_for_state(room_pk, lambda s, b=before: flips_done(s) != b)
            state = Room.objects.get(pk=room_pk).state
            if state["phase"] == "over":
                break
            plan = next_moves(state)
        page.locator("[data-end] tbody tr").first.wait_for(timeout=TIMEOUT)
        summary = page.locator("[data-end-summary]").inner_text()
        assert summary == "Pairs taken: 11. Turns: 12."
        (result,) = GameResult.objects.filter(record__mode="solo")
        assert (result.score, result.details["turns"]) == (11, 12)
        assert not errors, errors
    finally:
        context.close()


def test_a_standart_table_with_extensions_zooms_and_pans_on_a_phone(
    transactional_db, browser, asgi_server
):
    from games.rooms import services
    from tests.mathesso.live import Player

    player = Player("Zoomer")
    room = services.create_room(
        game="mathesso",
        mode="solo",
        host=player.profile,
        settings={"variant": "standart", "extensions": ["factorial", "cjv"]},
    )
    services.start_room(room=room, actor=player.profile)
    context = browser.new_context(
        base_url=asgi_server, locale="en-GB", viewport={"width": 360, "height": 740}
    )
    context.add_cookies([{"name": "matika_player", "value": player.signed, "url": asgi_server}])
    page = context.new_page()
    try:
        page.goto(f"/rooms/{room.code}/")
        page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=TIMEOUT)
        assert page.locator(".mt-tile").count() == 224
        # The stylesheet comes with the board (inside the page body): measure once it applies.
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.mt-tile')).position === 'absolute'"
        )
        small = page.locator(".mt-tile").first.bounding_box()["width"]
        for _ in range(3):  # 1× -> 1.5× -> 2× -> 3×
            page.click('[data-zoom="1"]')
        page.wait_for_function(
            "small => document.querySelector('.mt-tile').getBoundingClientRect().width"
            " >= 2.8 * small",
            arg=small,
            timeout=TIMEOUT,
        )
        assert page.locator(".mt-tile").first.bounding_box()["width"] >= 40
        viewport = page.locator("[data-viewport]")
        assert viewport.evaluate("v => v.scrollWidth > v.clientWidth")
        assert viewport.evaluate("v => { v.scrollLeft = 200; return v.scrollLeft > 0; }")
        click_tile(page, 223)  # a far tile is reachable after panning
        wait_for_state(room.pk, lambda s: s["flips"] == [223])
    finally:
        context.close()
