"""Join pages: enter a code, open a room by code or link, join (with a nickname), QR.

Views stay thin: they parse, look codes up through ``lookups`` (which counts
misses) and call services; playing happens
over the WebSocket (consumers.py).
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from accounts import identity, limits, nicknames
from accounts import services as accounts_services
from accounts.errors import AccountsError
from accounts.requests import PlayerRequest
from core import registry as game_registry
from games.rooms import lookups, registry, selectors, services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat


def _refused(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rooms/enter.html",
        {"error": _("Too many wrong codes. Wait a few minutes and try again.")},
        status=429,
    )


def _find_room(request: HttpRequest, code: str) -> Room | HttpResponse:
    """The room for a code, or the refusal to send (``lookups``: unknown, finished
    and expired rooms look alike to anyone not in them, and misses are counted)."""
    found = lookups.find_for_request(request, code)
    if found.limited:
        return _refused(request)
    if found.room is None:
        raise Http404(_("There is no room with this code."))
    return found.room


def _creation_client(request: HttpRequest, room: Room) -> limits.Client:
    """Whom a new profile made here counts against: through the room's keyed share
    link, the room's own budget (a school address used up by others does not stop
    a class following the QR code); otherwise the browser and its address."""
    client = limits.client_of(request)
    if _link_key(request, room):
        return limits.for_link(client, "room", room.pk)
    return client


def _profile_limit_refusal(request: HttpRequest, room: Room) -> str | None:
    """Why this browser may not create another profile now, or None."""
    if limits.blocked(limits.profile_creations(), _creation_client(request, room)):
        refusal: str = _("Too many new nicknames from here. Wait a while and try again.")
        return refusal
    return None


def enter(request: HttpRequest) -> HttpResponse:
    """Type a room code (what students do when the teacher shows it)."""
    raw = request.GET.get("code", "")
    if not raw:
        return render(request, "rooms/enter.html", {})
    code = services.normalise_code(raw)
    found = lookups.find_for_request(request, code)
    if found.limited:
        return _refused(request)
    if found.room is None:
        return render(
            request,
            "rooms/enter.html",
            {"error": _("There is no room with this code."), "code": raw},
            status=404,
        )
    return redirect("rooms:room", code=found.room.code)


def _join_url(request: HttpRequest, room: Room) -> str:
    """The share link (and the QR code's content): keyed (``lookups.share_url``)."""
    return lookups.share_url(request, room)


def _link_key(request: HttpRequest, room: Room) -> str:
    """The share link's key this visitor came with, if it is the room's: the
    join form carries it on, so taking a seat is not refused either."""
    key = limits.link_key_of(request)
    if key and limits.link_key_valid("room", room.pk, room.code, key):
        return key
    return ""


def room(request: HttpRequest, code: str) -> HttpResponse:
    found = _find_room(request, code)
    if isinstance(found, HttpResponse):
        return found
    if found.code != code:
        key = _link_key(request, found)
        path = reverse("rooms:room", kwargs={"code": found.code})
        return redirect(f"{path}?{limits.LINK_KEY_PARAM}={key}" if key else path)
    return _room_page(request, found)


def _invites(room: Room, adapter: registry.RoomGame, players: list[Seat]) -> bool:
    """Whether the host's invite card is on the page: never in a one-seat game
    (solo), in the lobby always, and in a running game only while another person
    plays (a game against robots has nobody to invite)."""
    if not room.is_live or adapter.limits.max_players <= 1:
        return False
    if room.status == Room.Status.LOBBY:
        return True
    return sum(1 for seat in players if seat.role != Seat.Role.SPECTATOR) > 1


def _room_page(
    request: HttpRequest,
    room: Room,
    *,
    error: str | None = None,
    status: int = 200,
    suggestions: Sequence[str] = (),
) -> HttpResponse:
    player = selectors.request_player(request, room)
    seat = selectors.seat_for(room, player)
    adapter = registry.get(room.game, room.mode)
    players = selectors.seats(room)
    is_host = player is not None and room.host_id == player.pk
    # The teacher hosting a class game sees each pupil's roster name beside the
    # nickname (a pupil hosting a class table never does: no login).
    teacher_host = is_host and request.user.is_authenticated and room.classroom_id is not None
    roster = selectors.roster_names(room) if teacher_host else {}
    context = {
        "room": room,
        "invite": is_host and _invites(room, adapter, players),
        "seat": seat,
        "seated": seat is not None and seat.status == Seat.Status.JOINED,
        "is_host": is_host,
        "left_url": reverse("rooms:left", kwargs={"code": room.code}),
        "join_url": _join_url(request, room),
        "link_key": _link_key(request, room),
        "limits": adapter.limits,
        "table_seats": adapter.table_seats(room.settings or {}),
        "adapter": adapter,
        "players": players,
        "seat_names": [(seat, roster.get(seat.player_id, "")) for seat in players],
        "teacher_host": teacher_host,
        "roster_json": json.dumps({str(pid): name for pid, name in roster.items()}),
        "error": error,
        # What the visitor typed stays in the field after a refusal (a taken
        # nickname), with the free ones offered as buttons beside it.
        "suggested_nickname": request.POST.get("nickname", "").strip()[:40]
        or nicknames.generate(language=get_language()),
        "nickname_suggestions": list(suggestions),
    }
    return render(request, "rooms/room.html", context, status=status)


@require_POST
def join(request: PlayerRequest, code: str) -> HttpResponse:
    """Take a seat; a browser without a profile first gets one with the given nickname."""
    room = _find_room(request, code)
    if isinstance(room, HttpResponse):
        return room
    role = request.POST.get("role", Seat.Role.PLAYER)
    player, token = request.player, None
    if player is None:
        if not request.storage_enabled:
            return _room_page(
                request,
                room,
                error=_("Saving is switched off in this browser, so you cannot take a seat."),
                status=400,
            )
        refusal = _profile_limit_refusal(request, room)
        if refusal is not None:
            return _room_page(request, room, error=refusal, status=429)
        try:
            player, token = accounts_services.create_profile(
                browser_token=identity.read_token(request),
                nickname=request.POST.get("nickname", ""),
            )
        except AccountsError as error:
            suggestions = error.extra.get("suggestions", []) if error.extra else []
            return _room_page(
                request, room, error=error.message, status=400, suggestions=suggestions
            )
        limits.count(limits.profile_creations(), _creation_client(request, room))
        request.player = player
    try:
        services.join_room(room=room, player=player, role=role)
    except RoomError as error:
        response = _room_page(request, room, error=error.message, status=409)
    else:
        messages.success(request, _("You are in the room."))
        response = redirect("rooms:room", code=room.code)
    if token:
        identity.write_token(response, token)
    return response


@require_POST
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    """The host's "Play again" after a game: the same table in a new room, started
    (``services.rematch``); the other players' pages follow the room's event."""
    room = _find_room(request, code)
    if isinstance(room, HttpResponse):
        return room
    player = selectors.request_player(request, room)
    if player is None:
        return _room_page(request, room, error=_("Only the host can do this."), status=403)
    try:
        fresh = services.rematch(room=room, actor=player)
    except RoomError as error:
        return _room_page(request, room, error=error.message, status=409)
    return redirect("rooms:room", code=fresh.code)


def _after_leaving_url(request: HttpRequest, room: Room) -> str:
    """The class page when the room belongs to the leaver's class, else the game's hub.

    Whether the leaver belongs to the class is the classrooms' decision: a class
    room sends them through ``classrooms:back``, which falls back to the hub."""
    spec = game_registry.get(room.game)
    hub = spec.url if spec else reverse("home")
    if room.classroom_id is None:
        return hub
    back = reverse("classrooms:back", kwargs={"pk": room.classroom_id})
    return f"{back}?{urlencode({'next': hub})}"


def left(request: HttpRequest, code: str) -> HttpResponse:
    """Where the room page sends a player after their ``leave`` message was accepted.

    Leaving itself happens over the WebSocket (the protocol's ``leave``, one
    step the game hears of); this page only says so and moves on to the class
    or the game. It changes nothing, so a repeated visit is harmless.
    """
    room = _find_room(request, code)
    if isinstance(room, HttpResponse):
        return room
    seat = selectors.seat_for(room, selectors.request_player(request, room))
    if seat is None or seat.status != Seat.Status.LEFT:
        return redirect("rooms:room", code=room.code)
    if room.started_at is not None and seat.left_at is not None and seat.left_at > room.started_at:
        text = _("You left the game in room %(code)s. It goes on without you.")
    else:
        text = _("You left room %(code)s.")
    messages.info(request, text % {"code": room.code})
    return redirect(_after_leaving_url(request, room))


@cache_control(max_age=3600, private=True)
def qr(request: HttpRequest, code: str) -> HttpResponse:
    """The join link as an SVG QR code, drawn on the server (no third-party service)."""
    room = _find_room(request, code)
    if isinstance(room, HttpResponse):
        return room
    # The keyed link only for whoever may hand it out (the host's page, a seat)
    # or already came with it: anyone else who knows the code gets the plain link.
    if lookups.is_member(room, selectors.request_player(request, room)) or _link_key(request, room):
        url = _join_url(request, room)
    else:
        url = request.build_absolute_uri(reverse("rooms:room", kwargs={"code": room.code}))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff"
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
