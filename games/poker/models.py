"""Server-led solo poker (easy, hard, ranked, daily) and its public tables.

The whole engine state, including the secret rest of the deck, is one JSON
document (``PokerGame.to_dict``): the rules engine owns its shape, the row only
adds who plays and when. The finished game is written to the shared
``games.GameRecord``/``GameResult`` tables, which profile stats read.

Public tables (docs/leaderboards.md) are maintained, not computed: a finished
ranked board upserts at most one row per player and period into
``LeaderboardEntry`` in the same transaction, so the top 100 of any period is
an index range scan however many games were played.
"""

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Browser, PlayerProfile
from games.models import GameRecord


class SoloGame(models.Model):
    class Mode(models.TextChoices):
        EASY = "easy", _("easy")
        HARD = "hard", _("hard")
        RANKED = "ranked", _("ranked")
        DAILY = "daily", _("daily challenge")
        ROBOT = "robot", _("vs robot")
        #: A class assignment (games/poker/assignments.py): the assignment's shared deck.
        HOMEWORK = "homework", _("homework")

    class Difficulty(models.TextChoices):
        EASY = "easy", _("easy")
        HARD = "hard", _("hard")

    #: Random and public: the browser addresses its game by it.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="poker_solo_games",
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices)
    #: The engine's rules: easy or hard (ranked chooses, daily is always easy).
    difficulty = models.CharField(
        _("difficulty"), max_length=8, choices=Difficulty.choices, default=Difficulty.EASY
    )
    table = models.CharField(_("scoring table"), max_length=16)
    #: Daily challenge: the day whose deck is played.
    day = models.DateField(_("challenge day"), null=True, blank=True)
    #: A daily deck played again after the attempt: never recorded.
    replay = models.BooleanField(_("replay, not recorded"), default=False)
    #: The result was written to a public table (cleared when consent is withdrawn).
    published = models.BooleanField(_("published"), default=False)
    #: A moderator hid this result from the leaderboards.
    leaderboard_hidden = models.BooleanField(_("hidden from the leaderboards"), default=False)
    seconds_per_card = models.PositiveSmallIntegerField(_("seconds per number"), null=True)
    #: ``PokerGame.to_dict()``: holds the undealt deck, never sent to the browser.
    state = models.JSONField(_("state"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    #: Every accepted move, in order, with what the player knew then (for the
    #: game review): ``{"type", "cell", "value", "card", "handled", "dealt", "kept"}``.
    moves = models.JSONField(_("moves"), default=list, blank=True)
    #: Hints the coach gave in this game (easy games only).
    hints = models.PositiveSmallIntegerField(_("hints used"), default=0)
    #: A game against the robot: its board on the same numbers (``coach_robot``).
    robot = models.JSONField(_("robot"), null=True, blank=True)
    #: The coach's review, computed once after the end (``coach_review``).
    review = models.JSONField(_("coach review"), null=True, blank=True)
    record = models.OneToOneField(
        GameRecord,
        verbose_name=_("played game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="poker_solo_game",
    )

    class Meta:
        verbose_name = _("solo poker game")
        verbose_name_plural = _("solo poker games")
        indexes = [
            models.Index(fields=["player", "created_at"]),
            models.Index(
                fields=["updated_at"], condition=Q(finished_at__isnull=True), name="poker_solo_open"
            ),
            models.Index(
                fields=["player", "finished_at"],
                condition=Q(mode="ranked", published=True),
                name="poker_solo_ranked_published",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.mode} · {self.created_at:%Y-%m-%d %H:%M}"


class LeaderboardEntry(models.Model):
    """The best published ranked result of one player in one period.

    ``period`` is ``day:YYYY-MM-DD``, ``week:YYYY-MM-DD`` (its Monday),
    ``month:YYYY-MM`` or ``all``, in Europe/Bratislava time. Rows are upserted
    when a complete ranked board is finished and deleted when the player
    withdraws consent (docs/leaderboards.md). Only nickname (via the player),
    score, difficulty and game time are ever shown.
    """

    period = models.CharField(_("period"), max_length=16)
    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="poker_leaderboard_entries",
    )
    game = models.ForeignKey(
        SoloGame, verbose_name=_("game"), on_delete=models.CASCADE, related_name="+"
    )
    score = models.IntegerField(_("score"))
    duration_ms = models.PositiveIntegerField(_("game time (ms)"))
    finished_at = models.DateTimeField(_("finished"))
    difficulty = models.CharField(_("difficulty"), max_length=8)

    class Meta:
        verbose_name = _("leaderboard entry")
        verbose_name_plural = _("leaderboard entries")
        constraints = [
            models.UniqueConstraint(fields=["period", "player"], name="poker_board_one_per_player")
        ]
        indexes = [
            # The ranking order itself: top 100 and "how many are ahead of me".
            models.Index(
                "period",
                models.F("score").desc(),
                "duration_ms",
                "finished_at",
                name="poker_board_rank",
            ),
            models.Index(fields=["player"], name="poker_board_player"),
        ]

    def __str__(self) -> str:
        return f"{self.period} · {self.player} · {self.score}"


class DailyChallenge(models.Model):
    """A day's challenge: published by Celery beat at midnight, its table frozen
    the next midnight. The deck is never stored: it is derived from the day and
    the server secret whenever needed."""

    day = models.DateField(_("day"), primary_key=True)
    table = models.CharField(_("scoring table"), max_length=16)
    published_at = models.DateTimeField(_("published"), default=timezone.now)
    frozen_at = models.DateTimeField(_("table frozen"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily challenge")
        verbose_name_plural = _("daily challenges")
        ordering = ["-day"]

    def __str__(self) -> str:
        return self.day.isoformat()


class DailyAttempt(models.Model):
    """The one attempt a player has at a day's challenge.

    The unique constraint, not a check before the insert, is what refuses a
    second attempt: two tabs starting at once both try the insert and the
    database lets exactly one through.
    """

    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="poker_daily_attempts",
    )
    day = models.DateField(_("day"))
    #: The browser the attempt was started in: one counted attempt per browser
    #: too, whichever of its profiles is selected (issue 27 §2).
    browser = models.ForeignKey(
        Browser,
        verbose_name=_("browser"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    game = models.OneToOneField(
        SoloGame,
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="daily_attempt",
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    score = models.IntegerField(_("score"), null=True, blank=True)
    duration_ms = models.PositiveIntegerField(_("game time (ms)"), null=True, blank=True)
    #: On the table of the day (consent given, class allows, finished before the freeze).
    published = models.BooleanField(_("on the table of the day"), default=False)
    #: Final place on the frozen table of the day.
    rank = models.PositiveIntegerField(_("rank of the day"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily challenge attempt")
        verbose_name_plural = _("daily challenge attempts")
        constraints = [
            models.UniqueConstraint(fields=["player", "day"], name="poker_one_daily_attempt"),
            models.UniqueConstraint(
                fields=["browser", "day"],
                condition=Q(browser__isnull=False),
                name="poker_one_daily_attempt_per_browser",
            ),
        ]
        indexes = [
            models.Index(
                "day",
                models.F("score").desc(),
                "duration_ms",
                "finished_at",
                condition=Q(published=True),
                name="poker_daily_table",
            )
        ]

    def __str__(self) -> str:
        return f"{self.day} · {self.player}"
