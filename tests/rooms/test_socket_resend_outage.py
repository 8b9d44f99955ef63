"""The browser's RoomSocket through a database outage (issue 22, section 5).

Required: "a placement sent during the outage is applied after it without user
action". A real Chromium page of a running group room, on the outage module's
own ASGI process (tests/rooms/test_rooms_outage.py: the test database stops
taking connections and that process's connections are cut), sends a placement
while the database is away; the server answers ``unavailable`` with
``retry: true``; the page's kit keeps the message and resends it (same id) with
backoff; once the database is back the placement is stored exactly once and
the page's send resolves with the ack, with no error shown to the page.
"""

import time

import pytest
from playwright.sync_api import expect

from games.rooms import services
from games.rooms.models import RoomEvent, Seat
from tests.rooms.test_rooms_outage import (  # noqa: F401  (fixtures)
    database_away,
    fragile_server,
    redis_server,
)
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live, pytest.mark.browser]

WATCH = """() => {
  const socket = document.querySelector("[data-room-live]").roomSocket;
  window.seen = { retrying: [], errors: [] };
  socket.addEventListener("retrying", (e) => window.seen.retrying.push(e.detail));
  socket.addEventListener("error", (e) => window.seen.errors.push(e.detail));
}"""

PLACE = """(n) => {
  const socket = document.querySelector("[data-room-live]").roomSocket;
  window.answer = null;
  socket.send({ type: "place", n }).then(
    (ack) => { window.answer = { ack }; },
    (error) => { window.answer = { code: error.code }; },
  );
}"""


def _wait_until(page, expression: str, timeout: float = 45) -> None:
    """Poll from Python (the page's CSP forbids the evaluation wait_for_function uses)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        time.sleep(0.1)


def test_a_placement_sent_while_the_database_is_away_is_applied_after_it(
    transactional_db,
    browser,
    fragile_server,  # noqa: F811  (the fixture)
    make_player,  # noqa: F811  (the fixture)
):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="group", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    context = browser.new_context(base_url=fragile_server, locale="en-GB")
    for part in guest.cookie.split("; "):
        name, value = part.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": fragile_server}])
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"/rooms/{room.code}/")
    expect(page.locator("[data-room-connection]")).to_have_text("Connected")
    page.evaluate(WATCH)

    with database_away():
        page.evaluate(PLACE, 7)
        # the server said "not now" at least twice and the kit is resending
        _wait_until(page, "window.seen.retrying.length >= 2")
        assert page.evaluate("window.answer") is None
        assert {r["code"] for r in page.evaluate("window.seen.retrying")} == {"unavailable"}

    # Back: nobody touches the page; the kept message goes through.
    _wait_until(page, "window.answer !== null")
    answer = page.evaluate("window.answer")
    assert "ack" in answer, answer
    assert page.evaluate("window.seen.errors") == []
    seat = Seat.objects.get(room=room, player=guest.profile)
    assert seat.state["placed"] == [7]
    placements = [
        event
        for event in RoomEvent.objects.filter(room=room)
        if any(e.get("type") == "progress" for e in event.public or [])
    ]
    assert len(placements) == 1  # resent several times, applied once
    expect(page.locator("[data-room-connection]")).to_have_text("Connected")
    assert problems == []
    context.close()
