"""Group commit of per-seat moves: the placements a process receives within a
few milliseconds are read in one statement and written in one statement (one
transaction), then each sender gets its answer.

Why: a group game's placements arrive in bursts (fifty players answer each
draw), and each one alone cost two round trips, two executions of the prepared
statements and a hop to a DB thread (bench/RESULTS-placement-cpu.md). Here the
event loop collects them (``SeatBatcher``): the first placement of a batch
waits ``ROOMS_GROUP_COMMIT_MS`` (or until the batch in flight is back), then
the whole batch goes to one DB thread (``apply_batch``):

1. one unlocked read of every sender's room and seat (the unlocked read of
   ``moves``, over arrays of rooms, players and message ids);
2. each move judged by its game, as alone (``moves._judge_seat_move``), in
   the sender's language;
3. one checked write of every accepted move (autocommit: one transaction):
   the rooms are held ``FOR KEY SHARE`` and must still be at the ``seq`` and
   status read, the seats are locked in id order and must still be the
   version read; the seat's state, the log row and the remembered answer of
   exactly those moves are written.

Nothing is answered or announced before the write has committed. A move the
write left out (its room or seat changed in between), a second move of the
same seat in one batch, a move with public events (numbered on the room row),
a move whose room or seat another transaction holds locked (a draw, a kick:
``SKIP LOCKED``, so one room's draw never holds up the other rooms' moves) and
the whole write when a twin message id collided (``IntegrityError``: the
statement stored nothing) go the one-at-a-time way of ``moves.submit``, each in
a DB thread of its own after the batch's answers, judged again from a fresh read. A lost connection makes the whole batch
run again (``dbcalls``): what committed is then answered from its stored answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile
from games.rooms import delivery, moves, protocol, registry
from games.rooms.dbcalls import in_db_thread
from games.rooms.errors import RoomError
from games.rooms.models import Seat
from games.rooms.prepared import SeatCursor

#: The longest a batch waits for company, by default (``ROOMS_GROUP_COMMIT_MS``; 0: no batching).
WINDOW_MS = 2.0
#: Moves in one batch at most; batches in flight per process by default
#: (``ROOMS_GROUP_COMMIT_IN_FLIGHT``; the next one gathers meanwhile).
MAX_BATCH = 200
MAX_IN_FLIGHT = 2


def window_ms() -> float:
    return float(getattr(settings, "ROOMS_GROUP_COMMIT_MS", WINDOW_MS))


def max_in_flight() -> int:
    return int(getattr(settings, "ROOMS_GROUP_COMMIT_IN_FLIGHT", MAX_IN_FLIGHT))


@dataclass(eq=False)
class Move:
    """One sender's per-seat move in a batch, and what became of it."""

    room_id: int
    player: PlayerProfile
    client_id: str
    message: dict[str, Any]
    language: str
    outbox: list[Any] = field(default_factory=list)
    answer: dict[str, Any] | None = None
    error: BaseException | None = None
    parsed: dict[str, Any] | None = None
    adapter: registry.RoomGame | None = None
    alone: bool = False  # left for the one-at-a-time way (``moves.submit``)


# --- the SQL -----------------------------------------------------------------------

_BATCH_READ_SQL = """
SELECT i.ord, room.status,
       CASE WHEN NOT i.want_state OR room.xmin = i.room_version::xid THEN NULL
            ELSE room.state END,
       room.expires_at <= %(now)s, room.seq, room.xmin::text,
       seat.id, seat.status, seat.role, seat.state,
       (SELECT answer.response FROM {processed} answer
        WHERE answer.room_id = i.room_id AND answer.player_id = i.player_id
          AND answer.client_id = i.client_id LIMIT 1),
       seat.xmin::text
FROM unnest(%(rooms)s::bigint[], %(players)s::bigint[], %(clients)s::text[],
            %(versions)s::text[], %(want)s::boolean[])
     WITH ORDINALITY AS i(room_id, player_id, client_id, room_version, want_state, ord)
JOIN {room} room ON room.id = i.room_id
LEFT JOIN {seat} seat ON seat.room_id = i.room_id AND seat.player_id = i.player_id
ORDER BY i.ord
"""

