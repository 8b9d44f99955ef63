"""Writes of the shared results: one played game and its players' results.

Every game and the rooms runtime record a finished game through here, so the
shared tables are written by their own app (``tests/foundation/
test_cross_app_writes.py``); the profile statistics, class reports and
homework read what this writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from games.models import GameRecord, GameResult


@dataclass(frozen=True)
class Result:
    """One player's result of a finished game (``player_id`` None: anonymous)."""

    player_id: int | None
    score: int
    rank: int | None = None
    completed: bool = True
    details: Mapping[str, Any] = field(default_factory=dict)


def record_game(
    *,
    game: str,
    mode: str,
    started_at: datetime,
    finished_at: datetime | None,
    results: Iterable[Result],
    classroom: Any = None,
    settings: Mapping[str, Any] | None = None,
) -> tuple[GameRecord, list[GameResult]]:
    """Write a finished game and its results (inside the caller's transaction);
    every result is dated ``finished_at`` (now when it is not known)."""
    record = GameRecord.objects.create(
        game=game,
        mode=mode,
        classroom=classroom,
        settings=dict(settings or {}),
        started_at=started_at,
        finished_at=finished_at,
    )
    written = GameResult.objects.bulk_create(
        GameResult(
            record=record,
            player_id=result.player_id,
            score=result.score,
            rank=result.rank,
            completed=result.completed,
            details=dict(result.details),
            finished_at=finished_at or timezone.now(),
        )
        for result in results
    )
    return record, written
