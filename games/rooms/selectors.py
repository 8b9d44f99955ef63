"""Read operations on rooms: lookups, lists and each player's snapshot (``sync``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts import selectors as accounts_selectors
from accounts.models import PlayerProfile
from games.rooms import registry, steps
from games.rooms.lifecycle import normalise_code
from games.rooms.models import Room, RoomEvent, Seat
from games.rooms.registry import SeatInfo
from games.rooms.steps import seat_public


def live_rooms() -> QuerySet[Room]:
    """Rooms still open or playing and not past their expiry (even before the task runs)."""
    return Room.objects.filter(status__in=Room.LIVE_STATUSES, expires_at__gt=timezone.now())


def live_rooms_for_classroom(classroom: Model) -> QuerySet[Room]:
    # a Classroom: typed as a model here, the classrooms app is above rooms
    rooms = live_rooms().filter(classroom=classroom)  # type: ignore[misc]
    return rooms.select_related("host").order_by("-created_at")


def room_by_code(code: str) -> Room | None:
    """The live room with this code, else the most recent room that had it."""
    code = normalise_code(code)
    room: Room | None = live_rooms().filter(code=code).first()
    if room is None:
        room = Room.objects.filter(code=code).order_by("-created_at").first()
    return room


def seat_for(room: Room, player: PlayerProfile | None) -> Seat | None:
    if player is None:
        return None
    seat: Seat | None = Seat.objects.filter(room=room, player=player).first()
    return seat


def _teaches_nowhere(classroom_id: int, player: PlayerProfile) -> bool:
    return False


# Whether a teacher's own profile still teaches a class: the classes app answers
# (it registers its check in its AppConfig.ready; the rooms never import it).
_class_teacher_check: Callable[[int, PlayerProfile], bool] = _teaches_nowhere


def set_class_teacher_check(check: Callable[[int, PlayerProfile], bool]) -> None:
    global _class_teacher_check
    _class_teacher_check = check


def _no_roster(classroom_id: int) -> dict[int, str]:
    return {}


# A class's roster names by player id (the teacher sees them beside nicknames in
# a class game); the classes app registers it, the rooms never import it.
_roster_names: Callable[[int], dict[int, str]] = _no_roster


def set_roster_names(provider: Callable[[int], dict[int, str]]) -> None:
    global _roster_names
    _roster_names = provider


def roster_names(room: Room) -> dict[int, str]:
    """``{player id: roster name}`` of the room's class (empty outside a class).
    For the host's eyes only: pages never show it to other players."""
    return _roster_names(room.classroom_id) if room.classroom_id else {}


def acting_player(
    room: Room, *, cookie_player: PlayerProfile | None, account_player: PlayerProfile | None
) -> PlayerProfile | None:
    """Who acts in ``room`` for this browser.

    A logged-in teacher's own profile (``account_player``, from the session)
    acts where it hosts or holds a seat -- in a class's room only while that
    teacher still teaches the class (a removed co-teacher keeps no rights over
    the rooms they hosted there: not the projector of a finished game, not a
    rematch). It is never attached to the browser's identity cookie, so logging
    out ends every right it had. Anybody else acts as the browser's selected
    nickname profile (``cookie_player``).
    """
    if account_player is not None and (
        room.host_id == account_player.pk
        or Seat.objects.filter(room=room, player=account_player).exists()
    ):
        if room.classroom_id is None or _class_teacher_check(room.classroom_id, account_player):
            return account_player
    return cookie_player


def request_player(request: HttpRequest, room: Room) -> PlayerProfile | None:
    """``acting_player`` for a page request (session user and identity cookie)."""
    return acting_player(
        room,
        cookie_player=getattr(request, "player", None),
        account_player=accounts_selectors.account_player(getattr(request, "user", None)),
    )


def seats(room: Room) -> list[Seat]:
    """The seats taken now (host, players, spectators), in the order they were taken."""
    return list(room.seats.select_related("player").filter(status=Seat.Status.JOINED))


def all_seats(room: Room) -> list[Seat]:
    """The seats taken now and those whose player left or was removed while the
    game ran (someone who left the lobby before the start never played).

    Boards keep naming a player who left ("Anna -- left the game") after a
    reload; the seat's status says they are gone, and only the seat's own
    identity could ever take it again (``services.join_room`` decides that).
    """
    return [
        seat
        for seat in room.seats.select_related("player")
        if seat.status == Seat.Status.JOINED
        or (
            room.started_at is not None
            and (seat.left_at is None or seat.left_at >= room.started_at)
        )
    ]


