"""Joining by code, link and QR; limits; host controls; codes not guessable."""

import pytest
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from classrooms.models import Classroom
from games.rooms import selectors, services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat
from games.rooms.services import CODE_ALPHABET
from tests.rooms.testgame import GAME


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()


@pytest.fixture
def host(db, make_player):
    return make_player("Teacher")


@pytest.fixture
def lobby(host):
    return services.create_room(game=GAME, mode="duel", host=host.profile, settings={})


@pytest.fixture
def group(host):
    return services.create_room(game=GAME, mode="group", host=host.profile, settings={})


def _client_for(client, player):
    name, value = player.cookie.split(";")[0].split("=", 1)
    client.cookies[name] = value
    return client


def test_join_codes_are_six_characters_without_look_alikes(host):
    codes = {
        services.create_room(game=GAME, mode="duel", host=host.profile, settings={}).code
        for _ in range(30)
    }
    assert len(codes) == 30
    for code in codes:
        assert len(code) == 6
        assert set(code) <= set(CODE_ALPHABET)
    assert not set("01OIL") & set(CODE_ALPHABET)


def test_a_live_code_is_unique_but_can_return_after_the_room_ended(host):
    first = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    with pytest.raises(IntegrityError), transaction.atomic():
        Room.objects.create(
            code=first.code,
            game=GAME,
            mode="duel",
            host=host.profile,
            rng_seed=1,
            expires_at=first.expires_at,
        )
    services.end_room(room=first, actor=host.profile)
    again = Room.objects.create(
        code=first.code,
        game=GAME,
        mode="duel",
        host=host.profile,
        rng_seed=1,
        expires_at=first.expires_at,
    )
    assert selectors.room_by_code(first.code) == again


def test_joining_by_link_without_a_profile_asks_for_a_nickname(client, lobby):
    page = client.get(reverse("rooms:room", kwargs={"code": lobby.code}))
    assert page.status_code == 200
    assert b'name="nickname"' in page.content
    assert lobby.code.encode() in page.content
    # the invite card with the QR code is the host's, not a visitor's
    assert reverse("rooms:qr", kwargs={"code": lobby.code}).encode() not in page.content


def test_joining_with_a_nickname_creates_the_profile_and_takes_a_seat(client, lobby):
    response = client.post(
        reverse("rooms:join", kwargs={"code": lobby.code}),
        {"nickname": "Zelena Liska", "role": "player"},
    )
    assert response.status_code == 302
    seat = Seat.objects.get(room=lobby, player__nickname="Zelena Liska")
    assert seat.role == "player" and seat.status == "joined"
    assert "matika_player" in response.cookies
    page = client.get(response["Location"])
    assert b"data-room-live" in page.content


def test_a_code_typed_loosely_finds_the_room(client, lobby):
    typed = lobby.code.lower()[:3] + " " + lobby.code.lower()[3:]
    response = client.get(reverse("rooms:enter"), {"code": typed})
    assert response.status_code == 302
    assert response["Location"] == reverse("rooms:room", kwargs={"code": lobby.code})


def test_the_qr_code_is_an_svg_of_the_join_link(client, lobby):
    response = client.get(reverse("rooms:qr", kwargs={"code": lobby.code}))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content


def test_guessing_codes_is_rate_limited(client, lobby, settings):
    from accounts import limits

    settings.MATIKA_LIMITS = {}  # the real rates (tests/security/ covers them in depth)
    assert limits.code_misses().address_rate == "100/15m"
    wrong = "ZZZZZZ" if lobby.code != "ZZZZZZ" else "YYYYYY"
    # A browser without identity shares its address's ceiling of misses (100; 5
    # here, the same rule in 7 requests instead of 102).
    settings.MATIKA_LIMITS = {"code_misses_address": "5/15m"}
    for _ in range(5):
        assert client.get(reverse("rooms:room", kwargs={"code": wrong})).status_code == 404
    assert client.get(reverse("rooms:room", kwargs={"code": lobby.code})).status_code == 429
    assert client.get(reverse("rooms:enter"), {"code": lobby.code}).status_code == 429


def test_the_fifty_first_player_is_refused_with_a_clear_message(client, group, make_player):
    for _ in range(50):
        services.join_room(room=group, player=make_player().profile)
    late = make_player("Late Comer")
    response = _client_for(client, late).post(
        reverse("rooms:join", kwargs={"code": group.code}), {"role": "player"}
    )
    assert response.status_code == 409
    assert b"This room is full: at most 50 players can play." in response.content
    assert not Seat.objects.filter(room=group, player=late.profile).exists()


