"""Abaku pages: the hub (solo, vs robot, a table), the move preview, the rules.

Views stay thin: parse, call the rooms services, render. Playing happens in a
room over its WebSocket (``adapter.py``, ``games/abaku/static/abaku/table.js``). The preview
asks the rules engine what a move would score on the room's current board; it
never changes anything and never trusts a score from the client.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import PlayerRequest
from core.errors import DomainError
from games.rooms import opening
from games.rooms import selectors as room_selectors
from games.rooms.errors import RoomError

from . import assignments, presentation, services
from . import review as table_review
from .adapter import TURN_SECONDS_CHOICES, clean_settings
from .engine import refusal
from .rules import DEFAULT_LEVEL, LEVELS, Board, IllegalMove, evaluate_move
from .stats import beaten_levels

MAX_PREVIEW_BYTES = 2048
REVIEW_CACHE_SECONDS = 6 * 3600


def index(request: HttpRequest) -> HttpResponse:
    """The hub. The robot ladder marks the levels beaten on one's own and
    picks the next one (``?level=`` -- the link after a won game -- picks
    another)."""
    beaten = beaten_levels(getattr(request, "player", None))
    suggested = presentation.suggested_level(beaten)
    chosen = request.GET.get("level")
    return render(
        request,
        "abaku/index.html",
        {
            "levels": presentation.robot_levels(),
            "level_choices": presentation.robot_level_choices(beaten),
            "default_level": DEFAULT_LEVEL,
            "suggested_level": suggested if beaten else None,
            "chosen_level": chosen if chosen in LEVELS else suggested,
            "table_sizes": (2, 3, 4),
            "turn_choices": [c for c in TURN_SECONDS_CHOICES if c is not None],
        },
    )


def _int(value: str | None, default: int | None) -> int | None:
    if value in (None, ""):
        return default
    try:
        return int(value)
    except ValueError:
        return -1


@require_POST
def new_game(request: PlayerRequest) -> HttpResponse:
    """Open a solo game (alone or against a robot) or a table of 2-4 seats."""
    kind = request.POST.get("kind", "robot")
    mode = "table" if kind == "table" else "solo"
    settings = {
        "table_size": 1 if kind == "practice" else _int(request.POST.get("table_size"), 2),
        "robot_level": request.POST.get("robot_level", DEFAULT_LEVEL),
        "layout": "plain" if request.POST.get("plain") == "on" else "standard",
    }
    if mode == "table":
        settings["turn_seconds"] = _int(request.POST.get("turn_seconds"), None) or None
    try:
        settings = clean_settings(settings, solo=mode == "solo")
        opened = opening.open_from_request(
            request, game="abaku", mode=mode, settings=settings, start=mode == "solo"
        )
    except DomainError as error:
        messages.error(request, error.message)
        return redirect("abaku:index")
    return opening.to_room(opened)


@require_POST
def preview(request: PlayerRequest, code: str) -> JsonResponse:
    """What the placements would score on the room's board now (read-only; only for
    people in the room, as a solo game's board is nobody else's business)."""
    room = room_selectors.room_by_code(code)
    if (
        room is None
        or room.game != "abaku"
        or not room.state
        or "game" not in room.state
        or room_selectors.seat_for(room, request.player) is None
    ):
        return JsonResponse(
            {"code": "unknown_room", "message": _("There is no room with this code.")}, status=404
        )
    if len(request.body) > MAX_PREVIEW_BYTES:
        return JsonResponse({"code": "too_large", "message": _("Too many stones.")}, status=400)
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    placements = body.get("placements") if isinstance(body, dict) else None
    if not isinstance(placements, list) or not placements:
        error = refusal(IllegalMove("no_stones"))
        return JsonResponse({"ok": False, "code": error.code, "message": error.message})
    try:
        board = Board.from_dict(room.state["game"]["board"])
        result = evaluate_move(board, placements)
    except IllegalMove as illegal:
        error = refusal(illegal)
        return JsonResponse({"ok": False, "code": error.code, "message": error.message})
    return JsonResponse(
        {
            "ok": True,
            "score": result.score,
            "examples": [
                {"text": e.text, "points": e.points, "cells": [list(c) for c in e.cells]}
                for e in result.examples
            ],
        }
    )


def _own_room(request: HttpRequest, code: str) -> Any:
    """The Abaku room with this code if the requester has a seat in it, else None."""
    room = room_selectors.room_by_code(code)
    if room is None or room.game != "abaku" or not room.state or "game" not in room.state:
        return None, None
    player = room_selectors.request_player(request, room)
    if room_selectors.seat_for(room, player) is None:
        return None, None
    return room, player


def _homework_refusal(code: str, message: str) -> JsonResponse:
    return JsonResponse({"ok": False, "code": code, "message": message}, status=409)


def _no_room() -> JsonResponse:
    return JsonResponse(
        {"code": "unknown_room", "message": _("There is no room with this code.")}, status=404
    )


@require_POST
def hint(request: HttpRequest, code: str) -> JsonResponse:
    """The best move for the player on turn, in practice and against robots only
    (``hint_not_allowed`` at a table with other people). Counted on the game:
    a game won with hints is recorded as such (``services.give_hint``)."""
    room, player = _own_room(request, code)
    if room is None:
        return _no_room()
    if assignments.is_assignment(room) and not assignments.hints_allowed(room):
        return _homework_refusal(
            "hint_not_allowed", _("Hints are off in this homework: find the examples yourself.")
        )
    try:
        answer = services.give_hint(room_id=room.pk, player_id=player.pk)
    except RoomError as error:
        return JsonResponse({"ok": False, "code": error.code, "message": error.message}, status=409)
    return JsonResponse({"ok": True, **answer})


def review(request: HttpRequest, code: str) -> JsonResponse:
    """After the game: per turn what was played and the best move there was."""
    room, player = _own_room(request, code)
    if room is None:
        return _no_room()
    if assignments.is_assignment(room) and not assignments.pupil_may_review(room):
        # the review shows the best moves on the shared stones: not while classmates play
        return _homework_refusal(
            "review_not_yet", _("The review of your homework opens when your teacher allows it.")
        )
    # A finished game never changes, and replaying it with the complete move
    # generator takes seconds (bench/RESULTS-abaku.md): computed once per player.
    key = f"abaku-review:{room.pk}:{room.seq}:{player.pk}"
    try:
        turns = cache.get(key)
        if turns is None:
            turns = table_review.game_review(room.state, player_id=player.pk)
            cache.set(key, turns, REVIEW_CACHE_SECONDS)
    except RoomError as error:
        return JsonResponse({"ok": False, "code": error.code, "message": error.message}, status=409)
    return JsonResponse({"ok": True, "turns": turns})


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "abaku/rules.html", presentation.rules_context())
