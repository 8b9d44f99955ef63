"""Writes around poker rooms that the pages ask for: open a room, start a new round.

Each is one service call in one transaction, so a refused step leaves nothing
half done (a profile without its room, a new round with half its players).
"""

from __future__ import annotations

from django.db import transaction

from accounts import services as accounts_services
from accounts.models import PlayerProfile
from games.rooms import services as room_services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat

from . import standings


@transaction.atomic
def open_room(
    *,
    mode: str,
    settings: dict,
    host: PlayerProfile | None,
    browser_token: str | None = None,
    nickname: str = "",
) -> tuple[Room, str | None]:
    """Open a group lobby or a duel; without a profile, make one for the host first.

    Returns the room and the new identity token (None when the host had a profile).
    """
    token = None
    if host is None:
        host, token = accounts_services.create_profile(
            browser_token=browser_token, nickname=nickname
        )
    room = room_services.create_room(game="poker", mode=mode, host=host, settings=settings)
    return room, token


@transaction.atomic
def new_round(*, room: Room, host: PlayerProfile) -> Room:
    """A new group lobby after ``room`` with everyone who played seated again.

    The old room's row lock makes two clicks open one round: the second finds
    the round the first opened. Players the new room refuses (it is full) can
    still join by its code.
    """
    Room.objects.select_for_update().filter(pk=room.pk).first()
    following = standings.next_room(room)
    if following is not None and following.is_live:
        return following
    settings = {k: v for k, v in room.settings.items() if k != "previous_room"}
    settings["previous_room"] = room.pk
    fresh = room_services.create_room(
        game="poker", mode="group", host=host, settings=settings, classroom=room.classroom
    )
    players = room.seats.select_related("player").filter(
        status=Seat.Status.JOINED, role=Seat.Role.PLAYER, player__is_active=True
    )
    for seat in players:
        try:
            room_services.join_room(room=fresh, player=seat.player)
        except RoomError:  # full or otherwise refused: they can join by the code
            continue
    return fresh
