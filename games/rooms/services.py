"""Write operations on rooms. Each user intent is one transaction.

Locking: an intent that changes the room (join, host controls, room-wide moves)
locks the room row with ``SELECT ... FOR UPDATE``; a per-seat move locks only
its seat row and holds ``FOR KEY SHARE`` on the room, so fifty players can act
at once while room-wide changes still exclude them (docs/protocol.md).

Delivery: every accepted step is appended to the event log with the room's
next ``seq`` and announced through the channel layer only after the
transaction commits (``transaction.on_commit``), so nobody ever hears of a
move that could still be rolled back.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import random
import secrets
import threading
from datetime import datetime, timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg.types.json import Jsonb

from accounts.models import PlayerProfile
from games.models import GameRecord, GameResult
from games.rooms import registry
from games.rooms.errors import RoomError
from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat
from games.rooms.registry import Outcome, RoomGame, SeatInfo

logger = logging.getLogger(__name__)

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 6
ROOM_LIFETIME = timedelta(hours=6)
EXPIRY_BATCH = 100
PROCESSED_IDS_KEPT = timedelta(days=1)


# --- groups and delivery -------------------------------------------------------


def room_group(room_id: int) -> str:
    return f"room.{room_id}"


def player_group(room_id: int, player_id: int) -> str:
    return f"room.{room_id}.p.{player_id}"


# Set by the WebSocket consumer around a service call: committed deliveries are
# collected here and sent from the event loop, so the database thread never
# waits on Redis. Anywhere else (Celery, views, shell) they are sent at once.
OUTBOX: contextvars.ContextVar[list | None] = contextvars.ContextVar("rooms_outbox", default=None)


def _send(group: str, message: dict) -> None:
    outbox = OUTBOX.get()
    if outbox is not None:
        outbox.append((group, message))
        return
    _send_now([(group, message)])


def _send_now(deliveries: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    if layer is None or not deliveries:
        return

    async def send_all() -> None:
        for group, message in deliveries:
            await layer.group_send(group, message)

    def send() -> None:
        try:
            async_to_sync(send_all)()
        except Exception:  # the step is stored; clients recover with sync
            logger.exception("room broadcast failed")

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        send()
        return
    # An event loop runs in this thread (e.g. a test driving a browser):
    # async_to_sync refuses to nest, so send from a short-lived helper thread.
    helper = threading.Thread(target=send)
    helper.start()
    helper.join()


def _encode(payload: dict) -> str:
    """Serialise once here, not once per receiving socket."""
    return json.dumps(payload, separators=(",", ":"))


def _announce_later(
    room: Room,
    seq: int | None,
    public: list[dict] | None,
    private: dict[int, list[dict]],
    *,
    close: str | None = None,
) -> None:
    """Send a committed step: public part to the room, private parts to their players."""
    room_id = room.pk

    def deliver() -> None:
        deliveries = []
        if public is not None:
            payload = {"type": "event", "seq": seq, "events": public}
            deliveries.append(
                (
                    room_group(room_id),
                    {"type": "room.event", "text": _encode(payload), "close": close},
                )
            )
        for player_id, events in private.items():
            if events:
                payload = {"type": "private", "seq": seq, "events": events}
                deliveries.append(
                    (
                        player_group(room_id, int(player_id)),
                        {"type": "room.event", "text": _encode(payload), "close": None},
                    )
                )
        outbox = OUTBOX.get()
        if outbox is not None:
            outbox.extend(deliveries)
        else:
            _send_now(deliveries)

    transaction.on_commit(deliver)


def _append(
    room: Room,
    *,
    kind: str,
    actor_id: int | None,
    public: list[dict],
    private: dict[int, list[dict]] | None = None,
    action: dict | None = None,
    now: datetime,
    close: str | None = None,
) -> int:
    """Give the (locked) room its next seq, log the step and announce it after commit."""
    private = {int(k): v for k, v in (private or {}).items() if v}
    room.seq += 1
    RoomEvent.objects.create(
        room=room,
        seq=room.seq,
        kind=kind,
        actor_id=actor_id,
        action=action or {},
        public=public,
        private={str(k): v for k, v in private.items()},
        created_at=now,
    )
    _announce_later(room, room.seq, public, private, close=close)
    return room.seq


# --- reading helpers used inside write transactions ---------------------------


def seat_public(seat: Seat) -> dict:
    return {
        "player_id": seat.player_id,
        "nickname": seat.player.display_name,
        "role": seat.role,
        "status": seat.status,
    }


def _locked_room(room_id: int) -> Room:
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise RoomError("unknown_room", _("There is no room with this code.")) from None


def _require_live(room: Room) -> None:
    if room.status == Room.Status.EXPIRED:
        raise RoomError("room_expired", _("This room has expired."))
    if room.status == Room.Status.FINISHED:
        raise RoomError("room_finished", _("This game is over."))


def _require_host(room: Room, player: PlayerProfile) -> None:
    if room.host_id != player.pk:
        raise RoomError("not_host", _("Only the host can do this."))


def _playing_count(room: Room, limits: registry.Limits) -> int:
    roles = [Seat.Role.PLAYER] + ([Seat.Role.HOST] if limits.host_plays else [])
    return room.seats.filter(status=Seat.Status.JOINED, role__in=roles).count()


# --- creating and joining --------------------------------------------------------


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: str) -> str:
    """Accept codes typed loosely: lower case, spaces and dashes."""
    return "".join(ch for ch in (raw or "").upper() if ch.isalnum())[: CODE_LENGTH * 2]


@transaction.atomic
def create_room(
    *, game: str, mode: str, host: PlayerProfile, settings: dict, classroom=None
) -> Room:
    """Open a lobby with a fresh join code; the creator takes the host seat."""
    adapter = registry.get(game, mode)
    cleaned = adapter.clean_settings(dict(settings or {}))
    now = timezone.now()
    for _attempt in range(20):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=_new_code(),
                    game=game,
                    mode=mode,
                    settings=cleaned,
                    host=host,
                    classroom=classroom,
                    rng_seed=secrets.randbits(62),
                    created_at=now,
                    expires_at=now + ROOM_LIFETIME,
                )
            break
        except IntegrityError:  # the code is taken by a live room: draw again
            continue
    else:  # pragma: no cover - 31**6 codes make this practically impossible
        raise RoomError("no_code", _("No free join code right now. Try again."))
    seat = Seat.objects.create(room=room, player=host, role=Seat.Role.HOST, joined_at=now)
    _append(
        room,
        kind="create",
        actor_id=host.pk,
        public=[{"type": "player_joined", "seat": seat_public(seat)}],
        now=now,
    )
    room.save(update_fields=["seq"])
    return room


@transaction.atomic
def join_room(*, room: Room, player: PlayerProfile, role: str = "player") -> Seat:
    """Take a seat, or come back to the one this player already has."""
    room = _locked_room(room.pk)
    _require_live(room)
    adapter = registry.get(room.game, room.mode)
    limits = adapter.limits
    if role not in (Seat.Role.PLAYER, Seat.Role.SPECTATOR):
        raise RoomError("bad_role", _("You can join as a player or as a spectator."))
    now = timezone.now()
    seat = Seat.objects.select_related("player").filter(room=room, player=player).first()
    if seat is not None and seat.status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    if seat is not None and seat.status == Seat.Status.JOINED:
        return seat  # reconnecting, a second tab, a repeated click: the same seat
    if role == Seat.Role.SPECTATOR and not limits.spectators:
        raise RoomError("no_spectators", _("This game cannot be watched."))
    if role == Seat.Role.PLAYER:
        if room.status != Room.Status.LOBBY:
            raise RoomError("already_started", _("The game has already started."))
        if room.locked:
            raise RoomError("room_locked", _("The host has locked this room."))
        if _playing_count(room, limits) >= limits.max_players:
            raise RoomError(
                "room_full",
                _("This room is full: at most %(count)d players can play.")
                % {"count": limits.max_players},
            )
    if seat is None:
        seat = Seat.objects.create(room=room, player=player, role=role, joined_at=now)
    else:  # somebody who left comes back (the host never leaves)
        seat.status, seat.role, seat.left_at = Seat.Status.JOINED, role, None
        seat.save(update_fields=["status", "role", "left_at"])
    seat.player = player
    _append(
        room,
        kind="join",
        actor_id=player.pk,
        public=[{"type": "player_joined", "seat": seat_public(seat)}],
        now=now,
    )
    room.save(update_fields=["seq"])
    return seat


def _seat_of(room: Room, player: PlayerProfile) -> Seat:
    seat = Seat.objects.select_related("player").filter(room=room, player=player).first()
    if seat is None or seat.status == Seat.Status.LEFT:
        raise RoomError("not_in_room", _("You are not in this room."))
    if seat.status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    return seat


@transaction.atomic
def leave_room(*, room: Room, player: PlayerProfile) -> int:
    room = _locked_room(room.pk)
    _require_live(room)
    seat = _seat_of(room, player)
    if seat.role == Seat.Role.HOST:
        raise RoomError("host_cannot_leave", _("The host ends the room instead of leaving it."))
    now = timezone.now()
    seat.status = Seat.Status.LEFT
    seat.left_at = now
    seat.save(update_fields=["status", "left_at"])
    return _seat_gone(
        room,
        kind="leave",
        actor_id=player.pk,
        player_id=player.pk,
        event={"type": "player_left", "player_id": player.pk},
        now=now,
    )


def _seat_gone(
    room: Room, *, kind: str, actor_id: int, player_id: int, event: dict, now: datetime
) -> int:
    """Log a seat that stopped being joined (leave or kick) and save the locked room.

    While the game runs, the game hears of it in the same step: the adapter's
    ``player_removed`` outcome (a turn handed on, or the game finished) is
    applied like a move's, after the runtime's own event and under the same
    ``seq``. The action names the player so that a replay asks the game again.
    """
    if room.status != Room.Status.RUNNING:
        seq = _append(room, kind=kind, actor_id=actor_id, public=[event], now=now)
        room.save(update_fields=["seq"])
        return seq
    adapter = registry.get(room.game, room.mode)
    outcome = adapter.player_removed(
        room.state, player_id=player_id, now=now, rng=_rng(room, f"{kind}{room.seq + 1}")
    )
    if outcome is None:
        outcome = Outcome(state=room.state)
    outcome.public.insert(0, event)
    seq = _apply_outcome(
        room,
        adapter,
        outcome,
        kind=kind,
        actor_id=actor_id,
        action={"player_id": player_id},
        now=now,
    )
    room.save(update_fields=MOVE_FIELDS + (FINISH_FIELDS if outcome.finished else []))
    return seq


# --- host controls ---------------------------------------------------------------


@transaction.atomic
def set_locked(*, room: Room, actor: PlayerProfile, locked: bool) -> int:
    room = _locked_room(room.pk)
    _require_host(room, actor)
    _require_live(room)
    if room.status != Room.Status.LOBBY:
        raise RoomError("already_started", _("The game has already started."))
    room.locked = locked
    seq = _append(
        room,
        kind="lock" if locked else "unlock",
        actor_id=actor.pk,
        public=[{"type": "locked" if locked else "unlocked"}],
        now=timezone.now(),
    )
    room.save(update_fields=["locked", "seq"])
    return seq


@transaction.atomic
def kick(*, room: Room, actor: PlayerProfile, player_id: int) -> int:
    room = _locked_room(room.pk)
    _require_host(room, actor)
    _require_live(room)
    seat = Seat.objects.select_for_update().filter(room=room, player_id=player_id).first()
    if seat is None or seat.status == Seat.Status.KICKED:
        raise RoomError("not_in_room", _("This player is not in the room."))
    if seat.role == Seat.Role.HOST:
        raise RoomError("cannot_kick_host", _("The host cannot be removed."))
    now = timezone.now()
    seat.status = Seat.Status.KICKED
    seat.left_at = now
    seat.save(update_fields=["status", "left_at"])
    seq = _seat_gone(
        room,
        kind="kick",
        actor_id=actor.pk,
        player_id=player_id,
        event={"type": "player_kicked", "player_id": player_id},
        now=now,
    )
    room_id = room.pk
    transaction.on_commit(lambda: _send(player_group(room_id, player_id), {"type": "room.kicked"}))
    return seq


def _seat_infos(room: Room) -> list[SeatInfo]:
    seats = room.seats.select_related("player").filter(status=Seat.Status.JOINED)
    return [SeatInfo(s.player_id, s.player.display_name, s.role) for s in seats]


def _rng(room: Room, label: str) -> random.Random:
    """Randomness derived from the room's seed and the step: replays reproduce it."""
    return random.Random(f"{room.rng_seed}:{label}")


