"""Teachers' classes and their members (the roster).

The roster name is what the teacher sees; the member's public nickname lives
on their player profile and is never derived from it.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import PlayerProfile


class Classroom(models.Model):
    name = models.CharField(_("name"), max_length=80)
    school_year = models.CharField(_("school year"), max_length=9, blank=True)
    subject = models.CharField(_("subject or grade"), max_length=80, blank=True)
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("teacher"),
        on_delete=models.CASCADE,
        related_name="classrooms",
    )
    join_code = models.CharField(_("class code"), max_length=8, unique=True)
    join_enabled = models.BooleanField(_("joining with the code allowed"), default=True)
    public_publication = models.BooleanField(
        _("members may appear on public leaderboards"), default=False
    )
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("class")
        verbose_name_plural = _("classes")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved")

    classroom = models.ForeignKey(
        Classroom, verbose_name=_("class"), on_delete=models.CASCADE, related_name="members"
    )
    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player profile"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    roster_name = models.CharField(_("name in the roster"), max_length=80)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.APPROVED
    )
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("class member")
        verbose_name_plural = _("class members")
        ordering = ["roster_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["classroom", "player"],
                condition=models.Q(player__isnull=False),
                name="one_membership_per_player_and_class",
            )
        ]

    def __str__(self) -> str:
        return f"{self.roster_name} ({self.classroom})"
