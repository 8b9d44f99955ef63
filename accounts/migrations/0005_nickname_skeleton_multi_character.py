"""Skeletons with multi-character look-alikes (``rn`` = ``m``, ``cl`` = ``d``,
``vv`` = ``w``; accounts.nicknames, issue 27 §5).

Every profile gets its skeleton again. Active profiles that look alike only
under the new rules keep their nicknames (the later one's skeleton is suffixed
with its id, as in 0003); new look-alikes are refused from now on. The active
rows first get a placeholder unique to each row, so no row meets another's old
skeleton under the unique index while they are rewritten.
"""

from django.db import migrations


def refill(apps, schema_editor):
    from accounts.nicknames import skeleton

    PlayerProfile = apps.get_model("accounts", "PlayerProfile")
    profiles = list(PlayerProfile.objects.order_by("pk").only("pk", "nickname", "is_active"))
    for profile in profiles:
        PlayerProfile.objects.filter(pk=profile.pk).update(nickname_skeleton=f"#{profile.pk}")
    seen: set[str] = set()
    for profile in profiles:
        value = skeleton(profile.nickname)
        if profile.is_active:
            if value in seen:
                value = f"{value}#{profile.pk}"
            seen.add(value)
        PlayerProfile.objects.filter(pk=profile.pk).update(nickname_skeleton=value)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_publicationconsent_age_confirmed"),
    ]

    operations = [migrations.RunPython(refill, migrations.RunPython.noop)]
