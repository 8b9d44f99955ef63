"""Look-alike nicknames and verified e-mail addresses.

Existing profiles get their skeleton before the unique index is built; two
active profiles that already look alike keep their nicknames (the later one's
skeleton is suffixed with its id), new look-alikes are refused from now on.
Existing teacher accounts count as verified: they were made before sign-up
asked for it, and their classes must keep working.
"""

from django.db import migrations, models
from django.utils import timezone


def fill(apps, schema_editor):
    from accounts.nicknames import skeleton

    PlayerProfile = apps.get_model("accounts", "PlayerProfile")
    seen: set[str] = set()
    for profile in PlayerProfile.objects.order_by("pk").only("pk", "nickname", "is_active"):
        value = skeleton(profile.nickname)
        if profile.is_active:
            if value in seen:
                value = f"{value}#{profile.pk}"
            seen.add(value)
        PlayerProfile.objects.filter(pk=profile.pk).update(nickname_skeleton=value)
    User = apps.get_model("accounts", "User")
    User.objects.filter(email_verified_at__isnull=True).update(email_verified_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_publicationconsent"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="email_verified_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="e-mail verified"),
        ),
        migrations.AddField(
            model_name="playerprofile",
            name="nickname_skeleton",
            field=models.CharField(default="", editable=False, max_length=96),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="playerprofile",
            constraint=models.UniqueConstraint(
                fields=["nickname_skeleton"],
                condition=models.Q(("is_active", True)),
                name="unique_active_nickname_skeleton",
            ),
        ),
    ]