_BATCH_WRITE_SQL = """
WITH i AS (
    SELECT * FROM unnest(
        %(ords)s::int[], %(rooms)s::bigint[], %(seqs)s::bigint[], %(statuses)s::text[],
        %(seats)s::bigint[], %(versions)s::text[], %(states)s::text[], %(players)s::bigint[],
        %(clients)s::text[], %(actions)s::text[], %(privates)s::text[]
    ) AS i(ord, room_id, room_seq, room_status, seat_id, seat_version, state, player_id,
           client_id, action, private)
), unchanged AS (
    SELECT room.id, room.seq, room.status FROM {room} room
    WHERE room.id = ANY(%(room_ids)s::bigint[]) ORDER BY room.id FOR KEY SHARE SKIP LOCKED
), locked AS (
    SELECT seat.id FROM {seat} seat
    JOIN i ON i.seat_id = seat.id
    JOIN unchanged ON unchanged.id = i.room_id AND unchanged.seq = i.room_seq
        AND unchanged.status = i.room_status
    WHERE seat.xmin = i.seat_version::xid AND seat.status = %(joined)s
    ORDER BY seat.id FOR UPDATE OF seat SKIP LOCKED
), written AS (
    UPDATE {seat} seat SET state = i.state::jsonb FROM i
    WHERE seat.id = i.seat_id AND seat.id IN (SELECT id FROM locked)
    RETURNING i.ord, i.room_id, i.player_id, i.client_id, i.action, i.private
), logged AS (
    INSERT INTO {event} (room_id, seq, kind, actor_id, action, public, private, created_at)
    SELECT room_id, NULL, 'seat', player_id, action::jsonb, '[]'::jsonb, private::jsonb, %(now)s
    FROM written
), answered AS (
    INSERT INTO {processed} (room_id, player_id, client_id, response, created_at)
    SELECT room_id, player_id, client_id,
           jsonb_build_object('type', 'ack', 'id', client_id, 'seq', NULL), %(now)s
    FROM written
)
SELECT ord FROM written
"""


# --- in the DB thread ----------------------------------------------------------------


@contextlib.contextmanager
def _language(language: str) -> Iterator[None]:
    if translation.get_language() == language:
        yield
        return
    with translation.override(language):
        yield


@contextlib.contextmanager
def _outbox(move: Move) -> Iterator[None]:
    token = delivery.OUTBOX.set(move.outbox)
    try:
        yield
    finally:
        delivery.OUTBOX.reset(token)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def apply_batch(batch: list[Move]) -> list[Move]:
    """Apply the moves of ``batch`` (see the module's text); each gets an answer or error.

    Errors of PostgreSQL itself (lost connection, unavailable) are raised for
    the whole batch, so that ``dbcalls`` may run it again on a fresh connection.
    """
    now = timezone.now()
    ready: list[Move] = []
    alone: list[Move] = []
    seats: set[tuple[int, int]] = set()
    for move in batch:
        move.alone = False
        if move.answer is not None or move.error is not None:
            continue  # settled by an earlier attempt of this batch
        try:
            with _language(move.language):
                move.adapter = registry.get(*moves._game_of(move.room_id))
                move.parsed = protocol.parse_message(move.adapter, move.message)
        except RoomError as error:
            move.error = error
            continue
        key = (move.room_id, move.player.pk)
        if move.parsed["type"] not in move.adapter.seat_message_types or key in seats:
            alone.append(move)
            continue
        seats.add(key)
        ready.append(move)
    if ready:
        alone += _read_judge_write(ready, now)
    for move in alone:
        move.alone = True
    return batch


