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

The homework app sits above the games: this module reaches it only through
``games.registry.assignments()``.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import PlayerProfile
from games import registry
from games.rooms import lifecycle
from games.rooms.models import Room, Seat

from .adapter import DEFAULT_VARIANT
from .adapter import clean_settings as clean_room_settings
from .rules import VARIANT_NAMES, build_tiles

GAME = "mathesso"
MODE = "solo"
_PREFIX = b"mathesso-assignment:"


def clean_settings(settings: Any) -> dict[str, Any]:
    """``{"variant"}``: which box of tiles every pupil plays."""
    if not isinstance(settings, dict):
        raise ValidationError(_("The settings must be an object."), code="bad_settings")
    unknown = set(settings) - {"variant"}
    if unknown:
        raise ValidationError(
            _("Unknown settings: %(names)s") % {"names": ", ".join(sorted(map(str, unknown)))},
            code="bad_settings",
        )
    variant = settings.get("variant") or DEFAULT_VARIANT
    if variant not in VARIANT_NAMES:
        raise ValidationError(_("Choose one of the variants."), code="bad_variant")
    return {"variant": variant}


def setting_fields() -> list[tuple[str, Any, list | None, Any]]:
    from .forms import variant_choices

    return [("variant", gettext_lazy("Variant"), variant_choices(), DEFAULT_VARIANT)]


def homework_score(result: Any) -> int | None:
    """Pairs found per turn, in percent, over at least as many turns as pairs."""
    details = result.details or {}
    pairs, turns = details.get("pairs"), details.get("turns")
    if not isinstance(pairs, int) or not isinstance(turns, int):
        return result.score
    total = len(build_tiles(details.get("variant", DEFAULT_VARIANT), details.get("extensions", ())))
    return round(100 * pairs / max(turns, total // 2, 1))


def assignment_seed(key: str) -> int:
    """HMAC-SHA256(server secret, key), 62 bits like every room's seed."""
    digest = hmac.new(
        django_settings.SECRET_KEY.encode(), _PREFIX + key.encode(), hashlib.sha256
    ).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def start_assignment_room(*, player: PlayerProfile | None, assignment: object) -> tuple[Room, bool]:
    """The pupil's game of ``assignment``: a new solo room (True), or their
    unfinished one continued (False) -- from any device of the same profile."""
    if player is None:
        raise registry.AssignmentRefused(
            "no_profile", _("Choose a nickname first so your games can be recorded."), 403
        )
    gate = registry.assignments()
    with transaction.atomic():
        ticket = gate.begin(game=GAME, assignment_id=assignment, player=player)
        if ticket.resume is not None:
            room = Room.objects.filter(
                pk=int(ticket.resume), game=GAME, status=Room.Status.RUNNING
            ).first()
            if (
                room is not None
                and room.seats.filter(player=player, status=Seat.Status.JOINED).exists()
            ):
                return room, False
        room = lifecycle.create_room(
            game=GAME,
            mode=MODE,
            host=player,
            settings=clean_room_settings({"variant": ticket.settings.get("variant")}),
        )
        Room.objects.filter(pk=room.pk).update(rng_seed=assignment_seed(ticket.key))
        room.refresh_from_db()
        lifecycle.start_room(room=room, actor=player)
        room.refresh_from_db()
        gate.attach(attempt_id=ticket.attempt_id, ref=str(room.pk))
    return room, True


def play_url(assignment_id: int) -> str:
    return reverse("mathesso:homework", args=[assignment_id])
