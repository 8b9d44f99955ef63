"""Template helpers for the Abaku pages."""

import json

from django import template

from games.abaku.presentation import robot_level_names

register = template.Library()


@register.simple_tag
def robot_level_names_json() -> str:
    """The robots' names in the page's language, for the board's seat names."""
    return json.dumps(robot_level_names(), ensure_ascii=False)