def _read(cursor: SeatCursor, ready: list[Move], now: datetime) -> list[tuple[Any, ...]]:
    versions: list[str | None] = []
    want: list[bool] = []
    first: set[int] = set()
    for move in ready:
        cached = moves._ROOM_STATES.get(move.room_id)
        versions.append(None if cached is None else cached[0])
        want.append(move.room_id not in first)  # the state once per room and batch
        first.add(move.room_id)
    params = {
        "rooms": [m.room_id for m in ready],
        "players": [m.player.pk for m in ready],
        "clients": [m.client_id for m in ready],
        "versions": versions,
        "want": want,
        "now": now,
    }
    return cursor.all(moves._sql("batch_read", _BATCH_READ_SQL), params)


def _room_state(row: tuple[Any, ...], room_id: int, read: dict[int, tuple[str, Any]]) -> Any:
    """The room's decoded state for a read row (decoded once per room and version)."""
    version = row[5]
    if row[2] is not None:
        state = moves._json(row[2])
        read[room_id] = (version, state)
        if len(moves._ROOM_STATES) > 10_000:
            moves._ROOM_STATES.clear()
        moves._ROOM_STATES[room_id] = (version, state)
        return state
    for known in (read.get(room_id), moves._ROOM_STATES.get(room_id)):
        if known is not None and known[0] == version:
            return known[1]
    return None


def _read_judge_write(ready: list[Move], now: datetime) -> list[Move]:
    """Read, judge and write ``ready``; return the moves left for the one-at-a-time way."""
    alone: list[Move] = []
    accepted: list[tuple[Move, moves.SeatRow, moves.RoomRow, Any]] = []
    cursor = SeatCursor(connection)
    try:
        rows = {row[0]: row for row in _read(cursor, ready, now)}
        read: dict[int, tuple[str, Any]] = {}
        for ord_, move in enumerate(ready, start=1):
            row = rows.get(ord_)
            try:
                with _language(move.language):
                    if row is None:
                        raise RoomError("unknown_room", _("There is no room with this code."))
                    state = _room_state(row, move.room_id, read)
                    if state is None:  # not seen in this batch nor cached: read alone
                        alone.append(move)
                        continue
                    room: moves.RoomRow = (row[1], state, bool(row[3]), row[4])
                    seat = moves._seat(None if row[6] is None else row[6:])
                    assert move.adapter is not None and move.parsed is not None
                    outcome = moves._judge_seat_move(
                        move.adapter, move.player, move.parsed, now, room, seat
                    )
            except (OperationalError, InterfaceError):
                raise
            except Exception as exc:  # RoomError (or a bug in a game): this sender's
                move.error = exc
                continue
            if isinstance(outcome, dict):
                move.answer = outcome  # answered before
            elif outcome.public:
                alone.append(move)  # a numbered step: the locked way
            else:
                assert seat is not None  # refused above without a seat
                accepted.append((move, seat, room, outcome))
        if accepted:
            alone += _write(cursor, accepted, now)
    finally:
        cursor.close()
    return alone


def _write(
    cursor: SeatCursor,
    accepted: list[tuple[Move, moves.SeatRow, moves.RoomRow, Any]],
    now: datetime,
) -> list[Move]:
    params: dict[str, Any] = {
        "ords": list(range(len(accepted))),
        "rooms": [m.room_id for m, _s, _r, _o in accepted],
        "seqs": [r[3] for _m, _s, r, _o in accepted],
        "statuses": [r[0] for _m, _s, r, _o in accepted],
        "seats": [s[0] for _m, s, _r, _o in accepted],
        "versions": [s[5] for _m, s, _r, _o in accepted],
        "states": [_dumps(o.seat_state) for _m, _s, _r, o in accepted],
        "players": [m.player.pk for m, _s, _r, _o in accepted],
        "clients": [m.client_id for m, _s, _r, _o in accepted],
        "actions": [_dumps(m.parsed) for m, _s, _r, _o in accepted],
        "privates": [
            _dumps({str(m.player.pk): o.private} if o.private else {}) for m, _s, _r, o in accepted
        ],
        "room_ids": sorted({m.room_id for m, _s, _r, _o in accepted}),
        "joined": Seat.Status.JOINED,
        "now": now,
    }
    try:
        written = {
            row[0] for row in cursor.all(moves._sql("batch_write", _BATCH_WRITE_SQL), params)
        }
    except IntegrityError:
        # A twin of one of these ids was stored meanwhile: the statement stored
        # nothing; each is judged again alone (the twin gets its stored answer).
        return [m for m, _s, _r, _o in accepted]
    left: list[Move] = []
    for index, (move, _seat, _room, outcome) in enumerate(accepted):
        if index not in written:
            left.append(move)  # the room or the seat changed since the read
            continue
        move.answer = {"type": "ack", "id": move.client_id, "seq": None}
        if outcome.private:  # committed (autocommit): announced now
            with _outbox(move):
                delivery.announce_later(move.room_id, None, None, {move.player.pk: outcome.private})
    return left


