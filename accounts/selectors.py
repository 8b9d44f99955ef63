"""Reads about a player: consent state, stats, and the full export of their data."""

import csv
import io
from datetime import date

from django.db.models import Avg, Count, Max, Q

from accounts.models import PlayerProfile, PublicationConsent
from games import registry as game_registry
from games.models import GameResult


def account_player(user) -> PlayerProfile | None:
    """A logged-in teacher's own player profile (it hosts their class games).

    It comes from the session, never from the browser's identity cookie: it is
    not listed among the browser's profiles, and logging out ends it."""
    if user is None or not user.is_authenticated or not user.player_id:
        return None
    player = user.player
    return player if player.is_active else None


def current_consent(player: PlayerProfile) -> PublicationConsent | None:
    return player.consents.order_by("-created_at", "-pk").first()


def has_publication_consent(player: PlayerProfile | None) -> bool:
    if player is None:
        return False
    answer = current_consent(player)
    return bool(answer and answer.granted)


def player_stats(player: PlayerProfile, *, today: date | None = None) -> dict:
    """Stats per game -- the one source of them. ``games`` holds what every game
    has (count, best, average, completed); each registered game adds its own
    part under its slug (``GameSpec.profile_stats``; a game's hub reads
    ``stats[slug]``)."""
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
    return {
        "games": per_game,
        **game_registry.profile_stats(results, player=player, today=today),
    }


def profile_stats_sections(stats: dict) -> list[tuple[str, str, dict]]:
    """(game name, template, that game's stats) for the profile page, in catalogue order."""
    return [
        (str(spec.name), spec.profile_stats.template, stats[spec.slug])
        for spec in game_registry.games()
        if spec.profile_stats is not None and spec.slug in stats
    ]


# Rows other apps keep about a player are exported generically (see
# ``_other_rows``); these hold secrets or are exported above in their own shape.
EXPORTED_ELSEWHERE = {
    "accounts.User",
    "accounts.Browser",
    "accounts.PublicationConsent",
    "classrooms.Membership",
    "games.GameResult",
}
SECRET_FIELDS = {"password", "token_hash", "state", "rng_seed", "seed"}


def _plain(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (str, int, float, bool, list, dict)) or value is None:
        return value
    return str(value)


def _other_rows(player: PlayerProfile) -> dict[str, list[dict]]:
    """Every other row that points at the player, whatever app stores it, minus
    secrets (undealt decks, seeds, token hashes) that would spoil games or identity."""
    sections: dict[str, list[dict]] = {}
    for relation in PlayerProfile._meta.related_objects:
        model = relation.related_model
        if model._meta.label in EXPORTED_ELSEWHERE or relation.many_to_many:
            continue
        rows = []
        for row in model._default_manager.filter(**{relation.field.name: player}):
            rows.append(
                {
                    field.attname: _plain(getattr(row, field.attname))
                    for field in model._meta.concrete_fields
                    if field.name not in SECRET_FIELDS and field.name != relation.field.name
                }
            )
        if rows:
            sections[f"{model._meta.label}.{relation.field.name}"] = rows
    return sections


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
        "other": _other_rows(player),
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
    for section, rows in data["other"].items():
        for index, row in enumerate(rows):
            for key, value in row.items():
                writer.writerow([f"{section}[{index}]", "", key, value])
    return buffer.getvalue()
