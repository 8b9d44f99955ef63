"""A class split into Mathesso tables: each table is played and lands in the class report."""

from __future__ import annotations

import random

import pytest

from classrooms import launch
from classrooms import selectors as class_selectors
from games.mathesso import services as mathesso_services
from games.rooms import services as room_services
from games.rooms.models import Room
from tests.classrooms import factories
from tests.mathesso.cheat import next_moves

pytestmark = pytest.mark.django_db


def play_through(room: Room, players: dict) -> None:
    step = 0
    while True:
        state = Room.objects.get(pk=room.pk).state
        if state["phase"] == "over":
            return
        for player, message in next_moves(state):
            step += 1
            room_services.submit(
                room_id=room.pk, player=players[int(player)], client_id=f"c{step}", message=message
            )


def test_a_class_table_is_chosen_by_its_host_played_and_reported():
    classroom = factories.make_class()
    members = [factories.add_member(classroom) for _ in range(5)]
    rooms = launch.start_tables(classroom=classroom, game="mathesso", size=3, rng=random.Random(1))
    assert sorted(r.seats.count() for r in rooms) == [2, 3]
    assert all(r.settings == {"variant": "pico", "extensions": [], "points": True} for r in rooms)
    room = rooms[0]
    mathesso_services.change_settings(
        room_id=room.pk, actor=room.host, settings={"variant": "atto"}
    )
    room_services.start_room(room=room, actor=room.host)
    players = {s.player_id: s.player for s in room.seats.select_related("player")}
    play_through(room, players)
    room.refresh_from_db()
    assert room.status == "finished" and room.record.classroom == classroom
    (session,) = class_selectors.class_sessions(classroom)
    ranking = class_selectors.session_ranking(classroom, session)
    assert {row.result.player_id for row in ranking} == set(players)
    assert sum(row.result.details["pairs"] for row in ranking) == 11
    assert all(row.result.details["variant"] == "atto" for row in ranking)
    assert {m.player_id for m in members} >= set(players)
