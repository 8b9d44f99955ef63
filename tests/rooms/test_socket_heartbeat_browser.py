"""A phone whose network goes away says so by itself (issue 40 §3): RoomSocket
pings the server every few seconds and, when no pong comes back, shows
"Connection lost. Reconnecting…" and reconnects once the network is back.
The page's WebSocket is routed through Playwright so the test can cut it the
way a dead mobile network does: nothing arrives, nothing closes."""

import re

import pytest
from playwright.sync_api import expect

from games.rooms import services
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live, pytest.mark.browser]


def test_a_socket_that_hears_nothing_says_so_and_reconnects(
    transactional_db, browser, server, make_player
):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="group", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    context = browser.new_context(base_url=server, locale="en-GB")
    for part in guest.cookie.split("; "):
        name, value = part.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": server}])
    network = {"up": True}

    def route(ws):
        if not network["up"]:
            return  # a dead network: the connection neither opens to the server nor closes
        server_side = ws.connect_to_server()
        ws.on_message(lambda message: network["up"] and server_side.send(message))
        server_side.on_message(lambda message: network["up"] and ws.send(message))

    page = context.new_page()
    page.route_web_socket(re.compile(r".*/ws/rooms/.*"), route)
    page.goto(f"/rooms/{room.code}/")
    connection = page.locator("[data-room-connection]")
    expect(connection).to_have_attribute("data-state", "online")

    network["up"] = False
    expect(connection).to_have_attribute(
        "data-state", re.compile("offline|reconnecting"), timeout=30000
    )
    expect(connection).to_contain_text("Reconnecting")

    network["up"] = True
    expect(connection).to_have_attribute("data-state", "online", timeout=30000)
    expect(connection).to_have_text("Connected")
    context.close()
