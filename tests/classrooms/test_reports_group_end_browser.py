"""Issue 37 §2: the host's end dialog of a poker group game says how many
players are still behind and offers to wait."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from games.rooms import services
from games.rooms.models import Room
from tests.poker_room.live import rig_deck
from tests.rooms.conftest import Player

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_the_end_dialog_counts_who_is_behind_and_offers_to_wait(
    transactional_db, browser, asgi_server
):
    from playwright.sync_api import expect

    host, adam, bea = Player("Paní Nováková"), Player("Adam"), Player("Bea")
    room = services.create_room(game="poker", mode="group", host=host.profile, settings={})
    for pupil in (adam, bea):
        services.join_room(room=room, player=pupil.profile)
    services.start_room(room=room, actor=host.profile)
    rig_deck(room, [3, 5])
    services.submit(room_id=room.pk, player=host.profile, client_id="d0", message={"type": "draw"})
    services.submit(
        room_id=room.pk, player=adam.profile, client_id="a0", message={"type": "place", "cell": 0}
    )

    context = browser.new_context(base_url=asgi_server, locale="en-GB")
    context.add_cookies(
        [
            {
                "name": settings.PLAYER_COOKIE_NAME,
                "value": signing.dumps(host.token, salt=identity.SALT),
                "url": asgi_server,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"/rooms/{room.code}/")
    expect(page.locator("[data-room-connection]")).to_have_text("Connected")
    expect(page.locator("[data-pr-live] tbody tr")).to_have_count(2)  # the standings came

    page.get_by_role("button", name="End the room").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("2 players have not finished their boards yet")
    dialog.get_by_role("button", name="Wait").click()
    expect(dialog).to_have_count(0)
    assert Room.objects.get(pk=room.pk).status == Room.Status.RUNNING

    page.get_by_role("button", name="End the room").click()
    page.locator("dialog[open]").get_by_role("button", name="End now").click()
    expect(page.locator("[data-pr-final]")).to_be_visible()
    assert Room.objects.get(pk=room.pk).status == Room.Status.FINISHED
    context.close()
