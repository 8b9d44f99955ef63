"""Players' messages: ``submit`` applies each exactly once (idempotency by message id).

Locking: a room-wide intent locks the room row with ``SELECT ... FOR UPDATE``;
a per-seat move (``RoomGame.seat_message_types``) locks only its seat row and
holds ``FOR KEY SHARE`` on the room, so fifty players can act at once while
room-wide changes still exclude them (docs/protocol.md).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db import IntegrityError, connection, models, transaction
from django.db.backends.utils import CursorWrapper
from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg.types.json import Jsonb

from accounts.models import PlayerProfile
from games.rooms import protocol, registry
from games.rooms.delivery import announce_later
from games.rooms.errors import RoomError
from games.rooms.lifecycle import end_room, kick, leave_room, set_locked, start_room
from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat
from games.rooms.prepared import SeatCursor
from games.rooms.registry import RoomGame, SeatOutcome
from games.rooms.steps import (
    FINISH_FIELDS,
    MOVE_FIELDS,
    apply_outcome,
    refuse,
    require_live,
    require_live_status,
    rng,
    tick_if_due,
)


def _remember(
    room_id: int, player: PlayerProfile, client_id: str, response: dict[str, Any]
) -> None:
    ProcessedMessage.objects.create(
        room_id=room_id, player=player, client_id=client_id, response=response
    )


def _seat_checked(room: Room, player: PlayerProfile) -> str:
    """The mover's role, from the annotations of ``_lock_for_intent`` (one query)."""
    status = getattr(room, "seat_status", None)
    if status is None or status == Seat.Status.LEFT:
        raise RoomError("not_in_room", _("You are not in this room."))
    if status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    role: str = room.seat_role  # type: ignore[attr-defined]  # the lock query's column
    return role


class _RefusedAfterTick(Exception):
    """A move refused after a due tick changed the room: the tick must still commit."""

    def __init__(self, error: RoomError) -> None:
        super().__init__(error.message)
        self.error = error


def _apply_move(room: Room, player: PlayerProfile, message: dict[str, Any], now: datetime) -> int:
    if room.status == Room.Status.LOBBY:
        raise RoomError("not_started", _("The game has not started yet."))
    require_live(room, now)
    role = _seat_checked(room, player)
    if role == Seat.Role.SPECTATOR:
        raise RoomError("spectator", _("Spectators cannot play."))
    adapter = registry.get(room.game, room.mode)
    if tick_if_due(room, adapter, now) and room.status != Room.Status.RUNNING:
        # The deadline ended the game: keep that step, refuse the move.
        room.save(update_fields=MOVE_FIELDS + FINISH_FIELDS)
        raise _RefusedAfterTick(RoomError("room_finished", _("This game is over.")))
    try:
        outcome = adapter.apply(
            room.state,
            player_id=player.pk,
            role=role,
            message=message,
            now=now,
            rng=rng(room, f"move{room.seq + 1}"),
        )
    except RoomError:
        raise
    except Exception as exc:
        raise refuse(exc) from exc
    seq = apply_outcome(
        room, adapter, outcome, kind="move", actor_id=player.pk, action=message, now=now
    )
    room.save(update_fields=MOVE_FIELDS + (FINISH_FIELDS if outcome.finished else []))
    return seq


def _room_intent(
    room: Room, player: PlayerProfile, message: dict[str, Any], now: datetime
) -> int | None:
    kind = message["type"]
    seq: int | None  # the lifecycle's services lose their types to @transaction.atomic
    if kind == "start":
        seq = start_room(room=room, actor=player)
        return seq
    if kind in ("lock", "unlock"):
        seq = set_locked(room=room, actor=player, locked=kind == "lock")
        return seq
    if kind == "end":
        seq = end_room(room=room, actor=player)
        return seq
    if kind == "leave":
        seq = leave_room(room=room, player=player)
        return seq
    if kind == "kick":
        target = message.get("player_id")
        if not isinstance(target, int) or isinstance(target, bool):
            raise RoomError("bad_message", _("Say which player to remove."))
        seq = kick(room=room, actor=player, player_id=target)
        return seq
    if kind == "tick":
        return tick_if_due(room, registry.get(room.game, room.mode), now) if room.is_live else None
    return _apply_move(room, player, message, now)


