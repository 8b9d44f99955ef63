"""Rematch: after a game, one button starts the same table again with the same
players and robots (issue 18: "after a game, one button starts the same table
again with the same players (and robots)").

``services.rematch`` opens a new room with the finished room's game, mode,
settings and class, seats the same players, starts it, and tells the old room's
pages the new code (the ``rematch`` event)."""

from __future__ import annotations

import itertools

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from accounts import identity
from games.rooms import services
from games.rooms.errors import RoomError
from games.rooms.models import Room, RoomEvent, Seat

_ids = itertools.count(1)


def finished_table(make_player, game: str, mode: str, game_settings: dict, humans: int):
    players = [make_player(f"{game} {mode} {n}") for n in range(humans)]
    host = players[0].profile
    if mode == "solo":
        room = services.create_and_start(game=game, mode=mode, host=host, settings=game_settings)
    else:
        room = services.create_room(game=game, mode=mode, host=host, settings=game_settings)
        for player in players[1:]:
            services.join_room(room=room, player=player.profile)
        services.start_room(room=room, actor=host)
    services.end_room(room=room, actor=host)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    return room, players


def seated(room: Room) -> list[int]:
    return list(
        room.seats.filter(status=Seat.Status.JOINED)
        .order_by("joined_at", "pk")
        .values_list("player_id", flat=True)
    )


CASES = [
    ("abaku", "table", {"table_size": 3, "robot_level": "greedy", "turn_seconds": 60}, 2),
    ("abaku", "solo", {"table_size": 2}, 1),
    ("mathesso", "table", {}, 2),
    ("mathesso", "solo", {}, 1),
    ("theorems", "table", {"table_size": 3}, 2),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "mode", "game_settings", "humans"), CASES)
def test_a_rematch_starts_the_same_table_with_the_same_players(
    make_player, game, mode, game_settings, humans
):
    old, players = finished_table(make_player, game, mode, game_settings, humans)
    fresh = services.rematch(room=old, actor=players[0].profile)
    assert fresh.pk != old.pk and fresh.code != old.code
    assert (fresh.game, fresh.mode, fresh.settings) == (old.game, old.mode, old.settings)
    assert fresh.status == Room.Status.RUNNING
    assert fresh.host_id == old.host_id
    assert seated(fresh) == seated(old) == [p.id for p in players]
    if game == "abaku":  # the robots come back from the settings
        robots = [s["robot"] for s in fresh.state["seats"]]
        assert robots == [s["robot"] for s in old.state["seats"]]
        assert sum(1 for r in robots if r) == game_settings["table_size"] - humans
    announced = RoomEvent.objects.get(room=old, kind="rematch")
    assert announced.public == [{"type": "rematch", "code": fresh.code}]


@pytest.mark.django_db
def test_a_second_click_gets_the_room_the_first_opened(make_player):
    old, players = finished_table(make_player, "abaku", "solo", {"table_size": 2}, 1)
    first = services.rematch(room=old, actor=players[0].profile)
    again = services.rematch(room=old, actor=players[0].profile)
    assert again.pk == first.pk
    assert RoomEvent.objects.filter(room=old, kind="rematch").count() == 1


@pytest.mark.django_db
def test_players_who_left_are_not_seated_again(make_player):
    players = [make_player(f"Leaver {n}") for n in range(3)]
    room = services.create_room(
        game="abaku", mode="table", host=players[0].profile, settings={"table_size": 3}
    )
    for player in players[1:]:
        services.join_room(room=room, player=player.profile)
    services.start_room(room=room, actor=players[0].profile)
    services.leave_room(room=room, player=players[2].profile)
    room.refresh_from_db()
    if room.status != Room.Status.FINISHED:
        services.end_room(room=room, actor=players[0].profile)
    fresh = services.rematch(room=room, actor=players[0].profile)
    assert seated(fresh) == [players[0].id, players[1].id]
    # the seat of the one who left is a robot's now: the same table size
    assert [bool(s["robot"]) for s in fresh.state["seats"]] == [False, False, True]


@pytest.mark.django_db
def test_only_the_host_starts_a_rematch_and_only_after_the_game(make_player):
    old, players = finished_table(make_player, "mathesso", "table", {}, 2)
    with pytest.raises(RoomError) as refused:
        services.rematch(room=old, actor=players[1].profile)
    assert refused.value.code == "not_host"
    host = make_player("Running host")
    running = services.create_and_start(
        game="abaku", mode="solo", host=host.profile, settings={"table_size": 1}
    )
    with pytest.raises(RoomError) as refused:
        services.rematch(room=running, actor=host.profile)
    assert refused.value.code == "not_finished"
    assert not RoomEvent.objects.filter(kind="rematch").exists()


@pytest.mark.django_db
def test_a_game_without_rematch_refuses_with_a_stable_code(make_player):
    from tests.rooms.testgame import GAME

    host = make_player("Test host")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.end_room(room=room, actor=host.profile)
    with pytest.raises(RoomError) as refused:
        services.rematch(room=room, actor=host.profile)
    assert refused.value.code == "no_rematch"


@pytest.mark.django_db
def test_the_room_page_offers_play_again_to_the_host_after_the_game(make_player):
    old, players = finished_table(make_player, "theorems", "table", {"table_size": 2}, 2)
    host = Client(headers={"accept-language": "en"})
    host.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(players[0].token, salt=identity.SALT)
    page = host.get(f"/rooms/{old.code}/").content.decode()
    assert "data-room-rematch" in page and "Play again with the same players" in page
    response = host.post(f"/rooms/{old.code}/rematch/")
    fresh = Room.objects.exclude(pk=old.pk).get(host=players[0].profile, game="theorems")
    assert response.status_code == 302 and response["Location"] == f"/rooms/{fresh.code}/"
    guest = Client(headers={"accept-language": "en"})
    guest.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(players[1].token, salt=identity.SALT)
    assert "data-room-rematch" not in guest.get(f"/rooms/{old.code}/").content.decode()
    assert guest.post(f"/rooms/{old.code}/rematch/").status_code == 409
