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

from games.rooms import selectors as room_selectors
from games.rooms import services as room_services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat

from . import common, group


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


def gone_players(room: Room) -> dict[int, str]:
    """Players who stopped being in the room: ``{player_id: "left" | "kicked"}``."""
    return dict(
        room.seats.filter(status__in=[Seat.Status.LEFT, Seat.Status.KICKED]).values_list(
            "player_id", "status"
        )
    )


def absent_from_previous_round(room: Room) -> list[dict[str, Any]]:
    """Players who were still in the round before this lobby but are not seated
    in it (their page was closed when the host started the new round)."""
    previous = room.settings.get("previous_room")
    if previous is None:
        return []
    here = set(room.seats.filter(status=Seat.Status.JOINED).values_list("player_id", flat=True))
    before = (
        Seat.objects.filter(room_id=previous, status=Seat.Status.JOINED, role=Seat.Role.PLAYER)
        .select_related("player")
        .order_by("joined_at")
    )
    return [
        {"player_id": seat.player_id, "nickname": seat.player.display_name}
        for seat in before
        if seat.player_id not in here
    ]


def finish_if_all_over(room: Room, now: float) -> bool:
    """End a running group game whose every board still in play is over; True when it did.

    Players who left or were removed never come back to play: their boards do
    not hold the group up (the game ends when everyone still in is done)."""
    if room.status != Room.Status.RUNNING or room.mode != "group":
        return False
    entries = group.standings(room.state, seat_states(room), now)
    gone = gone_players(room)
    waiting_for = [e for e in entries if e["player_id"] not in gone]
    if waiting_for and not all(entry["over"] for entry in waiting_for):
        return False
    host = room.host
    if host is None:  # a host erased with nobody to replace them closed the room
        return False
    try:
        room_services.end_room(room=room, actor=host)
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
    if not state:  # still a lobby (or one closed before its game started)
        joined = room.seats.filter(status=Seat.Status.JOINED, role=Seat.Role.PLAYER)
        payload["players"] = [
            seat.player.display_name
            for seat in joined.select_related("player").order_by("joined_at", "pk")
        ]
        payload["absent"] = absent_from_previous_round(room)
        return payload
    ended = state.get("ended_at")
    gone = gone_players(room)
    every = group.standings(
        state, seat_states(room), ended if ended is not None else now, with_coach=True
    )
    # A removed player is out of the ranking; one who left stays in it, marked,
    # but neither is counted among those the others wait for.
    entries = common.ranked(
        {**entry, "gone": gone.get(entry["player_id"])}
        for entry in every
        if gone.get(entry["player_id"]) != Seat.Status.KICKED
    )
    # The coach seat (games/poker/coach_seat.py) is ranked but never waited for.
    still_in = [e for e in entries if e["gone"] is None and not e.get("robot")]
    drawn = len(state["sequence"])
    payload.update(
        drawn=drawn,
        closed=state["closed"],
        sequence=state["sequence"],
        playing=sum(1 for e in still_in if not e["over"]),
        total=len(still_in),
        # "placed it": players still in who have handled the newest number (or are done).
        placed_current=sum(1 for e in still_in if e["over"] or e["handled"] >= drawn),
    )
    finished = room.status in (Room.Status.FINISHED, Room.Status.EXPIRED)
    is_host = player_id == room.host_id
    if finished or is_host:
        names = room_selectors.roster_names(room) if is_host else {}
        for entry in entries:
            if names.get(entry["player_id"]):
                entry["roster_name"] = names[entry["player_id"]]
            waits = not entry["over"] and entry["gone"] is None
            entry["behind"] = max(0, drawn - entry["handled"]) if waits else 0
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


def is_seated(room: Room, player: Any) -> bool:
    if player is None:
        return False
    return Seat.objects.filter(
        room=room, player=player, status__in=[Seat.Status.JOINED, Seat.Status.LEFT]
    ).exists()