# A room's game and mode never change: remembering them saves a query per message.
_GAME_OF: dict[int, tuple[str, str]] = {}


def _game_of(room_id: int) -> tuple[str, str]:
    if room_id not in _GAME_OF:
        row = Room.objects.filter(pk=room_id).values_list("game", "mode").first()
        if row is None:
            raise RoomError("unknown_room", _("There is no room with this code."))
        if len(_GAME_OF) > 10_000:
            _GAME_OF.clear()
        _GAME_OF[room_id] = row
    return _GAME_OF[room_id]


# The room, locked, with the sender's seat and earlier answer: one round trip, the
# SQL written out (building the same query with the ORM cost more CPU than the
# rest of a room-wide intent, the group-game benchmark in bench/).
_LOCK_FOR_INTENT_SQL = """
SELECT room.*,
    (SELECT seat.role FROM {seat} seat
     WHERE seat.room_id = room.id AND seat.player_id = %(player)s LIMIT 1) AS seat_role,
    (SELECT seat.status FROM {seat} seat
     WHERE seat.room_id = room.id AND seat.player_id = %(player)s LIMIT 1) AS seat_status,
    (SELECT answer.response FROM {processed} answer
     WHERE answer.room_id = room.id AND answer.player_id = %(player)s
       AND answer.client_id = %(client_id)s LIMIT 1) AS previous_answer
FROM {room} room WHERE room.id = %(room)s FOR UPDATE OF room
"""


def _lock_for_intent(room_id: int, player: PlayerProfile, client_id: str) -> Room:
    """Lock the room and read the sender's seat and earlier answer in one round trip."""
    rows = list(
        Room.objects.raw(
            _sql("lock_for_intent", _LOCK_FOR_INTENT_SQL),
            {"room": room_id, "player": player.pk, "client_id": client_id},
        )
    )
    if not rows:
        raise RoomError("unknown_room", _("There is no room with this code."))
    room: Room = rows[0]
    # previous_answer: a column of the raw query, not a field
    room.previous_answer = _json(room.previous_answer)  # type: ignore[attr-defined]
    return room


def submit(
    *,
    room_id: int,
    player: PlayerProfile,
    client_id: str,
    message: dict[str, Any],
    now: datetime | None = None,
) -> dict[str, Any]:
    """Apply one client message exactly once and return the answer for its sender.

    A message id seen before is answered with the stored answer and nothing is
    applied again. Refused messages raise RoomError and store nothing (a retry
    of a refused message is judged afresh). A ``tick`` that finds nothing due
    writes nothing either (see ``_idle_tick``).
    """
    now = now or timezone.now()
    adapter = registry.get(*_game_of(room_id))
    # Only the fields the protocol defines go on to the game and into the log.
    message = protocol.parse_message(adapter, message)
    if message["type"] == "tick":
        idle = _idle_tick(room_id, player, client_id, now)
        if idle is not None:
            return idle
    if message["type"] in adapter.seat_message_types:
        return _submit_seat_move(room_id, adapter, player, client_id, message, now)
    with transaction.atomic():
        return _submit_room_intent(room_id, player, client_id, message, now)


