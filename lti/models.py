"""What the LTI tool remembers: platforms, their deployments, our keys, and the
bindings of an LMS's courses, links and people to Matika's classes,
assignments, teachers and players.

Everything an LMS names is keyed by the platform registration (issuer +
client_id) and, for courses, by the deployment too: a second platform or
deployment never finds another one's class. A course maps to a class by its
``context.id``; a course copy has a new context id, so it gets a class of its
own (never by ``resource_link.id`` alone).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class ToolKey(models.Model):
    """A key pair the tool signs with (deep-linking responses, client
    assertions). Every key not retired is published in the JWKS; the newest
    active one signs, so a new key can be published before it is used."""

    kid = models.CharField(max_length=64, unique=True)
    private_pem = models.TextField()
    public_jwk = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.kid


class RegistrationLink(models.Model):
    """A one-time dynamic registration link; only the token's SHA-256 is kept."""

    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    platform = models.ForeignKey(
        "Platform", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"registration link {self.pk}"


class Platform(models.Model):
    """One registration of Matika with an LMS (an issuer and the client_id it gave us)."""

    issuer = models.CharField(_("issuer"), max_length=255)
    client_id = models.CharField(_("client ID"), max_length=255)
    name = models.CharField(_("name"), max_length=120, blank=True)
    product = models.CharField(_("LMS product"), max_length=80, blank=True)
    authorization_endpoint = models.URLField(max_length=500)
    token_endpoint = models.URLField(max_length=500)
    jwks_uri = models.URLField(max_length=500)
    #: The ``aud`` of our client assertions (the token endpoint unless the platform names one).
    token_audience = models.CharField(max_length=500, blank=True)
    #: Launches from deployments not yet known are accepted (and recorded) only
    #: when the registration named none (Canvas adds deployments later).
    accept_new_deployments = models.BooleanField(default=False)
    registration = models.JSONField(_("registration answer"), default=dict, blank=True)
    #: Further origins (one a line) whose pages may show Matika in a frame, besides
    #: the issuer's own: Canvas' issuer is not the school's Canvas address.
    frame_origins = models.TextField(
        _("frame origins"),
        blank=True,
        help_text=_(
            "Addresses of the LMS pages that may show Matika inside a frame, one a line "
            "(e.g. https://school.instructure.com); the issuer's own address always may."
        ),
    )
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("LMS platform")
        verbose_name_plural = _("LMS platforms")
        constraints = [
            models.UniqueConstraint(fields=["issuer", "client_id"], name="lti_platform_unique")
        ]

    def __str__(self) -> str:
        return f"{self.name or self.issuer} ({self.client_id})"

    @property
    def origin(self) -> str:
        from urllib.parse import urlsplit

        parts = urlsplit(self.issuer)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def framing_origins(self) -> list[str]:
        """Exactly the origins that may frame Matika for this platform's launches:
        the issuer's, and the ones the admin listed (each checked to be an origin)."""
        from . import net

        found = [self.origin]
        for line in self.frame_origins.split():
            origin = net.origin(line) if net.acceptable_url(line) else ""
            if origin and origin == line.rstrip("/") and origin not in found:
                found.append(origin)
        return found


class Deployment(models.Model):
    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="deployments")
    deployment_id = models.CharField(max_length=255)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["platform", "deployment_id"], name="lti_deployment_unique"
            )
        ]

    def __str__(self) -> str:
        return self.deployment_id


class LaunchState(models.Model):
    """The OIDC login's state and nonce, kept here; single use, short-lived.
    The browser that started the login holds only a keyed hash of the state (a
    partitioned cookie, or the LMS's client-side storage), which binds the launch
    to that browser (issue 38 §2). Nothing about the user is in it."""

    state_hash = models.CharField(max_length=64, unique=True)
    nonce = models.CharField(max_length=64)
    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"launch state {self.pk}"


class SeenNonce(models.Model):
    """Nonces of accepted id_tokens: a replayed token is refused even with a fresh state."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="+")
    nonce = models.CharField(max_length=255)
    seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "nonce"], name="lti_nonce_once")]

    def __str__(self) -> str:
        return self.nonce


class Person(models.Model):
    """An LMS user (iss, sub) bound to a Matika teacher account or player profile."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="people")
    sub = models.CharField(max_length=255)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lti_person",
    )
    player = models.OneToOneField(
        "accounts.PlayerProfile",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="lti_person",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["platform", "sub"], name="lti_person_unique")
        ]

    def __str__(self) -> str:
        return f"{self.platform_id}:{self.sub}"


class Course(models.Model):
    """An LMS course (context) of one deployment, mapped to one Matika class."""

    deployment = models.ForeignKey(Deployment, on_delete=models.CASCADE, related_name="courses")
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    classroom = models.OneToOneField(
        "classrooms.Classroom", on_delete=models.CASCADE, related_name="lti_course"
    )
    memberships_url = models.URLField(max_length=500, blank=True)
    roster_synced_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deployment", "context_id"], name="lti_course_unique")
        ]

    def __str__(self) -> str:
        return self.title or self.context_id


class ResourceLink(models.Model):
    """A link in an LMS course that opens one homework, with its gradebook column."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="links")
    resource_link_id = models.CharField(max_length=255)
    assignment = models.ForeignKey(
        "homework.Assignment", on_delete=models.CASCADE, related_name="lti_links"
    )
    lineitem_url = models.URLField(max_length=1000, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["course", "resource_link_id"], name="lti_resource_link_unique"
            )
        ]

    def __str__(self) -> str:
        return self.resource_link_id


class DeepLinkRequest(models.Model):
    """An instructor's validated deep-linking launch, waiting for the game they
    pick; the picker's form carries ``token`` (its hash is kept), so the choice
    needs no cookie (an LMS often shows the picker in a frame)."""

    token_hash = models.CharField(max_length=64, unique=True)
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    return_url = models.URLField(max_length=1000)
    data = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"deep link {self.pk}"


class GradeSend(models.Model):
    """Whether a pupil's counted score of a linked homework reached the LMS gradebook."""

    class Status(models.TextChoices):
        PENDING = "pending", _("being sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("not sent")

    link = models.ForeignKey(ResourceLink, on_delete=models.CASCADE, related_name="grades")
    member = models.ForeignKey("classrooms.Membership", on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    score = models.IntegerField(null=True, blank=True)
    tries = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=255, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["link", "member"], name="lti_grade_per_member")
        ]

    def __str__(self) -> str:
        return f"{self.member_id}: {self.status}"


class FrameGrant(models.Model):
    """A launch opened inside the LMS's frame: the LMS's origins may frame the pages
    this browser reaches (a partitioned cookie names the grant), and a one-time
    ticket signs the same person in first-party when the browser keeps no cookie in
    the frame. Ended by logout; kept ``FRAME_GRANT_DAYS`` at most."""

    token_hash = models.CharField(max_length=64, unique=True)
    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="+")
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=12)
    destination = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)
    ticket_used_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"frame grant {self.pk}"
