"""A player leaves a running game or the host removes them: the game hears of it in
the same step (``RoomGame.player_removed``), through the services and the sockets."""

from __future__ import annotations

import itertools

import pytest

from games.models import GameResult
from games.rooms import selectors, services
from games.rooms.errors import RoomError
from games.rooms.models import Room, RoomEvent, Seat
from games.theorems.rules import STARTER_DECKS, GameState
from tests.rooms.testgame import GAME

_ids = itertools.count(1)


def submit(room, player, message):
    return services.submit(
        room_id=room.pk, player=player.profile, client_id=f"r{next(_ids)}", message=message
    )


def abaku_table(make_player, humans: int = 3):
    players = [make_player(f"Abaku {n}") for n in range(humans)]
    room = services.create_room(
        game="abaku",
        mode="table",
        host=players[0].profile,
        settings={"table_size": humans, "turn_seconds": 60},
    )
    for player in players[1:]:
        services.join_room(room=room, player=player.profile)
    return room, players


def event_types(event: RoomEvent) -> list[str]:
    return [e["type"] for e in event.public]


def assert_log_is_gapless_and_replays(room: Room) -> None:
    room.refresh_from_db()
    seqs = list(RoomEvent.objects.filter(room=room).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, room.seq + 1))
    state, _seats = selectors.rebuild_state(room)
    assert state == room.state


# --- through the services --------------------------------------------------------------


@pytest.mark.django_db
def test_the_player_on_turn_leaves_and_the_next_one_moves_at_once(make_player):
    room, (host, first, second) = abaku_table(make_player)
    services.start_room(room=room, actor=host.profile)
    submit(room, host, {"type": "skip"})  # seat 1 is on turn
    seq = services.leave_room(room=room, player=first.profile)
    room.refresh_from_db()
    assert room.seq == seq and room.status == Room.Status.RUNNING
    step = RoomEvent.objects.get(room=room, seq=seq)
    assert step.kind == "leave" and step.action == {"player_id": first.id}
    assert event_types(step) == ["player_left", "forfeited", "turn", "view"]
    assert step.public[0] == {"type": "player_left", "player_id": first.id}
    assert step.public[1] == {"type": "forfeited", "player": 1, "reason": "left"}
    assert room.state["game"]["turn"] == 2
    assert room.next_tick_at > step.created_at  # a fresh clock for the next player
    assert set(step.private) == {str(p.id) for p in (host, first, second)}
    answer = submit(room, second, {"type": "skip"})
    assert answer["type"] == "ack" and answer["seq"] == seq + 1
    room.refresh_from_db()
    assert room.state["game"]["turn"] == 0  # past the one who left
    with pytest.raises(RoomError) as refused:
        submit(room, first, {"type": "skip"})
    assert refused.value.code == "not_in_room"
    assert_log_is_gapless_and_replays(room)


@pytest.mark.django_db
def test_kicking_a_player_not_on_turn_keeps_the_turn_and_they_are_skipped(make_player):
    room, (host, first, second) = abaku_table(make_player)
    services.start_room(room=room, actor=host.profile)
    seq = services.kick(room=room, actor=host.profile, player_id=first.id)
    step = RoomEvent.objects.get(room=room, seq=seq)
    assert step.kind == "kick" and step.actor_id == host.id
    assert step.action == {"player_id": first.id}
    assert event_types(step) == ["player_kicked", "forfeited", "view"]
    submit(room, host, {"type": "skip"})
    room.refresh_from_db()
    assert room.state["game"]["turn"] == 2
    submit(room, second, {"type": "skip"})
    assert_log_is_gapless_and_replays(room)


@pytest.mark.django_db
def test_kicking_the_last_opponent_ends_the_game_with_results(make_player):
    host, guest = make_player("Ema"), make_player("Ota")
    room = services.create_room(
        game="mathesso", mode="table", host=host.profile, settings={"variant": "pico"}
    )
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    seq = services.kick(room=room, actor=host.profile, player_id=guest.id)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.record_id is not None
    assert room.next_tick_at is None and room.finished_at is not None
    step = RoomEvent.objects.get(room=room, seq=seq)
    assert event_types(step)[0] == "player_kicked"
    assert event_types(step)[-2:] == ["game_over", "finished"]
    finished = step.public[-1]["results"]
    assert {r["player_id"]: r["completed"] for r in finished} == {host.id: True, guest.id: False}
    results = {r.player_id: r for r in GameResult.objects.filter(record=room.record)}
    assert results[host.id].completed and results[host.id].rank == 1
    assert not results[guest.id].completed and results[guest.id].details["left"] is True
    assert_log_is_gapless_and_replays(room)
    with pytest.raises(RoomError) as refused:
        submit(room, host, {"type": "flip", "tile": 0})
    assert refused.value.code == "room_finished"


