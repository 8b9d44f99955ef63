"""Mathesso and Matematici on a 360 × 740 phone: the game first, no invite in solo
and robot games, the red "End the room" below the game, and after the game one
button that starts the same table again (issue 18, "All three").

Screenshots at 360 and 1280 px go to ``test-results/board-games-phone/``.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.rooms import services
from games.rooms.models import Room
from games.theorems.rules import STARTER_DECKS

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 20_000
PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "board-games-phone"
_ids = itertools.count(1)


def _context(browser, base_url, player):
    context = browser.new_context(base_url=base_url, locale="en-GB", viewport=PHONE)
    for part in player.cookie.split("; "):
        name, value = part.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": base_url}])
    return context


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-360.png"), full_page=True)
    page.set_viewport_size(LAPTOP)
    page.screenshot(path=str(SHOTS / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size(PHONE)


def top(page, selector: str) -> float:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found["y"]


def _game_first_then_rematch(page, room: Room, game: str, board: str) -> None:
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"/rooms/{room.code}/")
    expect(page.locator(board).first).to_be_visible(timeout=TIMEOUT)
    assert page.locator("[data-room-invite]").count() == 0, "no invite in a solo or robot game"
    assert top(page, board) < top(page, '[data-room-action="end"]')
    assert top(page, board) < PHONE["height"], "the game starts on the first screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, f"{game}-start")
    page.get_by_role("button", name="End the room").click()
    page.locator("dialog[open] >> text=Yes").click()
    rematch = page.locator('[data-testid="rematch"]')
    expect(rematch).to_be_visible(timeout=TIMEOUT)
    shoot(page, f"{game}-end")
    rematch.click()
    page.wait_for_url(lambda url: "/rooms/" in url and room.code not in url, timeout=TIMEOUT)
    fresh = Room.objects.exclude(pk=room.pk).get(game=room.game, host=room.host)
    assert fresh.code in page.url and fresh.status == "running"
    assert fresh.settings == room.settings
    expect(page.locator(board).first).to_be_visible(timeout=TIMEOUT)
    assert problems == []


def test_mathesso_solo_on_a_phone_game_first_and_rematch(
    transactional_db, browser, asgi_server, make_player
):
    player = make_player("Mia Solo")
    room = services.create_and_start(game="mathesso", mode="solo", host=player.profile, settings={})
    context = _context(browser, asgi_server, player)
    try:
        _game_first_then_rematch(context.new_page(), room, "mathesso", "[data-room-board]")
    finally:
        context.close()


def test_matematici_against_a_robot_on_a_phone_game_first_and_rematch(
    transactional_db, browser, asgi_server, make_player
):
    player = make_player("Theo Robot")
    room = services.create_room(
        game="theorems", mode="table", host=player.profile, settings={"table_size": 2}
    )
    services.start_room(room=room, actor=player.profile)
    starter = STARTER_DECKS[0]
    services.submit(
        room_id=room.pk,
        player=player.profile,
        client_id=f"deck{next(_ids)}",
        message={
            "type": "deck",
            "name": starter.id,
            "mathematician": starter.mathematician,
            "cards": list(starter.deck),
        },
    )
    context = _context(browser, asgi_server, player)
    try:
        _game_first_then_rematch(context.new_page(), room, "matematici", "[data-room-board]")
    finally:
        context.close()


def test_a_table_with_people_folds_the_invite_below_the_game_on_a_phone(
    transactional_db, browser, asgi_server, make_player
):
    host, guest = make_player("Host Table"), make_player("Guest Table")
    room = services.create_room(game="mathesso", mode="table", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    context = _context(browser, asgi_server, host)
    try:
        page = context.new_page()
        page.goto(f"/rooms/{room.code}/")
        invite = page.locator("[data-room-invite]")
        expect(invite).to_have_count(1)
        assert invite.get_attribute("open") is None, "folded once the game runs"
        expect(page.locator("[data-room-board]").first).to_be_visible(timeout=TIMEOUT)
        assert top(page, "[data-room-board]") < top(page, "[data-room-invite]")
        shoot(page, "mathesso-table-middle")
    finally:
        context.close()


def test_the_other_players_page_follows_the_rematch_and_people_get_no_hint(
    transactional_db, browser, asgi_server, make_player
):
    """Abaku with two people and a robot: no Hint button (the server refuses it
    too, tests/abaku_web/test_abaku_hint.py); after the game the host's "Play
    again" takes the guest's page to the new room by the ``rematch`` event."""
    host, guest = make_player("Ada Again"), make_player("Bob Again")
    room = services.create_room(
        game="abaku", mode="table", host=host.profile, settings={"table_size": 3}
    )
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    contexts = [_context(browser, asgi_server, p) for p in (host, guest)]
    try:
        host_page, guest_page = (c.new_page() for c in contexts)
        for page in (host_page, guest_page):
            page.goto(f"/rooms/{room.code}/")
            expect(page.locator("[data-ab-board] [data-row]")).to_have_count(225, timeout=TIMEOUT)
            expect(page.locator("[data-ab-hint]")).to_be_hidden()
        host_page.get_by_role("button", name="End the room").click()
        host_page.locator("dialog[open] >> text=Yes").click()
        expect(guest_page.locator("[data-ab-turn]")).to_contain_text(
            re.compile("ended|over"), timeout=TIMEOUT
        )
        expect(guest_page.locator('[data-testid="rematch"]')).to_have_count(0)
        host_page.locator('[data-testid="rematch"]').click()
        host_page.wait_for_url(lambda url: room.code not in url, timeout=TIMEOUT)
        fresh = Room.objects.exclude(pk=room.pk).get(game="abaku", host=host.profile)
        guest_page.wait_for_url(f"**/rooms/{fresh.code}/", timeout=TIMEOUT)
        expect(guest_page.locator("[data-ab-board] [data-row]")).to_have_count(225, timeout=TIMEOUT)
        seats = [(s["player_id"], bool(s["robot"])) for s in fresh.state["seats"]]
        assert seats == [(host.id, False), (guest.id, False), (None, True)]
    finally:
        for context in contexts:
            context.close()
