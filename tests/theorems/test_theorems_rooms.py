"""A Matematici table through the rooms services: moves, robot ticks, records, replay."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import services as accounts_services
from games.models import GameRecord, GameResult
from games.rooms import selectors as room_selectors
from games.rooms import services as room_services
from games.rooms.errors import RoomError
from games.rooms.models import Room
from games.theorems.rules import STARTER_DECKS, GameState, choose_action

pytestmark = pytest.mark.django_db
_ids = itertools.count(1)


def _submit(room, player, message, now=None):
    return room_services.submit(
        room_id=room.pk, player=player, client_id=f"c{next(_ids)}", message=message, now=now
    )


def _profile(nickname):
    return accounts_services.create_profile(browser_token=None, nickname=nickname)[0]


def test_a_table_is_played_to_the_end_recorded_and_replayed_from_its_log():
    host, guest = _profile("Emmy"), _profile("Sofia")
    room = room_services.create_room(
        game="theorems", mode="table", host=host, settings={"table_size": 3}
    )
    room_services.join_room(room=room, player=guest)
    _submit(room, host, {"type": "start"})
    for player, starter in ((host, STARTER_DECKS[0]), (guest, STARTER_DECKS[1])):
        _submit(
            room,
            player,
            {
                "type": "deck",
                "name": starter.id,
                "mathematician": starter.mathematician,
                "cards": list(starter.deck),
            },
        )
    by_id = {host.pk: host, guest.pk: guest}
    rng = random.Random(4)
    now = timezone.now()
    for _step in range(3000):
        room.refresh_from_db()
        if room.status != Room.Status.RUNNING:
            break
        state = room.state
        game = GameState.from_dict(state["game"])
        seat = state["seats"][game.to_act]
        now += timedelta(seconds=1)  # past any robot's moment
        if seat["robot"]:
            assert _submit(room, host, {"type": "tick"}, now=now)["seq"] is not None
            continue
        action = {k: v for k, v in choose_action(game, rng).items() if k != "player"}
        _submit(room, by_id[seat["player_id"]], {"type": "action", "action": action}, now=now)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    record = GameRecord.objects.get(pk=room.record_id)
    assert (record.game, record.mode) == ("theorems", "table")
    results = {r.player_id: r for r in GameResult.objects.filter(record=record)}
    assert set(results) == {host.pk, guest.pk}  # robots leave no results
    rebuilt, _seats = room_selectors.rebuild_state(room)
    assert rebuilt == room.state


def test_a_refused_move_stores_nothing():
    host = _profile("Ada")
    room = room_services.create_room(game="theorems", mode="table", host=host, settings={})
    _submit(room, host, {"type": "start"})
    room.refresh_from_db()
    seq, state = room.seq, room.state
    with pytest.raises(RoomError) as refused:
        _submit(room, host, {"type": "deck", "name": "x", "mathematician": "euclid", "cards": []})
    assert refused.value.code == "deck_too_small"
    room.refresh_from_db()
    assert (room.seq, room.state) == (seq, state)


def test_a_teacher_splits_a_class_into_matematici_tables_robots_fill_a_lone_student():
    from classrooms import launch
    from tests.classrooms import factories

    classroom = factories.make_class(factories.make_teacher("matematici@skola.cz"))
    students = [factories.add_member(classroom).player for _ in range(3)]
    offered = {game.info.slug: game for game in launch.class_games()}["theorems"]
    assert offered.playable and offered.max_table == 4
    rooms = launch.start_tables(classroom=classroom, game="theorems", size=2, rng=random.Random(2))
    assert sorted(room.seats.count() for room in rooms) == [1, 2]
    lone = next(room for room in rooms if room.seats.count() == 1)
    _submit(lone, lone.host, {"type": "start"})
    lone.refresh_from_db()
    assert [seat["robot"] for seat in lone.state["seats"]] == [False, 1]
    assert {room.host_id for room in rooms} <= {s.pk for s in students}
