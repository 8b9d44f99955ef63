"""The coach's review page of a finished solo game, rendered for a viewer already
allowed to see it: from the public review view (``views.review``) and, for a
teacher, from the homework pages (``review_response``, the ``Assignable`` hook
``game.py`` wires). The page sits above the homework gate (``assignments``), so
nothing below it imports a view."""

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render

from accounts.requests import PlayerRequest

from .coach_review import step_text
from .models import SoloGame
from .presentation import page_context, table_context
from .rules import score_board
from .services.coach import ensure_review


def render_review(request: PlayerRequest, game: Any) -> HttpResponse:
    """The review page of ``game`` for a viewer already allowed to see it. A
    teacher reading a pupil's homework game comes through the homework pages,
    which set ``request.homework_review`` (the pupil's roster name and the way
    back to the class table): the page then names the pupil and speaks about
    their moves to the teacher, never "your move"."""
    player = request.player if request.storage_enabled else None
    teacher_view = getattr(request, "homework_review", None)
    data = ensure_review(game=game)
    steps = [
        {**step, "text": step_text(step, pupil=teacher_view is not None)} for step in data["steps"]
    ]
    for step in steps:
        step["lines"] = score_board(step["cells"], data["table"]).lines
    by_number = {step["number"]: step for step in steps}
    context = {
        **page_context(request),
        "game": game,
        "review": data,
        "steps": steps,
        "costliest": [by_number[number] for number in data["costliest"]],
        "replay_steps": [
            {
                "cells": step["cells"],
                "lines": step["lines"],
                "cell": step["cell"],
                "coach": step["coach_cell"],
                "text": step["text"],
                "cost": step["cost"],
            }
            for step in steps
        ],
        "own": teacher_view is None and player is not None and player.pk == game.player_id,
        "teacher_view": teacher_view,
        "table_label": next(
            (t["label"] for t in table_context() if t["name"] == game.table), game.table
        ),
    }
    return render(request, "poker/review.html", context)


def review_response(request: PlayerRequest, ref: str) -> HttpResponse:
    """The coach's review of a pupil's homework game, for a teacher of the class
    (the homework app checked that before calling)."""
    game = SoloGame.objects.filter(pk=ref, mode=SoloGame.Mode.HOMEWORK).first()
    if game is None or game.finished_at is None:
        raise Http404
    return render_review(request, game)
