"""Writes for server-led solo poker: start a game, act in it, record and publish its end.

Each public function is one user intent in one transaction. The game row is
locked (``select_for_update``) while the engine applies the action, so two
requests of the same player cannot interleave; other players' rows are never
touched. Time comes in as ``now`` (epoch seconds) so hard-mode forfeits are
decided from stored timestamps, whichever process handles the request.

Public tables (docs/leaderboards.md): a finished ranked board or daily attempt
is published in the same transaction that records it, and only when
``selectors.may_publish`` allows it at that moment (consent, class, moderation).
"""

import secrets
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from accounts.models import Browser, PlayerProfile
from games.models import GameRecord, GameResult

from . import coach_advice, coach_robot, selectors
from .errors import RULE_MESSAGES, PokerError
from .models import DailyAttempt, DailyChallenge, LeaderboardEntry, SoloGame
from .periods import period_bounds, period_keys
from .rules import (
    DEFAULT_TABLE,
    EASY,
    HARD,
    TABLE_NAMES,
    IllegalMove,
    PokerGame,
    daily_date,
    daily_deck,
)
from .rules.deck import seeded_deck
from .rules.state import MAX_SECONDS, MIN_SECONDS

#: Actions the browser may send; ``advance`` only applies what time decided.
ACTIONS = ("place", "use_joker", "keep_joker", "place_kept_joker", "advance")
#: What the start request may ask for (``SoloGame.Mode``).
KINDS = ("easy", "hard", "ranked", "daily", "robot")
#: An unfinished game untouched this long is abandoned (``cleanup_abandoned_games``).
ABANDONED_AFTER = timedelta(hours=24)


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def daily_secret() -> str:
    """The server secret of the daily deck (never in the repository): the
    ``POKER_DAILY_SECRET`` setting, or ``SECRET_KEY`` when that is not set."""
    return settings.POKER_DAILY_SECRET or settings.SECRET_KEY


def _parse_seconds(seconds_per_card: object) -> int:
    if isinstance(seconds_per_card, str) and seconds_per_card.strip().isdigit():
        seconds_per_card = int(seconds_per_card)
    if type(seconds_per_card) is not int or not MIN_SECONDS <= seconds_per_card <= MAX_SECONDS:
        raise PokerError(
            "bad_seconds",
            _("Seconds per number must be a whole number from %(min)d to %(max)d.")
            % {"min": MIN_SECONDS, "max": MAX_SECONDS},
        )
    return seconds_per_card


def _parse_settings(
    *, mode: object, difficulty: object, table: object, seconds_per_card: object
) -> tuple[str, str, str, int | None]:
    """(kind, engine difficulty, table, seconds). Ranked and daily games always use
    the default table so their scores compare; the daily game is always easy."""
    if mode not in KINDS:
        raise PokerError("bad_mode", _("Choose the easy or the hard game."))
    if mode == "daily":
        return "daily", EASY, DEFAULT_TABLE, None
    if mode == "robot":
        # Against the robot: easy rules, any table (never on a public table).
        table = DEFAULT_TABLE if table in (None, "") else table
        if table not in TABLE_NAMES:
            raise PokerError("bad_table", _("Unknown scoring table."))
        return "robot", EASY, str(table), None
    if mode == "ranked":
        if difficulty not in (EASY, HARD):
            raise PokerError("bad_difficulty", _("Choose the difficulty: easy or hard."))
        table = DEFAULT_TABLE
    else:
        difficulty = mode
        table = DEFAULT_TABLE if table in (None, "") else table
        if table not in TABLE_NAMES:
            raise PokerError("bad_table", _("Unknown scoring table."))
    if difficulty == EASY:
        return str(mode), EASY, str(table), None
    return str(mode), HARD, str(table), _parse_seconds(seconds_per_card)


