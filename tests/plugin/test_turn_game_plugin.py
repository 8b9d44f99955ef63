"""A new turn-based table game needs only its engine, its view and its templates:
the tiny turn game (tests/plugin/tinyturns/) plugs into the rooms runtime's turn
table and is played to its results, robots and the turn clock included."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client
from django.urls import clear_url_caches
from django.utils import timezone

from accounts import identity
from accounts import services as accounts_services
from accounts.models import PlayerProfile
from core import registry as game_registry
from games.models import GameResult
from games.rooms import services as room_services
from games.rooms.errors import RoomError
from games.rooms.models import Room
from tests.plugin.tinyturns import game as tinyturns

pytestmark = pytest.mark.django_db


def _reload_urls() -> None:
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()


@pytest.fixture
def tiny():
    game_registry.register(tinyturns.SPEC)
    _reload_urls()
    yield tinyturns.SPEC
    game_registry.unregister(tinyturns.SLUG)
    _reload_urls()


def _player(nickname: str):
    profile, token = accounts_services.create_profile(browser_token=None, nickname=nickname)
    client = Client(headers={"accept-language": "en"})
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
    return profile, client


def _add(room: Room, player, by: int, number: int, now) -> dict:
    return room_services.submit(
        room_id=room.pk,
        player=player,
        client_id=f"a{number}",
        message={"type": "add", "by": by},
        now=now,
    )


def test_a_table_with_a_robot_is_played_to_results_through_the_runtime(tiny):
    host, browser = _player("Counter")
    room = room_services.create_room(
        game="tinyturns", mode="table", host=host, settings={"goal": 3, "robot_delay_ms": 700}
    )
    room_services.start_room(room=room, actor=host)
    room.refresh_from_db()
    assert [s["robot"] for s in room.state["seats"]] == [None, "slow"]
    assert b'data-testid="tinyturns-board"' in browser.get(f"/rooms/{room.code}/").content

    now = timezone.now()  # every step at a moment of the test's choosing
    assert _add(room, host, 2, 1, now)["type"] == "ack"
    with pytest.raises(RoomError) as refused:
        _add(room, host, 1, 2, now)
    assert refused.value.code == "not_your_turn"
    room.refresh_from_db()
    assert room.state["robot_due"] is not None and room.next_tick_at is not None

    room_services.tick_room(room_id=room.pk, now=now + timedelta(milliseconds=600))
    room.refresh_from_db()
    assert room.state["game"]["counts"] == [2, 0]  # the robot waits for its moment
    room_services.tick_room(room_id=room.pk, now=now + timedelta(seconds=1))
    room.refresh_from_db()
    assert room.state["game"]["counts"] == [2, 1]  # exactly one robot action per tick

    assert _add(room, host, 1, 3, now + timedelta(seconds=1))["type"] == "ack"
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    result = GameResult.objects.get(record__game="tinyturns", player=host)
    assert result.rank == 1 and result.score == 3 and result.details["robots"] == 1


def test_the_turn_clock_a_removed_player_and_ranking_are_the_runtimes(tiny):
    host, _browser = _player("Host")
    guest, _other = _player("Guest")
    room = room_services.create_room(
        game="tinyturns",
        mode="table",
        host=host,
        settings={"goal": 9, "table_size": 3, "turn_seconds": 30, "robot_level": "quick"},
    )
    room_services.join_room(room=room, player=guest)
    room_services.start_room(room=room, actor=host)
    room.refresh_from_db()
    deadline = room.next_tick_at
    assert deadline is not None

    room_services.tick_room(room_id=room.pk, now=deadline + timedelta(seconds=1))
    room.refresh_from_db()
    assert room.state["game"]["turn"] == 1  # the host's turn ran out: the guest is on

    room_services.kick(room=room, actor=host, player_id=guest.pk)
    room.refresh_from_db()
    assert room.state["seats"][1]["left"] is True
    assert room.state["game"]["turn"] == 2  # their turn passed on to the robot at once

    room_services.tick_room(room_id=room.pk, now=room.next_tick_at)
    room.refresh_from_db()
    assert room.state["game"]["counts"] == [0, 0, 2] and room.state["game"]["turn"] == 0

    room_services.end_room(room=room, actor=host)
    ranks = dict(
        GameResult.objects.filter(record__game="tinyturns").values_list("player_id", "rank")
    )
    assert ranks == {host.pk: 2, guest.pk: 3}  # the robot first; the leaver after the rest


def test_the_game_page_opens_a_table_for_a_newcomer_through_the_runtimes_flow(tiny, client):
    response = client.post("/tinyturns/new/", {"goal": "4", "nickname": "Newcomer"})
    assert response.status_code == 302
    room = Room.objects.get(game="tinyturns")
    assert response["Location"] == f"/rooms/{room.code}/"
    assert room.host.nickname == "Newcomer" and room.settings["goal"] == 4
    assert settings.PLAYER_COOKIE_NAME in response.cookies  # the new profile is remembered


def test_a_refused_table_leaves_no_profile_and_a_refused_nickname_no_room(tiny, client):
    profiles = PlayerProfile.objects.count()
    refused = client.post("/tinyturns/new/", {"goal": "99", "nickname": "Hopeful"})
    assert (refused.status_code, refused.content) == (400, b"bad_goal")
    assert PlayerProfile.objects.count() == profiles
    assert settings.PLAYER_COOKIE_NAME not in refused.cookies

    _player("Taken")
    taken = client.post("/tinyturns/new/", {"goal": "4", "nickname": "Taken"})
    assert taken.status_code == 400
    assert not Room.objects.filter(game="tinyturns").exists()


def test_a_browser_that_keeps_nothing_cannot_open_a_table(tiny, client):
    client.cookies[settings.STORAGE_COOKIE_NAME] = "off"
    refused = client.post("/tinyturns/new/", {"goal": "4", "nickname": "Ghost"})
    assert (refused.status_code, refused.content) == (400, b"storage_off")
    assert not Room.objects.filter(game="tinyturns").exists()
