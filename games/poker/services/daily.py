"""The daily challenge: the day's secret deck, its one counted attempt, its calendar."""

from datetime import date, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from accounts.models import Browser, PlayerProfile
from games.models import GameResult

from ..errors import PokerError
from ..models import DailyAttempt, DailyChallenge, SoloGame
from ..rules import DEFAULT_TABLE, EASY, PokerGame, daily_date, daily_deck
from .clock import moment


def daily_secret() -> str:
    """The server secret of the daily deck (never in the repository): the
    ``POKER_DAILY_SECRET`` setting, or ``SECRET_KEY`` when that is not set."""
    secret: str = settings.POKER_DAILY_SECRET or settings.SECRET_KEY
    return secret


def start_daily(
    *, player: PlayerProfile, browser: Browser | None, replay: bool, now: float
) -> SoloGame:
    """The day's one attempt, or (after it) a replay of the same deck that is not recorded.

    The attempt row is inserted in a savepoint; a second attempt -- also one
    racing from another tab -- fails on a unique constraint and is refused: one
    per profile, and one per browser whichever of its profiles is selected, so
    a second profile cannot play the day's numbers first and the real one
    after it (issue 27 §2). A replay needs the profile's own finished attempt.
    """
    started = moment(now)
    day = daily_date(started)
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
            created_at=started,
            updated_at=started,
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
                    player=player, browser=browser, day=day, game=game, started_at=started
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


# --- the daily challenge's calendar -------------------------------------------------


def publish_daily_challenge(*, day: date, now: float) -> DailyChallenge:
    """Make ``day``'s challenge available (idempotent). Celery beat does it at
    midnight; a start that comes before the beat (it was down) does it too."""
    challenge: DailyChallenge
    challenge, _created = DailyChallenge.objects.get_or_create(
        day=day, defaults={"table": DEFAULT_TABLE, "published_at": moment(now)}
    )
    return challenge


@transaction.atomic
def freeze_daily_table(*, day: date, now: float) -> bool:
    """Close ``day``'s table: later finishes stay off it; store each place.
    Returns False when it was frozen already (idempotent)."""
    challenge = DailyChallenge.objects.select_for_update().filter(day=day).first()
    if challenge is None or challenge.frozen_at is not None:
        return False
    challenge.frozen_at = moment(now)
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
    today = daily_date(moment(now))
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
