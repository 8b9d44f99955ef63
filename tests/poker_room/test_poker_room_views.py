"""Pages around poker rooms: create a lobby/duel, standings, projector, new round, auto-end."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from games.models import GameResult
from games.poker.room_games import standings
from games.rooms import services
from games.rooms import sockets as room_sockets
from games.rooms.models import Room, RoomEvent, Seat
from tests.poker_room.live import rig_deck
from tests.rooms.conftest import Player

pytestmark = [pytest.mark.django_db]


def as_player(client, player: Player):
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(player.token, salt=identity.SALT)
    return client


def submit(room, player, message, tag):
    return services.submit(room_id=room.pk, player=player.profile, client_id=tag, message=message)


def started_group(players=2, **settings_):
    host = Player("Hostiteľ")
    seated = [Player(f"Hráč {i}") for i in range(players)]
    room = services.create_room(game="poker", mode="group", host=host.profile, settings=settings_)
    for player in seated:
        services.join_room(room=room, player=player.profile)
    services.start_room(room=room, actor=host.profile)
    return room, host, seated


def test_any_player_opens_a_group_lobby_with_chosen_settings(client):
    host = Player("Zakladateľ")
    page = as_player(client, host).get("/poker/room/new/group/")
    assert page.status_code == 200 and b"new-room-form" in page.content
    response = client.post(
        "/poker/room/new/group/",
        {"difficulty": "hard", "seconds": "15", "table": "school", "host_plays": "on"},
    )
    room = Room.objects.get(game="poker", mode="group")
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.code}/"
    assert room.host == host.profile
    assert room.settings == {
        "table": "school",
        "difficulty": "hard",
        "seconds": 15,
        "host_plays": True,
    }


def test_a_browser_without_a_profile_opens_a_duel_with_a_nickname(client):
    response = client.post("/poker/room/new/duel/", {"nickname": "Nováčik", "difficulty": "easy"})
    room = Room.objects.get(game="poker", mode="duel")
    assert response.status_code == 302
    assert room.host.nickname == "Nováčik"
    assert settings.PLAYER_COOKIE_NAME in response.cookies


def test_bad_settings_show_the_form_again_with_the_reason(client):
    as_player(client, Player("Chybný"))
    response = client.post("/poker/room/new/group/", {"difficulty": "hard", "seconds": "1"})
    assert response.status_code == 400
    assert b"Seconds per number must be a whole number from 3 to 300." in response.content
    assert not Room.objects.exists()


def test_the_room_page_of_a_running_group_renders_the_board_and_host_panel(client):
    room, host, (first, _second) = started_group()
    host_page = as_player(client, host).get(f"/rooms/{room.code}/")
    assert b'data-testid="host-panel"' in host_page.content
    assert b"poker/room/group.js" in host_page.content
    player_page = as_player(client, first).get(f"/rooms/{room.code}/")
    assert b"data-pr-play" in player_page.content and b"host-panel" not in player_page.content


def test_standings_are_for_seated_players_and_hide_boards_while_playing(client):
    room, host, (first, _second) = started_group()
    stranger = Player("Cudzí")
    assert (
        as_player(client, stranger).get(f"/poker/room/{room.code}/standings.json").status_code
        == 403
    )
    submit(room, host, {"type": "draw"}, "d1")
    for_host = as_player(client, host).get(f"/poker/room/{room.code}/standings.json").json()
    assert for_host["total"] == 2 and for_host["placed_current"] == 0
    assert all("cells" not in entry for entry in for_host["ranking"])
    for_player = as_player(client, first).get(f"/poker/room/{room.code}/standings.json").json()
    assert "ranking" not in for_player and for_player["playing"] == 2


def test_the_projector_is_the_hosts_only(client):
    room, host, (first, _second) = started_group()
    assert as_player(client, first).get(f"/poker/room/{room.code}/projector/").status_code == 403
    page = as_player(client, host).get(f"/poker/room/{room.code}/projector/")
    assert page.status_code == 200 and room.code.encode() in page.content


def play_everyone_to_the_end(room, host, players):
    rig_deck(room, [n for n in range(1, 14)] * 2)
    for turn in range(25):
        submit(room, host, {"type": "draw"}, f"d{turn}")
        for player in players:
            submit(room, player, {"type": "place", "cell": turn}, f"p{turn}")


def test_the_game_ends_by_itself_when_every_board_is_over_and_a_new_round_takes_the_class_along(
    client,
):
    """Issue 21: "the next round should take everyone along [...] with anyone absent marked"."""
    room, host, players = started_group(3)
    play_everyone_to_the_end(room, host, players)
    # Two pupils still have the room open (their socket is counted), the third closed it.
    for player in players[:2]:
        assert room_sockets.acquire(room_sockets.player_key(room.pk, player.id), 5)
    room.refresh_from_db()
    assert room.status == Room.Status.RUNNING  # only the seats know that all are done
    final = standings.group_standings(room, player_id=players[0].id)
    assert final["status"] == "finished"
    assert [e["filled"] for e in final["ranking"]] == [25, 25, 25]
    assert final["next_room"] is None
    assert GameResult.objects.filter(record=Room.objects.get(pk=room.pk).record).count() == 3
    response = as_player(client, host).post(f"/poker/room/{room.code}/new-round/")
    fresh = Room.objects.exclude(pk=room.pk).get(game="poker", mode="group")
    assert response.status_code == 302 and response["Location"] == f"/rooms/{fresh.code}/"
    assert fresh.status == Room.Status.LOBBY and fresh.settings["previous_room"] == room.pk
    assert set(
        Seat.objects.filter(room=fresh, role="player").values_list("player_id", flat=True)
    ) == {p.id for p in players[:2]}
    announced = RoomEvent.objects.filter(room=room, kind="next_round").get()
    assert announced.public == [{"type": "next_round", "code": fresh.code}]
    lobby = as_player(client, host).get(f"/poker/room/{fresh.code}/standings.json").json()
    assert lobby["absent"] == [
        {"player_id": players[2].id, "nickname": players[2].profile.display_name}
    ]
    after = as_player(client, players[1]).get(f"/poker/room/{room.code}/standings.json").json()
    assert after["next_room"] == fresh.code
    # Asking again goes to the same new round instead of opening another.
    again = as_player(client, host).post(f"/poker/room/{room.code}/new-round/")
    assert again["Location"] == f"/rooms/{fresh.code}/"


def test_a_removed_player_does_not_hold_the_group_up():
    room, host, (stays, removed) = started_group(2)
    rig_deck(room, [n for n in range(1, 14)] * 2)
    for turn in range(25):
        submit(room, host, {"type": "draw"}, f"d{turn}")
        submit(room, stays, {"type": "place", "cell": turn}, f"p{turn}")
    fresh = Room.objects.get(pk=room.pk)
    assert standings.group_standings(fresh, player_id=host.id)["status"] == "running"
    services.kick(room=room, actor=host.profile, player_id=removed.id)
    fresh = Room.objects.get(pk=room.pk)
    assert standings.group_standings(fresh, player_id=host.id)["status"] == "finished"


def test_leavers_and_removed_players_do_not_hold_an_easy_group_game():
    """Issue 21: "Leavers (like kicked pupils) must not hold the game"; removed pupils
    are out of the ranking and of "N of M have placed"."""
    room, host, (stays, leaves, removed) = started_group(3)
    rig_deck(room, [n for n in range(1, 14)] * 2)
    submit(room, host, {"type": "draw"}, "d0")
    submit(room, stays, {"type": "place", "cell": 0}, "p0")
    services.leave_room(room=room, player=leaves.profile)
    services.kick(room=room, actor=host.profile, player_id=removed.id)
    live = standings.group_standings(Room.objects.get(pk=room.pk), player_id=host.id)
    assert (live["placed_current"], live["total"]) == (1, 1)
    assert {e["player_id"]: e["gone"] for e in live["ranking"]} == {
        stays.id: None,
        leaves.id: "left",
    }
    assert all(e["behind"] == 0 for e in live["ranking"] if e["gone"])
    for turn in range(1, 25):
        submit(room, host, {"type": "draw"}, f"d{turn}")
        submit(room, stays, {"type": "place", "cell": turn}, f"p{turn}")
    final = standings.group_standings(Room.objects.get(pk=room.pk), player_id=stays.id)
    assert final["status"] == "finished"  # ended by itself: nobody still in is playing
    assert [e["player_id"] for e in final["ranking"]] == [stays.id, leaves.id]
    assert [e["rank"] for e in final["ranking"]] == [1, 2]


def test_only_the_host_opens_a_new_round(client):
    room, host, (first, _second) = started_group()
    services.end_room(room=room, actor=host.profile)
    assert as_player(client, first).post(f"/poker/room/{room.code}/new-round/").status_code == 404
