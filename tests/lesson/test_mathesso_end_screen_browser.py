"""Mathesso's end screen says things once (issue 31, low), on a 360 px phone, in Czech.

Seen: after a solo game the page said "Hra skončila." twice (the room's status
line and the board's) and offered two "Hrát znovu" buttons (the room's rematch
with the same players and the board's link to a new game).
"""

import re

import pytest
from playwright.sync_api import expect

from games.rooms.models import Room
from tests.mathesso.cheat import mismatch, next_moves
from tests.mathesso.test_mathesso_browser import click_tile, flips_done, wait_for_state

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}


def test_a_finished_solo_game_says_it_is_over_once_and_offers_one_play_again(
    transactional_db, browser, asgi_server
):
    context = browser.new_context(
        base_url=asgi_server, locale="cs-CZ", viewport=PHONE, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/mathesso/")
    page.select_option("#id_solo-variant", "atto")
    page.fill("#id_solo-nickname", "Sama Sam")
    page.click('[data-testid="start-solo"]')
    page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
    page.wait_for_selector("[data-game]:not([hidden]) .mt-tile")
    code = re.search(r"/rooms/([A-Z0-9]+)/$", page.url).group(1)
    room_pk = Room.objects.get(code=code).pk

    plan = mismatch(Room.objects.get(pk=room_pk).state)
    while True:
        for _player, message in plan:
            before = flips_done(Room.objects.get(pk=room_pk).state)
            click_tile(page, message["tile"])
            wait_for_state(room_pk, lambda s, b=before: flips_done(s) != b)
        state = Room.objects.get(pk=room_pk).state
        if state["phase"] == "over":
            break
        plan = next_moves(state)
    page.locator("[data-end] tbody tr").first.wait_for()
    expect(page.locator("[data-room-status]")).to_have_text("Hra skončila.")

    over = page.get_by_text("Hra skončila.", exact=True).filter(visible=True)
    expect(over).to_have_count(1)
    again = page.get_by_role("button", name=re.compile("^Hrát znovu")).or_(
        page.get_by_role("link", name=re.compile("^Hrát znovu"))
    )
    expect(again.filter(visible=True)).to_have_count(1)
    assert not errors, errors
    context.close()
