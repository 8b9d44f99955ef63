"""Reads (and the one automatic end) of poker rooms that need every seat at once.

The adapters never touch the database; the live ranking and "who is still
behind" need every player's seat row, so they are computed here, outside the
runtime's locks: a plain read of the room and its seats, no row locks, so it
never slows the players down.

The group game ends when every board is over. Only the seat rows know that,
and per-seat moves cannot end a room, so the check runs whenever someone asks
for the standings (the host's screen and the projector ask every couple of
seconds, finished players every few seconds); it ends the room through the
runtime's own ``end_room`` so results are written exactly once, under its lock.
"""

from __future__ import annotations

import time
from typing import Any

from games.rooms import services as room_services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat

from . import group


def seat_states(room: Room) -> dict[int, dict]:
    return dict(room.seats.values_list("player_id", "state"))


def next_room(room: Room) -> Room | None:
    """The new round the host opened after this one, if any."""
    return (
        Room.objects.filter(
            game=room.game, mode=room.mode, settings__previous_room=room.pk, host=room.host
        )
        .order_by("-created_at")
        .first()
    )


def finish_if_all_over(room: Room, now: float) -> bool:
    """End a running group game whose every board is over; True when it did."""
    if room.status != Room.Status.RUNNING or room.mode != "group":
        return False
    entries = group.standings(room.state, seat_states(room), now)
    # A player the host removed will never finish: they do not hold the group up.
    removed = set(room.seats.filter(status=Seat.Status.KICKED).values_list("player_id", flat=True))
    waiting_for = [e for e in entries if e["player_id"] not in removed]
    if not waiting_for or not all(entry["over"] for entry in waiting_for):
        return False
    try:
        room_services.end_room(room=room, actor=room.host)
    except RoomError:  # somebody else ended it a moment ago
        pass
    room.refresh_from_db()
    return True


def group_standings(room: Room, *, player_id: int, now: float | None = None) -> dict[str, Any]:
    """What the standings endpoint answers: full for the host and after the end,
    only how many still play for a player during the game."""
    now = time.time() if now is None else now
    finish_if_all_over(room, now)
    state = room.state
    payload: dict[str, Any] = {
        "status": room.status,
        "code": room.code,
        "server_now": now,
    }
    if not state:  # still a lobby
        payload["players"] = []
        return payload
    ended = state.get("ended_at")
    entries = group.standings(state, seat_states(room), ended if ended is not None else now)
    drawn = len(state["sequence"])
    payload.update(
        drawn=drawn,
        closed=state["closed"],
        sequence=state["sequence"],
        playing=sum(1 for e in entries if not e["over"]),
        total=len(entries),
        # "placed it": players who have handled the newest number (or are done).
        placed_current=sum(1 for e in entries if e["over"] or e["handled"] >= drawn),
    )
    finished = room.status in (Room.Status.FINISHED, Room.Status.EXPIRED)
    is_host = player_id == room.host_id
    if finished or is_host:
        for entry in entries:
            entry["behind"] = max(0, drawn - entry["handled"]) if not entry["over"] else 0
            if not finished:
                entry.pop("cells"), entry.pop("joker_cells"), entry.pop("lines")
        payload["ranking"] = entries
    else:
        mine = next((e for e in entries if e["player_id"] == player_id), None)
        payload["you"] = None if mine is None else {"over": mine["over"], "score": mine["score"]}
    if finished:
        following = next_room(room)
        payload["next_room"] = following.code if following and following.is_live else None
    return payload


def is_seated(room: Room, player) -> bool:
    if player is None:
        return False
    return Seat.objects.filter(
        room=room, player=player, status__in=[Seat.Status.JOINED, Seat.Status.LEFT]
    ).exists()
