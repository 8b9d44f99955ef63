"""The public tables (docs/leaderboards.md): publish, withdraw, moderate.

A finished ranked board or daily attempt is published in the same transaction
that records it, and only when ``selectors.may_publish`` allows it at that
moment (consent, class, moderation).
"""

from typing import Any

from django.db import connection, transaction

from accounts.models import PlayerProfile
from games.models import GameResult

from .. import selectors
from ..models import DailyAttempt, DailyChallenge, LeaderboardEntry, SoloGame
from ..periods import period_bounds, period_keys


def publish(*, game: SoloGame, result: GameResult, now: float) -> None:
    """Put a just-recorded result on its public table when everything allows it."""
    duration_ms = round(result.details["duration_s"] * 1000)
    if game.mode == SoloGame.Mode.DAILY:
        _finish_daily_attempt(game=game, result=result, duration_ms=duration_ms)
        return
    if game.mode != SoloGame.Mode.RANKED or not result.completed:
        return
    if not selectors.may_publish(game.player):
        return
    game.published = True
    game.save(update_fields=["published"])
    upsert_entries(game=game, score=result.score, duration_ms=duration_ms)


def _finish_daily_attempt(*, game: SoloGame, result: GameResult, duration_ms: int) -> None:
    attempt = DailyAttempt.objects.select_for_update().filter(game=game).first()
    if attempt is None:
        return
    frozen = (
        game.day is not None
        and DailyChallenge.objects.filter(day=game.day, frozen_at__isnull=False).exists()
    )
    attempt.finished_at = game.finished_at
    attempt.score = result.score
    attempt.duration_ms = duration_ms
    attempt.published = not frozen and selectors.may_publish(game.player)
    attempt.save(update_fields=["finished_at", "score", "duration_ms", "published"])
    if attempt.published:
        game.published = True
        game.save(update_fields=["published"])


_UPSERT = """
INSERT INTO {table} AS entry
    (period, player_id, game_id, score, duration_ms, finished_at, difficulty)
VALUES {rows}
ON CONFLICT (period, player_id) DO UPDATE SET
    game_id = EXCLUDED.game_id, score = EXCLUDED.score, duration_ms = EXCLUDED.duration_ms,
    finished_at = EXCLUDED.finished_at, difficulty = EXCLUDED.difficulty
WHERE EXCLUDED.score > entry.score
   OR (EXCLUDED.score = entry.score
       AND (EXCLUDED.duration_ms, EXCLUDED.finished_at) < (entry.duration_ms, entry.finished_at))
"""


def upsert_entries(
    *, game: SoloGame, score: int, duration_ms: int, keys: list[str] | None = None
) -> None:
    """One statement keeps the best row per (period, player), also against a
    concurrent finish of the same player (``ON CONFLICT`` decides, no read first)."""
    assert game.finished_at is not None
    keys = keys if keys is not None else list(period_keys(game.finished_at).values())
    params: list[Any] = []
    for key in keys:
        params += [key, game.player_id, game.pk, score, duration_ms, game.finished_at]
        params.append(game.difficulty)
    rows = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(keys))
    sql = _UPSERT.format(table=LeaderboardEntry._meta.db_table, rows=rows)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@transaction.atomic
def withdraw_public_data(*, player: PlayerProfile) -> None:
    """Remove the player from every public table now (consent withdrawn, stats
    reset, profile deleted, nickname hidden or banned, a class forbids it).

    Their past results stay unpublished even if consent is given again later.
    """
    LeaderboardEntry.objects.filter(player=player).delete()
    SoloGame.objects.filter(player=player, published=True).update(published=False)
    DailyAttempt.objects.filter(player=player, published=True).update(published=False)


def withdraw_players(player_ids: list[int]) -> None:
    """The platform's domain event (``GameSpec.withdraw_public_data``): these
    players leave every public poker table now."""
    for player in PlayerProfile.objects.filter(pk__in=player_ids):
        withdraw_public_data(player=player)


@transaction.atomic
def hide_leaderboard_entry(*, entry_id: int) -> None:
    """Moderation: the entry's game leaves the leaderboards; in each period the
    player's next best published ranked game (if any) takes its place."""
    entry = LeaderboardEntry.objects.select_for_update().filter(pk=entry_id).first()
    if entry is None:
        return
    game = SoloGame.objects.select_for_update().get(pk=entry.game_id)
    game.leaderboard_hidden = True
    game.save(update_fields=["leaderboard_hidden"])
    assert game.finished_at is not None
    keys = list(period_keys(game.finished_at).values())
    LeaderboardEntry.objects.filter(player_id=entry.player_id, game=game).delete()
    for key in keys:
        _refill_entry(player_id=entry.player_id, key=key)


def _refill_entry(*, player_id: int, key: str) -> None:
    if LeaderboardEntry.objects.filter(player_id=player_id, period=key).exists():
        return
    start, end = period_bounds(key)
    games = SoloGame.objects.filter(
        player_id=player_id, mode="ranked", published=True, leaderboard_hidden=False
    )
    if start is not None:
        games = games.filter(finished_at__gte=start, finished_at__lt=end)
    results = GameResult.objects.filter(
        record__poker_solo_game__in=games, completed=True
    ).select_related("record__poker_solo_game")
    best = min(
        results,
        key=lambda r: (-r.score, r.details["duration_s"], r.finished_at),
        default=None,
    )
    if best is not None:
        upsert_entries(
            game=best.record.poker_solo_game,
            score=best.score,
            duration_ms=round(best.details["duration_s"] * 1000),
            keys=[key],
        )


@transaction.atomic
def hide_daily_attempt(*, attempt_id: int) -> None:
    """Moderation: take one attempt off its table of the day."""
    DailyAttempt.objects.filter(pk=attempt_id).update(published=False)
