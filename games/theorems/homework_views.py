"""Matematici as homework: the pupil's start page (``/theorems/homework/<id>/``, one
Start button that posts to itself and goes to the table) and its JSON twin
(``POST /theorems/api/games/`` ``{"mode": "assignment", "assignment": <id>}``: 201
new, 200 continued), shared with every room game in ``games/rooms/homework.py``."""

from __future__ import annotations

from typing import Any

from games.rooms import homework

from . import assignments


def _start(player: Any, assignment: Any) -> Any:
    return assignments.start_assignment_room(player=player, assignment=assignment)


api_games, play = homework.start_views(
    _start, template="theorems/homework.html", url_name="theorems:homework"
)
