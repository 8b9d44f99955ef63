"""Template helpers for the Mathesso board inside the (game-agnostic) room page."""

from __future__ import annotations

from typing import Any

from django import template

from games.mathesso.forms import GameForm

register = template.Library()


@register.inclusion_tag("mathesso/_settings_form.html", takes_context=True)
def lobby_settings_form(context: Any, room: Any) -> dict:
    """The host's form to change the variant before the start, filled with the current settings."""
    settings = room.settings or {}
    points = settings.get("points")
    form = GameForm(
        prefix="lobby",
        initial={
            "variant": settings.get("variant", "pico"),
            "extensions": settings.get("extensions", []),
            "points": "on" if points else "off",
        },
    )
    return {"form": form, "room": room, "csrf_token": context.get("csrf_token")}
