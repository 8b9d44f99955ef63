"""Room messages and events are typed: the runtime checks what clients send, and every
frame a game of every mode sends through the real runtime matches its schema.

Issue 15: "each event and client message has a schema ... that the server validates
against and the tests check every emitted event against". Issue 17: "stored moves
keep only the fields the protocol defines".
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable

import pytest
from pydantic import BaseModel
from websockets.exceptions import ConnectionClosed

from games.rooms import protocol, registry, schemas, services
from games.rooms.models import Room, RoomEvent
from games.rooms.schemas import Event, Message
from tests.rooms.schema_check import stored_problems
from tests.rooms.testgame import GAME

pytestmark = [pytest.mark.live]


def project_games() -> list[tuple[str, str, registry.RoomGame]]:
    return [
        (game, mode, registry.get(game, mode))
        for game, mode in registry.registered()
        if type(registry.get(game, mode)).__module__.startswith("games.")
    ]


# --- every type has a schema ---------------------------------------------------------


def test_every_game_and_mode_has_a_schema_for_every_message_type_it_accepts():
    found = project_games()
    assert {game for game, _mode, _adapter in found} >= {"poker", "mathesso", "abaku", "theorems"}
    for game, mode, adapter in found:
        accepted = adapter.message_types | adapter.seat_message_types
        assert set(adapter.messages) == accepted, (game, mode)
        assert adapter.events, (game, mode)
        for kind, model in adapter.messages.items():
            assert issubclass(model, Message) and schemas.type_name(model) == kind
        for kind, model in adapter.events.items():
            assert issubclass(model, Event) and schemas.type_name(model) == kind


def test_the_runtime_types_every_reserved_message_and_every_frame_it_sends():
    assert set(schemas.MESSAGES) == registry.RESERVED_TYPES
    assert set(schemas.FRAMES) == {"ack", "error", "sync", "event", "private", "pong", "kicked"}


def test_an_adapter_whose_schemas_miss_a_message_type_cannot_register():
    class Untyped(registry.RoomGame):
        message_types = frozenset({"add", "fly"})
        messages = {"add": registry.get(GAME, "duel").messages["add"]}

    with pytest.raises(ValueError, match="fly"):
        registry.register("untyped", "table", Untyped())
    assert ("untyped", "table") not in registry.registered()


# --- what the server accepts ------------------------------------------------------------


@pytest.fixture
def running(transactional_db, make_player):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    return room, host, guest


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"type": "add", "n": "1"}, "n"),
        ({"type": "add", "n": True}, "n"),
        ({"type": "add"}, "n"),
        ({"type": "kick", "player_id": 1.5}, "player_id"),
    ],
)
def test_a_message_of_the_wrong_shape_is_refused_with_bad_message_and_the_field(
    running, server, open_socket, message, field
):
    room, host, guest = running
    socket = open_socket(server, room.code, host)
    socket.recv()
    before = RoomEvent.objects.filter(room=room).count()
    error = socket.request(message)
    assert error["type"] == "error" and error["code"] == "bad_message"
    assert re.search(rf"\b{field}\b", error["message"]), error["message"]
    assert RoomEvent.objects.filter(room=room).count() == before
    assert socket.request({"type": "add", "n": 1})["type"] == "ack"  # still usable


def test_an_unknown_type_is_still_answered_unknown_type(running, server, open_socket):
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    assert socket.request({"type": "teleport", "to": "moon"})["code"] == "unknown_type"


def test_the_stored_move_keeps_only_the_fields_the_protocol_defines(running, server, open_socket):
    room, host, guest = running
    socket = open_socket(server, room.code, guest)
    socket.recv()
    padding = {"nickname": guest.profile.display_name, "notes": "x" * 2000, "nested": {"a": [1]}}
    assert socket.request({"type": "add", "n": 3, **padding})["type"] == "ack"
    move = RoomEvent.objects.filter(room=room, kind="move").get()
    assert move.action == {"type": "add", "n": 3}
    assert guest.profile.display_name not in json.dumps(move.action)


def test_a_stored_per_seat_move_keeps_only_the_defined_fields_too(
    transactional_db, make_player, server, open_socket
):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="group", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    socket = open_socket(server, room.code, guest)
    socket.recv()
    assert socket.request({"type": "place", "n": 4, "extra": [1, 2, 3]})["type"] == "ack"
    assert RoomEvent.objects.get(room=room, kind="seat").action == {"type": "place", "n": 4}


def test_the_check_of_stored_events_catches_an_undeclared_field(running):
    room, host, guest = running
    assert stored_problems() == []
    RoomEvent.objects.create(
        room=room,
        seq=room.seq + 100,
        kind="move",
        actor_id=guest.id,
        action={"type": "add", "n": 1, "secret": "kept"},
        public=[{"type": "added", "player_id": guest.id, "n": 1, "total": 1, "who": "Anna"}],
        private={},
        created_at=room.created_at,
    )
    problems = stored_problems()
    assert len(problems) == 2
    assert "who" in problems[0] and "secret" in problems[1]
    RoomEvent.objects.filter(seq=room.seq + 100).delete()  # not for the autouse check


# --- every frame of every game and mode matches its schema ------------------------------


DONE = object()


def _drain(socket) -> None:
    while True:
        try:
            socket.recv(timeout=0.3)
        except (TimeoutError, ConnectionClosed):
            return


def _problems(adapter, sockets) -> list[str]:
    problems = []
    for socket in sockets:
        _drain(socket)
        for frame in socket.seen:
            problems += [
                f"{frame.get('type')}: {p}" for p in protocol.frame_problems(adapter, frame)
            ]
    return problems


def _state(room: Room) -> Room:
    return Room.objects.get(pk=room.pk)


def _play(
    server,
    open_socket,
    make_player,
    *,
    game: str,
    mode: str,
    settings: dict,
    players: int,
    move: Callable[[Room, dict], tuple[int, dict] | None | object],
    steps: int,
) -> tuple[Room, list]:
    """Open a room, seat everyone, start it through the socket and play ``steps``
    moves chosen by ``move(room, sockets_by_player_id)`` -> (player_id, message),
    None when the game waits for time (then ``tick``) or DONE; the host ends a game
    still running. Returns the room and every socket (their frames in ``socket.seen``)."""
    people = [make_player(f"{game} {mode} {n}") for n in range(players)]
    host = people[0]
    room = services.create_room(game=game, mode=mode, host=host.profile, settings=settings)
    for person in people[1:]:
        services.join_room(room=room, player=person.profile)
    sockets = {person.id: open_socket(server, room.code, person) for person in people}
    for socket in sockets.values():
        assert socket.recv()["type"] == "sync"
    if not registry.get(game, mode).starts_when_full:  # a duel started at the last join
        assert sockets[host.id].request({"type": "start"})["type"] == "ack"
    for _step in range(steps):
        room = _state(room)
        if room.status != Room.Status.RUNNING:
            break
        chosen = move(room, sockets)
        if chosen is DONE:
            break
        if chosen is None:
            answer = sockets[host.id].request({"type": "tick"})
        else:
            player_id, message = chosen
            answer = sockets[player_id].request(message)
        assert answer["type"] == "ack", answer
    if _state(room).status == Room.Status.RUNNING:
        assert sockets[host.id].request({"type": "end"})["type"] == "ack"
    for socket in sockets.values():
        assert _answered(socket, {"type": "sync"})["type"] == "sync"
        assert _answered(socket, {"type": "ping"})["type"] == "pong"
    return _state(room), list(sockets.values())


def _answered(socket, message: dict) -> dict:
    """The answer to ``message``; sent again while the socket's flood bucket refuses
    it (it refills at 10 a second), so the wait is for the answer, not a fixed time."""
    for _attempt in range(50):
        sent = socket.send(message)
        answer = socket.recv_until(
            lambda m, sent=sent: m.get("id") == sent and m["type"] in ("sync", "pong", "error")
        )
        if answer.get("code") != "rate_limited":
            return answer
        time.sleep(0.2)
    return answer


def _poker_move(game) -> dict:
    from games.poker.rules import JOKER

    cell = list(game.cells).index(None)
    if game.hand == JOKER:
        return {"type": "use_joker", "cell": cell, "value": 1}
    return {"type": "place", "cell": cell}


def poker_group(room, sockets):
    from games.poker.room_games import common

    seats = dict(room.seats.values_list("player_id", "state"))
    for player_id, _nickname in room.state["players"]:
        game = common.board_at(room.state, seats[player_id], None)
        if not game.over and game.hand is not None:
            return player_id, _poker_move(game)
    if room.state["closed"]:
        return DONE
    return room.host_id, {"type": "draw"}


def poker_duel(room, sockets):
    from games.poker.rules import PokerGame

    for key, stored in room.state["boards"].items():
        game = PokerGame.from_dict(stored)
        if not game.over and game.hand is not None:
            return int(key), _poker_move(game)
    return None


def mathesso(room, sockets):
    from games.mathesso import rules

    game = rules.GameState.from_dict(room.state)
    for player in game.seats:
        actions = rules.legal_actions(game, player)
        if actions:
            action = actions[len(actions) // 2]
            message = {"type": action["type"]}
            if "tile" in action:
                message["tile"] = action["tile"]
            return int(player), message
    return None


def abaku(room, sockets):
    from games.abaku.rules import GameState, robot_action

    game = GameState.from_dict(room.state["game"])
    seat = room.state["seats"][game.turn]
    if seat["robot"]:
        return None
    action = robot_action(game, "greedy", random.Random(room.seq))
    message = {key: value for key, value in action.items() if key != "player"}
    return seat["player_id"], message


def theorems(room, sockets):
    from games.theorems.rules import STARTER_DECKS, GameState, choose_action

    if room.state["phase"] == "setup":
        seat = next(s for s in room.state["seats"] if not s["robot"] and s["deck"] is None)
        deck = STARTER_DECKS[0]
        message = {
            "type": "deck",
            "name": "Mine",
            "mathematician": deck.mathematician,
            "cards": list(deck.deck),
        }
        return seat["player_id"], message
    game = GameState.from_dict(room.state["game"])
    seat = room.state["seats"][game.to_act]
    if seat["robot"]:
        return None
    action = choose_action(game, random.Random(room.seq))
    return seat["player_id"], {"type": "action", "action": action}


def counter(room, sockets):
    player_id = next(int(pid) for pid in room.state["scores"])
    return player_id, {"type": "add", "n": 2}


def counter_group(room, sockets):
    player_id = next(pid for pid in sockets if pid != room.host_id)
    return player_id, {"type": "place", "n": 1}


FAST_ROBOTS = {"robot_delay_ms": 0}
GAMES_AND_MODES = [
    ("poker", "group", {"difficulty": "easy"}, 3, poker_group, 200),
    ("poker", "group", {"difficulty": "hard", "seconds": 30}, 2, poker_group, 20),
    ("poker", "duel", {}, 2, poker_duel, 120),
    ("mathesso", "table", {}, 2, mathesso, 60),
    ("mathesso", "solo", {}, 1, mathesso, 40),
    ("abaku", "table", {"table_size": 3, "turn_seconds": None, **FAST_ROBOTS}, 2, abaku, 20),
    ("abaku", "solo", {"table_size": 2, **FAST_ROBOTS}, 1, abaku, 12),
    ("theorems", "table", {"table_size": 3, **FAST_ROBOTS}, 2, theorems, 40),
    (GAME, "duel", {"target": 8}, 2, counter, 10),
    (GAME, "group", {}, 3, counter_group, 5),
]


@pytest.mark.parametrize(
    ("game", "mode", "settings", "players", "move", "steps"),
    GAMES_AND_MODES,
    ids=[f"{g}-{m}-{s.get('difficulty', '')}".rstrip("-") for g, m, s, *_ in GAMES_AND_MODES],
)
def test_every_frame_of_a_game_played_through_the_real_runtime_matches_its_schema(
    transactional_db, server, open_socket, make_player, game, mode, settings, players, move, steps
):
    room, sockets = _play(
        server,
        open_socket,
        make_player,
        game=game,
        mode=mode,
        settings=settings,
        players=players,
        move=move,
        steps=steps,
    )
    adapter = registry.get(game, mode)
    assert _problems(adapter, sockets) == []
    seen = {frame["type"] for socket in sockets for frame in socket.seen}
    assert {"sync", "ack", "event", "pong"} <= seen, [
        f for s in sockets for f in s.seen if f["type"] == "error"
    ]
    assert room.status == Room.Status.FINISHED
    moves = RoomEvent.objects.filter(room=room, kind__in=("move", "seat")).count()
    assert moves > 0
    assert stored_problems() == []


def test_runtime_frames_of_host_controls_and_refusals_match_their_schemas(
    running, server, open_socket, make_player
):
    room, host, guest = running
    adapter = registry.get(GAME, "duel")
    host_socket, guest_socket = (open_socket(server, room.code, p) for p in (host, guest))
    host_socket.recv(), guest_socket.recv()
    assert guest_socket.request({"type": "whisper"})["type"] == "ack"
    assert host_socket.request({"type": "deal"})["type"] == "ack"
    assert guest_socket.request({"type": "add", "n": 0})["code"] == "bad_number"
    assert guest_socket.request({"type": "add", "n": "0"})["code"] == "bad_message"
    assert guest_socket.request({"type": "start"})["code"] == "not_host"
    assert host_socket.request({"type": "kick", "player_id": guest.id})["type"] == "ack"
    guest_socket.recv_until(lambda m: m["type"] == "kicked")
    assert _problems(adapter, [host_socket, guest_socket]) == []
    lobby = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    newcomer = make_player("Newcomer")
    services.join_room(room=lobby, player=newcomer.profile)
    socket = open_socket(server, lobby.code, host)
    socket.recv()
    for kind in ("lock", "unlock"):
        assert socket.request({"type": kind})["type"] == "ack"
    leaver = open_socket(server, lobby.code, newcomer)
    leaver.recv()
    assert leaver.request({"type": "leave"})["type"] == "ack"
    assert socket.request({"type": "end"})["type"] == "ack"
    assert _problems(adapter, [socket, leaver]) == []
    kinds = {e["type"] for f in socket.seen if f["type"] == "event" for e in f["events"]}
    assert {"locked", "unlocked", "player_left", "finished"} <= kinds


def test_schema_models_are_pydantic_models_documented_by_their_docstring():
    for _game, _mode, adapter in project_games():
        for model in [*adapter.messages.values(), *adapter.events.values()]:
            assert issubclass(model, BaseModel) and model.__doc__


def test_the_poker_group_board_sent_after_forfeits_matches_its_schema():
    """Hard mode: a move after deadlines passed sends the stored board and what time
    decided (the one private event of the group game; too slow for the live run)."""
    from tests.poker_room.drivers import GroupDriver

    driver = GroupDriver(1, difficulty="hard", seconds=5)
    driver.state["deck"] = [3, 5, 0, 8, 9]
    for moment in (0, 0.5, 1, 1.5):
        driver.draw(moment)
    private = driver.place(101, 7, 17)  # 3, 5 and the joker ran out; 8 is in hand
    assert [e["type"] for e in private[0]["events"]][:3] == [
        "forfeited",
        "forfeited",
        "joker_expired",
    ]
    assert protocol.event_problem(driver.adapter, private[0]) is None
    assert protocol.event_problem(driver.adapter, {**private[0], "extra": 1}) is not None