def _submit_room_intent(
    room_id: int, player: PlayerProfile, client_id: str, message: dict[str, Any], now: datetime
) -> dict[str, Any]:
    # The row lock also serialises the same id sent twice at the same moment.
    room = _lock_for_intent(room_id, player, client_id)
    previous: dict[str, Any] | None = room.previous_answer  # type: ignore[attr-defined]
    if previous is not None:
        return previous
    deadline_before = room.next_tick_at
    try:
        seq = _room_intent(room, player, message, now)
    except _RefusedAfterTick as refused:
        return {"type": "error", "id": client_id, **refused.error.as_dict()}
    if message["type"] == "tick":
        if seq is None:  # the game had nothing to do after all: at most a new deadline
            if room.next_tick_at != deadline_before:
                room.save(update_fields=["next_tick_at"])
            return {"type": "ack", "id": client_id, "seq": None}
        room.save(update_fields=MOVE_FIELDS + FINISH_FIELDS)
    response = {"type": "ack", "id": client_id, "seq": seq}
    _remember(room_id, player, client_id, response)
    return response


def _idle_tick(
    room_id: int, player: PlayerProfile, client_id: str, now: datetime
) -> dict[str, Any] | None:
    """The answer to a tick when nothing is due, from one plain read; None when due.

    Open tables ask every few hundred milliseconds, so an idle tick takes no
    lock, opens no transaction and stores nothing: not the room row, not its
    answer. Not remembering it is safe: a tick only evaluates time, so the
    same id judged again later at worst finds a deadline passed by then and
    applies it -- which is what a tick is for. A repeated id that did apply a
    step still gets that stored answer.
    """
    answered = ProcessedMessage.objects.filter(room_id=room_id, player=player, client_id=client_id)
    row = (
        Room.objects.filter(pk=room_id)
        .annotate(previous_answer=Subquery(answered.values("response")[:1]))
        .values_list("status", "next_tick_at", "previous_answer")
        .first()
    )
    if row is None:
        raise RoomError("unknown_room", _("There is no room with this code."))
    previous_answer: dict[str, Any] | None
    status, deadline, previous_answer = row
    if previous_answer is not None:
        return previous_answer
    if status == Room.Status.RUNNING and deadline is not None and deadline <= now:
        return None  # due: judged under the room's lock
    return {"type": "ack", "id": client_id, "seq": None}


# --- per-seat moves ------------------------------------------------------------------
#
# A per-seat move is applied optimistically, in two round trips and no explicit
# transaction: one query reads the room and the sender's seat without locks,
# the game computes the new seat state, and one statement writes the step only
# if neither changed in between (the room's ``seq`` and status, the seat row's
# version ``xmin``). A room-wide change always advances ``seq``, and any write
# to the seat row gives it a new ``xmin``, so a step written is exactly the step
# the locked way would have written: the statement takes the same locks (room
# ``FOR KEY SHARE``, then the seat row) and PostgreSQL re-checks those
# conditions on the newest row versions after waiting for a lock. When
# something did change, the move is judged again from a fresh read. The locked
# way (``BEGIN``, lock room and seat, write, ``COMMIT``: four round trips) stays
# for steps with public events (they number the step on the room row, which
# concurrent moves of a room would keep changing) and after repeated conflicts.
# The group-game benchmark in bench/ measures the difference.

OPTIMISTIC_ATTEMPTS = 3

# (status, state, expired, seq) of the room; (id, status, role, state, earlier answer
# to this id, row version) of the seat: what the per-seat SQL reads, JSON decoded.
RoomRow = tuple[str, Any, bool, int]
SeatRow = tuple[int, str, str, Any, dict[str, Any] | None, str]


def _table(model: type[models.Model]) -> str:
    name: str = connection.ops.quote_name(model._meta.db_table)
    return name


_ANSWER_SQL = """(
    SELECT answer.response FROM {processed} answer
    WHERE answer.room_id = seat.room_id AND answer.player_id = seat.player_id
      AND answer.client_id = %(client_id)s
    LIMIT 1
)"""

