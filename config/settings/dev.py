"""Development: debug on, console e-mail, services started by ``make run``."""

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DEBUG", True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# whitenoise serves from the finders here; nothing is collected
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
