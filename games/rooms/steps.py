"""What every write on a room shares: the checks, the event log, outcomes, the finish.

The functions here run inside a caller's transaction on a locked room row
(``locked_room``); they never open transactions of their own.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile
from core import registry as game_registry
from games import services as results_service
from games.models import GameResult
from games.rooms import registry
from games.rooms.delivery import announce_later
from games.rooms.errors import RoomError
from games.rooms.models import Room, RoomEvent, Seat
from games.rooms.registry import Outcome, RoomGame, SeatInfo

# What a move (and a tick) rewrites on the room row, and what finishing adds.
MOVE_FIELDS = ["state", "seq", "next_tick_at"]
FINISH_FIELDS = ["status", "finished_at", "record"]


def seat_public(seat: Seat) -> dict[str, Any]:
    return {
        "player_id": seat.player_id,
        "nickname": seat.player.display_name,
        "role": seat.role,
        "status": seat.status,
    }


def locked_room(room_id: int) -> Room:
    try:
        room: Room = Room.objects.select_for_update().get(pk=room_id)
        return room
    except Room.DoesNotExist:
        raise RoomError("unknown_room", _("There is no room with this code.")) from None


def require_live(room: Room, now: datetime | None = None) -> None:
    require_live_status(room.status, room.expires_at, now)


def require_live_status(
    status: str, expires_at: datetime | None = None, now: datetime | None = None
) -> None:
    """Refuse an ended room -- and a live one past its expiry time, even before
    the periodic task has marked it expired (Celery may be down)."""
    if status == Room.Status.EXPIRED:
        raise RoomError("room_expired", _("This room has expired."))
    if expires_at is not None and expires_at <= (now or timezone.now()):
        if status in Room.LIVE_STATUSES:
            raise RoomError("room_expired", _("This room has expired."))
    if status == Room.Status.FINISHED:
        raise RoomError("room_finished", _("This game is over."))


def require_host(room: Room, player: PlayerProfile) -> None:
    if room.host_id != player.pk:
        raise RoomError("not_host", _("Only the host can do this."))


def playing_count(room: Room, limits: registry.Limits) -> int:
    roles = [Seat.Role.PLAYER] + ([Seat.Role.HOST] if limits.host_plays else [])
    count: int = room.seats.filter(status=Seat.Status.JOINED, role__in=roles).count()
    return count


def seat_infos(room: Room) -> list[SeatInfo]:
    seats = room.seats.select_related("player").filter(status=Seat.Status.JOINED)
    return [SeatInfo(s.player_id, s.player.display_name, s.role) for s in seats]


def rng(room: Room, label: str) -> random.Random:
    """Randomness derived from the room's seed and the step: replays reproduce it."""
    return random.Random(f"{room.rng_seed}:{label}")


def refuse(exc: Exception) -> RoomError:
    """Rules engines raise their own IllegalMove; keep its stable code and message."""
    code, message = getattr(exc, "code", None), getattr(exc, "message", None)
    if isinstance(code, str) and isinstance(message, str):
        return RoomError(code, message)
    raise exc


def append(
    room: Room,
    *,
    kind: str,
    actor_id: int | None,
    public: list[dict[str, Any]],
    private: dict[int, list[dict[str, Any]]] | None = None,
    action: dict[str, Any] | None = None,
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
    announce_later(room.pk, room.seq, public, private, close=close)
    seq: int = room.seq
    return seq


def apply_outcome(
    room: Room,
    adapter: RoomGame,
    outcome: Outcome,
    *,
    kind: str,
    actor_id: int | None,
    action: dict[str, Any],
    now: datetime,
) -> int:
    room.state = outcome.state
    room.next_tick_at = adapter.next_deadline(outcome.state)
    public = list(outcome.public)
    if outcome.finished:
        public.append({"type": "finished", "results": finish(room, adapter, now)})
    return append(
        room,
        kind=kind,
        actor_id=actor_id,
        public=public,
        private=outcome.private,
        action=action,
        now=now,
    )


def finish(room: Room, adapter: RoomGame, now: datetime) -> list[dict[str, Any]]:
    """Close a running game and write what every game leaves behind."""
    room.status = Room.Status.FINISHED
    room.finished_at = now
    room.next_tick_at = None
    seat_states = {s.player_id: s.state for s in room.seats.all()}
    results = adapter.results(room.state, seat_states)
    # A player erased during the game is in the state under a pseudonym with no
    # profile (accounts.erasure): their result is kept anonymous, as at erasure.
    profiles = PlayerProfile.objects.filter(pk__in=[r.player_id for r in results])
    known = set(profiles.values_list("pk", flat=True))
    record, written = results_service.record_game(
        game=room.game,
        mode=room.mode,
        classroom=room.classroom,
        settings=room.settings,
        started_at=room.started_at or now,
        finished_at=now,
        results=[
            results_service.Result(
                player_id=r.player_id if r.player_id in known else None,
                score=r.score,
                rank=r.rank,
                completed=r.completed,
                details=r.details,
            )
            for r in results
        ],
    )
    room.record = record
    _tell_homework(room, written)
    return [
        {"player_id": r.player_id, "score": r.score, "rank": r.rank, "completed": r.completed}
        for r in results
    ]


def _tell_homework(room: Room, written: list[GameResult]) -> None:
    """A room of a game's homework mode (``Assignable.room_mode``) is a pupil's
    homework attempt: the homework gate records its end, in this transaction."""
    spec = game_registry.get(room.game)
    if spec is None or spec.assignable is None or spec.assignable.room_mode != room.mode:
        return
    gate = game_registry.assignments()
    for result in written:
        if result.player_id is not None:
            gate.finished(game=room.game, ref=str(room.pk), result=result)


def tick_if_due(room: Room, adapter: RoomGame, now: datetime) -> int | None:
    """Apply the game's time-based rules when the room's deadline has passed."""
    if room.status != Room.Status.RUNNING or room.next_tick_at is None or now < room.next_tick_at:
        return None
    outcome = adapter.tick(room.state, now=now, rng=rng(room, f"tick{room.seq + 1}"))
    if outcome is None:
        room.next_tick_at = adapter.next_deadline(room.state)
        return None
    return apply_outcome(
        room, adapter, outcome, kind="tick", actor_id=None, action={"now": now.isoformat()}, now=now
    )
