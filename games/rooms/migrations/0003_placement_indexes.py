"""Placement tables written with less (issue 41, bench/RESULTS-placement-cpu.md).

- ``RoomEvent.room`` and ``ProcessedMessage.room`` lose their single-column
  indexes: the unique constraints (room, seq) and (room, player, client_id)
  start with the room and serve every lookup by room (and the cascades), so a
  placement inserts two index entries fewer.
- Seats and rooms keep free space on each page (fill factor 70): the update of
  a seat's board (every placement) and of the room's state (every draw) then
  finds room on its own page and stays a HOT update (no index entries at all).
  It applies to pages written from now on; existing pages fill as before.
"""

import django.db.models.deletion
from django.db import migrations, models

FILLFACTOR = ["rooms_seat", "rooms_room"]


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0002_periodic_tasks"),
    ]

    operations = [
        migrations.AlterField(
            model_name="processedmessage",
            name="room",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="rooms.room",
            ),
        ),
        migrations.AlterField(
            model_name="roomevent",
            name="room",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to="rooms.room",
                verbose_name="room",
            ),
        ),
        migrations.RunSQL(
            [f"ALTER TABLE {table} SET (fillfactor = 70)" for table in FILLFACTOR],
            [f"ALTER TABLE {table} RESET (fillfactor)" for table in FILLFACTOR],
        ),
    ]
