"""Reads about a player: consent state, stats, and the full export of their data."""

import csv
import io
from datetime import date, timedelta

from django.db.models import Avg, Count, IntegerField, Max, Min, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from accounts.models import PlayerProfile, PublicationConsent
from games.models import GameResult


def current_consent(player: PlayerProfile) -> PublicationConsent | None:
    return player.consents.order_by("-created_at", "-pk").first()


def has_publication_consent(player: PlayerProfile | None) -> bool:
    if player is None:
        return False
    answer = current_consent(player)
    return bool(answer and answer.granted)


def _daily_streak(days: list, today) -> int:
    """Consecutive days ending today or yesterday with a finished daily challenge."""
    played = set(days)
    day = today if today in played else today - timedelta(days=1)
    streak = 0
    while day in played:
        streak += 1
        day -= timedelta(days=1)
    return streak


def player_stats(player: PlayerProfile) -> dict:
    """Stats per game. ``GameResult.details`` conventions (docs/decisions.md):
    ``duration_s`` for the game time, ``outcome`` win/loss/draw for duels,
    ``day`` (ISO date) for a daily challenge."""
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
    poker = results.filter(record__game="poker")
    modes = {
        row["record__mode"]: row["best"]
        for row in poker.values("record__mode").annotate(best=Max("score"))
    }
    fastest = (
        poker.filter(completed=True, record__mode__in=["easy", "hard", "ranked", "daily"])
        .exclude(details__duration_s=None)
        .aggregate(fastest=Min(Cast(KT("details__duration_s"), IntegerField())))["fastest"]
    )
    duel = {
        outcome: poker.filter(record__mode="duel", details__outcome=outcome).count()
        for outcome in ("win", "loss", "draw")
    }
    daily_days = sorted(
        {
            date.fromisoformat(day)
            for day in poker.filter(record__mode="daily")
            .exclude(details__day=None)
            .values_list("details__day", flat=True)
        }
    )
    return {
        "games": per_game,
        "poker": {
            "best": per_game.get("poker", {}).get("best"),
            "easy_record": modes.get("easy"),
            "hard_record": modes.get("hard"),
            "completed": per_game.get("poker", {}).get("completed", 0),
            "fastest_s": fastest,
            "daily_streak": _daily_streak(daily_days, timezone.localdate()),
            "duel": duel,
        },
    }


def export_profile(player: PlayerProfile) -> dict:
    """Everything stored about the profile, for the JSON/CSV download."""
    return {
        "profile": {
            "nickname": player.nickname,
            "profile_code": player.code,
            "created_at": player.created_at.isoformat(),
            "last_seen_at": player.last_seen_at.isoformat(),
            "nickname_hidden": player.nickname_hidden,
            "browsers": player.browsers.count(),
        },
        "consents": [
            {
                "granted": answer.granted,
                "text_version": answer.text_version,
                "language": answer.language,
                "text": answer.text,
                "time": answer.created_at.isoformat(),
            }
            for answer in player.consents.order_by("created_at", "pk")
        ],
        "classes": [
            {
                "class": membership.classroom.name,
                "roster_name": membership.roster_name,
                "status": membership.status,
                "joined_at": membership.joined_at.isoformat(),
            }
            for membership in player.memberships.select_related("classroom")
        ],
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
        ],
    }


def export_profile_csv(player: PlayerProfile) -> str:
    """The same data as rows: section, time, and the section's fields as key=value."""
    data = export_profile(player)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["section", "time", "field", "value"])
    for key, value in data["profile"].items():
        writer.writerow(["profile", data["profile"]["created_at"], key, value])
    sections = (("consents", "time"), ("classes", "joined_at"), ("results", "finished_at"))
    for section, time_key in sections:
        for index, row in enumerate(data[section]):
            for key, value in row.items():
                if key != time_key:
                    writer.writerow([f"{section}[{index}]", row[time_key], key, value])
    return buffer.getvalue()