def _apply_outcome(
    room: Room,
    adapter: RoomGame,
    outcome: Outcome,
    *,
    kind: str,
    actor_id: int | None,
    action: dict,
    now: datetime,
) -> int:
    room.state = outcome.state
    room.next_tick_at = adapter.next_deadline(outcome.state)
    public = list(outcome.public)
    if outcome.finished:
        public.append({"type": "finished", "results": _finish(room, adapter, now)})
    return _append(
        room,
        kind=kind,
        actor_id=actor_id,
        public=public,
        private=outcome.private,
        action=action,
        now=now,
    )


@transaction.atomic
def start_room(*, room: Room, actor: PlayerProfile) -> int:
    room = _locked_room(room.pk)
    _require_host(room, actor)
    _require_live(room)
    if room.status != Room.Status.LOBBY:
        raise RoomError("already_started", _("The game has already started."))
    adapter = registry.get(room.game, room.mode)
    if _playing_count(room, adapter.limits) < adapter.limits.min_players:
        raise RoomError(
            "not_enough_players",
            _("At least %(count)d players are needed to start.")
            % {"count": adapter.limits.min_players},
        )
    now = timezone.now()
    seats = _seat_infos(room)
    outcome = adapter.start(settings=room.settings, seats=seats, rng=_rng(room, "start"), now=now)
    room.status = Room.Status.RUNNING
    room.started_at = now
    if adapter.seat_message_types:
        for seat in room.seats.filter(status=Seat.Status.JOINED):
            seat.state = adapter.initial_seat_state(outcome.state, seat.player_id)
            seat.save(update_fields=["state"])
    outcome.public.insert(0, {"type": "started"})
    seq = _apply_outcome(
        room,
        adapter,
        outcome,
        kind="start",
        actor_id=actor.pk,
        action={"seats": [[s.player_id, s.nickname, s.role] for s in seats]},
        now=now,
    )
    room.save()
    return seq


