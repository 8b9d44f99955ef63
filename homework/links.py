"""Links other apps add to the teacher's homework page, so homework never imports them.

An app registers a provider from its ``ready()``: a callable taking the
``Assignment`` and returning ``(label, url)`` pairs (none when it has nothing
to say about that assignment). The teacher's class table shows them beside the
downloads.
"""

from collections.abc import Callable, Iterable

Provider = Callable[[object], Iterable[tuple[str, str]]]

_PROVIDERS: list[Provider] = []


def register(provider: Provider) -> None:
    if provider not in _PROVIDERS:
        _PROVIDERS.append(provider)


def for_teacher(assignment: object) -> list[tuple[str, str]]:
    return [link for provider in _PROVIDERS for link in provider(assignment)]
