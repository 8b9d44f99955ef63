"""Register the deadline task with django-celery-beat's DatabaseScheduler: every
minute, close what is due and queue the summary mails (homework/tasks.py). The
schedule is data, like poker's (games/poker/migrations/0003)."""

from django.db import migrations

NAME = "homework: close assignments at their deadline"
TASK = "homework.close_due_assignments"


def create_task(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every, _created = IntervalSchedule.objects.get_or_create(every=60, period="seconds")
    PeriodicTask.objects.update_or_create(
        name=NAME, defaults={"task": TASK, "interval": every, "crontab": None, "enabled": True}
    )


def remove_task(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("homework", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_task, remove_task)]