def _finish(room: Room, adapter: RoomGame, now: datetime) -> list[dict]:
    """Close a running game and write what every game leaves behind."""
    room.status = Room.Status.FINISHED
    room.finished_at = now
    room.next_tick_at = None
    seat_states = {s.player_id: s.state for s in room.seats.all()}
    results = adapter.results(room.state, seat_states)
    record = GameRecord.objects.create(
        game=room.game,
        mode=room.mode,
        classroom=room.classroom,
        settings=room.settings,
        started_at=room.started_at or now,
        finished_at=now,
    )
    GameResult.objects.bulk_create(
        GameResult(
            record=record,
            player_id=r.player_id,
            score=r.score,
            rank=r.rank,
            completed=r.completed,
            details=r.details,
            finished_at=now,
        )
        for r in results
    )
    room.record = record
    return [
        {"player_id": r.player_id, "score": r.score, "rank": r.rank, "completed": r.completed}
        for r in results
    ]


@transaction.atomic
def end_room(*, room: Room, actor: PlayerProfile) -> int:
    """The host ends the room: a lobby just closes, a running game is scored."""
    room = _locked_room(room.pk)
    _require_host(room, actor)
    _require_live(room)
    now = timezone.now()
    if room.status == Room.Status.RUNNING:
        adapter = registry.get(room.game, room.mode)
        room.state = adapter.end(room.state, now=now)
        public = [{"type": "finished", "results": _finish(room, adapter, now)}]
    else:
        room.status = Room.Status.FINISHED
        room.finished_at = now
        public = [{"type": "finished", "results": []}]
    seq = _append(room, kind="end", actor_id=actor.pk, public=public, now=now)
    room.save()
    return seq


