from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("homework", "0002_deadline_task")]

    operations = [
        migrations.AddField(
            model_name="assignment",
            name="time_zone",
            field=models.CharField(default="Europe/Prague", max_length=64, verbose_name="time zone"),
        ),
    ]
