"""The teachers' look-alike keys (``User.name_keys``, accounts.nicknames.look_alike_keys)
with a GIN index: a pupil's new nickname is checked against the teachers sharing
a key, not against every active teacher (issue 38, the O(teachers) check)."""

import django.contrib.postgres.fields
import django.contrib.postgres.indexes
from django.db import migrations, models


def fill(apps, schema_editor):
    from accounts.nicknames import look_alike_keys

    User = apps.get_model("accounts", "User")
    for pk, name, nickname in User.objects.values_list("pk", "name", "player__nickname"):
        User.objects.filter(pk=pk).update(name_keys=look_alike_keys(name, nickname))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_nickname_skeleton_multi_character"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_keys",
            field=django.contrib.postgres.fields.ArrayField(
                base_field=models.TextField(), blank=True, default=list, editable=False, size=None
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="user",
            index=django.contrib.postgres.indexes.GinIndex(
                fields=["name_keys"], name="accounts_user_name_keys"
            ),
        ),
    ]
