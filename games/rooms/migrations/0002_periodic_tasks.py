"""Register the rooms' periodic tasks with django-celery-beat's DatabaseScheduler.

A data migration rather than code run at start-up: the schedule is visible and
editable in the admin, and exists on every database the app is migrated on.
"""

from django.db import migrations

TASKS = [
    # (name, task, every seconds)
    ("rooms: expire rooms after six hours", "rooms.expire_stale_rooms", 60),
    ("rooms: evaluate passed deadlines", "rooms.tick_due_rooms", 5),
]


def create_tasks(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    for name, task, seconds in TASKS:
        schedule, _created = IntervalSchedule.objects.get_or_create(every=seconds, period="seconds")
        PeriodicTask.objects.update_or_create(
            name=name, defaults={"task": task, "interval": schedule, "enabled": True}
        )


def remove_tasks(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name__in=[name for name, _task, _s in TASKS]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("rooms", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_tasks, remove_tasks)]
