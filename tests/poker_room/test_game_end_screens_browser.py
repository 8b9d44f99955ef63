"""The end of a class group game on a lagging latecomer's phone and on the
projector (issue 40 §3), in Chromium.

Seen in a lesson: a latecomer's finished board showed its missed cells as empty
cells beside "Tvoje pole je hotové" twice; a pupil still behind kept a number in
hand after the teacher ended the game; on the projector the podium ran over the
room code and nicknames broke in the middle of a word.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from classrooms import launch
from games.rooms import services as rooms
from games.rooms.models import Room
from tests.classrooms import factories
from tests.classrooms.login import log_in
from tests.poker_room.live import rig_deck
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

# A word split over two lines has two client rects; a whole word has one.
SPLIT_WORDS = """(nodes) => nodes.flatMap((node) => {
  const text = node.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  const words = [];
  let at = 0;
  for (const word of text.data.split(" ")) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    if (word && range.getClientRects().length > 1) words.push(word);
    at += word.length + 1;
  }
  return words;
})"""


def _overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_a_lagging_latecomer_sees_the_end_with_missed_cells_and_the_projector_podium_fits(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("konec@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(
        classroom=classroom, user=teacher, game="poker", settings={"table": "contiguous"}
    )
    host = room.host
    for nickname in ("Přemýšlivá Veverka", "Rozvážný Mravenečník"):
        early, _cookie = player_cookie(nickname)
        factories.add_member(classroom, player=early, roster_name=nickname.split()[1])
        rooms.join_room(room=room, player=early)
    rooms.start_room(room=room, actor=host)
    room.refresh_from_db()
    rig_deck(room, [card for card in room.state["deck"] if card != 0][:25])
    for turn in range(20):
        rooms.submit(room_id=room.pk, player=host, client_id=f"d{turn}", message={"type": "draw"})

    late, cookie = player_cookie("Opožděná Sova")
    factories.add_member(classroom, player=late, roster_name="Sova")
    rooms.join_room(room=room, player=late)
    context = browser.new_context(
        base_url=asgi_server, viewport={"width": 360, "height": 740}, locale="en-GB"
    )
    context.set_default_timeout(20_000)
    context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    phone = context.new_page()
    phone.goto(f"/rooms/{room.code}/")
    expect(phone.get_by_test_id("hand")).not_to_have_text("–")
    for turn in range(20, 24):  # the latecomer falls behind: numbers wait in the queue
        rooms.submit(room_id=room.pk, player=host, client_id=f"d{turn}", message={"type": "draw"})
    expect(phone.get_by_test_id("queue")).to_be_visible()
    assert phone.locator("[data-testid=board] .is-missed").count() == 0  # nothing missed yet

    rooms.end_room(room=Room.objects.get(pk=room.pk), actor=host)
    expect(phone.get_by_test_id("final-ranking")).to_be_visible()
    expect(phone.get_by_test_id("hand")).to_have_text("–")
    expect(phone.get_by_test_id("queue")).to_be_hidden()
    board = phone.locator("[data-testid=board]")
    expect(board.locator(".is-missed")).to_have_count(25)
    expect(board.locator(".poker-cell[data-cell='1']")).to_have_attribute(
        "aria-label", "Row 1, column 2: missed"
    )
    expect(phone.locator("[data-pr-status]")).to_contain_text("25 cells stay empty")
    mine = phone.locator(".pr-final-item.is-me")
    expect(mine.get_by_test_id("missed-count")).to_have_text("· 25 missed")
    context.close()

    projector_context = browser.new_context(
        base_url=asgi_server, viewport={"width": 1024, "height": 768}, locale="en-GB"
    )  # a common classroom projector
    projector_context.set_default_timeout(20_000)
    projector = projector_context.new_page()
    log_in(projector, teacher)
    projector.goto(f"/poker/room/{room.code}/projector/")
    podium = projector.get_by_test_id("podium")
    expect(podium).to_be_visible()
    code = projector.get_by_test_id("projector-code").bounding_box()
    for step in podium.locator("li").all():
        assert not _overlap(step.bounding_box(), code)
    names = projector.locator(".pr-podium-name, .pr-projector-list .pr-name")
    expect(names.first).to_be_visible()
    assert names.evaluate_all(SPLIT_WORDS) == []
    clipped = podium.locator(".pr-podium-name").evaluate_all(
        "(nodes) => nodes.filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent)"
    )
    assert clipped == []
    projector_context.close()