def start_solo_game(
    *,
    player: PlayerProfile | None,
    storage_enabled: bool,
    mode: object,
    table: object = None,
    seconds_per_card: object = None,
    difficulty: object = None,
    replay: bool = False,
    level: object = None,
    now: float,
    browser: Browser | None = None,
) -> SoloGame:
    """Deal a new server-led game: a secretly seeded deck, or the day's deck.

    ``browser``: the browser asking; the day's counted attempt is one per
    browser as well as one per profile.

    Without saving or without a profile nothing could be recorded, so the
    server refuses; the browser then plays easy/hard itself, while ranked and
    daily games explain that they need both.
    """
    if not storage_enabled:
        raise PokerError(
            "storage_off", _("Saving is off: this game is played in your browser."), 403
        )
    if player is None:
        raise PokerError(
            "no_profile", _("Choose a nickname first so your games can be recorded."), 403
        )
    kind, difficulty, table, seconds = _parse_settings(
        mode=mode, difficulty=difficulty, table=table, seconds_per_card=seconds_per_card
    )
    moment = _moment(now)
    if kind == "daily":
        return _start_daily(player=player, browser=browser, replay=bool(replay), now=now)
    robot = None
    if kind == "robot":
        if level not in coach_robot.LEVELS:
            raise PokerError("bad_level", _("Choose the robot: beginner, greedy or coach."))
        robot = coach_robot.new_robot(str(level))
    deck = seeded_deck(secrets.randbits(256), table)
    engine = PokerGame.new(
        table=table, mode=difficulty, seconds_per_card=seconds, deck=deck, now=now
    )
    return SoloGame.objects.create(
        player=player,
        mode=kind,
        difficulty=difficulty,
        table=table,
        seconds_per_card=seconds,
        state=engine.to_dict(),
        robot=robot,
        created_at=moment,
        updated_at=moment,
    )


def _start_daily(
    *, player: PlayerProfile, browser: Browser | None, replay: bool, now: float
) -> SoloGame:
    """The day's one attempt, or (after it) a replay of the same deck that is not recorded.

    The attempt row is inserted in a savepoint; a second attempt -- also one
    racing from another tab -- fails on a unique constraint and is refused: one
    per profile, and one per browser whichever of its profiles is selected, so
    a second profile cannot play the day's numbers first and the real one
    after it (issue 27 §2). A replay needs the profile's own finished attempt.
    """
    moment = _moment(now)
    day = daily_date(moment)
    with transaction.atomic():
        challenge = publish_daily_challenge(day=day, now=now)
        engine = PokerGame.new(
            table=challenge.table,
            mode=EASY,
            deck=daily_deck(day, daily_secret(), challenge.table),
            now=now,
        )
        game = SoloGame(
            player=player,
            mode=SoloGame.Mode.DAILY,
            difficulty=EASY,
            table=challenge.table,
            day=day,
            replay=replay,
            state=engine.to_dict(),
            created_at=moment,
            updated_at=moment,
        )
        if replay:
            attempt = DailyAttempt.objects.filter(player=player, day=day).first()
            if attempt is None or attempt.finished_at is None:
                raise PokerError(
                    "daily_not_played",
                    _("Play today's challenge first; then you can replay its numbers."),
                    409,
                )
            game.save()
            return game
        game.save()
        try:
            with transaction.atomic():
                DailyAttempt.objects.create(
                    player=player, browser=browser, day=day, game=game, started_at=moment
                )
        except IntegrityError:
            raise _daily_used(player=player, day=day) from None
    return game


def _daily_used(*, player: PlayerProfile, day: date) -> PokerError:
    attempt = DailyAttempt.objects.filter(player=player, day=day).first()
    if attempt is None:
        # The profile has no attempt: the browser's attempt was made by another profile.
        return PokerError(
            "daily_used_in_browser",
            _(
                "Today's challenge has already been played in this browser. "
                "Each browser has one attempt a day: come back tomorrow."
            ),
            409,
        )
    extra: dict[str, Any] = {}
    if attempt is not None and attempt.finished_at is None and attempt.game_id is not None:
        extra["game_id"] = str(attempt.game_id)
    return PokerError(
        "daily_used",
        _("You have already used today's attempt. You can replay the numbers without recording."),
        409,
        extra,
    )


