from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("homework", "0003_assignment_time_zone")]

    operations = [
        migrations.AddField(
            model_name="assignment",
            name="full_marks",
            field=models.PositiveIntegerField(
                blank=True, null=True, verbose_name="full marks from score"
            ),
        ),
    ]
