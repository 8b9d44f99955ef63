"""Homework: a game given to a class, played by each pupil at home by a deadline.

Every pupil of an assignment plays the same seeded solo game: the game derives
the deck from its server secret and the assignment (``AssignmentTicket.key``),
so no deck, seed or order is stored here or sent anywhere. The platform never
names a game: ``game`` is a registered slug whose ``GameSpec.assignable`` says
how it is set up, and an attempt points at the game's own record by reference.
"""

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import PlayerProfile
from classrooms.models import Classroom, Membership
from core import registry
from games.models import GameRecord


class Assignment(models.Model):
    class Attempts(models.TextChoices):
        FIRST = "first", _("the first attempt counts")
        BEST = "best", _("the best attempt counts")
        LAST = "last", _("the last attempt counts")

    classroom = models.ForeignKey(
        Classroom, verbose_name=_("class"), on_delete=models.CASCADE, related_name="assignments"
    )
    game = models.CharField(_("game"), max_length=16, validators=[registry.validate_slug])
    title = models.CharField(_("title"), max_length=120)
    #: The game's own settings, cleaned by ``GameSpec.assignable.clean_settings``.
    settings = models.JSONField(_("settings"), default=dict)
    opens_at = models.DateTimeField(_("opens at"), default=timezone.now)
    due_at = models.DateTimeField(_("due at"))
    attempts = models.CharField(
        _("attempts"), max_length=8, choices=Attempts.choices, default=Attempts.FIRST
    )
    late = models.BooleanField(_("late play allowed"), default=False)
    #: Pupils see the class table after the deadline.
    table_visible = models.BooleanField(_("pupils see the class table"), default=False)
    #: Practice mode: hints allowed, and more attempts than the one that counts.
    practice = models.BooleanField(_("practice mode (hints, extra attempts)"), default=False)
    #: Pupils may open the coach's review of their own game (after the deadline).
    reviews_visible = models.BooleanField(_("pupils see their review"), default=False)
    #: The teacher gets one summary mail when the assignment closes.
    mail_summary = models.BooleanField(_("summary mail at the deadline"), default=False)
    #: Optional score -> Czech mark mapping for the export: lowest score for marks 1-4.
    mark_thresholds = models.JSONField(_("marks from scores"), null=True, blank=True)
    #: The score that counts as full marks in the LMS gradebook (100 %); a
    #: higher score is full marks too. None: the game's default for the settings.
    full_marks = models.PositiveIntegerField(_("full marks from score"), null=True, blank=True)
    #: An LMS gradebook column links to it (set by the LTI tool when a resource
    #: link gets this homework): only then does a finished attempt's grade hook
    #: read anything (issue 41: no queries per finished game without an LMS).
    lms_linked = models.BooleanField(default=False, editable=False)
    #: No more play: closed early by a teacher, or by beat at the deadline
    #: (late play not allowed). With late play allowed it stays open until closed.
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    #: Beat handled the deadline (summary mail queued, if wanted).
    deadline_done_at = models.DateTimeField(_("deadline handled"), null=True, blank=True)
    #: The time zone the teacher's browser reported when saving the form (IANA
    #: name): the form reads its dates in it and the pages show them in it.
    #: Stored moments are UTC whatever it says.
    time_zone = models.CharField(_("time zone"), max_length=64, default="Europe/Prague")
    #: The teacher's language when creating it (the summary mail is written in it).
    language = models.CharField(_("language"), max_length=8, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("homework")
        verbose_name_plural = _("homework")
        ordering = ["-due_at", "-pk"]
        indexes = [
            models.Index(
                fields=["due_at"],
                condition=Q(deadline_done_at__isnull=True),
                name="homework_deadline_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.classroom})"

    @property
    def deck_key(self) -> str:
        """What the game derives the shared deck from (with its server secret)."""
        return f"assignment:{self.pk}"


class Attempt(models.Model):
    """One game a pupil played (or is playing) for an assignment.

    ``counted`` is decided at the start by the attempts policy: an attempt that
    can never count (after the first one under "first counts") is practice,
    recorded but never in the results.
    """

    assignment = models.ForeignKey(
        Assignment,
        verbose_name=_("homework"),
        on_delete=models.CASCADE,
        related_name="attempts_set",
    )
    member = models.ForeignKey(
        Membership, verbose_name=_("class member"), on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="homework_attempts",
    )
    #: The game's own reference of this game (e.g. the solo game's id).
    ref = models.CharField(_("game reference"), max_length=64, blank=True)
    counted = models.BooleanField(_("counted"), default=True)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    late = models.BooleanField(_("finished after the deadline"), default=False)
    score = models.IntegerField(_("score"), null=True, blank=True)
    duration_s = models.FloatField(_("time spent (s)"), null=True, blank=True)
    record = models.ForeignKey(
        GameRecord,
        verbose_name=_("played game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("homework attempt")
        verbose_name_plural = _("homework attempts")
        ordering = ["started_at", "pk"]
        indexes = [
            models.Index(fields=["assignment", "member"]),
            models.Index(fields=["ref"], name="homework_attempt_ref"),
        ]

    def __str__(self) -> str:
        return f"{self.assignment} · {self.member}"
