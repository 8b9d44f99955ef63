"""Register poker's periodic tasks with django-celery-beat's DatabaseScheduler,
and bring rows written before ranked/daily games to the current conventions.

The schedule is data (visible and editable in the admin, present on every
migrated database): the daily rotation at 00:00 Europe/Bratislava, the
abandoned-games cleanup every hour at :30.
"""

from django.db import migrations

TIMEZONE = "Europe/Bratislava"
TASKS = [
    # (name, task, minute, hour)
    (
        "poker: publish the daily challenge, freeze yesterday",
        "poker.rotate_daily_challenge",
        "0",
        "0",
    ),
    ("poker: clean up abandoned solo games", "poker.cleanup_abandoned_games", "30", "*"),
]


def create_tasks(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    for name, task, minute, hour in TASKS:
        schedule, _created = CrontabSchedule.objects.get_or_create(
            minute=minute,
            hour=hour,
            day_of_week="*",
            day_of_month="*",
            month_of_year="*",
            timezone=TIMEZONE,
        )
        PeriodicTask.objects.update_or_create(
            name=name, defaults={"task": task, "crontab": schedule, "enabled": True}
        )


def remove_tasks(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name__in=[name for name, *_rest in TASKS]).delete()


def current_conventions(apps, schema_editor):
    """Old easy/hard games: their difficulty is their mode; results name the game
    time ``duration_s`` (the key profile stats read)."""
    SoloGame = apps.get_model("poker", "SoloGame")
    GameResult = apps.get_model("games", "GameResult")
    SoloGame.objects.filter(mode="hard").update(difficulty="hard")
    for result in GameResult.objects.filter(record__game="poker", details__has_key="duration"):
        details = dict(result.details)
        details["duration_s"] = details.pop("duration")
        details.setdefault("difficulty", result.record.mode)
        GameResult.objects.filter(pk=result.pk).update(details=details)


def forwards(apps, schema_editor):
    create_tasks(apps, schema_editor)
    current_conventions(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("poker", "0002_leaderboards_daily"),
        ("games", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(forwards, remove_tasks)]