# --- moves -------------------------------------------------------------------------


def _tick_if_due(room: Room, adapter: RoomGame, now: datetime) -> int | None:
    if room.status != Room.Status.RUNNING or room.next_tick_at is None or now < room.next_tick_at:
        return None
    outcome = adapter.tick(room.state, now=now, rng=_rng(room, f"tick{room.seq + 1}"))
    if outcome is None:
        room.next_tick_at = adapter.next_deadline(room.state)
        return None
    return _apply_outcome(
        room, adapter, outcome, kind="tick", actor_id=None, action={"now": now.isoformat()}, now=now
    )


@transaction.atomic
def tick_room(*, room_id: int, now: datetime | None = None) -> int | None:
    """Evaluate time-based rules from stored timestamps; safe to call any time."""
    now = now or timezone.now()
    room = _locked_room(room_id)
    if room.status != Room.Status.RUNNING:
        return None
    seq = _tick_if_due(room, registry.get(room.game, room.mode), now)
    room.save()
    return seq


def _refuse(exc: Exception) -> RoomError:
    """Rules engines raise their own IllegalMove; keep its stable code and message."""
    code, message = getattr(exc, "code", None), getattr(exc, "message", None)
    if isinstance(code, str) and isinstance(message, str):
        return RoomError(code, message)
    raise exc


