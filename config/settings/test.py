"""Tests: the real PostgreSQL and Redis started by ``make test`` (see config/devservices.py)."""

from .base import *  # noqa: F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# whitenoise serves from the finders here; nothing is collected
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True

# Each test sees fresh health checks (the real server still shares one run of
# the checks between concurrent probes).
HEALTH_CACHE_SECONDS = 0
