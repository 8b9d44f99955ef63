"""The log's and the answers' foreign keys unchecked by PostgreSQL (issue 41).

Every placement inserts a ``RoomEvent`` and a ``ProcessedMessage``; PostgreSQL
checked their room and player keys with four more queries (``SELECT 1 ...
FOR KEY SHARE``), the room's on a row fifty placements lock at once. The rows
are written under their room's lock and for a joined seat anyway, and Django's
deletions still cascade (``on_delete`` is Django's); the indexes stay.
bench/RESULTS-placement-cpu.md has the measurement.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("rooms", "0003_placement_indexes"),
    ]

    operations = [
        migrations.AlterField(
            model_name="processedmessage",
            name="player",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="accounts.playerprofile",
            ),
        ),
        migrations.AlterField(
            model_name="processedmessage",
            name="room",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="rooms.room",
            ),
        ),
        migrations.AlterField(
            model_name="roomevent",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="accounts.playerprofile",
                verbose_name="actor",
            ),
        ),
        migrations.AlterField(
            model_name="roomevent",
            name="room",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="rooms.room",
                verbose_name="room",
            ),
        ),
    ]
