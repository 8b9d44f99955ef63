"""Template helpers for the Abaku pages."""

import json
from typing import Any

from django import template

from games.abaku.presentation import robot_level_names
from games.abaku.review import HINTS_KEY, hints_used

register = template.Library()


@register.simple_tag
def robot_level_names_json() -> str:
    """The robots' names in the page's language, for the board's seat names."""
    return json.dumps(robot_level_names(), ensure_ascii=False)


@register.simple_tag
def abaku_hints_used(room: Any) -> int:  # a rooms Room
    """Hints given in this game so far (only a game without other people has
    any, so the count is the one person's)."""
    state = getattr(room, "state", None)
    if not isinstance(state, dict):
        return 0
    counts = state.get(HINTS_KEY)
    if not isinstance(counts, dict):
        return 0
    return sum(hints_used(state, int(seat)) for seat in counts if str(seat).isdigit())
