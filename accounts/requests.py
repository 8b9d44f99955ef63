"""The request as the project's views see it, for the type checker.

``PlayerIdentityMiddleware`` (accounts/middleware.py) sets ``storage_enabled``,
``browser``, ``player`` and ``player_bound`` on every request; django-stubs' plain
``HttpRequest`` does not know them. A view that reads them takes a ``PlayerRequest``;
a view behind ``login_required`` (or a teacher-only check) that passes
``request.user`` on as a ``User`` takes a ``TeacherRequest``. Nothing here exists
at run time beyond the classes: Django still passes its own ``HttpRequest``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.http import HttpRequest

if TYPE_CHECKING:
    from accounts.models import Browser, PlayerProfile, User


class PlayerRequest(HttpRequest):
    #: whether the visitor allowed the identity cookie
    storage_enabled: bool
    browser: Browser | None
    #: the browser's selected, active profile
    player: PlayerProfile | None
    #: whether ``player`` is a person's own (an LMS identity, a claimed roster entry)
    player_bound: Any
    #: a homework review's context, set by the review page for the game's page
    homework_review: dict[str, Any]


class PupilRequest(PlayerRequest):
    """A request behind ``player_required``: the browser has a profile (and so is
    a known browser: the middleware sets ``player`` only with ``browser``)."""

    player: PlayerProfile
    browser: Browser


class TeacherRequest(PlayerRequest):
    """A request that passed ``login_required``: ``user`` is a signed-in account."""

    user: User