def act_in_solo_game(
    *, game_id: object, player: PlayerProfile | None, action: object, now: float
) -> tuple[SoloGame, list[dict[str, Any]]]:
    """Apply one action of the player to their game.

    Time is applied first and kept even when the action itself is refused:
    a forfeit that happened is a fact, not part of the refused input.
    """
    if not isinstance(action, dict) or action.get("type") not in ACTIONS:
        raise PokerError("unknown_action", RULE_MESSAGES["unknown_action"])
    with transaction.atomic():
        game = _locked_game(game_id=game_id, player=player)
        engine = PokerGame.from_dict(game.state)
        events = engine.advance(now)
        refusal: IllegalMove | None = None
        if action["type"] != "advance":
            before = _move_context(engine)
            try:
                events += engine.apply(action, now)
            except IllegalMove as error:
                refusal = error
            else:
                game.moves = [*game.moves, _move(action, before)]
        if events:
            _save(game=game, engine=engine, now=now)
    if refusal is not None:
        raise PokerError(refusal.code, str(RULE_MESSAGES[refusal.code]), 409)
    return game, events


def _move_context(engine: PokerGame) -> dict[str, Any]:
    """What the player knew when acting: the card in hand, how many cards were
    behind them (``handled``) and dealt, and the jokers in the reserve."""
    return {
        "card": engine.hand,
        "handled": engine.handled,
        "dealt": len(engine.sequence),
        "kept": engine.kept_jokers,
    }