# The locked way reads what it needs and takes its locks in one round trip: two
# statements in one query (client-side binding allows it), run in this order so
# the room is always locked before the seat, as every room-wide intent does
# (FOR KEY SHARE: many per-seat moves at once, none during a room-wide change).
_SEAT_LOCKS_SQL = (
    """
SELECT status, state, expires_at <= %(now)s, seq FROM {room} WHERE id = %(room)s FOR KEY SHARE;
SELECT seat.id, seat.status, seat.role, seat.state, """
    + _ANSWER_SQL
    + """, seat.xmin::text
FROM {seat} seat WHERE seat.room_id = %(room)s AND seat.player_id = %(player)s FOR UPDATE
"""
)
# The optimistic way reads the same without locks, with the seat row's version,
# in one statement (bound on the server and prepared: ``prepared.SeatCursor``).
# The room's state (2-3 KB of JSON) comes only when this process has not got it
# already: ``_ROOM_STATES`` keeps the last state read per room under the room
# row's version (``xmin``: any write to the row -- a draw, a kick, an erasure --
# makes a new one), and PostgreSQL sends NULL while the row is still that version.
_SEAT_READ_SQL = (
    """
SELECT room.status,
       CASE WHEN room.xmin = %(room_version)s::xid THEN NULL ELSE room.state END,
       room.expires_at <= %(now)s, room.seq, room.xmin::text,
       seat.id, seat.status, seat.role, seat.state, """
    + _ANSWER_SQL
    + """, seat.xmin::text
FROM {room} room
LEFT JOIN {seat} seat ON seat.room_id = room.id AND seat.player_id = %(player)s
WHERE room.id = %(room)s
"""
)


# room id -> (row version, decoded state) of the last unlocked read in this process.
# Shared by the threads and the moves of a room: a game's ``apply_seat`` only reads
# the room's state (it returns the seat's new state; a room-wide change is a step
# under the room's lock, which writes a new row version).
_ROOM_STATES: dict[int, tuple[str, Any]] = {}


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _read_room_and_seat(
    cursor: CursorWrapper | SeatCursor,
    room_id: int,
    player: PlayerProfile,
    client_id: str,
    now: datetime,
    *,
    lock: bool,
) -> tuple[RoomRow, SeatRow | None]:
    """((room status, state, expired at ``now``, seq), seat row or None): the seat
    row is (id, status, role, state, earlier answer to this id, row version), JSON
    decoded. (Expiry is compared in SQL: loading the timestamp costs more.)
    Locked: two statements through Django's cursor; unlocked: one prepared
    statement through ``prepared.SeatCursor``."""
    params: dict[str, Any] = {
        "room": room_id,
        "player": player.pk,
        "client_id": client_id,
        "now": now,
    }
    if isinstance(cursor, SeatCursor):
        assert not lock
        cached = _ROOM_STATES.get(room_id)
        params["room_version"] = None if cached is None else cached[0]
        row = cursor.one(_sql("seat_read", _SEAT_READ_SQL), params)
        if row is None:
            raise RoomError("unknown_room", _("There is no room with this code."))
        if row[1] is None and cached is not None:  # still the version this process has
            state = cached[1]
        else:
            state = _json(row[1])
            if len(_ROOM_STATES) > 10_000:
                _ROOM_STATES.clear()
            _ROOM_STATES[room_id] = (row[4], state)
        return (row[0], state, bool(row[2]), row[3]), _seat(None if row[5] is None else row[5:])
    assert lock
    cursor.execute(_sql("seat_locks", _SEAT_LOCKS_SQL), params)
    room = cursor.fetchone()
    cursor.nextset()
    seat_row = cursor.fetchone()
    if room is None:
        raise RoomError("unknown_room", _("There is no room with this code."))
    return (room[0], _json(room[1]), bool(room[2]), room[3]), _seat(seat_row)


def _seat(row: tuple[Any, ...] | None) -> SeatRow | None:
    """The seat columns of a read, JSON decoded (None: no seat)."""
    if row is None:
        return None
    return (row[0], row[1], row[2], _json(row[3]), _json(row[4]), row[5])


