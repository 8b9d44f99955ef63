"""Mathesso solo as homework (``GameSpec.assignable``): every pupil of an
assignment plays the same solo practice game -- the same tiles in the same
places -- in a one-seat room of the ``solo`` mode.

The room's random seed (``Room.rng_seed``; the layout seed is drawn from the
runtime's ``rng``, which derives from it) is HMAC-SHA256(server secret, the
assignment's key) instead of a fresh random number: the same for every pupil,
not computable without the secret, never sent (the view never holds the face
of a face-down tile). The game ends through the runtime's usual finish, which
tells the homework gate (``Assignable.room_mode``).

In solo practice every finished game holds every pair, so the homework score is
how well the pupil remembered: pairs found per turn, in percent, counted over
at least as many turns as there are pairs (``homework_score``) -- 100 for a
game without a wasted turn, less for every turn that found nothing, and a game
ended early scores only the pairs it found.

The homework app sits above the games: this module reaches it only through the
rooms runtime's ``games/rooms/homework.py`` (the gate, ``core.registry.assignments()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.assignments import settings_object
from games.rooms import homework

from .adapter import DEFAULT_VARIANT
from .adapter import clean_settings as clean_room_settings
from .rules import VARIANT_NAMES, build_tiles

GAME = "mathesso"
MODE = "solo"


def clean_settings(settings: Any) -> dict[str, Any]:
    """``{"variant"}``: which box of tiles every pupil plays."""
    settings = settings_object(settings, {"variant"})
    variant = settings.get("variant") or DEFAULT_VARIANT
    if variant not in VARIANT_NAMES:
        raise ValidationError(_("Choose one of the variants."), code="bad_variant")
    return {"variant": variant}


def setting_fields() -> list[tuple[str, Any, list | None, Any]]:
    from .forms import variant_choices

    return [("variant", gettext_lazy("Variant"), variant_choices(), DEFAULT_VARIANT)]


def full_marks(settings: Any) -> int:
    """The homework score is a percentage: 100 is a game without a wasted turn."""
    return 100


def homework_score(result: Any) -> int | None:
    """Pairs found per turn, in percent, over at least as many turns as pairs."""
    details = result.details or {}
    pairs, turns = details.get("pairs"), details.get("turns")
    if not isinstance(pairs, int) or not isinstance(turns, int):
        return result.score
    total = len(build_tiles(details.get("variant", DEFAULT_VARIANT), details.get("extensions", ())))
    return round(100 * pairs / max(turns, total // 2, 1))


def room_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The solo room's settings for the homework's settings."""
    return clean_room_settings({"variant": settings.get("variant")})


#: (player=, assignment=) -> the pupil's solo room, new (True) or continued (False).
start_assignment_room = partial(
    homework.start_assignment_room, game=GAME, mode=MODE, room_settings=room_settings
)


def play_url(assignment_id: int) -> str:
    return reverse("mathesso:homework", args=[assignment_id])
