"""Join pages: enter a code, open a room by code or link, join (with a nickname), QR.

Views stay thin: they parse, rate-limit and call services; playing happens
over the WebSocket (consumers.py).
"""

from __future__ import annotations

import io
from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST

from accounts import identity, nicknames
from accounts import services as accounts_services
from accounts.errors import AccountsError
from games import registry as game_registry
from games.rooms import registry, selectors, services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat

# Guessing codes: an address may miss this many times in the window, then waits.
FAILED_LOOKUPS_ALLOWED = 20
FAILED_LOOKUP_WINDOW = 600


def _client_key(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "unknown")


def _lookup_key(request: HttpRequest) -> str:
    return f"rooms-failed-lookups:{_client_key(request)}"


def _too_many_misses(request: HttpRequest) -> bool:
    return (cache.get(_lookup_key(request)) or 0) >= FAILED_LOOKUPS_ALLOWED


def _count_miss(request: HttpRequest) -> None:
    key = _lookup_key(request)
    cache.add(key, 0, timeout=FAILED_LOOKUP_WINDOW)
    cache.incr(key)


def _rate_limited(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rooms/enter.html",
        {"error": _("Too many wrong codes. Wait ten minutes and try again.")},
        status=429,
    )


def _find_room(request: HttpRequest, code: str) -> Room:
    """The room for a code, counting misses so codes cannot be found by guessing."""
    room = selectors.room_by_code(code)
    if room is None:
        _count_miss(request)
        raise Http404(_("There is no room with this code."))
    try:
        registry.get(room.game, room.mode)
    except RoomError as error:  # its game is no longer installed
        raise Http404(error.message) from None
    return room


def enter(request: HttpRequest) -> HttpResponse:
    """Type a room code (what students do when the teacher shows it)."""
    raw = request.GET.get("code", "")
    if not raw:
        return render(request, "rooms/enter.html", {})
    if _too_many_misses(request):
        return _rate_limited(request)
    code = services.normalise_code(raw)
    if selectors.room_by_code(code) is None:
        _count_miss(request)
        return render(
            request,
            "rooms/enter.html",
            {"error": _("There is no room with this code."), "code": raw},
            status=404,
        )
    return redirect("rooms:room", code=code)


def _join_url(request: HttpRequest, room: Room) -> str:
    return request.build_absolute_uri(reverse("rooms:room", kwargs={"code": room.code}))


def room(request: HttpRequest, code: str) -> HttpResponse:
    if _too_many_misses(request):
        return _rate_limited(request)
    found = _find_room(request, code)
    if found.code != code:
        return redirect("rooms:room", code=found.code)
    return _room_page(request, found)


def _room_page(request: HttpRequest, room: Room, *, error: str | None = None, status=200):
    player = selectors.request_player(request, room)
    seat = selectors.seat_for(room, player)
    adapter = registry.get(room.game, room.mode)
    context = {
        "room": room,
        "seat": seat,
        "seated": seat is not None and seat.status == Seat.Status.JOINED,
        "is_host": player is not None and room.host_id == player.pk,
        "left_url": reverse("rooms:left", kwargs={"code": room.code}),
        "join_url": _join_url(request, room),
        "limits": adapter.limits,
        "adapter": adapter,
        "players": selectors.seats(room),
        "error": error,
        "suggested_nickname": nicknames.generate(language=get_language()),
    }
    return render(request, "rooms/room.html", context, status=status)


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat; a browser without a profile first gets one with the given nickname."""
    if _too_many_misses(request):
        return _rate_limited(request)
    room = _find_room(request, code)
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
        try:
            player, token = accounts_services.create_profile(
                browser_token=identity.read_token(request),
                nickname=request.POST.get("nickname", ""),
            )
        except AccountsError as error:
            return _room_page(request, room, error=error.message, status=400)
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
    seat = selectors.seat_for(room, selectors.request_player(request, room))
    if seat is None or seat.status != Seat.Status.LEFT:
        return redirect("rooms:room", code=room.code)
    if room.started_at is not None and seat.left_at is not None and seat.left_at > room.started_at:
        text = _("You left the game in room %(code)s. It goes on without you.")
    else:
        text = _("You left room %(code)s.")
    messages.info(request, text % {"code": room.code})
    return redirect(_after_leaving_url(request, room))


@cache_control(max_age=3600)
def qr(request: HttpRequest, code: str) -> HttpResponse:
    """The join link as an SVG QR code, drawn on the server (no third-party service)."""
    room = _find_room(request, code)
    buffer = io.BytesIO()
    segno.make(_join_url(request, room), error="m").save(
        buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff"
    )
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