# A per-seat step writes the seat's new state, the log entry and the remembered
# answer in one statement (one round trip; PostgreSQL runs every data-modifying
# WITH part exactly once). Numbering it (when it has public events) holds the
# room row from the UPDATE until COMMIT. Table names come from the models.
_NUMBERED_SEAT_STEP_SQL = """
WITH seat AS (
    UPDATE {seat} SET state = %(state)s WHERE id = %(seat)s
), numbered AS (
    UPDATE {room} SET seq = seq + 1 WHERE id = %(room)s RETURNING seq
), logged AS (
    INSERT INTO {event} (room_id, seq, kind, actor_id, action, public, private, created_at)
    SELECT %(room)s, numbered.seq, 'seat', %(player)s, %(action)s, %(public)s, %(private)s, %(now)s
    FROM numbered RETURNING seq
)
INSERT INTO {processed} (room_id, player_id, client_id, response, created_at)
SELECT %(room)s, %(player)s, %(client_id)s,
       jsonb_build_object('type', 'ack', 'id', %(client_id)s::text, 'seq', logged.seq), %(now)s
FROM logged RETURNING response
"""
_UNNUMBERED_SEAT_STEP_SQL = """
WITH seat AS (
    UPDATE {seat} SET state = %(state)s WHERE id = %(seat)s
), logged AS (
    INSERT INTO {event} (room_id, seq, kind, actor_id, action, public, private, created_at)
    VALUES (%(room)s, NULL, 'seat', %(player)s, %(action)s, '[]'::jsonb, %(private)s, %(now)s)
)
INSERT INTO {processed} (room_id, player_id, client_id, response, created_at)
VALUES (%(room)s, %(player)s, %(client_id)s,
        jsonb_build_object('type', 'ack', 'id', %(client_id)s::text, 'seq', NULL), %(now)s)
RETURNING response
"""
# The optimistic step: written only if the room and the seat are as read. No
# row comes back when either changed (the caller judges the move again).
_CHECKED_SEAT_STEP_SQL = """
WITH unchanged AS (
    SELECT id FROM {room}
    WHERE id = %(room)s AND seq = %(room_seq)s AND status = %(room_status)s
    FOR KEY SHARE
), seat AS (
    UPDATE {seat} SET state = %(state)s
    WHERE id = %(seat)s AND xmin = %(seat_version)s::xid AND status = %(joined)s
      AND EXISTS (SELECT 1 FROM unchanged)
    RETURNING id
), logged AS (
    INSERT INTO {event} (room_id, seq, kind, actor_id, action, public, private, created_at)
    SELECT %(room)s, NULL, 'seat', %(player)s, %(action)s, '[]'::jsonb, %(private)s, %(now)s
    FROM seat
)
INSERT INTO {processed} (room_id, player_id, client_id, response, created_at)
SELECT %(room)s, %(player)s, %(client_id)s::text,
       jsonb_build_object('type', 'ack', 'id', %(client_id)s::text, 'seq', NULL), %(now)s
FROM seat RETURNING response
"""
_SQL: dict[str, str] = {}


def _sql(name: str, template: str) -> str:
    """A statement with the models' table names filled in (once per process)."""
    if name not in _SQL:
        _SQL[name] = template.format(
            seat=_table(Seat),
            room=_table(Room),
            event=_table(RoomEvent),
            processed=_table(ProcessedMessage),
        )
    return _SQL[name]


