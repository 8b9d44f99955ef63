"""The tiny plug-in game (tests/plugin/tinygame/), registered through the game
registry alone, is started from a class and played to its results over real
WebSockets: the runtime, delivery and schemas need nothing else."""

from __future__ import annotations

import pytest
from django.test import Client

from core import registry as game_registry
from games.models import GameResult
from games.rooms.models import Room
from tests.classrooms import factories
from tests.plugin.tinygame import game as tinygame
from tests.rooms.conftest import Player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


@pytest.fixture
def tiny():
    game_registry.register(tinygame.SPEC)
    yield tinygame.SPEC
    game_registry.unregister(tinygame.SLUG)


def test_a_class_plays_the_plugin_game_over_websockets(tiny, server, open_socket):
    teacher = factories.make_teacher("tiny@skola.cz")
    classroom = factories.make_class(teacher)
    pupils = [Player(f"Krok {number}") for number in range(2)]
    for pupil in pupils:
        factories.add_member(classroom, player=pupil.profile)
    browser = Client()
    browser.force_login(teacher)
    browser.post(
        f"/classes/{classroom.pk}/games/start/",
        {"game": "tinygame", "mode": "table", "table_size": "2", "tinygame-goal": "2"},
    )
    room = Room.objects.get(game="tinygame", classroom=classroom)
    host = next(pupil for pupil in pupils if pupil.id == room.host_id)
    other = next(pupil for pupil in pupils if pupil is not host)
    host_socket = open_socket(server, room.code, host)
    other_socket = open_socket(server, room.code, other)
    for socket in (host_socket, other_socket):
        assert socket.recv_until(lambda m: m["type"] == "sync")["room"]["game"] == "tinygame"
    assert host_socket.request({"type": "start"})["type"] == "ack"
    assert other_socket.request({"type": "step"})["type"] == "ack"
    assert other_socket.request({"type": "step"})["type"] == "ack"
    finished = host_socket.event("finished")
    assert finished["events"]
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    winner = GameResult.objects.get(record__game="tinygame", rank=1)
    assert winner.player_id == other.id and winner.score == 2
    refused = host_socket.request({"type": "step", "extra": "x" * 10})
    assert refused["type"] == "error"
