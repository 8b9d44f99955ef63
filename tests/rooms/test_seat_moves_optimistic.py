"""Per-seat moves written optimistically: read without locks, write only if unchanged.

A group placement is two round trips and no explicit transaction; when the room
or the seat changed between the read and the write, the move is judged again
from a fresh read, and it never overwrites what happened in between.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import services as accounts_services
from accounts.models import PlayerProfile
from games.rooms import moves, services
from games.rooms.errors import RoomError
from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat
from tests.poker_room.live import rig_deck

pytestmark = [pytest.mark.django_db(transaction=True)]


def _profile(nickname: str) -> PlayerProfile:
    profile, _code = accounts_services.create_profile(browser_token=None, nickname=nickname)
    return profile


@pytest.fixture
def group():
    host = _profile("Učitelka")
    players = [_profile(f"Žák {n}") for n in range(1, 4)]
    room = services.create_room(game="poker", mode="group", host=host, settings={})
    for player in players:
        services.join_room(room=room, player=player)
    services.start_room(room=room, actor=host)
    rig_deck(room, [2, 3, 4, 5])  # numbers, not the joker: every test places what is drawn
    services.submit(room_id=room.pk, player=host, client_id="draw-1", message={"type": "draw"})
    return room, host, players


def _place(room, player, client_id, cell=0):
    return services.submit(
        room_id=room.pk,
        player=player,
        client_id=client_id,
        message={"type": "place", "cell": cell},
    )


def _board(room, player) -> list:
    return Seat.objects.get(room=room, player=player).state["cells"]


def test_a_placement_is_two_queries_and_stores_seat_log_and_answer(group):
    room, _host, (ana, *_rest) = group
    seq_before = Room.objects.get(pk=room.pk).seq
    with CaptureQueriesContext(connection) as queries:
        answer = _place(room, ana, "p1", cell=7)
    assert answer == {"type": "ack", "id": "p1", "seq": None}
    # The read and the checked write; no BEGIN/COMMIT (Django logs those too when
    # it opens a transaction) and no room row lock held in between.
    assert len(queries) == 2, [q["sql"][:60] for q in queries]
    assert not any(q["sql"].strip().upper() in ("BEGIN", "COMMIT") for q in queries)
    assert _board(room, ana)[7] is not None
    event = RoomEvent.objects.get(room=room, actor=ana, kind="seat")
    assert event.seq is None and event.action == {"type": "place", "cell": 7}
    assert ProcessedMessage.objects.get(room=room, player=ana, client_id="p1").response == answer
    assert Room.objects.get(pk=room.pk).seq == seq_before  # a per-seat step numbers nothing


def test_a_repeated_id_is_applied_once(group):
    room, _host, (ana, *_rest) = group
    first = _place(room, ana, "twice", cell=3)
    again = _place(room, ana, "twice", cell=4)  # same id, other content: the stored answer
    assert again == first
    assert RoomEvent.objects.filter(room=room, actor=ana, kind="seat").count() == 1
    board = _board(room, ana)
    assert board[3] is not None and board[4] is None


def _interfere_once(monkeypatch, change):
    """Run ``change`` after the first (unlocked) read, as if another move came in between."""
    real = moves._read_room_and_seat
    calls = []

    def read(cursor, room_id, player, client_id, now, *, lock):
        result = real(cursor, room_id, player, client_id, now, lock=lock)
        calls.append(lock)
        if len(calls) == 1:
            change()
        return result

    monkeypatch.setattr(moves, "_read_room_and_seat", read)
    return calls


def test_a_room_step_between_read_and_write_makes_the_move_judged_again(group, monkeypatch):
    room, host, (ana, *_rest) = group

    def draw_in_between():
        services.submit(room_id=room.pk, player=host, client_id="draw-2", message={"type": "draw"})

    calls = _interfere_once(monkeypatch, draw_in_between)
    answer = _place(room, ana, "p1", cell=5)
    assert answer["type"] == "ack"
    assert calls == [False, False]  # judged again from a fresh read, still optimistic
    assert RoomEvent.objects.filter(room=room, actor=ana, kind="seat").count() == 1
    assert len(Room.objects.get(pk=room.pk).state["sequence"]) == 2
    assert _board(room, ana)[5] is not None


def test_a_kick_between_read_and_write_refuses_the_move(group, monkeypatch):
    room, host, (ana, *_rest) = group

    def kick_in_between():
        services.submit(
            room_id=room.pk,
            player=host,
            client_id="kick",
            message={"type": "kick", "player_id": ana.pk},
        )

    _interfere_once(monkeypatch, kick_in_between)
    with pytest.raises(RoomError) as refused:
        _place(room, ana, "p1", cell=5)
    assert refused.value.code in ("kicked", "not_in_room")
    assert not RoomEvent.objects.filter(room=room, actor=ana, kind="seat").exists()
    assert not ProcessedMessage.objects.filter(room=room, player=ana, client_id="p1").exists()


def test_a_seat_written_between_read_and_write_is_never_overwritten(group, monkeypatch):
    room, _host, (ana, *_rest) = group
    # The same player's other tab places the drawn number on cell 1 between this
    # move's read and its write: this move, judged again, finds no number in hand.
    _interfere_once(monkeypatch, lambda: _place(room, ana, "other-tab", cell=1))
    with pytest.raises(RoomError) as refused:
        _place(room, ana, "this-tab", cell=2)
    assert refused.value.code == "no_card"
    board = _board(room, ana)
    assert board[1] is not None and board[2] is None  # the other tab's placement kept
    assert RoomEvent.objects.filter(room=room, actor=ana, kind="seat").count() == 1


def test_a_move_that_keeps_conflicting_is_written_the_locked_way(group, monkeypatch):
    room, _host, (ana, *_rest) = group
    real = moves._read_room_and_seat
    locks = []

    def read(cursor, room_id, player, client_id, now, *, lock):
        result = real(cursor, room_id, player, client_id, now, lock=lock)
        locks.append(lock)
        if not lock:  # something changes the room after every unlocked read
            Room.objects.filter(pk=room_id).update(seq=F("seq") + 1)
        return result

    monkeypatch.setattr(moves, "_read_room_and_seat", read)
    answer = _place(room, ana, "p1", cell=9)
    assert answer["type"] == "ack"
    assert locks == [False] * moves.OPTIMISTIC_ATTEMPTS + [True]
    assert RoomEvent.objects.filter(room=room, actor=ana, kind="seat").count() == 1
    assert _board(room, ana)[9] is not None


def test_a_finished_room_between_read_and_write_refuses_the_move(group, monkeypatch):
    room, host, (ana, *_rest) = group
    _interfere_once(
        monkeypatch,
        lambda: services.submit(
            room_id=room.pk, player=host, client_id="end", message={"type": "end"}
        ),
    )
    with pytest.raises(RoomError) as refused:
        _place(room, ana, "p1", cell=5)
    assert refused.value.code == "room_finished"
    assert not RoomEvent.objects.filter(room=room, actor=ana, kind="seat").exists()


def test_a_placement_after_the_room_expired_is_refused(group):
    room, _host, (ana, *_rest) = group
    Room.objects.filter(pk=room.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(RoomError) as refused:
        _place(room, ana, "late", cell=5)
    assert refused.value.code == "room_expired"
    assert not RoomEvent.objects.filter(room=room, actor=ana, kind="seat").exists()


def _prepared_on_this_connection() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_placement_statements_are_prepared_once_on_the_connection(group):
    # Issue 41: Django binds on the client, so PostgreSQL parsed and planned both
    # statements of every placement (a third of its CPU per placement).
    room, _host, (ana, bea, _cyril) = group
    _place(room, ana, "p1", cell=1)
    _place(room, bea, "p2", cell=1)
    prepared = _prepared_on_this_connection()
    assert sum("WITH unchanged AS" in text for text in prepared) == 1, prepared
    assert sum("LEFT JOIN" in text and "rooms_seat" in text for text in prepared) == 1
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone()[0] == "force_generic_plan"
    assert _board(room, ana)[1] is not None and _board(room, bea)[1] is not None


def test_behind_pgbouncer_nothing_is_prepared(group, settings):
    # Transaction-mode PgBouncer may run the next statement on another server
    # connection: no named prepared statements there.
    settings.DATABASE_POOLER = "pgbouncer"
    room, _host, (ana, *_rest) = group
    before = len(_prepared_on_this_connection())
    assert _place(room, ana, "p1", cell=2)["type"] == "ack"
    assert len(_prepared_on_this_connection()) == before
    assert _board(room, ana)[2] is not None


def _states_read(monkeypatch) -> list:
    """The room state column of every unlocked read (None: PostgreSQL did not send it)."""
    real, sent = moves.SeatCursor.one, []

    def one(self, sql, params):
        row = real(self, sql, params)
        if "room.xmin" in sql and row is not None:
            sent.append(row[1])
        return row

    monkeypatch.setattr(moves.SeatCursor, "one", one)
    return sent


def test_the_room_state_travels_once_per_row_version(group, monkeypatch):
    room, _host, (ana, bob, _cecilie) = group
    moves._ROOM_STATES.clear()
    sent = _states_read(monkeypatch)
    assert _place(room, ana, "a1", cell=1)["type"] == "ack"
    assert _place(room, bob, "b1", cell=2)["type"] == "ack"
    # The second placement of the same draw judged on the state this process has.
    assert sent[0] is not None and sent[1] is None
    assert _board(room, bob)[2] is not None


def test_a_room_row_written_elsewhere_is_read_again(group, monkeypatch):
    room, _host, (ana, *_rest) = group
    moves._ROOM_STATES.clear()
    sent = _states_read(monkeypatch)
    assert _place(room, ana, "a1", cell=1)["type"] == "ack"
    # Another process changes the room row without a step of this one (as the
    # erasure of a pupil does): the next read brings the new state.
    state = Room.objects.get(pk=room.pk).state
    state["sequence"].append(3)
    state["dealt_at"].append(state["dealt_at"][-1])
    Room.objects.filter(pk=room.pk).update(state=state)
    assert _place(room, ana, "a2", cell=2)["type"] == "ack"  # the new number is in hand
    assert sent[1] is not None
    assert _board(room, ana)[2] is not None
