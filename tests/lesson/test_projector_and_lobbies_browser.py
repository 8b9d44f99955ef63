"""One open game per class launch, and the projector as the room's screen (issue 31).

Seen in the lesson: a second group game left the first lobby open (a pupil's
class page listed identical "waiting" rows), ending a lobby that never started
showed pupils an empty final ranking, the projector did not follow "New round",
and at 1920 px it kept the site header, used 60 % of the width, showed nobody in
the lobby, ran scores into nicknames and had no podium.
"""

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from classrooms import launch
from games.poker.room_games import services as poker_services
from games.rooms import services as rooms
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat
from tests.classrooms import factories
from tests.classrooms.login import log_in
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "lesson"
PHONE = {"width": 360, "height": 740}
PROJECTOR = {"width": 1920, "height": 1080}


def _pupil(browser, server, classroom, nickname, roster_name):
    profile, cookie = player_cookie(nickname)
    factories.add_member(classroom, player=profile, roster_name=roster_name)
    context = browser.new_context(base_url=server, viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": server}])
    return profile, context.new_page()


def test_a_new_class_game_closes_the_old_lobby_and_takes_its_pupils_along(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("lobby@skola.sk")
    classroom = factories.make_class(teacher)
    first = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    adam, phone = _pupil(browser, asgi_server, classroom, "Rychlý Sokol", "Adam Kováč")
    rooms.join_room(room=first, player=adam)
    phone.goto(f"/rooms/{first.code}/")
    expect(phone.locator("[data-room-connection]")).to_have_text("Connected")

    second = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    phone.wait_for_url(f"**/rooms/{second.code}/")  # the page followed by itself
    first.refresh_from_db()
    assert first.status == Room.Status.FINISHED and first.record_id is None
    assert Seat.objects.filter(room=second, player=adam, status=Seat.Status.JOINED).exists()
    assert list(Room.objects.filter(classroom=classroom, status=Room.Status.LOBBY)) == [second]

    phone.goto(f"/classes/{classroom.pk}/")
    expect(phone.locator("[data-testid=live-rooms] li")).to_have_count(1)

    # Ending a lobby that never started: no empty final ranking, it says what happened.
    phone.goto(f"/rooms/{second.code}/")
    expect(phone.locator("[data-room-connection]")).to_have_text("Connected")
    rooms.end_room(room=second, actor=second.host)
    expect(phone.locator("[data-testid=never-started]")).to_be_visible()
    expect(phone.locator("#pr-final-title")).to_be_hidden()
    expect(phone.locator("[data-testid=final-ranking] li")).to_have_count(0)
    phone.screenshot(path=str(SHOTS / "lobby-closed-phone.png"))
    phone.context.close()


def test_the_projector_is_the_rooms_screen_and_follows_the_new_round(
    transactional_db, browser, asgi_server
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher = factories.make_teacher("projektor@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(
        classroom=classroom, user=teacher, game="poker", settings={"table": "contiguous"}
    )
    names = ["Chytrá Liška", "Rychlý Sokol", "Tichá Myška", "Veselý Ježek"]
    pupils = []
    for index, nickname in enumerate(names):
        profile, _cookie = player_cookie(nickname)
        factories.add_member(classroom, player=profile, roster_name=f"Žák {index}")
        rooms.join_room(room=room, player=profile)
        pupils.append(profile)

    context = browser.new_context(base_url=asgi_server, viewport=PROJECTOR, locale="cs-CZ")
    context.set_default_timeout(20_000)
    screen = context.new_page()
    log_in(screen, teacher)
    screen.goto(f"/poker/room/{room.code}/projector/")
    expect(screen.locator("[data-testid=projector-joined-count]")).to_contain_text("4")
    expect(screen.locator("[data-testid=projector-joined-names] li")).to_have_count(4)
    expect(screen.locator(".site-header")).to_be_hidden()
    main = screen.locator("main").bounding_box()
    assert main["width"] >= 0.9 * PROJECTOR["width"], main
    screen.screenshot(path=str(SHOTS / "projector-lobby-1920.png"))

    # A game where the fourth pupil scores 12 and the others more: every row's
    # score stands apart from the nickname.
    rooms.start_room(room=room, actor=room.host)
    room.refresh_from_db()
    room.state["deck"] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 2
    Room.objects.filter(pk=room.pk).update(state=room.state)
    for turn in range(25):
        rooms.submit(
            room_id=room.pk, player=room.host, client_id=f"d{turn}", message={"type": "draw"}
        )
        for pupil in pupils:
            rooms.submit(
                room_id=room.pk,
                player=pupil,
                client_id=f"p{pupil.pk}-{turn}",
                message={"type": "place", "cell": (turn + pupils.index(pupil)) % 25},
            )
    room.refresh_from_db()
    if room.status != Room.Status.FINISHED:
        try:
            rooms.end_room(room=room, actor=room.host)
        except RoomError as error:  # the game's own end got there first (a busy run)
            assert error.code == "room_finished", error.code
    podium = screen.locator("[data-testid=podium]")
    expect(podium).to_be_visible()
    expect(podium.locator("li")).to_have_count(3)
    rows = screen.locator("[data-testid=projector-ranking] li")
    expect(rows).to_have_count(4)
    # Measured in one go: the list is redrawn with every poll of the standings.
    gaps = screen.evaluate(
        """() => [...document.querySelectorAll("[data-testid=projector-ranking] li")].map((li) =>
            li.querySelector(".pr-score").getBoundingClientRect().left
            - li.querySelector(".pr-name").getBoundingClientRect().right)"""
    )
    assert len(gaps) == 4 and all(gap > 0 for gap in gaps), gaps
    screen.screenshot(path=str(SHOTS / "projector-podium-1920.png"))

    # "New round": the projector goes to the new lobby's screen by itself.
    room.refresh_from_db()
    fresh = poker_services.new_round(room=room, host=room.host)
    screen.wait_for_url(f"**/poker/room/{fresh.code}/projector/")
    expect(screen.locator("[data-testid=projector-code]")).to_have_text(fresh.code)
    context.close()
