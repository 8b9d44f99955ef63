"""Tests: the real PostgreSQL and Redis started by ``make test`` (see tools/devservices.py)."""

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
