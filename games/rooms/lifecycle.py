"""A room's life: create, join, leave, kick, lock, start, end (each one transaction).

Every intent here changes the room, so it locks the room row with
``SELECT ... FOR UPDATE`` (``steps.locked_room``) and logs one step.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings as django_settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import limits
from accounts.models import PlayerProfile
from games.rooms import registry
from games.rooms.delivery import player_group, send
from games.rooms.errors import RoomError
from games.rooms.models import Room, RoomEvent, Seat
from games.rooms.registry import Outcome
from games.rooms.steps import (
    FINISH_FIELDS,
    MOVE_FIELDS,
    append,
    apply_outcome,
    finish,
    locked_room,
    playing_count,
    require_host,
    require_live,
    rng,
    seat_infos,
    seat_public,
)

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L look-alikes
CODE_LENGTH = 6
# A room not finished this long after creation expires: the retention table's number.
ROOM_LIFETIME = timedelta(hours=django_settings.RETENTION["unfinished_room_hours"])


# --- creating and joining --------------------------------------------------------


def _new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(raw: str) -> str:
    """Accept codes typed loosely: lower case, spaces and dashes."""
    return "".join(ch for ch in (raw or "").upper() if ch.isalnum())[: CODE_LENGTH * 2]


@transaction.atomic
def create_room(
    *,
    game: str,
    mode: str,
    host: PlayerProfile,
    settings: dict[str, Any],
    classroom: models.Model | None = None,
) -> Room:
    """Open a lobby with a fresh join code; the creator takes the host seat.

    Rooms a browser opens itself are limited per host at its address and per
    address (``accounts.limits``); a teacher's class launch is not."""
    adapter = registry.get(game, mode)
    client = limits.current_client(player=host) if classroom is None else None
    if client is not None:
        anyone = limits.Client(identity=None, address=client.address)
        if limits.blocked(limits.room_creations(), client) or limits.blocked(
            limits.room_creations_address(), anyone
        ):
            raise RoomError(
                "too_many_rooms",
                _("You have opened many rooms in a short time. Wait a while and try again."),
            )
        limits.count(limits.room_creations(), client)
        limits.count(limits.room_creations_address(), anyone)
    cleaned = adapter.clean_settings(dict(settings or {}))
    now = timezone.now()
    for _attempt in range(20):
        try:
            with transaction.atomic():
                room: Room = Room.objects.create(
                    code=_new_code(),
                    game=game,
                    mode=mode,
                    settings=cleaned,
                    host=host,
                    # a Classroom: typed as a model here, the classrooms app is above rooms
                    classroom=classroom,  # type: ignore[misc]
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
    append(
        room,
        kind="create",
        actor_id=host.pk,
        public=[{"type": "player_joined", "seat": seat_public(seat)}],
        now=now,
    )
    room.save(update_fields=["seq"])
    return room


@transaction.atomic
def create_and_start(
    *, game: str, mode: str, host: PlayerProfile, settings: dict[str, Any]
) -> Room:
    """Open a room and start it at once (a solo game): one transaction, so a
    refused start leaves no lobby behind."""
    room: Room = create_room(game=game, mode=mode, host=host, settings=settings)
    start_room(room=room, actor=host)
    room.refresh_from_db()
    return room


@transaction.atomic
def join_room(*, room: Room, player: PlayerProfile, role: str = "player") -> Seat:
    """Take a seat, or come back to the one this player already has."""
    room = locked_room(room.pk)
    require_live(room)
    adapter = registry.get(room.game, room.mode)
    limits = adapter.limits
    if role not in (Seat.Role.PLAYER, Seat.Role.SPECTATOR):
        raise RoomError("bad_role", _("You can join as a player or as a spectator."))
    now = timezone.now()
    seat: Seat | None = (
        Seat.objects.select_related("player").filter(room=room, player=player).first()
    )
    if seat is not None and seat.status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    if seat is not None and seat.status == Seat.Status.JOINED:
        return seat  # reconnecting, a second tab, a repeated click: the same seat
    if role == Seat.Role.SPECTATOR and not limits.spectators:
        raise RoomError("no_spectators", _("This game cannot be watched."))
    late = role == Seat.Role.PLAYER and room.status == Room.Status.RUNNING
    if role == Seat.Role.PLAYER:
        if room.status != Room.Status.LOBBY and not (
            late and adapter.admits_latecomers and seat is None
        ):
            # A player who left a running game never comes back to play in it.
            raise RoomError("already_started", _("The game has already started."))
        if room.locked:
            raise RoomError("room_locked", _("The host has locked this room."))
        if playing_count(room, limits) >= limits.max_players:
            raise RoomError(
                "room_full",
                ngettext(
                    "This room is full: at most %(count)d player can play.",
                    "This room is full: at most %(count)d players can play.",
                    limits.max_players,
                )
                % {"count": limits.max_players},
            )
    if seat is None:
        seat = Seat.objects.create(room=room, player=player, role=role, joined_at=now)
    else:  # somebody who left comes back (the host never leaves)
        seat.status, seat.role, seat.left_at = Seat.Status.JOINED, role, None
        seat.save(update_fields=["status", "role", "left_at"])
    seat.player = player
    if late:
        _seat_latecomer(room, adapter, seat, now=now)
        return seat
    append(
        room,
        kind="join",
        actor_id=player.pk,
        public=[{"type": "player_joined", "seat": seat_public(seat)}],
        now=now,
    )
    room.save(update_fields=["seq"])
    if (
        role == Seat.Role.PLAYER
        and adapter.starts_when_full
        and playing_count(room, limits) >= limits.max_players
    ):
        # The join that fills a duel starts it: under the same lock, so no client
        # has to race for the start, and a refused start refuses the join too.
        _start(room, adapter, actor_id=player.pk, now=now)
    return seat


def _seat_latecomer(room: Room, adapter: registry.RoomGame, seat: Seat, *, now: datetime) -> None:
    """A player joins a running game that admits latecomers: the game hears of
    it in the join step, and the action names the player so a replay does too."""
    nickname = seat.player.display_name
    outcome = adapter.latecomer(room.state, player_id=seat.player_id, nickname=nickname, now=now)
    if adapter.seat_message_types:
        seat.state = adapter.initial_seat_state(outcome.state, seat.player_id)
        seat.save(update_fields=["state"])
    outcome.public.insert(0, {"type": "player_joined", "seat": seat_public(seat)})
    apply_outcome(
        room,
        adapter,
        outcome,
        kind="join",
        actor_id=seat.player_id,
        action={"player_id": seat.player_id, "nickname": nickname, "late": True},
        now=now,
    )
    room.save(update_fields=MOVE_FIELDS + (FINISH_FIELDS if outcome.finished else []))


# --- leaving -----------------------------------------------------------------------


def _seat_of(room: Room, player: PlayerProfile) -> Seat:
    seat: Seat | None = (
        Seat.objects.select_related("player").filter(room=room, player=player).first()
    )
    if seat is None or seat.status == Seat.Status.LEFT:
        raise RoomError("not_in_room", _("You are not in this room."))
    if seat.status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    return seat


@transaction.atomic
def leave_room(*, room: Room, player: PlayerProfile) -> int:
    room = locked_room(room.pk)
    require_live(room)
    seat = _seat_of(room, player)
    if seat.role == Seat.Role.HOST:
        raise RoomError("host_cannot_leave", _("The host ends the room instead of leaving it."))
    return remove_player(room=room, player=player, now=timezone.now())


def remove_player(*, room: Room, player: PlayerProfile, now: datetime) -> int:
    """Take a player out of a locked live room: the seat is left and, while the game
    runs, the game hears ``player_removed`` and goes on for the others. A leave
    comes here after its checks; so does an erased profile whatever its seat
    (``games.rooms.privacy``)."""
    seat = Seat.objects.select_for_update().get(room=room, player=player)
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
    room: Room, *, kind: str, actor_id: int, player_id: int, event: dict[str, Any], now: datetime
) -> int:
    """Log a seat that stopped being joined (leave or kick) and save the locked room.

    While the game runs, the game hears of it in the same step: the adapter's
    ``player_removed`` outcome (a turn handed on, or the game finished) is
    applied like a move's, after the runtime's own event and under the same
    ``seq``. The action names the player so that a replay asks the game again.
    """
    if room.status != Room.Status.RUNNING:
        seq = append(room, kind=kind, actor_id=actor_id, public=[event], now=now)
        room.save(update_fields=["seq"])
        return seq
    adapter = registry.get(room.game, room.mode)
    outcome = adapter.player_removed(
        room.state, player_id=player_id, now=now, rng=rng(room, f"{kind}{room.seq + 1}")
    )
    if outcome is None:
        outcome = Outcome(state=room.state)
    outcome.public.insert(0, event)
    seq = apply_outcome(
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
    room = locked_room(room.pk)
    require_host(room, actor)
    require_live(room)
    if room.status != Room.Status.LOBBY:
        raise RoomError("already_started", _("The game has already started."))
    room.locked = locked
    seq = append(
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
    room = locked_room(room.pk)
    require_host(room, actor)
    require_live(room)
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
    transaction.on_commit(lambda: send(player_group(room_id, player_id), {"type": "room.kicked"}))
    return seq


@transaction.atomic
def start_room(*, room: Room, actor: PlayerProfile) -> int:
    room = locked_room(room.pk)
    require_host(room, actor)
    require_live(room)
    if room.status != Room.Status.LOBBY:
        raise RoomError("already_started", _("The game has already started."))
    adapter = registry.get(room.game, room.mode)
    if playing_count(room, adapter.limits) < adapter.limits.min_players:
        raise RoomError(
            "not_enough_players",
            ngettext(
                "At least %(count)d player is needed to start.",
                "At least %(count)d players are needed to start.",
                adapter.limits.min_players,
            )
            % {"count": adapter.limits.min_players},
        )
    return _start(room, adapter, actor_id=actor.pk, now=timezone.now())


def _start(room: Room, adapter: registry.RoomGame, *, actor_id: int, now: datetime) -> int:
    """Start the locked lobby ``room``: the game's first state, seat states, one step."""
    seats = seat_infos(room)
    outcome = adapter.start(settings=room.settings, seats=seats, rng=rng(room, "start"), now=now)
    room.status = Room.Status.RUNNING
    room.started_at = now
    if adapter.seat_message_types:
        for seat in room.seats.filter(status=Seat.Status.JOINED):
            seat.state = adapter.initial_seat_state(outcome.state, seat.player_id)
            seat.save(update_fields=["state"])
    outcome.public.insert(0, {"type": "started"})
    seq = apply_outcome(
        room,
        adapter,
        outcome,
        kind="start",
        actor_id=actor_id,
        action={"seats": [[s.player_id, s.nickname, s.role] for s in seats]},
        now=now,
    )
    room.save()
    return seq


@transaction.atomic
def end_room(*, room: Room, actor: PlayerProfile) -> int:
    """The host ends the room: a lobby just closes, a running game is scored."""
    room = locked_room(room.pk)
    require_host(room, actor)
    require_live(room)
    return close_room(room, actor_id=actor.pk, now=timezone.now())


def close_room(room: Room, *, actor_id: int | None, now: datetime) -> int:
    """End a locked live room: a lobby just closes, a running game is scored. The
    host's end comes here after its checks; so does the erasure of a host nobody
    can replace (``games.rooms.privacy``)."""
    if room.status == Room.Status.RUNNING:
        adapter = registry.get(room.game, room.mode)
        room.state = adapter.end(room.state, now=now)
        public = [{"type": "finished", "results": finish(room, adapter, now)}]
    else:
        room.status = Room.Status.FINISHED
        room.finished_at = now
        public = [{"type": "finished", "results": []}]
    seq = append(room, kind="end", actor_id=actor_id, public=public, now=now)
    room.save()
    return seq


@transaction.atomic
def hand_over_lobbies(*, successor: Room, actor: PlayerProfile) -> list[Room]:
    """One open game per class launch: the host's other lobbies of the same class,
    game and mode that never started close, their players are seated in
    ``successor`` and every page on them follows there (the ``rematch`` event),
    so a pupil's class page never lists three identical waiting rooms.
    """
    if successor.classroom_id is None:
        return []
    stale = Room.objects.filter(
        classroom_id=successor.classroom_id,
        game=successor.game,
        mode=successor.mode,
        host=actor,
        status=Room.Status.LOBBY,
    ).exclude(pk=successor.pk)
    closed = []
    for candidate in stale.order_by("pk"):
        room = locked_room(candidate.pk)
        if room.status != Room.Status.LOBBY:
            continue  # started or ended meanwhile: not ours to close
        players = room.seats.select_related("player").filter(
            status=Seat.Status.JOINED, role=Seat.Role.PLAYER, player__is_active=True
        )
        for seat in players.order_by("joined_at", "pk"):
            try:
                join_room(room=successor, player=seat.player)
            except RoomError:  # full or refused: they can still join by the code
                continue
        now = timezone.now()
        room.status = Room.Status.FINISHED
        room.finished_at = now
        append(
            room,
            kind="end",
            actor_id=actor.pk,
            public=[
                {"type": "rematch", "code": successor.code},
                {"type": "finished", "results": []},
            ],
            now=now,
        )
        room.save()
        closed.append(room)
    return closed


# --- after the game ------------------------------------------------------------------


@transaction.atomic
def rematch(*, room: Room, actor: PlayerProfile) -> Room:
    """The same table again: a new room with the finished ``room``'s game, mode,
    settings and class, the same players seated (robots come back from the
    settings) and the game started at once.

    The old room logs a ``rematch`` step whose event tells every page still on
    it the new code, so the other players' pages follow by themselves. The old
    room's row lock makes two clicks open one room: the second click (or the
    second player's page) gets the room the first opened while it is live.
    Players who left or were removed are not seated again; a player the new
    room refuses can still join by its code while it is a lobby. In a class's
    room, those who watched (a latecomer the running game could not admit) are
    seated too, after the players: the next round is theirs.
    """
    old = locked_room(room.pk)
    adapter = registry.get(old.game, old.mode)
    if not adapter.rematch:
        raise RoomError("no_rematch", _("This game cannot be started again from here."))
    require_host(old, actor)
    if old.status != Room.Status.FINISHED:
        raise RoomError("not_finished", _("The game is not over yet."))
    earlier = RoomEvent.objects.filter(room=old, kind="rematch").order_by("-seq").first()
    if earlier is not None:
        following: Room | None = Room.objects.filter(pk=earlier.action.get("room_id")).first()
        if following is not None and following.is_live:
            return following
    fresh: Room = create_room(
        game=old.game, mode=old.mode, host=actor, settings=old.settings, classroom=old.classroom
    )
    seated = old.seats.select_related("player").filter(
        status=Seat.Status.JOINED, player__is_active=True
    )
    players = list(seated.filter(role=Seat.Role.PLAYER).order_by("joined_at", "pk"))
    if old.classroom_id is not None:
        players += list(seated.filter(role=Seat.Role.SPECTATOR).order_by("joined_at", "pk"))
    for seat in players:
        try:
            join_room(room=fresh, player=seat.player)
        except RoomError:  # refused (full): they can still join by the code
            continue
    start_room(room=fresh, actor=actor)
    fresh.refresh_from_db()
    append(
        old,
        kind="rematch",
        actor_id=actor.pk,
        public=[{"type": "rematch", "code": fresh.code}],
        action={"room_id": fresh.pk},
        now=timezone.now(),
    )
    old.save(update_fields=["seq"])
    return fresh
