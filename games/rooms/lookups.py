"""Finding a room by its code for a page or a socket, without telling codes apart.

Every path that takes a room code (the room page, join, ``qr.svg``, ``left/``,
a game's own pages such as ``standings.json``, the WebSocket) asks here. To
someone who is not in the room, an unknown code, a finished room and an expired
room answer exactly alike, and each such miss is counted
(``accounts.limits.code_misses``); past the limit the visitor is refused every
lookup of a room they are not in until the window ends. Whoever is in the room
(its host, or a seat that has not left) always reaches it, and so does whoever
follows the room's share link or QR code (keyed, :func:`share_url`): such a
visit is never counted and never refused. A wrong key counts as a miss.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from accounts import limits
from accounts.models import PlayerProfile
from games.rooms import registry, selectors
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat


@dataclass(frozen=True)
class Lookup:
    """What a code gives this visitor: the room, or why not (``missing``/``limited``)."""

    room: Room | None
    player: PlayerProfile | None = None
    limited: bool = False


def is_open(room: Room) -> bool:
    """A lobby or a running game not past its expiry (even before the task ran)."""
    return room.is_live and room.expires_at > timezone.now()


def is_member(room: Room, player: PlayerProfile | None) -> bool:
    """The host, or a player whose seat has not been given up."""
    if player is None:
        return False
    if room.host_id == player.pk:
        return True
    seat = selectors.seat_for(room, player)
    return seat is not None and seat.status != Seat.Status.LEFT


def _installed(room: Room) -> bool:
    try:
        registry.get(room.game, room.mode)
    except RoomError:  # its game is no longer installed
        return False
    return True


def link_key(room: Room) -> str:
    """The key of the room's share link and QR code."""
    return limits.link_key("room", room.pk, room.code)


def share_path(room: Room) -> str:
    """The room's share link (path only): keyed, so the class following it from
    the host's screen is never stopped by the code limits."""
    path = reverse("rooms:room", kwargs={"code": room.code})
    return f"{path}?{limits.LINK_KEY_PARAM}={link_key(room)}"


def share_url(request: HttpRequest, room: Room) -> str:
    url: str = request.build_absolute_uri(share_path(room))
    return url


def find(
    code: str,
    *,
    client: limits.Client,
    player_for: Callable[[Room], PlayerProfile | None],
    key: str | None = None,
) -> Lookup:
    """The room for ``code`` as this visitor may see it.

    ``player_for(room)`` names who acts in the room for this visitor (it differs
    for a logged-in teacher); ``client`` is whom misses are counted against;
    ``key`` is the share link's key when the visitor came by one.
    """
    room = selectors.room_by_code(code)
    player = player_for(room) if room is not None else None
    if room is not None and _installed(room) and is_member(room, player):
        return Lookup(room, player)
    if key and room is not None and limits.link_key_valid("room", room.pk, room.code, key):
        # A correct share link: never counted, never refused.
        if not _installed(room) or not is_open(room):
            return Lookup(None, player)
        return Lookup(room, player)
    miss_limit = limits.code_misses()
    if limits.blocked(miss_limit, client):
        return Lookup(None, player, limited=True)
    missing = room is None or not _installed(room) or not is_open(room)
    if missing or key:  # an unknown code, or a wrong key (counted once)
        limits.count(miss_limit, client)
    if missing:
        return Lookup(None, player)
    return Lookup(room, player)


def find_for_request(request: HttpRequest, code: str) -> Lookup:
    return find(
        code,
        client=limits.client_of(request),
        player_for=lambda room: selectors.request_player(request, room),
        key=limits.link_key_of(request),
    )
