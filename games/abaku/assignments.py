"""Abaku solo as homework (``GameSpec.assignable``): every pupil of an
assignment plays the same solo game -- alone, or against one robot -- in a
one-seat room of the ``solo`` mode, with the same bag.

The room's random seed (``Room.rng_seed``, from which the rooms runtime derives
the engine's seed and so the bag order) is HMAC-SHA256(server secret, the
assignment's key) instead of a fresh random number: the same for every pupil,
not computable without the secret, and like every room's seed never sent
anywhere (the engine's view has no bag order and no seed). The game's end goes
through the runtime's usual finish, which tells the homework gate
(``Assignable.room_mode``). Hints only when the homework allows practice; the
after-game review only once the homework allows it (``views.py``).

The homework app sits above the games: this module reaches it only through the
rooms runtime's ``games/rooms/homework.py`` (the gate, ``core.registry.assignments()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import registry
from core.assignments import settings_object
from core.errors import DomainError
from games.rooms import homework
from games.rooms.models import Room

from .adapter import clean_settings as clean_room_settings
from .rules import DEFAULT_LEVEL, LAYOUTS, LEVELS, current_level

GAME = "abaku"
MODE = "solo"
OPPONENTS = ("none", "robot")


def clean_settings(settings: Any) -> dict[str, Any]:
    """``{"opponent": "none"|"robot", "robot_level", "layout"}``: practice alone
    or against one robot of a level, on the standard or the plain board."""
    settings = settings_object(settings, {"opponent", "robot_level", "layout"})
    opponent = settings.get("opponent", "none")
    if opponent not in OPPONENTS:
        raise ValidationError(_("Choose the opponent: nobody or the robot."), code="bad_opponent")
    level = settings.get("robot_level") or DEFAULT_LEVEL
    # a homework saved with a level id no longer in the ladder plays the kept one
    level = current_level(level)
    if level not in LEVELS:
        raise ValidationError(_("Choose one of the robot levels."), code="bad_robot_level")
    layout = settings.get("layout") or "standard"
    if layout not in LAYOUTS:
        raise ValidationError(_("Choose one of the boards."), code="bad_layout")
    return {
        "opponent": opponent,
        "robot_level": level if opponent == "robot" else None,
        "layout": layout,
    }


#: The default "full marks" point (``Assignable.full_marks``): against the
#: robot, about what the bench's 90th-percentile player scores in a game of two
#: (883 a game, bench/RESULTS-abaku.md); alone a pupil lays every stone, about
#: twice that. An estimate from games of two, not a measurement of solo games.
FULL_MARKS = {"robot": 900, "none": 1800}


def full_marks(settings: Any) -> int:
    return FULL_MARKS.get(settings.get("opponent") or "none", FULL_MARKS["none"])


def setting_fields() -> list[tuple[str, Any, list | None, Any]]:
    from .presentation import robot_levels

    return [
        (
            "opponent",
            gettext_lazy("Opponent"),
            [("none", gettext_lazy("alone")), ("robot", gettext_lazy("against the robot"))],
            "none",
        ),
        ("robot_level", gettext_lazy("Robot level"), robot_levels(), DEFAULT_LEVEL),
        (
            "layout",
            gettext_lazy("Board"),
            [("standard", gettext_lazy("standard")), ("plain", gettext_lazy("plain"))],
            "standard",
        ),
    ]


def room_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The solo room's settings for the homework's settings."""
    return clean_room_settings(
        {
            "table_size": 2 if settings.get("opponent") == "robot" else 1,
            "robot_level": settings.get("robot_level") or DEFAULT_LEVEL,
            "layout": settings.get("layout") or "standard",
        },
        solo=True,
    )


#: (player=, assignment=) -> the pupil's solo room, new (True) or continued (False).
start_assignment_room = partial(
    homework.start_assignment_room, game=GAME, mode=MODE, room_settings=room_settings
)


def is_assignment(room: Room) -> bool:
    return room.mode == MODE and registry.assignments().is_assignment(game=GAME, ref=str(room.pk))


def hints_allowed(room: Room) -> bool:
    return registry.assignments().hints_allowed(game=GAME, ref=str(room.pk))


def pupil_may_review(room: Room) -> bool:
    return registry.assignments().pupil_may_review(game=GAME, ref=str(room.pk))


def play_url(assignment_id: int) -> str:
    return reverse("abaku:homework", args=[assignment_id])


def room_of(ref: str) -> Room | None:
    try:
        return Room.objects.filter(pk=int(ref), game=GAME).first()
    except ValueError:
        return None


REVIEW_CACHE_SECONDS = 6 * 3600


def review_response(request: HttpRequest, ref: str) -> HttpResponse:
    """The move-by-move review of a pupil's homework game, for a teacher of the
    class (the homework app checked that before calling): per turn what was
    played, the best move there was and the points missed."""
    from django.core.cache import cache
    from django.http import Http404
    from django.shortcuts import render

    from .review import game_review

    room = room_of(ref)
    if room is None or room.status != Room.Status.FINISHED or room.host_id is None:
        raise Http404
    key = f"abaku-review:{room.pk}:{room.seq}:{room.host_id}"
    turns = cache.get(key)
    if turns is None:
        try:
            turns = game_review(room.state, player_id=room.host_id)
        except DomainError:
            raise Http404 from None
        cache.set(key, turns, REVIEW_CACHE_SECONDS)
    seat = next((n for n, s in enumerate(room.state["seats"]) if s["player_id"] == room.host_id), 0)
    own = [
        {**turn, "stones": " ".join(str(p[2]) for p in turn["placements"] or [])}
        for turn in turns
        if turn["player"] == seat
    ]
    return render(
        request,
        "abaku/homework_review.html",
        {
            "turns": own,
            "score": sum(turn["score"] for turn in own),
            "missed": sum(turn["missed"] or 0 for turn in own),
            # set by the homework pages: the pupil's roster name and the way back
            "teacher_view": getattr(request, "homework_review", None),
        },
    )
