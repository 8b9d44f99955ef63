"""Mathesso pages: start a table or solo practice, the rules per variant, the tile catalogue.

Views stay thin: the form validates, the rooms services create (and for solo
practice start) the room, and the game itself runs on the room page over the
WebSocket (``adapter.py``, ``games/mathesso/static/mathesso/board.js``).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.errors import AccountsError
from accounts.requests import PlayerRequest
from core.errors import DomainError
from games.mathesso import services
from games.mathesso.forms import GameForm
from games.mathesso.presentation import (
    EXTENSION_TITLES,
    GROUP_HOWTO,
    GROUP_TITLES,
    face_svg,
    localised_catalogue,
    with_pictures,
)
from games.mathesso.rules import VARIANT_NAMES, data, score_pairs
from games.mathesso.rules.tiles import EXTENSION_BY_NAME
from games.rooms import opening
from games.rooms import selectors as room_selectors
from games.rooms.errors import RoomError

# The seed's scoring examples, shown (and computed) on the rules page.
SCORING_EXAMPLES = (
    ("fib:21", "mult:3x7"),
    ("square:4", "mult:2x8"),
    ("mult:3x4", "zero:12a"),
    ("cjv:1", "cjv:3"),
)


def _forms(
    request: HttpRequest, *, table: GameForm | None = None, solo: GameForm | None = None
) -> dict:
    return {
        "table_form": table or GameForm(prefix="table"),
        "solo_form": solo or GameForm(prefix="solo"),
        "variants": data.VARIANTS,
    }


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "mathesso/index.html", _forms(request))


def _create(request: PlayerRequest, mode: str) -> HttpResponse:
    form = GameForm(request.POST, prefix="solo" if mode == "solo" else "table")
    if form.is_valid():
        try:
            opened = opening.open_from_request(
                request,
                game="mathesso",
                mode=mode,
                settings=form.cleaned_data["settings"],
                start=mode == "solo",
                nickname=form.cleaned_data.get("nickname", ""),
            )
        except AccountsError as error:
            form.add_error("nickname", error.message)
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            return opening.to_room(opened)
    forms = {"solo": form} if mode == "solo" else {"table": form}
    return render(request, "mathesso/index.html", _forms(request, **forms), status=400)


@require_POST
def create_table(request: PlayerRequest) -> HttpResponse:
    return _create(request, "table")


@require_POST
def create_solo(request: PlayerRequest) -> HttpResponse:
    return _create(request, "solo")


@require_POST
def change_settings(request: PlayerRequest, code: str) -> HttpResponse:
    """The host picks another variant before the start (e.g. a table opened for a class)."""
    room = room_selectors.room_by_code(code)
    if room is None or room.game != "mathesso" or request.player is None:
        raise Http404(_("There is no room with this code."))
    form = GameForm(request.POST, prefix="lobby")
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    else:
        try:
            services.change_settings(
                room_id=room.pk, actor=request.player, settings=form.cleaned_data["settings"]
            )
        except RoomError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The settings are saved."))
    return redirect("rooms:room", code=room.code)


def catalogue_json(request: HttpRequest) -> JsonResponse:
    """The whole digital box with names in the page's language (public: no positions)."""
    response = JsonResponse(with_pictures(localised_catalogue()))
    response["Cache-Control"] = "public, max-age=3600"
    response["Vary"] = "Accept-Language, Cookie"
    return response


def rules(request: HttpRequest, variant: str = "pico") -> HttpResponse:
    """The rules of one variant, generated from the tile data (every tile shown)."""
    if variant not in VARIANT_NAMES:
        raise Http404(_("There is no such variant."))
    position = VARIANT_NAMES.index(variant)
    allowed = [
        name
        for name, ext in EXTENSION_BY_NAME.items()
        if position >= VARIANT_NAMES.index(ext.from_variant)
    ]
    base = localised_catalogue(variant)
    full = localised_catalogue(variant, allowed)
    base_faces = set(base["faces"])
    groups = []
    for group in full["groups"]:
        faces = [
            {
                "id": face_id,
                "points": face["points"],
                "extension": face_id not in base_faces,
                "tiles": [
                    {"bw": look["bw"], "svg": face_svg(look, f"r-{face_id}-{i}".replace(":", "-"))}
                    for i, look in enumerate(face["tiles"])
                ],
            }
            for face_id, face in full["faces"].items()
            if face["group"] == group["name"]
        ]
        if faces:
            groups.append(
                {
                    **group,
                    "howto": GROUP_HOWTO[group["name"]],
                    "faces": faces,
                    "in_base": any(not f["extension"] for f in faces),
                }
            )
    examples = [
        {
            "faces": [
                {
                    "id": face_id,
                    "svg": face_svg(
                        localised_catalogue()["faces"][face_id]["tiles"][0],
                        f"ex{n}-{face_id}".replace(":", "-"),
                    ),
                }
                for face_id in faces
            ],
            "score": score_pairs(faces),
        }
        for n, faces in enumerate(SCORING_EXAMPLES)
    ]
    context = {
        "variant": next(v for v in full["variants"] if v["name"] == variant),
        "variants": base["variants"],
        "counts": base["counts"],
        "full_counts": full["counts"],
        "extensions": [
            {**e, "label": EXTENSION_TITLES[e["name"]]}
            for e in full["extensions"]
            if e["name"] in allowed
        ],
        "groups": groups,
        "group_titles": GROUP_TITLES,
        "ruler": base["ruler"],
        "examples": examples,
        "sheldon": base["sheldon"],
    }
    return render(request, "mathesso/rules.html", context)
