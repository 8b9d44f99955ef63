"""Settings of the Celery worker that tests/accounts/test_reset_mail.py starts:
the test settings, with mail going out over real SMTP to the test's own server
(``TEST_SMTP_PORT``) and retries seconds apart instead of minutes."""

import os

from config.settings.test import *  # noqa: F403

EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = "127.0.0.1"
EMAIL_PORT = int(os.environ["TEST_SMTP_PORT"])
EMAIL_USE_TLS = False
EMAIL_USE_SSL = False
EMAIL_HOST_USER = ""
EMAIL_HOST_PASSWORD = ""
EMAIL_TIMEOUT = 5
MAIL_RETRY_BACKOFF_SECONDS = 1
MAIL_RETRY_BACKOFF_MAX_SECONDS = 2
MAIL_MAX_RETRIES = 3
