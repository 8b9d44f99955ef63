"""Tests: the real PostgreSQL and Redis started by ``make test`` (see tools/devservices.py)."""

import os
from typing import Any

# pytest-xdist (make test TEST_WORKERS=2): each worker has its own test database
# (pytest-django's _gw0/_gw1 suffix) and here its own Redis database, so one
# worker's channel layer, cache, rate-limit counters and Celery queue never reach
# the other's. Once per worker: the servers it starts inherit the result, and a
# test that points its own servers at a Redis of its own is left alone.
_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if (
    _XDIST_WORKER.startswith("gw")
    and os.environ.get("REDIS_URL")
    and "MATIKA_WORKER_REDIS_URL" not in os.environ
):
    _redis_base = os.environ["REDIS_URL"].rsplit("/", 1)[0]
    os.environ["REDIS_URL"] = f"{_redis_base}/{int(_XDIST_WORKER[2:]) + 1}"
    os.environ["MATIKA_WORKER_REDIS_URL"] = os.environ["REDIS_URL"]

from .base import *  # noqa: E402, F403
from .base import CHANNEL_LAYERS as _BASE_CHANNEL_LAYERS  # noqa: E402

# Redis pub/sub knows no database numbers: a PUBLISH on one reaches the subscribers
# on every other. The rooms' channel layer is a pub/sub layer (games/rooms/layer.py)
# whose group channels are "<prefix>__group__room.<id>", and both workers' test
# databases number their rooms from 1, so with one prefix a worker's sockets would
# hear the other worker's room of the same number. Each worker (and the servers it
# starts, which inherit PYTEST_XDIST_WORKER) publishes under a prefix of its own.
# A new dict: base's stays as it is.
if _XDIST_WORKER.startswith("gw"):
    _layer: dict[str, Any] = dict(_BASE_CHANNEL_LAYERS["default"])
    _config: dict[str, Any] = dict(_layer["CONFIG"])
    _config["prefix"] = f"matika-{_XDIST_WORKER}"
    CHANNEL_LAYERS = {"default": {**_layer, "CONFIG": _config}}

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

# The whole suite runs from 127.0.0.1 against one Redis: other areas' tests must
# not trip the creation and code limits of each other. tests/security/ sets the
# real rates (an empty MATIKA_LIMITS) and a fresh address per test.
MATIKA_LIMITS = {
    name: "100000/h"
    for name in (
        "code_misses_identity",
        "code_misses_address",
        "code_misses_address_all",
        "class_pending_browser",
        "class_pending_address",
        "poker_board_hints_browser",
        "poker_board_hints_address",
        "room_creations_identity",
        "room_creations_address",
        "room_creations_address_all",
        "profile_creations_identity",
        "profile_creations_address",
        "class_joins_identity",
        "class_joins_address",
        # accounts.mail_limits
        "signups_address",
        "signup_notices_email",
        "verification_resends_email",
        "invitations_account",
        "invitations_recipient",
        "invitations_address",
        # accounts.login_limits
        "sso_logins_address",
    )
}

# The echo WebSocket (config/routing.py) proves the real-time path in tests;
# production never routes it.
ECHO_SOCKET = True

# The suite's local LMS (tests/lti/lms.py) runs on http://127.0.0.1.
LTI_ALLOW_HTTP_LOOPBACK = True
