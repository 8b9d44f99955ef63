"""The rooms runtime answers for its tables (``accounts.privacy`` hooks).

- Erasure: a player still seated in a live room leaves it through the room's
  own removal path (``lifecycle``: the game hears ``player_removed`` and goes
  on for the others, or a lobby the player hosts closes, or a game whose host
  only deals -- a teacher's group game -- is ended and scored for the
  pupils). Then every room the player sat in, hosted, acted in or sent a
  message to has its JSON rewritten at the places its game declared
  (``accounts.privacy.Places``); the player's remembered answers are deleted.
- Retention: live rooms past their lifetime expire, ended rooms go (a class
  game's room is stripped to its seats), remembered answers go after a day.
- Export: room steps of others that told the player something privately.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts import erasure as accounts_erasure
from accounts import retention
from accounts.models import PlayerProfile
from accounts.privacy import Erasure, PrivacyHooks, places, places_of
from games.rooms import lifecycle, registry, steps
from games.rooms.errors import RoomError
from games.rooms.expiry import expire_stale_rooms
from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat

#: Where the runtime itself keeps players in JSON, in every game's rooms: seats in
#: join/leave/start steps and snapshots, results, the step's action.
RUNTIME_PLACES = places(
    nicknames={"nickname"},
    ids={"player_id", "host_id", "actor_id"},
    seat_rows={"seats"},
)


# --- erasure --------------------------------------------------------------------------


def _remove_from_live_rooms(player: PlayerProfile) -> None:
    """Take the player out of every lobby and running game the way the room
    itself removes a player, so the others' game goes on."""
    seats = Seat.objects.filter(
        player=player, status=Seat.Status.JOINED, room__status__in=Room.LIVE_STATUSES
    ).order_by("room_id")
    for room_id, role in list(seats.values_list("room_id", "role")):
        room = steps.locked_room(room_id)
        try:
            adapter = registry.get(room.game, room.mode)
        except RoomError:  # its game is no longer installed: nothing runs there
            continue
        now = timezone.now()
        if role == Seat.Role.HOST and (
            room.status == Room.Status.LOBBY or not adapter.limits.host_plays
        ):
            # Nobody could start this lobby or deal this game any more: it ends now.
            lifecycle.close_room(room, actor_id=None, now=now)
            continue
        lifecycle.remove_player(room=room, player=player, now=now)


def _rooms_of(player: PlayerProfile) -> set[int]:
    room_ids = set(Seat.objects.filter(player=player).values_list("room_id", flat=True))
    room_ids |= set(Room.objects.filter(host=player).values_list("pk", flat=True))
    room_ids |= set(RoomEvent.objects.filter(actor=player).values_list("room_id", flat=True))
    room_ids |= set(
        ProcessedMessage.objects.filter(player=player).values_list("room_id", flat=True)
    )
    return room_ids


def erase_player(erasure: Erasure) -> None:
    player = PlayerProfile.objects.get(pk=erasure.player_id)
    room_ids = _rooms_of(player)
    if not room_ids:
        return
    # Every room row first, by id -- the runtime's lock order -- before any of
    # them changes (leaving a live room locks it again: already held).
    list(
        Room.objects.select_for_update()
        .filter(pk__in=room_ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    _remove_from_live_rooms(player)
    games = dict(Room.objects.filter(pk__in=room_ids).values_list("pk", "game"))

    def where(row: Seat | RoomEvent) -> object:
        return places_of(games[row.room_id])

    scrub = accounts_erasure.scrub_rows
    rooms = Room.objects.filter(pk__in=room_ids).order_by("pk")
    scrub(rooms, ["state", "settings"], erasure, lambda row: places_of(row.game))
    scrub(Seat.objects.filter(room_id__in=room_ids).order_by("pk"), ["state"], erasure, where)
    scrub(
        RoomEvent.objects.filter(room_id__in=room_ids).order_by("pk"),
        ["action", "public", "private"],
        erasure,
        where,
        keyed_by_id={"private"},
    )
    ProcessedMessage.objects.filter(player=player).delete()
    others = ProcessedMessage.objects.filter(room_id__in=room_ids).order_by("pk")
    scrub(others, ["response"], erasure, where)


# --- retention --------------------------------------------------------------------------


def _ended_before(now: datetime) -> QuerySet[Any]:
    cutoff = now - retention.period("ended_room_days")
    return Room.objects.filter(status__in=[Room.Status.FINISHED, Room.Status.EXPIRED]).filter(
        Q(finished_at__lt=cutoff) | Q(finished_at__isnull=True, expires_at__lt=cutoff)
    )


def delete_ended_rooms(now: datetime) -> int:
    """Ended rooms after the period: deleted with seats, log and state -- except a
    class game's room, which is stripped instead (``strip_class_rooms``)."""
    return retention.delete_in_batches(
        _ended_before(now).exclude(classroom__isnull=False, record__isnull=False)
    )


def strip_class_rooms(now: datetime) -> int:
    """A class game's room after the period keeps only its seats' who-and-status:
    class reports mark pupils who left or were removed early from them
    (``classrooms.selectors.departures``). The log, the game state, the seats'
    states and remembered answers -- moves and nicknames -- are deleted."""
    pending = (
        _ended_before(now)
        .filter(classroom__isnull=False, record__isnull=False)
        .filter(
            ~Q(state={})
            | Q(pk__in=RoomEvent.objects.values("room_id"))
            | Q(pk__in=Seat.objects.exclude(state={}).values("room_id"))
        )
    )
    stripped = 0
    while True:
        with transaction.atomic():
            ids = list(
                pending.order_by("pk")
                .select_for_update(skip_locked=True, of=("self",))
                .values_list("pk", flat=True)[: retention.batch_size()]
            )
            if ids:
                RoomEvent.objects.filter(room_id__in=ids).delete()
                ProcessedMessage.objects.filter(room_id__in=ids).delete()
                Seat.objects.filter(room_id__in=ids).update(state={})
                Room.objects.filter(pk__in=ids).update(state={})
        stripped += len(ids)
        if len(ids) < retention.batch_size():
            return stripped


def delete_processed_messages(now: datetime) -> int:
    cutoff = now - retention.period("processed_message_days")
    return retention.delete_in_batches(ProcessedMessage.objects.filter(created_at__lt=cutoff))


def apply_retention(now: datetime) -> dict[str, int]:
    return {
        "expired_rooms": expire_stale_rooms(now=now),
        "deleted_rooms": delete_ended_rooms(now),
        "stripped_class_rooms": strip_class_rooms(now),
        "processed_messages": delete_processed_messages(now),
    }


# --- export ---------------------------------------------------------------------------


def export_player(player: PlayerProfile) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Room steps someone else took that told this player something privately (a
    dealt hand, a secret): stored by player id inside ``RoomEvent.private``, not
    by a relation; only the player's own entry is exported."""
    from accounts import export

    events = (
        RoomEvent.objects.filter(room__seats__player=player, private__has_key=str(player.pk))
        .exclude(actor=player)
        .order_by("pk")
    )
    rows = [export.row(event, player_id=player.pk) for event in events]
    return {"other": {"rooms.RoomEvent.private": rows}} if rows else {}


HOOKS = PrivacyHooks(
    app="rooms",
    erase_player=erase_player,
    export_player=export_player,
    apply_retention=apply_retention,
    retention_kinds=(
        "expired_rooms",
        "deleted_rooms",
        "stripped_class_rooms",
        "processed_messages",
    ),
)
