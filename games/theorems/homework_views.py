"""Matematici as homework: the pupil's start page (``/theorems/homework/<id>/``, one
Start button that posts to itself and goes to the table) and its JSON twin
(``POST /theorems/api/games/`` ``{"mode": "assignment", "assignment": <id>}``: 201
new, 200 continued), shared with every room game in ``games/rooms/homework.py``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_POST

from games.rooms import homework

from . import assignments


def _start(player, assignment):
    return assignments.start_assignment_room(player=player, assignment=assignment)


@require_POST
def api_games(request: HttpRequest) -> JsonResponse:
    return homework.api_start(request, _start)


def play(request: HttpRequest, assignment_id: int) -> HttpResponse:
    return homework.start_page(
        request,
        assignment_id,
        start=_start,
        template="theorems/homework.html",
        url_name="theorems:homework",
    )
