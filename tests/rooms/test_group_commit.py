"""Group commit of per-seat moves (issue 41): the placements a process receives
within a few milliseconds are read in one statement and written in one, and
each sender gets exactly the answer it would have got alone."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from accounts import services as accounts_services
from games.rooms import groupcommit, moves, services
from games.rooms.errors import RoomError
from games.rooms.groupcommit import Move
from games.rooms.models import ProcessedMessage, RoomEvent, Seat
from tests.poker_room.live import rig_deck

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def in_this_thread(monkeypatch):
    """The batch's DB work on the test's own connection (no rooms DB thread keeping one)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    async def run_here(outbox, language, function, args, kwargs):
        return function(*args, **kwargs)

    monkeypatch.setattr(groupcommit, "in_db_thread", run_here)


@pytest.fixture
def room_of_four():
    def profile(nickname):
        return accounts_services.create_profile(browser_token=None, nickname=nickname)[0]

    host = profile("Učitelka")
    players = [profile(f"Hráč {n}") for n in range(1, 5)]
    room = services.create_room(game="poker", mode="group", host=host, settings={})
    for player in players:
        services.join_room(room=room, player=player)
    services.start_room(room=room, actor=host)
    rig_deck(room, [2, 3, 4, 5])
    services.submit(room_id=room.pk, player=host, client_id="draw-1", message={"type": "draw"})
    return room, host, players


def _move(room, player, client_id, cell, language="cs"):
    return Move(room.pk, player, client_id, {"type": "place", "cell": cell}, language)


def _run(coroutine):
    """``asyncio.run`` in a thread of its own, as uvicorn's loop runs: in a full run the
    session's Playwright keeps an event loop running in the test's thread, where
    ``asyncio.run`` refuses. The thread's database connection is closed at the end."""

    def in_thread():
        try:
            return asyncio.run(coroutine)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(in_thread).result()


def _together(batch):
    """Each move's answer (or the exception it raised), sent at once through the loop."""

    async def send():
        return await asyncio.gather(
            *(groupcommit.submit(move) for move in batch), return_exceptions=True
        )

    return [r if isinstance(r, BaseException) else r[0] for r in _run(send())]


def _cell(room, player, cell):
    return Seat.objects.get(room=room, player=player).state["cells"][cell]


def test_a_batch_of_placements_is_one_read_and_one_write(room_of_four):
    room, _host, players = room_of_four
    batch = [_move(room, p, f"m{n}", cell=n) for n, p in enumerate(players)]
    with CaptureQueriesContext(connection) as queries:
        groupcommit.apply_batch(batch)
    assert len(queries) == 2, [q["sql"][:60] for q in queries]
    assert not any(move.alone for move in batch)
    for n, (move, player) in enumerate(zip(batch, players, strict=True)):
        assert move.error is None
        assert move.answer == {"type": "ack", "id": f"m{n}", "seq": None}
        assert _cell(room, player, n) is not None
        stored = ProcessedMessage.objects.get(room=room, player=player, client_id=f"m{n}")
        assert stored.response == move.answer
        event = RoomEvent.objects.get(room=room, actor=player, kind="seat")
        assert event.seq is None and event.action == {"type": "place", "cell": n}


def test_each_sender_gets_its_own_answer_or_refusal(room_of_four, in_this_thread):
    room, host, (ana, bob, cyril, dana) = room_of_four
    earlier = services.submit(
        room_id=room.pk, player=ana, client_id="old", message={"type": "place", "cell": 0}
    )
    batch = [
        _move(room, ana, "old", cell=5),  # an id seen before: its stored answer
        _move(room, bob, "b1", cell=1),
        _move(room, bob, "b2", cell=2),  # the same seat again: judged after b1, alone
        _move(room, cyril, "c1", cell=99, language="en"),  # refused, in its own language
        _move(room, host, "h1", cell=1),  # the host deals, has no board
        _move(room, dana, "d1", cell=3),
    ]
    old, b1, b2, c1, h1, d1 = _together(batch)
    assert old == earlier and _cell(room, ana, 5) is None
    assert b1["type"] == "ack" and _cell(room, bob, 1) is not None
    assert isinstance(b2, RoomError) and b2.code == "no_card"  # judged after b1, alone
    assert _cell(room, bob, 2) is None
    assert isinstance(c1, RoomError) and c1.message.isascii()  # English, not the default Czech
    assert isinstance(h1, RoomError) and h1.code == "not_playing"
    assert d1["type"] == "ack" and _cell(room, dana, 3) is not None
    assert RoomEvent.objects.filter(room=room, kind="seat").count() == 3  # old, b1, d1


