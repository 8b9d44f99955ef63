"""Homework answers for its tables (``accounts.privacy`` hooks).

- Erasure of a player: their attempts go (score, times, the link to their
  game); the game itself is its game app's row and goes with the profile. An
  attempt whose membership is deleted (the class forgets the pupil) cascades.
- Export of a player: every attempt, with the homework and class it was for.
- A teacher's account: the homework they set is in its export through the
  generic walk of relations to the account (``created_by``); the homework
  belongs to the class and goes with it (``created_by`` is cleared otherwise).
- Retention: nothing of its own -- assignments and attempts are class
  results, kept while the class is (docs/privacy.md).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import PlayerProfile
from accounts.privacy import Erasure, PrivacyHooks

from .models import Attempt


def erase_player(erasure: Erasure) -> None:
    Attempt.objects.filter(player_id=erasure.player_id).delete()


def _moment(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def export_player(player: PlayerProfile) -> dict[str, list[dict[str, Any]]]:
    attempts = (
        Attempt.objects.filter(player=player)
        .select_related("assignment__classroom")
        .order_by("started_at", "pk")
    )
    return {
        "homework": [
            {
                "class": attempt.assignment.classroom.name,
                "homework": attempt.assignment.title,
                "game": attempt.assignment.game,
                "counted": attempt.counted,
                "started_at": _moment(attempt.started_at),
                "finished_at": _moment(attempt.finished_at),
                "late": attempt.late,
                "score": attempt.score,
                "time_spent_s": attempt.duration_s,
            }
            for attempt in attempts
        ]
    }


HOOKS = PrivacyHooks(
    app="homework",
    erase_player=erase_player,
    export_player=export_player,
    exported_relations={"homework.Attempt.player": "homework"},
)
