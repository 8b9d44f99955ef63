"""The board in view on a phone during a group game (issue 31).

Seen at 360×740: the board started at y = 613 px, only its first row visible,
and nothing scrolled to it while the hard-mode clock ran. During a game the
number in hand and the whole 5×5 board must fit the viewport without scrolling.
"""

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from classrooms import launch
from games.rooms import services as rooms
from tests.classrooms import factories
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "lesson"
PHONE = {"width": 360, "height": 740}


def _inside(box, viewport) -> bool:
    return (
        box is not None
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= viewport["height"]
        and box["x"] + box["width"] <= viewport["width"]
    )


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_the_number_in_hand_and_the_whole_board_fit_a_phone(
    transactional_db, browser, asgi_server, difficulty
):
    teacher = factories.make_teacher(f"telefon-{difficulty}@skola.sk")
    classroom = factories.make_class(teacher)
    profile, cookie = player_cookie("Tichá Myška")
    factories.add_member(classroom, player=profile, roster_name="Bára Nová")
    chosen = {"table": "contiguous", "difficulty": difficulty}
    if difficulty == "hard":
        chosen["seconds"] = 300  # the clock shows, and never runs out during the test
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker", settings=chosen)
    rooms.join_room(room=room, player=profile)
    rooms.start_room(room=room, actor=room.host)
    room.refresh_from_db()
    room.state["deck"][:2] = [7, 9]
    type(room).objects.filter(pk=room.pk).update(state=room.state)

    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="cs-CZ")
    context.set_default_timeout(20_000)
    context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    phone = context.new_page()
    phone.goto(f"/rooms/{room.code}/")
    board = phone.locator("[data-testid=board] .poker-board, [data-testid=board]").first
    expect(board).to_be_visible()
    rooms.submit(room_id=room.pk, player=room.host, client_id="d0", message={"type": "draw"})
    hand = phone.locator("[data-testid=hand]")
    expect(hand).to_have_text("7")
    phone.wait_for_timeout(
        300
    )  # let a scroll the page makes by itself settle (no assertion on time)

    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.screenshot(path=str(SHOTS / f"board-in-view-{difficulty}-phone.png"))
    cells = phone.locator("[data-testid=board] [data-cell]")
    expect(cells).to_have_count(25)
    for index in (0, 4, 20, 24):
        assert _inside(cells.nth(index).bounding_box(), PHONE), index
    assert _inside(hand.bounding_box(), PHONE)
    if difficulty == "hard":
        assert _inside(phone.locator("[data-testid=timer]").bounding_box(), PHONE)
    # Placing keeps it in view: the whole board stays where the thumb is.
    cells.nth(24).click()
    expect(cells.nth(24).locator(".poker-value")).to_have_text("7")
    rooms.submit(room_id=room.pk, player=room.host, client_id="d1", message={"type": "draw"})
    expect(hand).to_have_text("9")
    for index in (0, 24):
        assert _inside(cells.nth(index).bounding_box(), PHONE), index
    context.close()
