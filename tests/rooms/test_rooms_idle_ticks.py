"""A tick that changes nothing writes nothing.

Issue 22 (section 5): "Idle robot/turn-clock ticks write even when nothing is
due: three ticks made 16 queries, rewrote the room row 3 times and stored 3
idempotency rows -- every open table sends one every 300-400 ms." Required: "a
tick that changes nothing writes nothing."

The room row's ``xmin`` (the transaction that last wrote it) and ``ctid`` (where
its current version lies) show any rewrite, even one that stores the same values.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.rooms import services
from games.rooms.models import ProcessedMessage, Room, RoomEvent
from tests.rooms.testgame import GAME

WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture
def running(transactional_db, make_player):
    host, guest = make_player("Host"), make_player("Guest")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.join_room(room=room, player=guest.profile)
    services.start_room(room=room, actor=host.profile)
    return room, host.profile, guest.profile


def _xmin(room) -> str:
    with connection.cursor() as cursor:
        table = connection.ops.quote_name(Room._meta.db_table)
        cursor.execute(f"SELECT xmin::text || ctid::text FROM {table} WHERE id = %s", [room.pk])
        return cursor.fetchone()[0]


def _tick(room, player, client_id, now=None) -> dict:
    return services.submit(
        room_id=room.pk, player=player, client_id=client_id, message={"type": "tick"}, now=now
    )


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_three_idle_ticks_read_once_each_and_write_nothing(running):
    room, host, guest = running
    _tick(room, guest, "warm-up")  # the room's game and mode are cached from here on
    before = (_xmin(room), ProcessedMessage.objects.count(), RoomEvent.objects.count())
    with CaptureQueriesContext(connection) as queries:
        answers = [_tick(room, guest, f"idle-{n}") for n in range(3)]
    assert [a["seq"] for a in answers] == [None, None, None]
    assert all(a["type"] == "ack" for a in answers)
    assert _writes(queries.captured_queries) == []
    assert len(queries.captured_queries) == 3  # one plain read per tick, no lock
    assert (_xmin(room), ProcessedMessage.objects.count(), RoomEvent.objects.count()) == before


def test_a_deadline_not_yet_passed_is_idle_and_a_passed_one_is_applied_once(running):
    room, host, guest = running
    services.submit(room_id=room.pk, player=host, client_id="deal", message={"type": "deal"})
    deadline = Room.objects.get(pk=room.pk).next_tick_at
    assert deadline is not None
    written = _xmin(room)
    for n in range(3):
        assert _tick(room, guest, f"early-{n}", now=deadline - timedelta(seconds=1))["seq"] is None
    assert _xmin(room) == written
    assert not ProcessedMessage.objects.filter(client_id__startswith="early-").exists()

    due = _tick(room, guest, "due", now=deadline)
    assert due["seq"] is not None
    assert RoomEvent.objects.filter(room=room, kind="tick").count() == 1
    # The step is remembered: the same id gets the same answer and changes nothing.
    assert _tick(room, guest, "due", now=deadline + timedelta(seconds=5)) == due
    after = _xmin(room)
    for n in range(3):
        assert _tick(room, guest, f"late-{n}", now=deadline + timedelta(seconds=9))["seq"] is None
    assert _xmin(room) == after
    assert RoomEvent.objects.filter(room=room, kind="tick").count() == 1


def test_the_beat_safety_net_leaves_a_room_with_nothing_due_untouched(running):
    room, host, guest = running
    written = _xmin(room)
    with CaptureQueriesContext(connection) as queries:
        assert services.tick_room(room_id=room.pk, now=timezone.now()) is None
        assert services.tick_due_rooms(now=timezone.now()) == 0
    assert _writes(queries.captured_queries) == []
    assert _xmin(room) == written
