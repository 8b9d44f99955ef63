"""Writes around poker rooms that the pages ask for: start a new round.

One transaction per intent, so a refused step leaves nothing half done (a new
round with half its players). Opening a room is the rooms runtime's flow
(``games.rooms.opening``).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.core.cache import caches
from django.db import transaction
from django.utils import timezone

from accounts.models import PlayerProfile
from games.rooms import services as room_services
from games.rooms import sockets
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat
from games.rooms.steps import append, locked_room

from . import standings


def is_connected(room: Room, player_id: int) -> bool:
    """Has the player a WebSocket open in ``room`` now? (The runtime's per-player
    socket counter; when the store cannot say, they count as connected.)"""
    try:
        return (caches[sockets_store()].get(sockets.player_key(room.pk, player_id)) or 0) > 0
    except Exception:  # noqa: BLE001 - the store is away: better to take them along
        return True


def sockets_store() -> str:
    return getattr(django_settings, "RATELIMIT_USE_CACHE", "default")


@transaction.atomic
def new_round(*, room: Room, host: PlayerProfile) -> Room:
    """A new group lobby after ``room`` that takes the class along.

    Every player still in the finished room with the page open is seated in the
    new lobby, and the old room announces ``next_round`` with the new code so
    their pages go there by themselves. Players without an open page are not
    seated: the new lobby lists them as absent (``standings.previous_round``)
    and they join by the code. The old room's row lock makes two clicks open
    one round: the second finds the round the first opened. Players the new
    room refuses (it is full) can still join by its code.
    """
    old = locked_room(room.pk)
    following = standings.next_room(room)
    if following is not None and following.is_live:
        return following
    round_settings = {k: v for k, v in room.settings.items() if k != "previous_room"}
    round_settings["previous_room"] = room.pk
    fresh: Room = room_services.create_room(
        game="poker", mode="group", host=host, settings=round_settings, classroom=room.classroom
    )
    players = room.seats.select_related("player").filter(
        status=Seat.Status.JOINED, role=Seat.Role.PLAYER, player__is_active=True
    )
    for seat in players:
        if not is_connected(room, seat.player_id):
            continue
        try:
            room_services.join_room(room=fresh, player=seat.player)
        except RoomError:  # full or otherwise refused: they can join by the code
            continue
    # One open game per class: an older lobby of the class that never started
    # hands its pupils over to this round too.
    room_services.hand_over_lobbies(successor=fresh, actor=host)
    append(
        old,
        kind="next_round",
        actor_id=host.pk,
        public=[{"type": "next_round", "code": fresh.code}],
        now=timezone.now(),
    )
    old.save(update_fields=["seq"])
    return fresh
