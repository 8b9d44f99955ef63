"""The room protocol through real uvicorn processes, Redis and PostgreSQL."""

import pytest

from games.models import GameRecord
from games.rooms import services
from games.rooms.models import ProcessedMessage, Room, RoomEvent
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live]


@pytest.fixture
def duel(transactional_db, make_player):
    host, guest = make_player("Hostka"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={"target": 20})
    services.join_room(room=room, player=guest.profile)
    return room, host, guest


def test_connect_sends_a_snapshot_of_the_room(duel, server, open_socket):
    room, host, guest = duel
    snapshot = open_socket(server, room.code, guest).recv()
    room.refresh_from_db()
    assert snapshot["type"] == "sync"
    assert snapshot["seq"] == room.seq
    assert snapshot["you"] == {"player_id": guest.id, "role": "player", "status": "joined"}
    assert [s["nickname"] for s in snapshot["room"]["seats"]] == ["Hostka", "Guest"]


def test_a_move_is_acked_stored_and_broadcast_with_the_next_seq(duel, server, open_socket):
    room, host, guest = duel
    host_socket, guest_socket = (
        open_socket(server, room.code, host),
        open_socket(server, room.code, guest),
    )
    start_seq = host_socket.recv()["seq"]
    guest_socket.recv()
    assert host_socket.request({"type": "start"})["seq"] == start_seq + 1
    guest_socket.event("started")
    ack = guest_socket.request({"type": "add", "n": 7})
    assert ack == {"type": "ack", "id": ack["id"], "seq": start_seq + 2}
    seen = host_socket.event("added")
    assert seen["seq"] == start_seq + 2
    assert seen["events"] == [{"type": "added", "player_id": guest.id, "n": 7, "total": 7}]
    stored = RoomEvent.objects.get(room=room, seq=start_seq + 2)
    assert stored.kind == "move" and stored.action == {"type": "add", "n": 7}
    assert Room.objects.get(pk=room.pk).state["total"] == 7


def test_private_data_goes_only_to_its_player(duel, server, open_socket):
    room, host, guest = duel
    host_socket = open_socket(server, room.code, host)
    guest_socket = open_socket(server, room.code, guest)
    host_socket.recv(), guest_socket.recv()
    host_socket.request({"type": "start"})
    state = Room.objects.get(pk=room.pk).state
    guest_secret = guest_socket.event("secret")
    assert guest_secret["type"] == "private"
    assert guest_secret["events"] == [{"type": "secret", "value": state["secrets"][str(guest.id)]}]
    host_socket.event("secret")
    guest_socket.request({"type": "whisper"})
    host_socket.request({"type": "add", "n": 1})
    snapshot = host_socket.request({"type": "sync"})
    assert snapshot["view"]["my_secret"] == state["secrets"][str(host.id)]
    everything_host_heard = repr(host_socket.seen)
    assert str(state["secrets"][str(guest.id)]) not in everything_host_heard


def test_a_repeated_message_id_is_answered_again_but_applied_once(duel, server, open_socket):
    room, host, guest = duel
    services.start_room(room=room, actor=host.profile)
    socket = open_socket(server, room.code, guest)
    socket.recv()
    first = socket.request({"id": "same-id", "type": "add", "n": 5})
    again = socket.request({"id": "same-id", "type": "add", "n": 5})
    assert first == again
    assert first["type"] == "ack"
    assert Room.objects.get(pk=room.pk).state["total"] == 5
    assert ProcessedMessage.objects.filter(room=room, client_id="same-id").count() == 1


def test_reconnecting_gets_the_seat_and_state_back(duel, server, open_socket):
    room, host, guest = duel
    services.start_room(room=room, actor=host.profile)
    socket = open_socket(server, room.code, guest)
    socket.recv()
    socket.request({"type": "add", "n": 3})
    socket.close()
    again = open_socket(server, room.code, guest).recv()
    assert again["type"] == "sync"
    assert again["you"]["role"] == "player"
    assert again["view"]["total"] == 3
    assert (
        again["view"]["my_secret"] == Room.objects.get(pk=room.pk).state["secrets"][str(guest.id)]
    )


def test_a_player_on_another_server_process_sees_the_move(duel, rooms_servers, open_socket):
    room, host, guest = duel
    services.start_room(room=room, actor=host.profile)
    first, second = rooms_servers
    watcher = open_socket(first, room.code, host)
    mover = open_socket(second, room.code, guest)
    watcher.recv(), mover.recv()
    mover.request({"type": "add", "n": 4})
    assert watcher.event("added")["events"][0]["total"] == 4


def test_the_game_ends_and_writes_its_record(duel, server, open_socket):
    room, host, guest = duel
    services.start_room(room=room, actor=host.profile)
    socket = open_socket(server, room.code, guest)
    socket.recv()
    for _ in range(3):
        socket.request({"type": "add", "n": 9})
    finished = socket.event("finished")
    assert finished["events"][-1]["results"][0] == {
        "player_id": guest.id,
        "score": 27,
        "rank": 1,
        "completed": True,
    }
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    record = GameRecord.objects.get(pk=room.record_id)
    assert {(r.player_id, r.score) for r in record.results.all()} == {(guest.id, 27), (host.id, 0)}
    refused = socket.request({"type": "add", "n": 1})
    assert refused["code"] == "room_finished"
