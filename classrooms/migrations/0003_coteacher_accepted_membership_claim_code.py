"""Co-teacher invitations are accepted through a mailed link; roster names get claim codes.

Invitations made before were usable by whoever had the address's account, so
those whose address has a (verified, see accounts 0003) account are taken as
accepted by it; the rest wait for a link. Every roster name gets a claim code.
"""

import secrets

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def fill(apps, schema_editor):
    CoTeacher = apps.get_model("classrooms", "CoTeacher")
    User = apps.get_model("accounts", "User")
    for invite in CoTeacher.objects.filter(accepted_at__isnull=True):
        user = User.objects.filter(email__iexact=invite.email).first()
        if user is not None:
            invite.user = user
            invite.accepted_at = timezone.now()
            invite.save(update_fields=["user", "accepted_at"])
    Membership = apps.get_model("classrooms", "Membership")
    for member in Membership.objects.filter(claim_code=""):
        member.claim_code = "".join(secrets.choice(ALPHABET) for _ in range(6))
        member.save(update_fields=["claim_code"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_nickname_skeleton_email_verified"),
        ("classrooms", "0002_membership_other_players_coteacher"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="coteacher",
            name="accepted_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="accepted"),
        ),
        migrations.AddField(
            model_name="coteacher",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="co_teaching",
                to=settings.AUTH_USER_MODEL,
                verbose_name="account that accepted",
            ),
        ),
        migrations.AddField(
            model_name="membership",
            name="claim_code",
            field=models.CharField(blank=True, default="", max_length=8, verbose_name="claim code"),
        ),
        migrations.AddField(
            model_name="membership",
            name="claim_of",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="claims",
                to="classrooms.membership",
                verbose_name="claims the roster name",
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