def _remember(room_id: int, player: PlayerProfile, client_id: str, response: dict) -> None:
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
    return room.seat_role


class _RefusedAfterTick(Exception):
    """A move refused after a due tick changed the room: the tick must still commit."""

    def __init__(self, error: RoomError) -> None:
        super().__init__(error.message)
        self.error = error


MOVE_FIELDS = ["state", "seq", "next_tick_at"]
FINISH_FIELDS = ["status", "finished_at", "record"]


def _apply_move(room: Room, player: PlayerProfile, message: dict, now: datetime) -> int:
    if room.status == Room.Status.LOBBY:
        raise RoomError("not_started", _("The game has not started yet."))
    _require_live(room)
    role = _seat_checked(room, player)
    if role == Seat.Role.SPECTATOR:
        raise RoomError("spectator", _("Spectators cannot play."))
    adapter = registry.get(room.game, room.mode)
    if _tick_if_due(room, adapter, now) and room.status != Room.Status.RUNNING:
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
            rng=_rng(room, f"move{room.seq + 1}"),
        )
    except RoomError:
        raise
    except Exception as exc:
        raise _refuse(exc) from exc
    seq = _apply_outcome(
        room, adapter, outcome, kind="move", actor_id=player.pk, action=message, now=now
    )
    room.save(update_fields=MOVE_FIELDS + (FINISH_FIELDS if outcome.finished else []))
    return seq


def _room_intent(room: Room, player: PlayerProfile, message: dict, now: datetime) -> int | None:
    kind = message["type"]
    if kind == "start":
        return start_room(room=room, actor=player)
    if kind in ("lock", "unlock"):
        return set_locked(room=room, actor=player, locked=kind == "lock")
    if kind == "end":
        return end_room(room=room, actor=player)
    if kind == "leave":
        return leave_room(room=room, player=player)
    if kind == "kick":
        target = message.get("player_id")
        if not isinstance(target, int) or isinstance(target, bool):
            raise RoomError("bad_message", _("Say which player to remove."))
        return kick(room=room, actor=player, player_id=target)
    if kind == "tick":
        return _tick_if_due(room, registry.get(room.game, room.mode), now) if room.is_live else None
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


