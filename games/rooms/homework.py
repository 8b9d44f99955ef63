"""Homework played in a room: what every game whose ``Assignable.room_mode`` is
set shares (the game itself names its mode, settings and pages).

- ``assignment_seed``: the room's ``rng_seed`` for an assignment is
  HMAC-SHA256(server secret, ``<game>-assignment:`` + the assignment's key),
  so the runtime's usual randomness (``steps.rng``) deals every pupil the same
  game; not computable without the secret and, like every room's seed, never sent.
- ``start_assignment_room``: the pupil's room of an assignment, new or their
  running one continued (any device of the same profile), through the homework
  gate (``core.registry.assignments()``), in one transaction.
- ``api_start`` and ``start_page`` (both routed for a game by ``start_urls``): the JSON
  start (``POST <game>/api/games/`` ``{"mode": "assignment", "assignment": <id>}``
  -> 201 new / 200 continued, ``{"room": {"code", "url"}, "resumed"}``; refusals
  ``{"code", "message"}``) and the pupil's page (``<game>/homework/<id>/``, the
  game's template ``<game>/homework.html``) with one Start button that posts to
  itself and goes to the room.

The end needs nothing here: ``steps.finish`` tells the gate about a finished
room of a game's homework mode.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from django.conf import settings as django_settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import PlayerProfile
from accounts.requests import PlayerRequest
from core import registry as game_registry
from core.errors import DomainError
from games.rooms import lifecycle
from games.rooms.models import Room, Seat

MAX_BODY_BYTES = 1024


def assignment_seed(game: str, key: str) -> int:
    """HMAC-SHA256(server secret, game prefix + key), 62 bits like every room's seed."""
    message = f"{game}-assignment:{key}".encode()
    digest = hmac.new(django_settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def start_assignment_room(
    *,
    game: str,
    mode: str,
    player: PlayerProfile | None,
    assignment: object,
    room_settings: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> tuple[Room, bool]:
    """The pupil's room of ``assignment``: a new one (True), or their running
    one continued (False). ``room_settings`` turns the homework's settings into
    the room's."""
    if player is None:
        raise game_registry.AssignmentRefused(
            "no_profile", _("Choose a nickname first so your games can be recorded."), 403
        )
    gate = game_registry.assignments()
    with transaction.atomic():
        ticket = gate.begin(game=game, assignment_id=assignment, player=player)
        if ticket.resume is not None:
            room = Room.objects.filter(
                pk=int(ticket.resume), game=game, status=Room.Status.RUNNING
            ).first()
            if (
                room is not None
                and room.seats.filter(player=player, status=Seat.Status.JOINED).exists()
            ):
                return room, False
        room = lifecycle.create_room(
            game=game, mode=mode, host=player, settings=room_settings(ticket.settings)
        )
        Room.objects.filter(pk=room.pk).update(rng_seed=assignment_seed(game, ticket.key))
        room.refresh_from_db()
        lifecycle.start_room(room=room, actor=player)
        room.refresh_from_db()
        gate.attach(attempt_id=ticket.attempt_id, ref=str(room.pk))
    return room, True


class Start(Protocol):
    """A game's ``start_assignment_room``: the pupil's room, new (True) or continued."""

    def __call__(
        self, *, player: PlayerProfile | None, assignment: object
    ) -> tuple[Room, bool]: ...


def api_start(request: PlayerRequest, start: Start) -> JsonResponse:
    """``POST {"mode": "assignment", "assignment": <id>}``: 201 new, 200 continued."""
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
        room, new = start(player=request.player, assignment=data.get("assignment"))
    except DomainError as error:
        return JsonResponse({"code": error.code, "message": error.message}, status=error.status)
    return JsonResponse(
        {
            "room": {"code": room.code, "url": reverse("rooms:room", args=[room.code])},
            "resumed": not new,
        },
        status=201 if new else 200,
    )


def start_page(
    request: PlayerRequest, assignment_id: int, *, start: Start, template: str, url_name: str
) -> HttpResponse:
    """GET: the page with one Start button; POST: start (or continue), go to the room."""
    if request.method == "POST":
        try:
            room, _new = start(player=request.player, assignment=assignment_id)
        except DomainError as error:
            messages.error(request, error.message)
            return redirect(url_name, assignment_id=assignment_id)
        return redirect("rooms:room", code=room.code)
    return render(request, template, {"assignment_id": assignment_id, "player": request.player})


def start_urls(game: str, start: Start) -> list[URLPattern]:
    """A game's two homework routes, for its ``urls.py`` (app name ``game``):
    ``api_games`` (``POST api/games/``) and ``homework`` (``homework/<id>/``,
    the page ``<game>/homework.html``)."""

    @require_POST
    def api_games(request: PlayerRequest) -> JsonResponse:
        return api_start(request, start)

    def play(request: PlayerRequest, assignment_id: int) -> HttpResponse:
        return start_page(
            request,
            assignment_id,
            start=start,
            template=f"{game}/homework.html",
            url_name=f"{game}:homework",
        )

    return [
        path("homework/<int:assignment_id>/", play, name="homework"),
        path("api/games/", api_games, name="api_games"),
    ]