def test_a_duel_takes_two_including_the_host(lobby, make_player):
    services.join_room(room=lobby, player=make_player().profile)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=lobby, player=make_player().profile)
    assert refused.value.code == "room_full"


def test_a_kicked_player_cannot_come_back(client, lobby, host, make_player):
    guest = make_player("Rowdy")
    services.join_room(room=lobby, player=guest.profile)
    services.kick(room=lobby, actor=host.profile, player_id=guest.id)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=lobby, player=guest.profile)
    assert refused.value.code == "kicked"
    response = _client_for(client, guest).post(
        reverse("rooms:join", kwargs={"code": lobby.code}), {"role": "player"}
    )
    assert response.status_code == 409
    assert Seat.objects.get(room=lobby, player=guest.profile).status == "kicked"


def test_only_the_host_controls_the_room(lobby, make_player):
    guest = make_player()
    services.join_room(room=lobby, player=guest.profile)
    for action in (
        lambda: services.start_room(room=lobby, actor=guest.profile),
        lambda: services.set_locked(room=lobby, actor=guest.profile, locked=True),
        lambda: services.kick(room=lobby, actor=guest.profile, player_id=lobby.host_id),
        lambda: services.end_room(room=lobby, actor=guest.profile),
    ):
        with pytest.raises(RoomError) as refused:
            action()
        assert refused.value.code == "not_host"
    lobby.refresh_from_db()
    assert (lobby.status, lobby.locked) == ("lobby", False)


def test_locking_and_starting_close_the_door(lobby, host, make_player):
    services.set_locked(room=lobby, actor=host.profile, locked=True)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=lobby, player=make_player().profile)
    assert refused.value.code == "room_locked"
    services.set_locked(room=lobby, actor=host.profile, locked=False)
    services.join_room(room=lobby, player=make_player().profile)
    services.start_room(room=lobby, actor=host.profile)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=lobby, player=make_player().profile)
    assert refused.value.code == "already_started"


def test_spectators_may_watch_a_running_game_where_the_game_allows(lobby, host, make_player):
    services.start_room(room=lobby, actor=host.profile)
    seat = services.join_room(room=lobby, player=make_player().profile, role="spectator")
    assert seat.role == "spectator"


def test_live_rooms_of_a_class_lists_only_open_rooms(host):
    teacher = User.objects.create_user("t@example.com", "pw-Secret-123")
    classroom = Classroom.objects.create(name="7.A", teacher=teacher, join_code="CLASS1")
    open_room = services.create_room(
        game=GAME, mode="duel", host=host.profile, settings={}, classroom=classroom
    )
    ended = services.create_room(
        game=GAME, mode="duel", host=host.profile, settings={}, classroom=classroom
    )
    services.end_room(room=ended, actor=host.profile)
    services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    assert list(selectors.live_rooms_for_classroom(classroom)) == [open_room]


def test_unknown_games_and_bad_settings_are_refused(host):
    with pytest.raises(RoomError) as refused:
        services.create_room(game="chess", mode="duel", host=host.profile, settings={})
    assert refused.value.code == "unknown_game"
    with pytest.raises(RoomError) as refused:
        services.create_room(game=GAME, mode="duel", host=host.profile, settings={"target": -1})
    assert refused.value.code == "bad_settings"
    assert not Room.objects.exists()


def test_leaving_the_lobby_frees_the_place_and_the_player_may_come_back(lobby, make_player):
    guest, other = make_player(), make_player()
    services.join_room(room=lobby, player=guest.profile)
    services.leave_room(room=lobby, player=guest.profile)
    services.join_room(room=lobby, player=other.profile)  # the freed place
    services.leave_room(room=lobby, player=other.profile)
    seat = services.join_room(room=lobby, player=guest.profile)
    assert (seat.status, seat.role) == ("joined", "player")
    assert Seat.objects.filter(room=lobby, player=guest.profile).count() == 1


def test_joining_twice_keeps_one_seat(lobby, make_player):
    guest = make_player()
    first = services.join_room(room=lobby, player=guest.profile)
    again = services.join_room(room=lobby, player=guest.profile)
    assert first.pk == again.pk
    lobby.refresh_from_db()
    assert lobby.seq == 2  # create + one join: the repeat changed nothing
