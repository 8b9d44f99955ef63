"""Mathesso solo as homework: the pupil's start page and its JSON twin.

``GET /mathesso/homework/<id>/`` shows a Start button; the POST starts the
pupil's solo game of that homework (or continues their unfinished one, from any
device of the same profile) and goes to its room. ``POST /mathesso/api/games/``
``{"mode": "assignment", "assignment": <id>}`` answers ``201`` (new) or ``200``
(continued) with the room's code and URL. Refusals are ``{"code", "message"}``:
``no_profile`` 403, ``not_found`` 404, ``assignment_closed`` / ``attempt_used``
409 -- and nothing changes.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import DomainError

from . import assignments

MAX_BODY_BYTES = 1024


@require_POST
def api_games(request: HttpRequest) -> JsonResponse:
    if len(request.body) > MAX_BODY_BYTES:
        return JsonResponse(
            {"code": "too_large", "message": _("The request is too large.")}, status=400
        )
    try:
        data = json.loads(request.body or b"{}")
    except ValueError:
        data = None
    if not isinstance(data, dict) or data.get("mode") != "assignment":
        return JsonResponse(
            {"code": "bad_mode", "message": _("Only homework games start here.")}, status=400
        )
    try:
        room, new = assignments.start_assignment_room(
            player=request.player, assignment=data.get("assignment")
        )
    except DomainError as error:
        return JsonResponse({"code": error.code, "message": error.message}, status=error.status)
    return JsonResponse(
        {
            "room": {"code": room.code, "url": reverse("rooms:room", args=[room.code])},
            "resumed": not new,
        },
        status=201 if new else 200,
    )


def play(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """The pupil's homework page: one button that starts (or continues) the game."""
    if request.method == "POST":
        try:
            room, _new = assignments.start_assignment_room(
                player=request.player, assignment=assignment_id
            )
        except DomainError as error:
            messages.error(request, error.message)
            return redirect("mathesso:homework", assignment_id=assignment_id)
        return redirect("rooms:room", code=room.code)
    return render(
        request,
        "mathesso/homework.html",
        {"assignment_id": assignment_id, "player": request.player},
    )