def _lock_for_intent(room_id: int, player: PlayerProfile, client_id: str) -> Room:
    """Lock the room and read the sender's seat and earlier answer in one round trip."""
    seat = Seat.objects.filter(room=OuterRef("pk"), player=player)
    answered = ProcessedMessage.objects.filter(
        room=OuterRef("pk"), player=player, client_id=client_id
    )
    try:
        return (
            Room.objects.select_for_update(of=("self",))
            .annotate(
                seat_role=Subquery(seat.values("role")[:1]),
                seat_status=Subquery(seat.values("status")[:1]),
                previous_answer=Subquery(answered.values("response")[:1]),
            )
            .get(pk=room_id)
        )
    except Room.DoesNotExist:
        raise RoomError("unknown_room", _("There is no room with this code.")) from None


@transaction.atomic
def submit(*, room_id: int, player: PlayerProfile, client_id: str, message: dict, now=None) -> dict:
    """Apply one client message exactly once and return the answer for its sender.

    A message id seen before is answered with the stored answer and nothing is
    applied again. Refused messages raise RoomError and store nothing (a retry
    of a refused message is judged afresh).
    """
    now = now or timezone.now()
    adapter = registry.get(*_game_of(room_id))
    if message["type"] in adapter.seat_message_types:
        return _submit_seat_move(room_id, adapter, player, client_id, message, now)
    # The row lock also serialises the same id sent twice at the same moment.
    room = _lock_for_intent(room_id, player, client_id)
    if room.previous_answer is not None:
        return room.previous_answer
    try:
        seq = _room_intent(room, player, message, now)
    except _RefusedAfterTick as refused:
        return {"type": "error", "id": client_id, **refused.error.as_dict()}
    if message["type"] == "tick":
        room.save(update_fields=MOVE_FIELDS + FINISH_FIELDS)
    response = {"type": "ack", "id": client_id, "seq": seq}
    _remember(room_id, player, client_id, response)
    return response


def _lock_room_shared(room_id: int) -> Room:
    """FOR KEY SHARE: many per-seat moves at once, none during a room-wide change."""
    rooms = list(
        Room.objects.raw("SELECT * FROM rooms_room WHERE id = %s FOR KEY SHARE", [room_id])
    )
    if not rooms:
        raise RoomError("unknown_room", _("There is no room with this code."))
    return rooms[0]


def _lock_seat(room_id: int, player: PlayerProfile, client_id: str) -> Seat | None:
    """Lock the sender's seat and read an earlier answer to this id in one round trip."""
    answered = ProcessedMessage.objects.filter(room_id=room_id, player=player, client_id=client_id)
    return (
        Seat.objects.select_for_update(of=("self",))
        .annotate(previous_answer=Subquery(answered.values("response")[:1]))
        .filter(room_id=room_id, player=player)
        .first()
    )


# A per-seat step writes the seat's new state, the log entry and the remembered
# answer in one statement (one round trip; PostgreSQL runs every data-modifying
# WITH part exactly once). Numbering it (when it has public events) holds the
# room row from the UPDATE until COMMIT.
_NUMBERED_SEAT_STEP_SQL = """
WITH seat AS (
    UPDATE rooms_seat SET state = %(state)s WHERE id = %(seat)s
), numbered AS (
    UPDATE rooms_room SET seq = seq + 1 WHERE id = %(room)s RETURNING seq
), logged AS (
    INSERT INTO rooms_roomevent (room_id, seq, kind, actor_id, action, public, private, created_at)
    SELECT %(room)s, numbered.seq, 'seat', %(player)s, %(action)s, %(public)s, %(private)s, %(now)s
    FROM numbered RETURNING seq
)
INSERT INTO rooms_processedmessage (room_id, player_id, client_id, response, created_at)
SELECT %(room)s, %(player)s, %(client_id)s,
       jsonb_build_object('type', 'ack', 'id', %(client_id)s::text, 'seq', logged.seq), %(now)s
FROM logged RETURNING response
"""
_UNNUMBERED_SEAT_STEP_SQL = """
WITH seat AS (
    UPDATE rooms_seat SET state = %(state)s WHERE id = %(seat)s
), logged AS (
    INSERT INTO rooms_roomevent (room_id, seq, kind, actor_id, action, public, private, created_at)
    VALUES (%(room)s, NULL, 'seat', %(player)s, %(action)s, '[]'::jsonb, %(private)s, %(now)s)
)
INSERT INTO rooms_processedmessage (room_id, player_id, client_id, response, created_at)
VALUES (%(room)s, %(player)s, %(client_id)s,
        jsonb_build_object('type', 'ack', 'id', %(client_id)s::text, 'seq', NULL), %(now)s)
RETURNING response
"""


