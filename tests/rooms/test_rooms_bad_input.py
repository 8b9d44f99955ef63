"""Hostile or broken messages: an error code to the sender, no change, no server error."""

import json

import pytest
from websockets.exceptions import ConnectionClosed

from games.rooms import services
from games.rooms.models import Room, RoomEvent
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live]


@pytest.fixture
def running(transactional_db, make_player):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    return room, host, guest


def _unchanged(room):
    fresh = Room.objects.get(pk=room.pk)
    return fresh.seq, fresh.state, fresh.status, RoomEvent.objects.filter(room=room).count()


def _sized(message: dict, size: int, filler: str = "x") -> str:
    """``message`` with a pad field making the frame exactly ``size`` bytes of UTF-8."""
    bare = json.dumps({**message, "pad": ""}, ensure_ascii=False)
    room = size - len(bare.encode())
    unit = len(filler.encode())
    text = json.dumps(
        {**message, "pad": filler * (room // unit) + "x" * (room % unit)}, ensure_ascii=False
    )
    assert len(text.encode()) == size
    return text


def _raw(socket, text):
    socket.ws.send(text)
    return socket.recv_until(lambda m: m["type"] == "error")


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json{", "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        (json.dumps({"type": "add", "n": 1}), "bad_id"),
        (json.dumps({"id": "x" * 65, "type": "add", "n": 1}), "bad_id"),
        (json.dumps({"id": "a", "type": 5}), "bad_message"),
        (json.dumps({"id": "a", "type": "teleport"}), "unknown_type"),
        # Exactly the protocol's 4,096 bytes: read, and answered with the usual code.
        (_sized({"id": "a", "type": "add", "n": 99}, 4096), "bad_number"),
        (_sized({"id": "a", "type": "add", "n": 99}, 4096, "č"), "bad_number"),
        (json.dumps({"id": "a", "type": "add", "n": 1, "room": "ZZZZZZ"}), "wrong_room"),
        (json.dumps({"id": "a", "type": "add", "n": 99}), "bad_number"),
        (json.dumps({"id": "a", "type": "add", "n": "1"}), "bad_message"),  # schema: n is a number
        (json.dumps({"id": "a", "type": "kick", "player_id": "x"}), "bad_message"),
    ],
)
def test_bad_frames_get_an_error_code_and_change_nothing(running, server, open_socket, frame, code):
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    before = _unchanged(room)
    error = _raw(socket, frame)
    assert error["code"] == code
    assert error["message"]
    assert _unchanged(room) == before
    assert socket.request({"type": "add", "n": 2})["type"] == "ack"  # still usable


@pytest.mark.parametrize("filler", ["x", "č"])
def test_a_frame_over_4_kib_is_closed_by_the_server_and_a_fresh_socket_works(
    running, server, open_socket, filler
):
    """uvicorn runs with --ws-max-size 4096 (the protocol's limit, bytes of UTF-8):
    one byte more and the server closes the socket with 1009 without reading it.
    About 2,050 two-byte letters are far fewer than 4,096 characters, yet too many bytes."""
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    before = _unchanged(room)
    socket.ws.send(_sized({"id": "a", "type": "add", "n": 2}, 4097, filler))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert _unchanged(room) == before
    fresh = open_socket(server, room.code, guest)
    assert fresh.recv()["type"] == "sync"
    assert fresh.request({"type": "add", "n": 2})["type"] == "ack"


def test_binary_frames_are_refused(running, server, open_socket):
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    socket.ws.send(b"\x00\x01")
    assert socket.recv_until(lambda m: m["type"] == "error")["code"] == "bad_message"


def test_forged_host_actions_from_a_player_are_refused(running, server, open_socket):
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    before = _unchanged(room)
    for message in (
        {"type": "end"},
        {"type": "lock"},
        {"type": "kick", "player_id": host.id},
        {"type": "deal", "host": True},
    ):
        answer = socket.request(message)
        assert answer["type"] == "error"
        assert answer["code"] in {"not_host", "already_started"}
    assert _unchanged(room) == before


def test_moves_in_the_wrong_state_are_refused(transactional_db, make_player, server, open_socket):
    host, guest = make_player(), make_player()
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    socket = open_socket(server, room.code, guest)
    socket.recv()
    assert socket.request({"type": "add", "n": 1})["code"] == "not_started"
    host_socket = open_socket(server, room.code, host)
    host_socket.recv()
    host_socket.request({"type": "start"})
    assert host_socket.request({"type": "start"})["code"] == "already_started"


def test_flooding_is_rate_limited_and_the_socket_recovers(running, server, open_socket):
    """A burst beyond the bucket (20, then 10 a second) is refused, each refusal naming
    its message; the socket stays open and takes messages again.

    Flooded with pings, which take every check but no database work: a flood of
    syncs (each a snapshot read in a worker thread) was handled so slowly at load 30
    that the bucket refilled as fast as it drained, and nothing was refused. Rounds
    until one is refused, so a server paused between frames cannot fail the test
    (a round is 30 frames at most, well under the abuse limit of 100 refusals)."""
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    limited: list[dict] = []
    for round_number in range(20):
        sent = [f"flood-{round_number}-{number}" for number in range(30)]
        for message_id in sent:
            socket.ws.send(json.dumps({"id": message_id, "type": "ping"}))
        answers = [socket.recv_until(lambda m: m["type"] in ("pong", "error")) for _ in sent]
        assert sorted(a["id"] for a in answers) == sorted(sent)
        limited = [a for a in answers if a["type"] == "error"]
        if limited:
            break
    assert limited and all(a["code"] == "rate_limited" for a in limited)
    # the socket is still open, and a move is taken once the bucket refills
    # (Socket.request sends it again while it is refused, as the client kit does)
    assert socket.request({"type": "add", "n": 1})["type"] == "ack"


def test_strangers_and_people_without_identity_are_turned_away(
    running, server, open_socket, make_player
):
    room, host, guest = running
    for who, code in ((make_player("Stranger"), "not_in_room"), (None, "no_identity")):
        socket = open_socket(server, room.code, who)
        error = socket.recv()
        assert (error["type"], error["code"]) == ("error", code)
    unknown = open_socket(server, "ZZZZZ2" if room.code != "ZZZZZ2" else "ZZZZZ3", guest)
    # An unknown code answers like a room this player is not in (nothing to learn).
    assert unknown.recv()["code"] == "not_in_room"


def test_a_forged_cookie_is_no_identity(running, server):
    from websockets.sync.client import connect

    room, host, guest = running
    url = server.replace("http://", "ws://") + f"/ws/rooms/{room.code}/"
    forged = guest.cookie.replace("matika_player=", "matika_player=x")
    with connect(url, origin=server, additional_headers={"Cookie": forged}) as ws:
        assert json.loads(ws.recv(timeout=10))["code"] == "no_identity"
