"""Human names of stored game slugs and modes, from the game registry."""

from django import template

from core import registry

register = template.Library()


@register.filter
def game_name(slug: str) -> str:
    """``{{ room.game|game_name }}``: the game's name in the active language."""
    return registry.name(slug)


@register.simple_tag
def mode_name(game: str, mode: str) -> str:
    """``{% mode_name room.game room.mode %}``: the mode's name as the game calls it."""
    spec = registry.get(game)
    return spec.mode_name(mode) if spec else mode