# --- on the event loop -------------------------------------------------------------------


class SeatBatcher:
    """Collects a process's per-seat moves on its event loop and sends them in batches."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: list[tuple[Move, asyncio.Future[Move]]] = []
        self.in_flight = 0
        self.timer: asyncio.TimerHandle | asyncio.Handle | None = None

    async def submit(self, move: Move) -> Move:
        future: asyncio.Future[Move] = self.loop.create_future()
        self.pending.append((move, future))
        if self.timer is None and self.in_flight < max_in_flight():
            # a fresh context: the batch is nobody's (not the first sender's language)
            self.timer = self.loop.call_later(
                window_ms() / 1000, self._flush, context=contextvars.Context()
            )
        return await future

    def _flush(self) -> None:
        self.timer = None
        if not self.pending or self.in_flight >= max_in_flight():
            return
        batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
        self.in_flight += 1
        task = self.loop.create_task(self._run(batch), context=contextvars.Context())
        _RUNNING.add(task)
        task.add_done_callback(_RUNNING.discard)

    async def _run(self, batch: list[tuple[Move, asyncio.Future[Move]]]) -> None:
        error: BaseException | None = None
        try:
            await in_db_thread(
                [], settings.LANGUAGE_CODE, apply_batch, ([m for m, _f in batch],), {}
            )
        except BaseException as exc:  # the whole batch: PostgreSQL away, or cancelled
            error = exc
        finally:
            self.in_flight -= 1
            if self.pending and self.timer is None:
                # they waited for this batch already: no further window
                self.timer = self.loop.call_soon(self._flush, context=contextvars.Context())
        for move, future in batch:
            if future.done():  # the sender's socket went away meanwhile
                continue
            if move.answer is not None:  # committed, whatever happened after it
                future.set_result(move)
            elif move.error is not None or error is not None:
                future.set_exception(move.error or error or RuntimeError())
            elif move.alone:  # in another DB thread, not holding up this batch's answers
                task = self.loop.create_task(_alone(move, future), context=contextvars.Context())
                _RUNNING.add(task)
                task.add_done_callback(_RUNNING.discard)
            else:
                future.set_exception(RuntimeError("move not settled"))


async def _alone(move: Move, future: asyncio.Future[Move]) -> None:
    """``moves.submit`` for one move the batch left out: a fresh read, judged again."""
    kwargs = {"room_id": move.room_id, "player": move.player, "client_id": move.client_id}
    try:
        move.answer = await in_db_thread(
            move.outbox, move.language, moves.submit, (), {**kwargs, "message": move.message}
        )
    except BaseException as exc:
        if not future.done():
            future.set_exception(exc)
        if not isinstance(exc, Exception):
            raise
        return
    if not future.done():
        future.set_result(move)


_RUNNING: set[asyncio.Task[None]] = set()
_BATCHERS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SeatBatcher] = (
    weakref.WeakKeyDictionary()
)


async def submit(move: Move) -> tuple[dict[str, Any], list[Any]]:
    """Apply ``move`` in this process's next batch: (its answer, the deliveries it
    committed). Raises what ``moves.submit``
    would raise for it (RoomError, PostgreSQL unavailable)."""
    loop = asyncio.get_running_loop()
    batcher = _BATCHERS.get(loop)
    if batcher is None:
        batcher = _BATCHERS[loop] = SeatBatcher(loop)
    await batcher.submit(move)
    assert move.answer is not None
    return move.answer, move.outbox
