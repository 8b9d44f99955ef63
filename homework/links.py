"""Links other apps add to the teacher's homework page, so homework never imports them.

An app registers a provider from its ``ready()``: a callable taking the
``Assignment`` and returning ``(label, url)`` pairs (none when it has nothing
to say about that assignment). The teacher's class table shows them beside the
downloads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Assignment

Provider = Callable[["Assignment"], Iterable[tuple[str, str]]]

_PROVIDERS: list[Provider] = []


def register(provider: Provider) -> None:
    if provider not in _PROVIDERS:
        _PROVIDERS.append(provider)


def for_teacher(assignment: Assignment) -> list[tuple[str, str]]:
    return [link for provider in _PROVIDERS for link in provider(assignment)]
