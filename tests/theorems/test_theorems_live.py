"""A whole Matematici table through the real server: uvicorn, WebSocket, Redis, PostgreSQL.

A human plays against a robot over the room protocol until the game is over;
the robot acts on ticks the client sends. Nothing the human receives may reveal
the robot's hand, any draw pile or the seed.
"""

from __future__ import annotations

import itertools
import json
import random
import time

import pytest
from django.conf import settings
from django.core import signing
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts import identity
from accounts import services as accounts_services
from games.models import GameRecord, GameResult
from games.rooms import services as room_services
from games.rooms.models import Room
from games.theorems.rules import STARTER_DECKS, GameState, choose_action

pytestmark = [pytest.mark.live]


class Client:
    """A room client that, like the page's RoomSocket, reconnects after a dropped
    connection and resends an unanswered message with the same id (applied once)."""

    def __init__(self, server: str, code: str, cookie: str) -> None:
        self.server = server
        self.url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
        self.cookie = cookie
        self.ids = itertools.count(1)
        self.seen: list[dict] = []
        self.reconnects = 0
        self._connect()

    def _connect(self) -> None:
        self.ws = connect(self.url, origin=self.server, additional_headers={"Cookie": self.cookie})
        self.ws.__enter__()

    def recv(self, timeout: float = 10) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def request(self, message: dict) -> dict:
        message = {"id": f"m{next(self.ids)}", **message}
        for _attempt in range(50):
            try:
                self.ws.send(json.dumps(message))
                while True:
                    answer = self.recv()
                    if answer.get("id") == message["id"] and answer["type"] in (
                        "ack",
                        "error",
                        "sync",
                    ):
                        if answer.get("code") == "rate_limited":
                            time.sleep(0.2)
                            break
                        return answer
            except ConnectionClosed:
                self.reconnects += 1
                time.sleep(0.2)
                self._connect()
                self.recv()  # the fresh snapshot
        raise AssertionError("the server kept dropping the connection")


@pytest.fixture
def human(transactional_db):
    profile, token = accounts_services.create_profile(browser_token=None, nickname="Ada")
    signed = signing.dumps(token, salt=identity.SALT)
    return profile, f"{settings.PLAYER_COOKIE_NAME}={signed}; matika_lang=en"


def test_a_human_plays_a_robot_to_the_end_over_the_websocket(human, asgi_server):
    profile, cookie = human
    room = room_services.create_room(
        game="theorems",
        mode="table",
        host=profile,
        settings={"table_size": 2, "robot_delay_ms": 0},
    )
    client = Client(asgi_server, room.code, cookie)
    assert client.recv()["type"] == "sync"
    assert client.request({"type": "start"})["type"] == "ack"
    geometers = STARTER_DECKS[0]
    bad = client.request(
        {"type": "deck", "name": "Tiny", "mathematician": "euclid", "cards": ["pythagoras"]}
    )
    assert bad["type"] == "error" and bad["code"] == "deck_too_small"
    answer = client.request(
        {
            "type": "deck",
            "name": "Geometers",
            "mathematician": geometers.mathematician,
            "cards": list(geometers.deck),
        }
    )
    assert answer["type"] == "ack"
    rng = random.Random(11)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        room.refresh_from_db()
        if room.status != Room.Status.RUNNING:
            break
        state = room.state
        game = GameState.from_dict(state["game"])
        if state["seats"][game.to_act]["robot"]:
            client.request({"type": "tick"})
            continue
        action = {k: v for k, v in choose_action(game, rng).items() if k != "player"}
        answer = client.request({"type": "action", "action": action})
        assert answer["type"] == "ack", answer
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    final = GameState.from_dict(room.state["game"])
    assert final.status == "finished"
    # the human's screen learns the end: the snapshot's view and its log in full
    snapshot = client.request({"type": "sync"})
    assert snapshot["room"]["status"] == "finished"
    view = snapshot["view"]
    assert view["phase"] == "finished" and view["game"]["status"] == "finished"
    assert view["game"]["log"][-1] == {"type": "game_over", "winners": list(final.winners)}
    assert view["game"]["legal_actions"] == []
    record = GameRecord.objects.get(game="theorems", mode="table")
    result = GameResult.objects.get(record=record)
    assert result.player == profile
    assert result.score == len(final.players[0].proven)
    assert result.details["won"] == (0 in final.winners)
    # never the robot's hand, a draw pile or the seed
    robot_hand_seen = []
    for message in client.seen:
        text = json.dumps(message)
        assert 'draw_pile"' not in text and "seed" not in text
        if message["type"] == "private":
            for event in message["events"]:
                for player in event["view"]["game"]["players"] if event["view"]["game"] else []:
                    if player["seat"] != 0:
                        robot_hand_seen.append("hand" in player)
    assert robot_hand_seen and not any(robot_hand_seen)
    client.ws.close()
