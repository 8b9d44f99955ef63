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

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class CoTeacher(models.Model):
    """A colleague invited by e-mail. The invitation is accepted through a signed
    link mailed to that address, by an account whose address is that one and
    verified; until then the colleague sees nothing of the class."""

    classroom = models.ForeignKey(
        Classroom, verbose_name=_("class"), on_delete=models.CASCADE, related_name="co_teachers"
    )
    email = models.EmailField(_("e-mail"))
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invited by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    invited_at = models.DateTimeField(_("invited"), default=timezone.now)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account that accepted"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="co_teaching",
    )

    class Meta:
        verbose_name = _("co-teacher")
        verbose_name_plural = _("co-teachers")
        ordering = ["email"]
        constraints = [
            models.UniqueConstraint(fields=["classroom", "email"], name="one_invite_per_email")
        ]

    def __str__(self) -> str:
        return f"{self.email} ({self.classroom})"

    @property
    def is_accepted(self) -> bool:
        return self.accepted_at is not None


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
    # Profiles merged into this member (a student who joined twice, e.g. from a
    # second device): their results count for this member and they still open the class.
    other_players = models.ManyToManyField(
        PlayerProfile,
        verbose_name=_("merged player profiles"),
        blank=True,
        related_name="merged_memberships",
    )
    roster_name = models.CharField(_("name in the roster"), max_length=80)
    # Printed by the teacher for each roster name: a pupil who types it with
    # their name is in at once; without it the claim waits for the teacher.
    claim_code = models.CharField(_("claim code"), max_length=8, blank=True, default="")
    # A pupil's claim of a roster name without its code: a waiting membership
    # that joins that roster entry when the teacher approves it.
    claim_of = models.ForeignKey(
        "self",
        verbose_name=_("claims the roster name"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="claims",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.APPROVED
    )
    # The pupil's ID in the school's system (a OneRoster sourcedId), so that a
    # re-imported class list matches the entry (classrooms.roster_services).
    source_id = models.CharField(
        _("ID in the school system"), max_length=255, blank=True, default=""
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

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def short_name(self) -> str:
        """What a pupil at the join page sees of a roster name: the first name
        and the initial of the last word ("Adam K."), never the full name."""
        words = self.roster_name.split()
        if len(words) < 2:
            return words[0] if words else ""
        return f"{words[0]} {words[-1][0]}."
