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
from websockets.sync.client import connect

from accounts import identity
from accounts import services as accounts_services
from games.models import GameRecord, GameResult
from games.rooms import services as room_services
from games.rooms.models import Room
from games.theorems.rules import STARTER_DECKS, GameState, choose_action

pytestmark = [pytest.mark.live]


class Client:
    def __init__(self, server: str, code: str, cookie: str) -> None:
        url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
        self.ws = connect(url, origin=server, additional_headers={"Cookie": cookie})
        self.ws.__enter__()
        self.ids = itertools.count(1)
        self.seen: list[dict] = []

    def recv(self, timeout: float = 10) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def request(self, message: dict) -> dict:
        message = {"id": f"m{next(self.ids)}", **message}
        self.ws.send(json.dumps(message))
        while True:
            answer = self.recv()
            if answer.get("id") == message["id"] and answer["type"] in ("ack", "error", "sync"):
                return answer

    def latest_view(self) -> dict | None:
        for message in reversed(self.seen):
            if message["type"] == "private":
                for event in message["events"]:
                    if event["type"] == "view":
                        return event["view"]
            if message["type"] == "sync" and message["view"]:
                return message["view"]
        return None


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
    # the human's screen learns the end, in words and in their view
    while not any(
        e["type"] == "finished" for m in client.seen if m["type"] == "event" for e in m["events"]
    ):
        client.recv()
    deadline = time.monotonic() + 10
    while client.latest_view()["game"]["status"] != "finished" and time.monotonic() < deadline:
        client.recv()
    view = client.latest_view()
    assert view["game"]["status"] == "finished"
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