def _move(action: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    move = {"type": action["type"], **before}
    if action["type"] != "keep_joker":
        move["cell"] = action["cell"]
        move["value"] = action.get("value", before["card"])
    return move


def hint_for_game(*, game_id: object, player: PlayerProfile | None) -> dict[str, Any]:
    """The coach's hint for the card in hand of an easy solo game, counted on the game.

    Only easy games may ask: ranked, daily (and, elsewhere, group and duel)
    games are refused with ``hint_not_allowed`` whatever the browser shows.
    """
    with transaction.atomic():
        game = _locked_game(game_id=game_id, player=player)
        if game.mode != SoloGame.Mode.EASY and not _homework_hints(game):
            raise PokerError(
                "hint_not_allowed", _("Hints are only for easy games and the scoresheet."), 403
            )
        engine = PokerGame.from_dict(game.state)
        if engine.over:
            raise PokerError("game_over", str(RULE_MESSAGES["game_over"]), 409)
        advice = coach_advice.hint(
            engine.cells,
            engine.hand,
            table=engine.table,
            seen=engine.sequence[: engine.handled],
            kept=engine.kept_jokers,
        )
        if advice["action"] != "draw":
            game.hints += 1
            game.save(update_fields=["hints"])
    return advice


def _homework_hints(game: SoloGame) -> bool:
    """Homework allows hints only in the teacher's practice mode."""
    from .assignments import hints_allowed

    return game.mode == SoloGame.Mode.HOMEWORK and hints_allowed(game)


def _locked_game(*, game_id: object, player: PlayerProfile | None) -> SoloGame:
    not_found = PokerError("not_found", _("This game does not exist or is not yours."), 404)
    if player is None:
        raise not_found
    try:
        key = uuid.UUID(str(game_id))
        return SoloGame.objects.select_for_update().get(pk=key, player=player)
    except (SoloGame.DoesNotExist, ValueError):
        raise not_found from None


def _robot_plays(*, game: SoloGame, engine: PokerGame) -> None:
    """The robot handles the numbers the player has handled; at the end it
    plays on with the same deck until its board is full."""
    seed = game.pk.int % 2**32
    robot = dict(game.robot)
    if engine.over:
        deck = [*engine.sequence, *(engine.deck or [])]
        coach_robot.finish(robot, deck, table=game.table, seed=seed)
    else:
        coach_robot.catch_up(robot, engine.sequence, engine.handled, table=game.table, seed=seed)
    game.robot = robot


def _save(*, game: SoloGame, engine: PokerGame, now: float) -> None:
    if game.robot is not None:
        _robot_plays(game=game, engine=engine)
    game.state = engine.to_dict()
    game.updated_at = _moment(now)
    if engine.over and game.finished_at is None:
        game.finished_at = _moment(engine.finished_at or now)
        if not game.replay:
            result = _record(game=game, engine=engine)
            game.record = result.record
            game.save()
            if game.mode == SoloGame.Mode.HOMEWORK:
                from .assignments import game_finished

                game_finished(game=game, result=result)
            _publish(game=game, result=result, now=now)
            return
    game.save()


def _duration(engine: PokerGame) -> float:
    started = engine.started_at if engine.started_at is not None else engine.finished_at
    return round((engine.finished_at or 0.0) - (started or 0.0), 3)


def _record(*, game: SoloGame, engine: PokerGame) -> GameResult:
    """Write the finished game where profile stats and class reports read
    (``details`` conventions: docs/decisions.md and docs/poker-api.md)."""
    started = engine.started_at if engine.started_at is not None else engine.finished_at
    record = GameRecord.objects.create(
        game="poker",
        mode=game.mode,
        settings={
            "table": game.table,
            "difficulty": game.difficulty,
            "seconds_per_card": game.seconds_per_card,
        },
        started_at=_moment(started),
        finished_at=game.finished_at,
    )
    details: dict[str, Any] = {
        "table": game.table,
        "difficulty": game.difficulty,
        "duration_s": _duration(engine),
        "forfeited": engine.forfeited,
        "cells": engine.cells,
        "joker_cells": engine.joker_cells,
    }
    if game.day is not None:
        details["day"] = game.day.isoformat()
    if game.robot is not None:
        # Counted with the duels as "vs robot" (stats.py), never on a public table.
        mine, robot = engine.score().total, coach_robot.score(game.robot, game.table).total
        details.update(
            robot=game.robot["level"],
            robot_score=robot,
            outcome="win" if mine > robot else "loss" if mine < robot else "draw",
        )
    return GameResult.objects.create(
        record=record,
        player=game.player,
        score=engine.score().total,
        completed=engine.completed,
        finished_at=game.finished_at,
        details=details,
    )


# --- public tables ----------------------------------------------------------------


def _publish(*, game: SoloGame, result: GameResult, now: float) -> None:
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
    _upsert_entries(game=game, score=result.score, duration_ms=duration_ms)


def _finish_daily_attempt(*, game: SoloGame, result: GameResult, duration_ms: int) -> None:
    attempt = DailyAttempt.objects.select_for_update().filter(game=game).first()
    if attempt is None:
        return
    frozen = DailyChallenge.objects.filter(day=game.day, frozen_at__isnull=False).exists()
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


def _upsert_entries(
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
        _upsert_entries(
            game=best.record.poker_solo_game,
            score=best.score,
            duration_ms=round(best.details["duration_s"] * 1000),
            keys=[key],
        )


@transaction.atomic
def hide_daily_attempt(*, attempt_id: int) -> None:
    """Moderation: take one attempt off its table of the day."""
    DailyAttempt.objects.filter(pk=attempt_id).update(published=False)


# --- the daily challenge's calendar -------------------------------------------------


def publish_daily_challenge(*, day: date, now: float) -> DailyChallenge:
    """Make ``day``'s challenge available (idempotent). Celery beat does it at
    midnight; a start that comes before the beat (it was down) does it too."""
    challenge, _created = DailyChallenge.objects.get_or_create(
        day=day, defaults={"table": DEFAULT_TABLE, "published_at": _moment(now)}
    )
    return challenge


@transaction.atomic
def freeze_daily_table(*, day: date, now: float) -> bool:
    """Close ``day``'s table: later finishes stay off it; store each place.
    Returns False when it was frozen already (idempotent)."""
    challenge = DailyChallenge.objects.select_for_update().filter(day=day).first()
    if challenge is None or challenge.frozen_at is not None:
        return False
    challenge.frozen_at = _moment(now)
    challenge.save(update_fields=["frozen_at"])
    with connection.cursor() as cursor:
        cursor.execute(_FREEZE_RANKS.format(attempts=DailyAttempt._meta.db_table), [day])
        cursor.execute(
            _FREEZE_RESULTS.format(
                results=GameResult._meta.db_table,
                attempts=DailyAttempt._meta.db_table,
                games=SoloGame._meta.db_table,
            ),
            [day],
        )
    return True


#: Final places of a day's table, in one statement however many played.
_FREEZE_RANKS = """
UPDATE {attempts} AS attempt SET rank = ranked.place
FROM (SELECT id, row_number() OVER (ORDER BY score DESC, duration_ms, finished_at, id) AS place
      FROM {attempts} WHERE day = %s AND published AND finished_at IS NOT NULL) AS ranked
WHERE attempt.id = ranked.id
"""
_FREEZE_RESULTS = """
UPDATE {results} AS result SET rank = attempt.rank
FROM {attempts} AS attempt JOIN {games} AS game ON game.id = attempt.game_id
WHERE attempt.day = %s AND attempt.rank IS NOT NULL AND result.record_id = game.record_id
"""


def rotate_daily_challenges(*, now: float) -> dict[str, list[str]]:
    """The midnight task: publish every day from the last published one up to
    today, and freeze every earlier table still open. Missed runs are caught
    up because the task works from what is stored, not from when it runs."""
    today = daily_date(_moment(now))
    last = DailyChallenge.objects.order_by("-day").values_list("day", flat=True).first()
    published: list[str] = []
    day = today if last is None or last > today else last + timedelta(days=1)
    while day <= today:
        publish_daily_challenge(day=day, now=now)
        published.append(day.isoformat())
        day += timedelta(days=1)
    frozen = [
        open_day.isoformat()
        for open_day in DailyChallenge.objects.filter(day__lt=today, frozen_at__isnull=True)
        .order_by("day")
        .values_list("day", flat=True)
        if freeze_daily_table(day=open_day, now=now)
    ]
    return {"published": published, "frozen": frozen}


CLEANUP_BATCH = 500


def _ids_in_batches(queryset):
    """Primary keys in ascending batches of ``CLEANUP_BATCH``, each one short query.

    Not ``.iterator()``: outside a transaction that keeps a server-side cursor
    open across statements, which PgBouncer in transaction mode may run on
    different server connections (``portal "_django_curs_..." does not exist``).
    """
    last = 0
    while True:
        batch = list(
            queryset.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:CLEANUP_BATCH]
        )
        yield from batch
        if len(batch) < CLEANUP_BATCH:
            return
        last = batch[-1]


def cleanup_abandoned_games(*, now: float) -> dict[str, int]:
    """Unfinished solo games untouched for ``ABANDONED_AFTER``: time is applied
    first (a hard game whose numbers all ran out ends and is recorded like any
    other); what is still unfinished then is deleted. A daily attempt stays
    used (its row keeps the day, the game goes)."""
    cutoff = _moment(now) - ABANDONED_AFTER
    ended = deleted = 0
    stale = SoloGame.objects.filter(finished_at__isnull=True, updated_at__lt=cutoff)
    for game_id in _ids_in_batches(stale):
        with transaction.atomic():
            game = (
                SoloGame.objects.select_for_update(skip_locked=True)
                .filter(pk=game_id, finished_at__isnull=True, updated_at__lt=cutoff)
                .first()
            )
            if game is None:
                continue
            engine = PokerGame.from_dict(game.state)
            if engine.advance(now) and engine.over:
                _save(game=game, engine=engine, now=now)
                ended += 1
            else:
                game.delete()
                deleted += 1
    return {"ended": ended, "deleted": deleted}


def withdraw_players(player_ids: list[int]) -> None:
    """The platform's domain event (``GameSpec.withdraw_public_data``): these
    players leave every public poker table now."""
    for player in PlayerProfile.objects.filter(pk__in=player_ids):
        withdraw_public_data(player=player)


# --- the coach's review -------------------------------------------------------------


def ensure_review(*, game: SoloGame) -> dict[str, Any]:
    """The finished game's review: computed once (the first time it is asked
    for) and stored on the game row; two requests at once may both compute it,
    the result is the same (the coach is deterministic)."""
    from . import coach_review

    if game.review is not None and game.review.get("version") == coach_review.REVIEW_VERSION:
        return game.review
    review = coach_review.build_review(moves=game.moves, state=game.state, table=game.table)
    SoloGame.objects.filter(pk=game.pk).update(review=review)
    game.review = review
    return review
