from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from core import registry


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"games": registry.games()})


@require_safe
@cache_control(public=True, max_age=3600)
def colours_css(request: HttpRequest) -> HttpResponse:
    """Each registered game's colour as CSS (``.game-<slug>``), from the registry, so
    the shared style sheet never names a game and the CSP needs no inline styles."""
    rules = [
        f".game-{spec.slug} {{ --game-colour: {spec.colour}; border-top: 6px solid {spec.colour}; }}"
        for spec in registry.games()
    ]
    return HttpResponse("\n".join(rules) + "\n", content_type="text/css; charset=utf-8")
