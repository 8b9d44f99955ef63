"""Poker's part of a player's profile statistics (declared in ``game.py``).

``GameResult.details`` conventions (docs/decisions.md): ``duration_s`` for the
game time, ``difficulty`` easy/hard for ranked and daily games, ``outcome``
win/loss/draw for duels, ``day`` (ISO date) for a daily challenge.

The easy and hard records count every server-led poker game played by those
rules: easy/hard games, ranked games by their difficulty, and the daily
challenge (easy rules). The fastest game is a completed solo game.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import Count, FloatField, Max, Min, Q, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from accounts.models import PlayerProfile
from games.models import GameResult


def _daily_streak(days: list, today: date) -> int:
    """Consecutive days ending today or yesterday with a finished daily challenge."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    streak = 0
    while day in played:
        streak += 1
        day -= timedelta(days=1)
    return streak


def daily_streak(player: PlayerProfile, *, today: date | None = None) -> int:
    """The player's current daily-challenge streak (``details.day`` of daily results)."""
    days = {
        date.fromisoformat(day)
        for day in GameResult.objects.filter(
            player=player, record__game="poker", record__mode="daily"
        )
        .exclude(details__day=None)
        .values_list("details__day", flat=True)
    }
    return _daily_streak(sorted(days), today or timezone.localdate())


def profile_stats(results: QuerySet, *, player: PlayerProfile, today: date | None = None) -> dict:
    """The player's poker records from their poker ``results``."""
    easy = (
        Q(record__mode="easy")
        | Q(record__mode="daily")
        | Q(record__mode="ranked", details__difficulty="easy")
    )
    hard = Q(record__mode="hard") | Q(record__mode="ranked", details__difficulty="hard")
    records = results.aggregate(
        best_score=Max("score"),
        completed_count=Count("id", filter=Q(completed=True)),
        easy=Max("score", filter=easy),
        hard=Max("score", filter=hard),
        fastest=Min(
            Cast(KT("details__duration_s"), FloatField()),
            filter=Q(completed=True, record__mode__in=["easy", "hard", "ranked", "daily"])
            & Q(details__has_key="duration_s"),
        ),
    )
    duel = {
        outcome: results.filter(record__mode="duel", details__outcome=outcome).count()
        for outcome in ("win", "loss", "draw")
    }
    # Games against the robot count beside the duels, never mixed into them.
    robot = {
        outcome: results.filter(record__mode="robot", details__outcome=outcome).count()
        for outcome in ("win", "loss", "draw")
    }
    return {
        "best": records["best_score"],
        "easy_record": records["easy"],
        "hard_record": records["hard"],
        "completed": records["completed_count"],
        "fastest_s": records["fastest"],
        "daily_streak": daily_streak(player, today=today),
        "duel": duel,
        "robot": robot,
    }
