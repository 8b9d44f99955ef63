"""Through the real server: a client never receives the face of a face-down tile.

Two players and a spectator sit at a Pico table served by a real uvicorn
process (PostgreSQL, Redis, the rooms consumer). The players play a whole
game, with misses, a single flip and order flips; every message each client
receives is kept. Afterwards the game is replayed from the room's event log to
know, for every ``seq``, which tiles were really visible, and each message is
checked against it: a face may appear only for a tile that was face up or
taken at that step, and never the seed.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.mathesso.rules import GameState, apply_action, new_game
from games.models import GameRecord, GameResult
from games.rooms import services
from games.rooms.models import Room, RoomEvent
from tests.mathesso.cheat import mismatch, next_moves
from tests.mathesso.live import Player, Socket

pytestmark = [pytest.mark.live]

FACE = re.compile(r"^(mult|square|prime|fib|fact|zero|cjv):[0-9a-z]+$")


def visible(game: GameState) -> set[int]:
    return game.face_up() | set(game.owners())


def truth_by_seq(room: Room) -> tuple[GameState, dict[int, set[int]], dict[int, set[int]]]:
    """Replay the log: tiles visible after each seq, and tiles legitimately shown during it."""
    final = room.state
    game = new_game(
        final["seats"],
        final["variant"],
        final["extensions"],
        seed=final["seed"],
        points=final["points"],
    )
    after: dict[int, set[int]] = {}
    during: dict[int, set[int]] = {}
    started = False
    for event in RoomEvent.objects.filter(room=room).order_by("seq"):
        if event.kind == "start":
            started = True
        before = visible(game) if started else set()
        if event.kind == "move":
            action = {**event.action, "player": str(event.actor_id)}
            game, _ = apply_action(game, action)
        now = visible(game) if started else set()
        extra = {event.action["tile"]} if event.kind == "move" and "tile" in event.action else set()
        after[event.seq] = now
        during[event.seq] = before | now | extra
    assert game.to_dict()["pairs"] == final["pairs"], "the replay must reach the stored state"
    return game, after, during


def strings(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def tile_mentions(value: Any):
    """(tile ids, face) for every dict that ties a face to tiles."""
    if isinstance(value, dict):
        if "face" in value:
            ids = [value[k] for k in ("id", "tile") if isinstance(value.get(k), int)]
            ids += value.get("tiles", []) if isinstance(value.get("tiles"), list) else []
            yield ids, value["face"]
        for v in value.values():
            yield from tile_mentions(v)
    elif isinstance(value, list):
        for v in value:
            yield from tile_mentions(v)


def check_messages(sock: Socket, game: GameState, after, during, seed: str) -> int:
    """Assert no hidden face in anything this client got; return how many faces it saw."""
    faces_of = {p.id: p.tile.face for p in game.tiles}
    checked = 0
    for raw, message in zip(sock.raw, sock.seen, strict=True):
        assert seed not in raw
        assert '"seed"' not in raw
        seq = message.get("seq")
        if message["type"] == "sync":
            allowed = after.get(seq, set())
            view = message["view"]
            for tile in view.get("tiles", []):
                shown = "face" in tile
                assert shown == (tile["id"] in allowed), (seq, tile)
                assert ("group" in tile) == shown and ("value" in tile) == shown
        elif message["type"] == "event":
            allowed = during[seq]
        else:
            allowed = set()
        for ids, face in tile_mentions(message):
            assert ids, f"a face without its tile: {face}"
            for tile_id in ids:
                assert tile_id in allowed, (seq, tile_id, face)
                assert faces_of[tile_id] == face
                checked += 1
        allowed_faces = {faces_of[t] for t in allowed}
        for text in strings(message):
            if FACE.match(text):
                assert text in allowed_faces, (seq, text)
    return checked


@pytest.fixture
def table(transactional_db):
    host, guest, watcher = Player("Hosta"), Player("Guesto"), Player("Watcher")
    room = services.create_room(
        game="mathesso", mode="table", host=host.profile, settings={"variant": "pico"}
    )
    services.join_room(room=room, player=guest.profile)
    services.join_room(room=room, player=watcher.profile, role="spectator")
    return room, host, guest, watcher


def test_no_client_ever_receives_a_hidden_face_in_a_whole_game(table, asgi_server):
    room, host, guest, watcher = table
    sockets = {p.id: Socket(asgi_server, room.code, p) for p in (host, guest, watcher)}
    try:
        for sock in sockets.values():
            assert sock.recv()["type"] == "sync"
        seq = sockets[host.id].request({"type": "start"})["seq"]
        moves = 0
        misses = 0
        single = False
        while True:
            state = Room.objects.get(pk=room.pk).state
            if state["phase"] == "over":
                break
            if state["phase"] == "play" and misses < 3 and not state["flips"]:
                plan = mismatch(state)
                misses += 1
            elif state["phase"] == "play" and not single and not state["flips"]:
                plan = next_moves(state)[:1] + [(next_moves(state)[0][0], {"type": "end_turn"})]
                single = True
            else:
                plan = next_moves(state)
            for player, message in plan:
                ack = sockets[int(player)].request(message)
                assert ack["type"] == "ack", ack
                seq = ack["seq"]
                moves += 1
            if moves % 9 == 0:
                for sock in sockets.values():
                    assert sock.request({"type": "sync"})["type"] == "sync"
        for sock in sockets.values():
            sock.until_seq(seq)
            final = sock.request({"type": "sync"})
            assert final["room"]["status"] == "finished"
            assert final["view"]["phase"] == "over"
            assert final["view"]["result"]["breakdown"]
        room.refresh_from_db()
        game, after, during = truth_by_seq(room)
        seed = str(room.state["seed"])
        seen = [check_messages(s, game, after, during, seed) for s in sockets.values()]
        assert all(n > 58 for n in seen), seen  # every tile's face was legitimately seen
        assert misses == 3 and single and moves > 60
    finally:
        for sock in sockets.values():
            sock.close()
    record = GameRecord.objects.get(game="mathesso")
    results = {r.player_id: r for r in GameResult.objects.filter(record=record)}
    assert set(results) == {host.id, guest.id}
    assert sum(r.details["pairs"] for r in results.values()) == 29
    assert all(r.completed for r in results.values())


def test_a_refused_move_answers_with_the_engines_code_and_no_face(table, asgi_server):
    room, host, guest, watcher = table
    services.start_room(room=room, actor=host.profile)
    sock = Socket(asgi_server, room.code, guest)
    try:
        snapshot = sock.recv()
        hidden = next(t for t in snapshot["view"]["tiles"] if t["bw"] != 1)
        error = sock.request({"type": "flip", "tile": hidden["id"]})
        assert error["type"] == "error" and error["code"] == "not_a_one"
        assert "face" not in error and not FACE.search(error["message"])
        error = sock.request({"type": "end_turn"})
        assert error["code"] == "wrong_phase"
        spectator = Socket(asgi_server, room.code, watcher)
        spectator.recv()
        refused = spectator.request({"type": "flip", "tile": hidden["id"]})
        assert refused["code"] == "spectator"
        spectator.close()
    finally:
        sock.close()


class _Recorded:
    def __init__(self, messages: list[dict]) -> None:
        import json

        self.seen = messages
        self.raw = [json.dumps(m) for m in messages]


def test_the_checker_itself_catches_a_leaked_face():
    game = new_game(["1", "2"], "pico", seed="checker")
    hidden = game.tiles[0]
    after = {5: set()}
    leak = {
        "type": "sync",
        "seq": 5,
        "view": {
            "tiles": [
                {"id": 0, "bw": hidden.tile.bw, "face": hidden.tile.face, "group": "x", "value": 1}
            ]
        },
    }
    with pytest.raises(AssertionError):
        check_messages(_Recorded([leak]), game, after, {}, "checker")
    sneaky = {"type": "event", "seq": 5, "events": [{"type": "hint", "text": hidden.tile.face}]}
    with pytest.raises(AssertionError):
        check_messages(_Recorded([sneaky]), game, after, {5: set()}, "checker")
    fine = {
        "type": "event",
        "seq": 5,
        "events": [{"type": "flipped", "tile": 0, "face": hidden.tile.face}],
    }
    assert check_messages(_Recorded([fine]), game, after, {5: {0}}, "checker") == 1