def room_public(room: Room) -> dict[str, Any]:
    adapter = registry.get(room.game, room.mode)
    limits = adapter.limits
    return {
        "code": room.code,
        "game": room.game,
        "mode": room.mode,
        "status": room.status,
        "locked": room.locked,
        "host_id": room.host_id,
        "max_players": adapter.table_seats(room.settings or {}),
        "spectators": limits.spectators,
        "expires_at": room.expires_at.isoformat(),
        "seats": [seat_public(seat) for seat in all_seats(room)],
    }


def snapshot(*, room_id: int, player: PlayerProfile) -> dict[str, Any]:
    """Everything one player may know about the room now, as of ``seq``.

    ``seq`` and the state come from the same row read, so the events numbered
    after ``seq`` are exactly the ones the client still has to apply.
    """
    room = Room.objects.get(pk=room_id)
    seat = Seat.objects.filter(room=room, player=player).first()
    # A TextChoices member is a str (mypy, without Django's plugin, sees its tuple).
    role = seat.role if seat else cast(str, Seat.Role.SPECTATOR)
    view = {}
    if room.status != Room.Status.LOBBY:
        adapter = registry.get(room.game, room.mode)
        view = adapter.view(
            room.state,
            player_id=player.pk if seat else None,
            role=role,
            seat_state=seat.state if seat else {},
            now=timezone.now(),
        )
    return {
        "type": "sync",
        "seq": room.seq,
        "room": room_public(room),
        "you": {"player_id": player.pk, "role": role, "status": seat.status if seat else None},
        "view": view,
    }


def rebuild_state(room: Room) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """Replay the event log from the seed: the state and seat states it must produce.

    Proves the log is complete; operators can use it to audit or repair a room.
    """
    adapter = registry.get(room.game, room.mode)
    state: dict[str, Any] = {}
    seat_states: dict[int, dict[str, Any]] = {}
    replay = Room(pk=room.pk, rng_seed=room.rng_seed)
    roles = {pid: role for pid, _nick, role in _start_seats(room)}
    for event in RoomEvent.objects.filter(room=room).order_by("id"):
        if event.kind == "start":
            seats = [SeatInfo(pid, nick, role) for pid, nick, role in event.action["seats"]]
            outcome = adapter.start(
                settings=room.settings,
                seats=seats,
                rng=steps.rng(replay, "start"),
                now=event.created_at,
            )
            state = outcome.state
            if adapter.seat_message_types:
                seat_states = {
                    s.player_id: adapter.initial_seat_state(state, s.player_id) for s in seats
                }
        elif event.kind == "move":
            mover = cast(int, event.actor_id)  # a move is a player's
            state = adapter.apply(
                state,
                player_id=mover,
                role=roles.get(mover, "player"),
                message=event.action,
                now=event.created_at,
                rng=steps.rng(replay, f"move{event.seq}"),
            ).state
        elif event.kind == "tick":
            ticked = adapter.tick(
                state, now=event.created_at, rng=steps.rng(replay, f"tick{event.seq}")
            )
            state = ticked.state if ticked else state
        elif event.kind == "seat":
            sitter = cast(int, event.actor_id)  # a seat message is a player's
            seat_states[sitter] = adapter.apply_seat(
                state,
                seat_states.get(sitter, {}),
                player_id=sitter,
                message=event.action,
                now=event.created_at,
            ).seat_state
        elif event.kind == "join" and event.action.get("late"):
            pid = event.action["player_id"]
            state = adapter.latecomer(
                state, player_id=pid, nickname=event.action["nickname"], now=event.created_at
            ).state
            if adapter.seat_message_types:
                seat_states[pid] = adapter.initial_seat_state(state, pid)
        elif event.kind in ("leave", "kick") and "player_id" in event.action:
            # Logged with the player's id only while the game ran: the game heard of it.
            removed = adapter.player_removed(
                state,
                player_id=event.action["player_id"],
                now=event.created_at,
                rng=steps.rng(replay, f"{event.kind}{event.seq}"),
            )
            state = removed.state if removed else state
        elif event.kind == "end" and room.started_at is not None:
            state = adapter.end(state, now=event.created_at)
    return state, seat_states


def _start_seats(room: Room) -> list[Any]:
    start = RoomEvent.objects.filter(room=room, kind="start").first()
    return start.action["seats"] if start else []
