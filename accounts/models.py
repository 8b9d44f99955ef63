"""Teachers/admins (``User``) and players (``PlayerProfile``).

Teachers and admins log in with e-mail and password. Players -- students and
guests -- never give personal data: a profile is a nickname. A browser is
recognised by a random token in a signed cookie; only the token's SHA-256 is
stored (``Browser.token_hash``), so a database leak cannot impersonate anyone.
"""

from collections.abc import Collection, Iterable
from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def _create(self, email: str, password: str | None, **extra: Any) -> "User":
        if not email:
            raise ValueError("An e-mail address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> "User":
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create(email, password, **extra)

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> "User":
        extra["is_staff"] = True
        extra["is_superuser"] = True
        # Made by an operator on the server, not by whoever typed the address.
        extra.setdefault("email_verified_at", timezone.now())
        return self._create(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    email = models.EmailField(_("e-mail"), unique=True)
    name = models.CharField(_("name"), max_length=100, blank=True)
    is_staff = models.BooleanField(_("staff"), default=False)
    is_active = models.BooleanField(_("active"), default=True)
    date_joined = models.DateTimeField(_("joined"), default=timezone.now)
    # Set when the owner of the address opened the link mailed to it; nothing
    # tied to an address (a co-teacher invitation) is granted before.
    email_verified_at = models.DateTimeField(_("e-mail verified"), null=True, blank=True)
    player = models.OneToOneField(
        "PlayerProfile",
        verbose_name=_("own player profile"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="user",
    )
    # The look-alike keys of the name and of the own profile's nickname
    # (accounts.nicknames.look_alike_keys): a pupil's new nickname is checked
    # against the few teachers sharing a key (a GIN index), not against all.
    name_keys = ArrayField(models.TextField(), default=list, blank=True, editable=False)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        indexes = [GinIndex(fields=["name_keys"], name="accounts_user_name_keys")]

    def __str__(self) -> str:
        return self.email

    def save(self, *args: Any, **kwargs: Any) -> None:
        from accounts.nicknames import look_alike_keys

        update_fields = kwargs.get("update_fields")
        if update_fields is None or {"name", "player", "name_keys"} & set(update_fields):
            player = self.player if self.player_id is not None else None
            self.name_keys = look_alike_keys(self.name, player.nickname if player else None)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "name_keys"}
        super().save(*args, **kwargs)

    @property
    def email_verified(self) -> bool:
        return self.email_verified_at is not None

    def get_full_name(self) -> str:
        return self.name or self.email

    def get_short_name(self) -> str:
        return self.name or self.email.split("@")[0]


class PlayerProfileManager(models.Manager["PlayerProfile"]):
    def bulk_create(
        self,
        objs: Iterable["PlayerProfile"],
        batch_size: int | None = None,
        ignore_conflicts: bool = False,
        update_conflicts: bool = False,
        update_fields: Collection[str] | None = None,
        unique_fields: Collection[str] | None = None,
    ) -> list["PlayerProfile"]:
        """``save()`` is skipped here: the skeleton is filled in the same way
        (on the manager, and so on related managers too: django-stubs' plugin
        loses a QuerySet subclass's model type, a Manager's it keeps)."""
        from accounts.nicknames import skeleton

        objs = list(objs)
        for profile in objs:
            profile.nickname_skeleton = skeleton(profile.nickname)
        return super().bulk_create(
            objs,
            batch_size=batch_size,
            ignore_conflicts=ignore_conflicts,
            update_conflicts=update_conflicts,
            update_fields=update_fields,
            unique_fields=unique_fields,
        )


class PlayerProfile(models.Model):
    nickname = models.CharField(_("nickname"), max_length=24)
    # What the nickname looks like (accounts.nicknames.skeleton): unique among
    # active profiles, so look-alike letters cannot copy someone's nickname.
    nickname_skeleton = models.CharField(max_length=96, default="", editable=False)
    code = models.CharField(
        _("profile code"),
        max_length=12,
        unique=True,
        help_text=_("Lets the player continue on another device."),
    )
    is_active = models.BooleanField(_("active"), default=True)
    nickname_hidden = models.BooleanField(
        _("nickname hidden by a moderator"),
        default=False,
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_seen_at = models.DateTimeField(_("last seen"), default=timezone.now)

    objects = PlayerProfileManager()

    class Meta:
        verbose_name = _("player profile")
        verbose_name_plural = _("player profiles")
        constraints = [
            models.UniqueConstraint(
                Lower("nickname"),
                condition=models.Q(is_active=True),
                name="unique_active_nickname_ci",
            ),
            models.UniqueConstraint(
                fields=["nickname_skeleton"],
                condition=models.Q(is_active=True),
                name="unique_active_nickname_skeleton",
            ),
        ]

    def __str__(self) -> str:
        return self.nickname

    def save(self, *args: Any, **kwargs: Any) -> None:
        from accounts.nicknames import skeleton

        self.nickname_skeleton = skeleton(self.nickname)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "nickname" in update_fields:
            kwargs["update_fields"] = {*update_fields, "nickname_skeleton"}
        renamed = not self._state.adding and (update_fields is None or "nickname" in update_fields)
        super().save(*args, **kwargs)
        if renamed:  # a teacher's own profile: the account's look-alike keys follow
            for owner in User.objects.filter(player_id=self.pk):
                owner.save(update_fields=["name_keys"])

    @property
    def display_name(self) -> str:
        return str(_("Player")) + f" #{self.pk}" if self.nickname_hidden else self.nickname


class Browser(models.Model):
    """One browser (cookie jar) that holds one or more player profiles."""

    token_hash = models.CharField(max_length=64, unique=True)
    profiles = models.ManyToManyField(PlayerProfile, related_name="browsers", blank=True)
    selected = models.ForeignKey(
        PlayerProfile,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("browser")
        verbose_name_plural = _("browsers")

    def __str__(self) -> str:
        return f"browser {self.token_hash[:8]}"


class PublicationConsent(models.Model):
    """One answer to the publication question; the newest row is the player's current choice.

    The exact text shown is stored with its version and language, so what the
    player agreed to can be shown again later.
    """

    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="consents",
    )
    granted = models.BooleanField(_("granted"))
    text_version = models.CharField(_("text version"), max_length=16)
    language = models.CharField(_("language"), max_length=8)
    text = models.TextField(_("text shown"))
    age_confirmed = models.BooleanField(
        _("old enough or a parent agreed"),
        null=True,
        default=None,
        help_text=_("GDPR Art. 8: asked with every yes (15 in Czechia, 16 in Slovakia)."),
    )
    created_at = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("publication consent")
        verbose_name_plural = _("publication consents")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["player", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.player}: {'yes' if self.granted else 'no'} (v{self.text_version})"
