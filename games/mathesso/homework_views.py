"""Mathesso solo as homework: the pupil's start page (``/mathesso/homework/<id>/``, one
Start button that posts to itself and goes to the room) and its JSON twin
(``POST /mathesso/api/games/`` ``{"mode": "assignment", "assignment": <id>}``: 201
new, 200 continued), shared with every room game in ``games/rooms/homework.py``."""

from __future__ import annotations

from typing import Any

from games.rooms import homework

from . import assignments


def _start(player: Any, assignment: Any) -> Any:
    return assignments.start_assignment_room(player=player, assignment=assignment)


api_games, play = homework.start_views(
    _start, template="mathesso/homework.html", url_name="mathesso:homework"
)