def _submit_seat_move(
    room_id: int,
    adapter: RoomGame,
    player: PlayerProfile,
    client_id: str,
    message: dict,
    now: datetime,
) -> dict:
    room = _lock_room_shared(room_id)
    seat = _lock_seat(room_id, player, client_id)
    if seat is None or seat.status != Seat.Status.JOINED:
        raise RoomError("not_in_room", _("You are not in this room."))
    if seat.previous_answer is not None:
        return seat.previous_answer
    if room.status == Room.Status.LOBBY:
        raise RoomError("not_started", _("The game has not started yet."))
    _require_live(room)
    if seat.role == Seat.Role.SPECTATOR:
        raise RoomError("spectator", _("Spectators cannot play."))
    try:
        outcome = adapter.apply_seat(
            room.state, seat.state, player_id=player.pk, message=message, now=now
        )
    except RoomError:
        raise
    except Exception as exc:
        raise _refuse(exc) from exc
    private = {player.pk: outcome.private} if outcome.private else {}
    with connection.cursor() as cursor:
        cursor.execute(
            _NUMBERED_SEAT_STEP_SQL if outcome.public else _UNNUMBERED_SEAT_STEP_SQL,
            {
                "seat": seat.pk,
                "state": Jsonb(outcome.seat_state),
                "room": room_id,
                "player": player.pk,
                "client_id": client_id,
                "action": Jsonb(message),
                "public": Jsonb(outcome.public),
                "private": Jsonb({str(k): v for k, v in private.items()}),
                "now": now,
            },
        )
        response = cursor.fetchone()[0]
    if isinstance(response, str):
        response = json.loads(response)
    _announce_later(room, response["seq"], outcome.public or None, private)
    return response


# --- expiry ----------------------------------------------------------------------


def expire_stale_rooms(*, now: datetime | None = None) -> int:
    """Expire every live room past its six hours; returns how many this call expired.

    Idempotent and safe on several workers at once: each batch locks its rooms
    with SKIP LOCKED, and only rooms still live are touched. Because it selects
    by ``expires_at <= now`` (not a time window) it catches up after downtime.
    """
    now = now or timezone.now()
    expired = 0
    while True:
        with transaction.atomic():
            batch = list(
                Room.objects.select_for_update(skip_locked=True)
                .filter(status__in=Room.LIVE_STATUSES, expires_at__lte=now)
                .order_by("expires_at")[:EXPIRY_BATCH]
            )
            for room in batch:
                room.status = Room.Status.EXPIRED
                room.finished_at = now
                room.next_tick_at = None
                _append(
                    room,
                    kind="expire",
                    actor_id=None,
                    public=[{"type": "expired"}],
                    now=now,
                    close="expired",
                )
                room.save(update_fields=["status", "finished_at", "next_tick_at", "seq"])
        expired += len(batch)
        if len(batch) < EXPIRY_BATCH:
            break
    # Answers to repeated message ids matter only while a room can still be played.
    ProcessedMessage.objects.filter(
        room__status__in=[Room.Status.FINISHED, Room.Status.EXPIRED],
        room__finished_at__lt=now - PROCESSED_IDS_KEPT,
    ).delete()
    return expired


def tick_due_rooms(*, now: datetime | None = None) -> int:
    """Evaluate deadlines of running rooms nobody is moving in (a safety net)."""
    now = now or timezone.now()
    due = Room.objects.filter(Q(status=Room.Status.RUNNING) & Q(next_tick_at__lte=now)).values_list(
        "pk", flat=True
    )[:500]
    ticked = 0
    for room_id in due:
        if tick_room(room_id=room_id, now=now) is not None:
            ticked += 1
    return ticked