def test_a_seat_changed_between_read_and_write_is_judged_again_alone(
    room_of_four, in_this_thread, monkeypatch
):
    room, _host, (ana, bob, *_rest) = room_of_four
    real = groupcommit._read

    def read(cursor, ready, now):
        rows = real(cursor, ready, now)
        # Ana's other tab places the number between this batch's read and write.
        services.submit(
            room_id=room.pk, player=ana, client_id="tab", message={"type": "place", "cell": 7}
        )
        return rows

    monkeypatch.setattr(groupcommit, "_read", read)
    batch = [_move(room, ana, "a1", cell=4), _move(room, bob, "b1", cell=4)]
    a1, b1 = _together(batch)
    assert b1["type"] == "ack" and _cell(room, bob, 4) is not None
    # not overwritten: judged again from a fresh read, the number is no longer in hand
    assert isinstance(a1, RoomError) and a1.code == "no_card"
    assert _cell(room, ana, 7) is not None and _cell(room, ana, 4) is None
    assert RoomEvent.objects.filter(room=room, actor=ana, kind="seat").count() == 1


def test_moves_arriving_together_on_the_loop_go_in_one_batch(
    room_of_four, in_this_thread, monkeypatch
):
    room, _host, players = room_of_four
    sizes = []
    real = groupcommit.apply_batch

    def apply_batch(batch):
        sizes.append(len(batch))
        return real(batch)

    monkeypatch.setattr(groupcommit, "apply_batch", apply_batch)

    batch = [_move(room, p, f"m{n}", cell=n) for n, p in enumerate(players)]
    *answers, refused = _together([*batch, _move(room, players[0], "again", cell=99)])
    assert sizes == [len(players) + 1]
    assert answers == [{"type": "ack", "id": f"m{n}", "seq": None} for n in range(len(players))]
    assert isinstance(refused, RoomError)
    assert all(_cell(room, p, n) is not None for n, p in enumerate(players))


def test_a_room_locked_by_a_draw_leaves_its_moves_alone_without_waiting(room_of_four):
    # One room's draw (its row locked) must not hold up a batch of every room's moves.
    room, _host, (ana, *_rest) = room_of_four
    other = psycopg.connect(**connection.get_connection_params())
    try:
        other.execute("SELECT 1 FROM rooms_room WHERE id = %s FOR UPDATE", [room.pk])
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")  # waiting would fail, not hang
        batch = [_move(room, ana, "a1", cell=1)]
        groupcommit.apply_batch(batch)
        assert batch[0].alone and batch[0].answer is None and batch[0].error is None
    finally:
        other.close()
    assert _cell(room, ana, 1) is None
    assert not ProcessedMessage.objects.filter(client_id="a1").exists()


def test_a_lost_database_fails_the_batch_as_unavailable(room_of_four, in_this_thread, monkeypatch):
    from django.db import OperationalError

    from games.rooms.dbcalls import unavailable

    room, _host, (ana, *_rest) = room_of_four

    def away(*args, **kwargs):
        raise OperationalError("server closed the connection")

    monkeypatch.setattr(moves, "_game_of", away)

    async def one():
        return await groupcommit.submit(_move(room, ana, "a1", cell=1))

    with pytest.raises(OperationalError) as failed:
        _run(one())
    assert unavailable(failed.value)
    assert not ProcessedMessage.objects.filter(client_id="a1").exists()
