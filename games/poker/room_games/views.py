"""Pages and endpoints around poker rooms: create a lobby or duel, standings,
projector, new round. Thin: they parse, check who asks and call services.
Playing itself happens over the room's WebSocket (games.rooms)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import nicknames
from accounts.requests import PlayerRequest
from core.errors import DomainError
from games.poker.forms import RoomSettingsForm
from games.rooms import lookups as room_lookups
from games.rooms import opening
from games.rooms import selectors as room_selectors
from games.rooms.models import Room

from . import services, standings

MODES = ("group", "duel")


def _poker_room(request: HttpRequest, code: str, mode: str | None = None) -> Room:
    """The room through ``rooms.lookups``: unknown, finished and expired rooms look
    alike to anyone not in them, and the misses are counted."""
    room = room_lookups.find_for_request(request, code).room
    if room is None or room.game != "poker" or (mode and room.mode != mode):
        raise Http404(_("There is no room with this code."))
    return room


@require_http_methods(["GET", "POST"])
def new_room(request: PlayerRequest, mode: str) -> HttpResponse:
    """Open a group lobby or a duel; the creator becomes its host."""
    if mode not in MODES:
        raise Http404
    form = RoomSettingsForm(request.POST if request.method == "POST" else None, mode=mode)
    context = {
        "mode": mode,
        "form": form,
        "suggested_nickname": nicknames.generate(language=get_language()),
        "values": request.POST if request.method == "POST" else {},
    }
    if request.method == "GET":
        return render(request, "poker/room/new.html", context)
    try:
        opened = opening.open_from_request(
            request, game="poker", mode=mode, settings=form.settings()
        )
    except DomainError as error:
        context["error"] = error.message
        return render(request, "poker/room/new.html", context, status=400)
    return opening.to_room(opened)


@require_GET
def group_standings(request: HttpRequest, code: str) -> JsonResponse:
    room = _poker_room(request, code, "group")
    player = room_selectors.request_player(request, room)
    if player is None or not standings.is_seated(room, player):
        return JsonResponse(
            {"code": "not_in_room", "message": _("Join the room on its page first.")}, status=403
        )
    payload = standings.group_standings(room, player_id=player.pk)
    return JsonResponse(payload)


@require_GET
def projector(request: HttpRequest, code: str) -> HttpResponse:
    """The host's big screen: number, history, how many placed it, live ranking."""
    room = _poker_room(request, code, "group")
    player = room_selectors.request_player(request, room)
    if player is None or room.host_id != player.pk:
        # A pupil who opened the projector link: a friendly way to their own board.
        return render(request, "poker/room/projector_not_host.html", {"room": room}, status=403)
    join_url = room_lookups.share_url(request, room)  # keyed: the class is never refused
    return render(
        request,
        "poker/room/projector.html",
        {"room": room, "join_url": join_url, "player_id": player.pk},
    )


@require_POST
def new_round(request: HttpRequest, code: str) -> HttpResponse:
    """The host starts again with the same group: a new lobby, everyone seated."""
    room = _poker_room(request, code, "group")
    player = room_selectors.request_player(request, room)
    if player is None or room.host_id != player.pk:
        raise Http404(_("Only the host can start a new round."))
    following = standings.next_room(room)
    if following is not None and following.is_live:
        return redirect("rooms:room", code=following.code)
    if room.status not in (Room.Status.FINISHED, Room.Status.EXPIRED):
        return redirect("rooms:room", code=room.code)
    fresh = services.new_round(room=room, host=player)
    return redirect("rooms:room", code=fresh.code)
