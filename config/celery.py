"""The Celery application: broker and result backend are the project's Redis."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("matika", include=["config.health"])
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
