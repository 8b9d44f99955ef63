from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("homework", "0004_assignment_full_marks")]

    operations = [
        migrations.AddField(
            model_name="assignment",
            name="lms_linked",
            field=models.BooleanField(default=False, editable=False),
        ),
    ]
