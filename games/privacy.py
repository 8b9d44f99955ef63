"""The shared game results' part of the privacy jobs and of the profile statistics.

``accounts`` runs the jobs (erasure, export, "reset my statistics") and the
profile page, but sits below ``games`` and never reads ``GameResult`` itself:
this app answers through the hooks it registers (``accounts.privacy``).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Avg, Count, Max, Q

from accounts import privacy
from accounts.erasure import scrub_rows
from accounts.models import PlayerProfile
from accounts.privacy import Erasure, PrivacyHooks
from core import registry
from games.models import GameRecord, GameResult


def scrub_results(erasure: Erasure) -> None:
    """Rewrite the details of every result the player took part in and the
    settings of those games, then detach the player's own results: class
    reports keep the score, not the person."""
    mine = GameResult.objects.filter(player_id=erasure.player_id)
    record_ids = set(mine.values_list("record_id", flat=True))
    results = GameResult.objects.filter(record_id__in=record_ids).select_related("record")
    scrub_rows(results, ["details"], erasure, lambda row: privacy.places_of(row.record.game))
    records = GameRecord.objects.filter(pk__in=record_ids)
    scrub_rows(records, ["settings"], erasure, lambda row: privacy.places_of(row.game))
    mine.update(player=None)


def export_results(player: PlayerProfile) -> dict[str, list[Any]]:
    return {
        "results": [
            {
                "game": result.record.game,
                "mode": result.record.mode,
                "score": result.score,
                "rank": result.rank,
                "completed": result.completed,
                "finished_at": result.finished_at.isoformat(),
                "details": result.details,
            }
            for result in GameResult.objects.filter(player=player)
            .select_related("record")
            .order_by("finished_at", "pk")
        ]
    }


def player_stats(player: PlayerProfile, today: date | None) -> dict[str, Any]:
    """``games``: what every game has (count, best, average, completed) by slug;
    each registered game adds its own part under its slug (``GameSpec.profile_stats``)."""
    results = GameResult.objects.filter(player=player).select_related("record")
    per_game = {
        row["record__game"]: row
        for row in results.values("record__game").annotate(
            games=Count("id"),
            best=Max("score"),
            average=Avg("score"),
            completed=Count("id", filter=Q(completed=True)),
        )
    }
    return {"games": per_game, **registry.profile_stats(results, player=player, today=today)}


def reset_stats(player: PlayerProfile) -> int:
    return GameResult.objects.filter(player=player).update(player=None)


HOOKS = PrivacyHooks(
    app="games",
    erase_player_last=scrub_results,
    export_player=export_results,
    exported_relations={"games.GameResult.player": "results"},
    player_stats=player_stats,
    reset_stats=reset_stats,
)