@pytest.mark.django_db
def test_a_matematici_player_on_turn_is_removed_and_the_next_player_acts(make_player):
    players = [make_player(f"Mat {n}") for n in range(3)]
    host = players[0]
    room = services.create_room(
        game="theorems", mode="table", host=host.profile, settings={"table_size": 3}
    )
    for player in players[1:]:
        services.join_room(room=room, player=player.profile)
    services.start_room(room=room, actor=host.profile)
    for number, player in enumerate(players):
        starter = STARTER_DECKS[number % 2]
        submit(
            room,
            player,
            {
                "type": "deck",
                "name": starter.id,
                "mathematician": starter.mathematician,
                "cards": list(starter.deck),
            },
        )
    room.refresh_from_db()
    if GameState.from_dict(room.state["game"]).current == 0:  # the host cannot be removed
        submit(room, host, {"type": "action", "action": {"type": "end_turn"}})
        room.refresh_from_db()
    on_turn = GameState.from_dict(room.state["game"]).current
    leaver = players[on_turn]
    seq = services.kick(room=room, actor=host.profile, player_id=leaver.id)
    room.refresh_from_db()
    step = RoomEvent.objects.get(room=room, seq=seq)
    assert event_types(step)[:3] == ["player_kicked", "seat_left", "log"]
    game = GameState.from_dict(room.state["game"])
    assert game.players[on_turn].lost and game.current != on_turn
    nxt = players[game.current]
    answer = submit(room, nxt, {"type": "action", "action": {"type": "end_turn"}})
    assert answer["type"] == "ack"
    assert_log_is_gapless_and_replays(room)


@pytest.mark.django_db
def test_a_game_without_the_hook_only_loses_the_seat(make_player):
    host, guest = make_player(), make_player()
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    room.refresh_from_db()
    state = room.state
    seq = services.leave_room(room=room, player=guest.profile)
    room.refresh_from_db()
    step = RoomEvent.objects.get(room=room, seq=seq)
    assert step.public == [{"type": "player_left", "player_id": guest.id}]
    assert step.action == {"player_id": guest.id}
    assert room.state == state and room.status == Room.Status.RUNNING
    assert Seat.objects.get(room=room, player=guest.profile).status == Seat.Status.LEFT
    assert_log_is_gapless_and_replays(room)


@pytest.mark.django_db
def test_leaving_a_lobby_does_not_involve_the_game(make_player):
    room, (host, first, _second) = abaku_table(make_player)
    seq = services.leave_room(room=room, player=first.profile)
    step = RoomEvent.objects.get(room=room, seq=seq)
    assert step.public == [{"type": "player_left", "player_id": first.id}]
    assert step.action == {}
    room.refresh_from_db()
    assert room.state == {}


@pytest.mark.django_db
def test_a_spectator_leaving_a_running_game_changes_nothing_in_it(make_player):
    room, (host, first, second) = abaku_table(make_player)
    watcher = make_player("Watcher")
    services.start_room(room=room, actor=host.profile)
    services.join_room(room=room, player=watcher.profile, role="spectator")
    room.refresh_from_db()
    state = room.state
    seq = services.leave_room(room=room, player=watcher.profile)
    room.refresh_from_db()
    assert room.state == state
    assert event_types(RoomEvent.objects.get(room=room, seq=seq)) == ["player_left"]
    assert_log_is_gapless_and_replays(room)


# --- through the sockets ----------------------------------------------------------------


@pytest.mark.live
def test_leave_and_kick_over_the_socket_reach_everyone_in_order(
    transactional_db, make_player, server, open_socket
):
    room, (host, first, second) = abaku_table(make_player)
    sockets = [open_socket(server, room.code, p) for p in (host, first, second)]
    for socket in sockets:
        socket.recv()
    host_socket, first_socket, second_socket = sockets
    host_socket.request({"type": "start"})
    skipped = host_socket.request({"type": "skip"})  # seat 1 is on turn
    left = first_socket.request({"type": "leave"})
    assert left["type"] == "ack" and left["seq"] == skipped["seq"] + 1
    for socket in (host_socket, second_socket):
        step = socket.recv_until(lambda m: m["type"] == "event" and m["seq"] == left["seq"])
        types = [e["type"] for e in step["events"]]
        assert types[:3] == ["player_left", "forfeited", "turn"]
        assert step["events"][2]["player"] == 2
    moved = second_socket.request({"type": "skip"})
    assert moved["type"] == "ack" and moved["seq"] == left["seq"] + 1
    kicked = host_socket.request({"type": "kick", "player_id": second.id})
    assert kicked["seq"] == moved["seq"] + 1
    step = host_socket.recv_until(lambda m: m["type"] == "event" and m["seq"] == kicked["seq"])
    types = [e["type"] for e in step["events"]]
    assert types[:2] == ["player_kicked", "forfeited"] and types[-1] == "finished"
    assert second_socket.recv_until(lambda m: m["type"] == "kicked")
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    results = {r.player_id: r.completed for r in GameResult.objects.filter(record=room.record)}
    assert results == {host.id: True, first.id: False, second.id: False}