def _judge_seat_move(
    adapter: RoomGame,
    player: PlayerProfile,
    message: dict[str, Any],
    now: datetime,
    room: RoomRow,
    seat: SeatRow | None,
) -> SeatOutcome | dict[str, Any]:
    """The game's outcome of a per-seat move, or RoomError; or the stored answer
    (a dict) when this message id was applied before."""
    status, state, expired, _seq = room
    if seat is None or seat[1] != Seat.Status.JOINED:
        raise RoomError("not_in_room", _("You are not in this room."))
    role, seat_state, previous_answer = seat[2], seat[3], seat[4]
    if previous_answer is not None:
        return previous_answer
    if status == Room.Status.LOBBY:
        raise RoomError("not_started", _("The game has not started yet."))
    require_live_status(status, now if expired else None, now)
    if role == Seat.Role.SPECTATOR:
        raise RoomError("spectator", _("Spectators cannot play."))
    try:
        return adapter.apply_seat(state, seat_state, player_id=player.pk, message=message, now=now)
    except RoomError:
        raise
    except Exception as exc:
        raise refuse(exc) from exc


def _step_params(
    room_id: int,
    player: PlayerProfile,
    client_id: str,
    message: dict[str, Any],
    now: datetime,
    seat: SeatRow,
    outcome: SeatOutcome,
    private: dict[int, Any],
) -> dict[str, Any]:
    return {
        "seat": seat[0],
        "state": Jsonb(outcome.seat_state),
        "room": room_id,
        "player": player.pk,
        "client_id": client_id,
        "action": Jsonb(message),
        "public": Jsonb(outcome.public),
        "private": Jsonb({str(k): v for k, v in private.items()}),
        "now": now,
    }


def _submit_seat_move(
    room_id: int,
    adapter: RoomGame,
    player: PlayerProfile,
    client_id: str,
    message: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    cursor = SeatCursor(connection)  # one cursor for the reads and the write
    try:
        for _attempt in range(OPTIMISTIC_ATTEMPTS):
            room, seat = _read_room_and_seat(cursor, room_id, player, client_id, now, lock=False)
            outcome = _judge_seat_move(adapter, player, message, now, room, seat)
            if isinstance(outcome, dict):
                return outcome  # answered before
            assert seat is not None  # _judge_seat_move refused a move without a seat
            if outcome.public:
                break  # a numbered step: the locked way
            private = {player.pk: outcome.private} if outcome.private else {}
            params = _step_params(room_id, player, client_id, message, now, seat, outcome, private)
            params.update(
                room_seq=room[3],
                room_status=room[0],
                seat_version=seat[5],
                joined=Seat.Status.JOINED,
            )
            try:
                row = cursor.one(_sql("checked_step", _CHECKED_SEAT_STEP_SQL), params)
            except IntegrityError:
                # The same id stored by a twin sent at the same moment: read its answer.
                if connection.in_atomic_block:
                    raise
                continue
            if row is None:
                continue  # the room or the seat changed since the read: judge again
            response: dict[str, Any] = _json(row[0])
            if private:  # committed (autocommit): announced now; mostly there is nothing
                announce_later(room_id, None, None, private)
            return response
    finally:
        cursor.close()
    with transaction.atomic():
        return _submit_seat_move_locked(room_id, adapter, player, client_id, message, now)


def _submit_seat_move_locked(
    room_id: int,
    adapter: RoomGame,
    player: PlayerProfile,
    client_id: str,
    message: dict[str, Any],
    now: datetime,
) -> dict[str, Any]:
    with connection.cursor() as cursor:
        room, seat = _read_room_and_seat(cursor, room_id, player, client_id, now, lock=True)
        outcome = _judge_seat_move(adapter, player, message, now, room, seat)
        if isinstance(outcome, dict):
            return outcome
        assert seat is not None  # _judge_seat_move refused a move without a seat
        private = {player.pk: outcome.private} if outcome.private else {}
        cursor.execute(
            _sql("numbered_step", _NUMBERED_SEAT_STEP_SQL)
            if outcome.public
            else _sql("unnumbered_step", _UNNUMBERED_SEAT_STEP_SQL),
            _step_params(room_id, player, client_id, message, now, seat, outcome, private),
        )
        answer: dict[str, Any] = _json(cursor.fetchone()[0])
    announce_later(room_id, answer["seq"], outcome.public or None, private)
    return answer
