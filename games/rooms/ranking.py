"""Standard competition ranking ("1224"), the one place every game ranks players.

Equal keys share a rank and the next rank skips the shared places: scores 9, 7,
7, 4 rank 1, 2, 2, 4. A key is anything orderable where higher is better -- a
plain score, or a tuple such as ``(still in the game, score)`` so that players
who left rank after everyone who stayed.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """The rank of each key, in input order: 1 + how many keys are strictly higher."""
    ascending = sorted(keys)
    return [1 + len(ascending) - bisect_right(ascending, key) for key in keys]


def ranks_by(keys: Mapping[K, Any]) -> dict[K, int]:
    """``competition_ranks`` for keys held by an id: ``{id: key}`` -> ``{id: rank}``."""
    ids = list(keys)
    return dict(zip(ids, competition_ranks([keys[i] for i in ids]), strict=True))


def ranked(
    entries: Iterable[Mapping[str, Any]], *, key: Callable[[Mapping[str, Any]], Any]
) -> list[dict[str, Any]]:
    """Entries sorted best first (a stable sort: input order breaks display ties),
    each a copy with its ``rank``."""
    ordered = sorted(entries, key=key, reverse=True)
    ranks = competition_ranks([key(entry) for entry in ordered])
    return [{**entry, "rank": rank} for entry, rank in zip(ordered, ranks, strict=True)]
