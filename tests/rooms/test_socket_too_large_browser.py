"""The browser's RoomSocket when the server closes the socket with 1009 (a frame
larger than uvicorn's ``--ws-max-size``): the page is told "too long", that
message is not sent again, and the socket reconnects by itself (issue 22)."""

import time

import pytest
from playwright.sync_api import expect

from games.rooms import services
from games.rooms.models import Seat
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live, pytest.mark.browser]

SEND = """([name, message]) => {
  const socket = document.querySelector("[data-room-live]").roomSocket;
  window.answers = window.answers || {};
  window.errors = window.errors || [];
  if (!window.watching) {
    socket.addEventListener("error", (e) => window.errors.push(e.detail));
    window.watching = true;
  }
  socket.send(message).then(
    (ack) => { window.answers[name] = { ack }; },
    (error) => { window.answers[name] = { code: error.code, message: error.message }; },
  );
}"""


def _answer(page, name: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while (answer := page.evaluate(f"(window.answers || {{}})[{name!r}]")) is None:
        assert time.monotonic() < deadline, f"no answer to {name}"
        time.sleep(0.1)
    return answer


def test_a_frame_too_large_is_refused_as_too_long_and_the_socket_comes_back(
    transactional_db, browser, server, make_player
):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="group", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    context = browser.new_context(base_url=server, locale="en-GB")
    for part in guest.cookie.split("; "):
        name, value = part.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": server}])
    page = context.new_page()
    closes: list[int] = []
    page.on("websocket", lambda ws: ws.on("close", lambda _ws: closes.append(1)))
    page.goto(f"/rooms/{room.code}/")
    expect(page.locator("[data-room-connection]")).to_have_text("Connected")

    page.evaluate(SEND, ["huge", {"type": "place", "n": 1, "pad": "x" * 70000}])
    assert _answer(page, "huge") == {"code": "too_large", "message": "This message is too long."}
    assert [e["code"] for e in page.evaluate("window.errors")] == ["too_large"]
    assert closes  # the server did close that socket
    expect(page.locator("[data-room-connection]")).to_have_text("Connected", timeout=15000)

    page.evaluate(SEND, ["small", {"type": "place", "n": 2}])
    assert "ack" in _answer(page, "small")
    assert Seat.objects.get(room=room, player=guest.profile).state["placed"] == [2]
    context.close()
