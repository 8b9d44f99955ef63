"""The "Leave the room" button: the page offers it, the protocol's ``leave`` does the
work, ``/rooms/<code>/left/`` says so and moves on, and everybody keeps seeing the
name of whoever left (the snapshot keeps gone seats, marked as gone)."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.core import signing
from django.test import Client
from playwright.sync_api import expect

from accounts import identity
from games.rooms import selectors, services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat
from games.theorems.rules import STARTER_DECKS
from tests.classrooms import factories
from tests.rooms.testgame import GAME

_ids = itertools.count(1)
TIMEOUT = 15_000


def submit(room, player, message):
    return services.submit(
        room_id=room.pk, player=player.profile, client_id=f"l{next(_ids)}", message=message
    )


def browser_of(player) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(player.token, salt=identity.SALT)
    return client


def table(make_player, game: str = "mathesso", game_settings: dict | None = None):
    players = [make_player(f"{game.title()} {n}") for n in range(3)]
    room = services.create_room(
        game=game, mode="table", host=players[0].profile, settings=game_settings or {}
    )
    for player in players[1:]:
        services.join_room(room=room, player=player.profile)
    return room, players


def flashes(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def seats_of(snapshot: dict) -> dict[str, str]:
    return {seat["nickname"]: seat["status"] for seat in snapshot["room"]["seats"]}


# --- the page --------------------------------------------------------------------------


@pytest.mark.django_db
def test_players_and_spectators_get_the_leave_button_and_the_host_does_not(make_player):
    room, (host, guest, _other) = table(make_player)
    watcher = make_player("Watcher")
    services.join_room(room=room, player=watcher.profile, role="spectator")
    for player in (guest, watcher):
        page = browser_of(player).get(f"/rooms/{room.code}/").content.decode()
        assert "data-room-leave" in page
        assert f'data-left-url="/rooms/{room.code}/left/"' in page
        assert "the game goes on without you" in page
    host_page = browser_of(host).get(f"/rooms/{room.code}/").content.decode()
    assert "data-room-leave" not in host_page
    assert 'data-room-action="end"' in host_page


# --- leaving through the protocol, then the landing page ---------------------------------


@pytest.mark.django_db
def test_leaving_the_lobby_lands_on_the_game_hub_with_a_message(make_player):
    room, (_host, guest, _other) = table(make_player)
    answer = submit(room, guest, {"type": "leave"})
    assert answer["type"] == "ack"
    assert Seat.objects.get(room=room, player=guest.profile).status == Seat.Status.LEFT
    response = browser_of(guest).get(f"/rooms/{room.code}/left/")
    assert response.status_code == 302 and response.url == "/mathesso/"
    assert flashes(response) == [f"You left room {room.code}."]
    # Still in the lobby: the join form is back for them.
    assert services.join_room(room=room, player=guest.profile).status == Seat.Status.JOINED


@pytest.mark.django_db
def test_leaving_a_running_game_says_it_goes_on_and_there_is_no_way_back(make_player):
    room, (host, guest, other) = table(make_player, game_settings={"variant": "pico"})
    services.start_room(room=room, actor=host.profile)
    submit(room, guest, {"type": "leave"})
    room.refresh_from_db()
    assert room.status == Room.Status.RUNNING  # two players go on
    assert str(guest.id) in room.state["gone"]
    response = browser_of(guest).get(f"/rooms/{room.code}/left/")
    assert response.url == "/mathesso/"
    assert flashes(response) == [f"You left the game in room {room.code}. It goes on without you."]
    with pytest.raises(RoomError) as refused:
        services.join_room(room=room, player=guest.profile)
    assert refused.value.code == "already_started"
    with pytest.raises(RoomError) as refused:
        submit(room, guest, {"type": "end_turn"})
    assert refused.value.code == "not_in_room"


@pytest.mark.django_db
def test_a_class_room_sends_its_student_back_to_the_class_page(make_player):
    classroom = factories.make_class()
    host, student = make_player("Teacher"), make_player("Student")
    factories.add_member(classroom, player=student.profile)
    room = services.create_room(
        game=GAME, mode="duel", host=host.profile, settings={}, classroom=classroom
    )
    services.join_room(room=room, player=student.profile)
    submit(room, student, {"type": "leave"})
    browser = browser_of(student)
    response = browser.get(f"/rooms/{room.code}/left/")
    assert response.url.startswith(f"/classes/{classroom.pk}/back/?next=")
    assert flashes(response) == [f"You left room {room.code}."]
    assert browser.get(response.url).url == f"/classes/{classroom.pk}/"


@pytest.mark.django_db
def test_a_class_room_sends_a_guest_who_is_not_in_the_class_to_the_game(make_player):
    classroom = factories.make_class()
    host, guest = make_player("Teacher"), make_player("Guest")
    room = services.create_room(
        game=GAME, mode="duel", host=host.profile, settings={}, classroom=classroom
    )
    services.join_room(room=room, player=guest.profile)
    submit(room, guest, {"type": "leave"})
    browser = browser_of(guest)
    back = browser.get(f"/rooms/{room.code}/left/").url
    assert browser.get(back).url == "/"  # the test game has no hub: home
    evil = f"/classes/{classroom.pk}/back/?next=https://evil.example/"
    assert browser.get(evil).url == "/"


@pytest.mark.django_db
def test_the_landing_page_sends_someone_still_seated_back_to_the_room(make_player):
    room, (host, guest, _other) = table(make_player)
    for player in (host, guest):
        response = browser_of(player).get(f"/rooms/{room.code}/left/")
        assert response.url == f"/rooms/{room.code}/"
        assert flashes(response) == []


@pytest.mark.django_db
def test_the_host_cannot_leave_and_is_told_so(make_player):
    room, (host, _guest, _other) = table(make_player)
    with pytest.raises(RoomError) as refused:
        submit(room, host, {"type": "leave"})
    assert refused.value.code == "host_cannot_leave"
    assert refused.value.message == "The host ends the room instead of leaving it."
    assert Seat.objects.get(room=room, player=host.profile).status == Seat.Status.JOINED


@pytest.mark.live
def test_the_host_gets_an_error_over_the_socket_and_stays(
    transactional_db, make_player, server, open_socket
):
    host, guest = make_player("Hostka"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    host_socket, guest_socket = (open_socket(server, room.code, p) for p in (host, guest))
    host_socket.recv(), guest_socket.recv()
    refused = host_socket.request({"type": "leave"})
    assert refused["type"] == "error" and refused["code"] == "host_cannot_leave"
    left = guest_socket.request({"type": "leave"})
    assert left["type"] == "ack"
    step = host_socket.recv_until(lambda m: m["type"] == "event" and m["seq"] == left["seq"])
    assert step["events"] == [{"type": "player_left", "player_id": guest.id}]


# --- names of those who left -------------------------------------------------------------


@pytest.mark.django_db
def test_the_snapshot_keeps_players_who_left_or_were_removed_marked_as_gone(make_player):
    room, (host, guest, other) = table(make_player, game_settings={"variant": "pico"})
    services.start_room(room=room, actor=host.profile)
    submit(room, guest, {"type": "leave"})
    services.kick(room=room, actor=host.profile, player_id=other.id)
    snapshot = selectors.snapshot(room_id=room.pk, player=host.profile)
    assert seats_of(snapshot) == {
        "Mathesso 0": "joined",
        "Mathesso 1": "left",
        "Mathesso 2": "kicked",
    }
    gone = {p["id"]: p["gone"] for p in snapshot["view"]["players"]}
    assert gone == {str(host.id): False, str(guest.id): True, str(other.id): True}
    # The page's own list (server-rendered) shows only who is seated now.
    assert [s.player_id for s in selectors.seats(room)] == [host.id]


@pytest.mark.django_db
def test_a_lobby_leaver_is_not_listed_until_they_come_back(make_player):
    room, (host, guest, _other) = table(make_player)
    submit(room, guest, {"type": "leave"})
    assert "Mathesso 1" not in seats_of(selectors.snapshot(room_id=room.pk, player=host.profile))
    services.join_room(room=room, player=guest.profile)
    snapshot = selectors.snapshot(room_id=room.pk, player=host.profile)
    assert [s["nickname"] for s in snapshot["room"]["seats"]].count("Mathesso 1") == 1
    assert seats_of(snapshot)["Mathesso 1"] == "joined"


@pytest.mark.django_db
def test_who_left_the_lobby_is_not_listed_as_gone_once_the_game_runs(make_player):
    room, (host, guest, other) = table(make_player)
    submit(room, guest, {"type": "leave"})
    services.kick(room=room, actor=host.profile, player_id=other.id)
    services.start_room(room=room, actor=host.profile)
    assert seats_of(selectors.snapshot(room_id=room.pk, player=host.profile)) == {
        "Mathesso 0": "joined"
    }


def choose_starter_decks(room, players) -> None:
    for number, player in enumerate(players):
        starter = STARTER_DECKS[number % 2]
        message = {"name": starter.id, "mathematician": starter.mathematician}
        submit(room, player, {"type": "deck", **message, "cards": list(starter.deck)})


@pytest.mark.django_db
def test_abaku_and_matematici_views_name_the_player_who_left(make_player):
    abaku, abaku_players = table(
        make_player, game="abaku", game_settings={"table_size": 3, "turn_seconds": 60}
    )
    theorems, theorems_players = table(
        make_player, game="theorems", game_settings={"table_size": 3}
    )
    services.start_room(room=abaku, actor=abaku_players[0].profile)
    services.start_room(room=theorems, actor=theorems_players[0].profile)
    choose_starter_decks(theorems, theorems_players)  # before that, a robot takes the seat
    for room, (host, guest, other) in ((abaku, abaku_players), (theorems, theorems_players)):
        submit(room, guest, {"type": "leave"})
        view = selectors.snapshot(room_id=room.pk, player=host.profile)["view"]
        assert {s["nickname"]: bool(s.get("left")) for s in view["seats"]} == {
            host.profile.nickname: False,
            guest.profile.nickname: True,
            other.profile.nickname: False,
        }


# --- in the browser ----------------------------------------------------------------------


def _context(browser, base_url, player, **options):
    context = browser.new_context(base_url=base_url, locale="en-GB", **options)
    for part in player.cookie.split("; "):
        name, value = part.split("=", 1)
        context.add_cookies([{"name": name, "value": value, "url": base_url}])
    return context


def _collect_problems(page, problems):
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))


@pytest.mark.live
@pytest.mark.browser
def test_a_player_leaves_a_running_mathesso_table_from_a_phone(
    transactional_db, browser, asgi_server, make_player
):
    host, guest, third = make_player("Ada Tiles"), make_player("Bob Pairs"), make_player("Cyril")
    room = services.create_room(
        game="mathesso", mode="table", host=host.profile, settings={"variant": "pico"}
    )
    for player in (guest, third):
        services.join_room(room=room, player=player.profile)
    services.start_room(room=room, actor=host.profile)
    problems: list[str] = []
    host_context = _context(browser, asgi_server, host)
    phone = _context(
        browser, asgi_server, guest, viewport={"width": 360, "height": 740}, is_mobile=True
    )
    try:
        host_page, guest_page = host_context.new_page(), phone.new_page()
        for page in (host_page, guest_page):
            _collect_problems(page, problems)
            page.goto(f"/rooms/{room.code}/")
            page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=TIMEOUT)
        expect(host_page.get_by_role("button", name="Leave the room")).to_have_count(0)

        leave = guest_page.get_by_role("button", name="Leave the room")
        box = leave.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360  # fits on the phone
        leave.click()
        dialog = guest_page.get_by_role("dialog")
        expect(dialog).to_contain_text("the game goes on without you")
        dialog.get_by_role("button", name="Cancel").click()
        assert Seat.objects.get(room=room, player=guest.profile).status == Seat.Status.JOINED

        leave.click()
        guest_page.get_by_role("dialog").get_by_role("button", name="Yes").click()
        guest_page.wait_for_url("**/mathesso/", timeout=TIMEOUT)
        expect(guest_page.locator(".messages")).to_contain_text(
            f"You left the game in room {room.code}. It goes on without you."
        )
        assert Seat.objects.get(room=room, player=guest.profile).status == Seat.Status.LEFT

        gone = host_page.locator(f'.mathesso-player[data-player="{guest.id}"]')
        expect(gone).to_contain_text("Bob Pairs")
        expect(gone).to_contain_text("left the game")
        expect(host_page.locator('[data-room-seats] li[data-gone="left"]')).to_contain_text(
            "Bob Pairs"
        )
        host_page.reload()  # the snapshot still names the player who left
        host_page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=TIMEOUT)
        expect(gone).to_contain_text("Bob Pairs")
        expect(gone).to_contain_text("left the game")
        expect(host_page.locator('[data-room-seats] li[data-gone="left"]')).to_contain_text(
            "Bob Pairs"
        )
        assert Room.objects.get(pk=room.pk).status == Room.Status.RUNNING
        assert problems == []
    finally:
        host_context.close()
        phone.close()
