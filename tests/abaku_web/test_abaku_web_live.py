"""An Abaku table through the real server: real WebSockets, PostgreSQL, Redis, uvicorn.

Two people and a robot sit at a table; the host starts, lays a move, the guest
skips, a tick lets the robot play. Every frame each client receives is kept and
checked: nobody ever sees another person's rack, the bag or the seed.
"""

from __future__ import annotations

import json

import pytest

from games.abaku.rules import DEFAULT_LEVEL, GameState, all_moves
from games.rooms import services
from tests.mathesso.live import Player, Socket

pytestmark = [pytest.mark.live]


def is_ack(message_id):
    return lambda m: m.get("id") == message_id and m["type"] in ("ack", "error")


def test_a_table_with_a_robot_over_real_websockets(transactional_db, asgi_server):
    host, guest, watcher = Player("Ada"), Player("Bob"), Player("Eve")
    room = services.create_room(
        game="abaku",
        mode="table",
        host=host.profile,
        settings={"table_size": 3, "turn_seconds": 300, "robot_delay_ms": 0},
    )
    services.join_room(room=room, player=guest.profile)
    services.join_room(room=room, player=watcher.profile, role="spectator")
    sockets = {
        host.id: Socket(asgi_server, room.code, host),
        guest.id: Socket(asgi_server, room.code, guest),
    }
    sockets[watcher.id] = Socket(asgi_server, room.code, watcher)
    try:
        for socket in sockets.values():
            assert socket.recv()["type"] == "sync"
        started = sockets[host.id].request({"type": "start"})
        assert started["type"] == "ack"
        room.refresh_from_db()
        assert room.status == "running"
        assert [s["robot"] for s in room.state["seats"]] == [
            None,
            None,
            DEFAULT_LEVEL,
        ]  # a first game: the easiest robot

        # the host lays a legal move (or exchanges when the deal has none)
        game = GameState.from_dict(room.state["game"])
        moves = all_moves(game.board, game.players[0].rack)
        if moves:
            move = max(moves, key=lambda m: m.score)
            message = {"type": "place", "placements": [list(p) for p in move.placements]}
        else:
            message = {"type": "exchange", "stones": [game.players[0].rack[0]]}
        answer = sockets[host.id].request(message)
        assert answer["type"] == "ack", answer
        step = answer["seq"]
        for socket in sockets.values():
            socket.until_seq(step)

        # a move out of turn is refused with the engine's code and changes nothing
        refused = sockets[host.id].request({"type": "skip"})
        assert refused["type"] == "error" and refused["code"] == "not_your_turn"
        assert refused["message"] == "It is not your turn."

        answer = sockets[guest.id].request({"type": "skip"})
        assert answer["type"] == "ack"
        room.refresh_from_db()
        assert room.state["game"]["turn"] == 2 and room.state["robot_due"]

        # the robot plays on a tick
        ticked = sockets[guest.id].request({"type": "tick"})
        assert ticked["type"] == "ack" and ticked["seq"] is not None
        for socket in sockets.values():
            socket.until_seq(ticked["seq"])
        room.refresh_from_db()
        assert room.state["game"]["turn"] == 0
        assert room.state["game"]["history"][-1]["player"] == 2

        # a fresh snapshot shows the own rack only
        for socket in sockets.values():
            snapshot = socket.request({"type": "sync"})
            players = snapshot["view"]["game"]["players"]
            seat = snapshot["view"]["you"]
            assert [("rack" in p) for p in players] == [i == seat for i in range(3)]

        # the spectator follows the board from the public views, without any rack
        watched = [v for m in sockets[watcher.id].seen for v in _views(m)]
        assert watched and watched[-1]["you"] is None
        assert watched[-1]["game"]["board"] == room.state["game"]["board"]
        refused = sockets[watcher.id].request({"type": "skip"})
        assert refused["type"] == "error"

        # nothing secret ever reached a client
        racks = {i: p["rack"] for i, p in enumerate(room.state["game"]["players"])}
        seats = {host.id: 0, guest.id: 1, watcher.id: None}
        for player_id, socket in sockets.items():
            seat = seats[player_id]
            for message in socket.seen:
                text = json.dumps(message)
                assert '"bag":' not in text and '"seed"' not in text
                for view in _views(message):
                    for index, p in enumerate(view["game"]["players"]):
                        if index != seat:
                            assert "rack" not in p
        assert racks  # the server holds all racks
    finally:
        for socket in sockets.values():
            socket.close()


def _views(message: dict):
    if message["type"] == "sync" and message.get("view"):
        yield message["view"]
    for event in message.get("events", []) or []:
        if event.get("type") == "view":
            yield event["view"]
