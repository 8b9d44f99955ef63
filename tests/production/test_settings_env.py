"""Production settings read mail and Redis from the environment (issue 22 §4:
"SMTP settings are never read from the environment"; "separate Redis URLs per
role (channels, Celery broker, cache) so each can move to its own managed
service")."""

import json
import os
import subprocess
import sys

from tests.conftest import BASE_DIR

PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "SECRET_KEY": "settings-env-test-" + "k" * 40,
    "ALLOWED_HOSTS": "matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    "REDIS_URL": "redis://redis.invalid:6379/0",
}
NAMES = (
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "EMAIL_TIMEOUT",
    "DEFAULT_FROM_EMAIL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
)


def prod_settings(**env) -> dict:
    drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", *NAMES, "EMAIL_URL", "CHANNELS_REDIS_URL"}
    drop |= {"CACHE_REDIS_URL"}
    full = {k: v for k, v in os.environ.items() if k not in drop}
    full.update(PROD_ENV)
    full.update(env)
    # Reading a setting imports config.settings.prod (its checks run on import);
    # django.setup() would also import every app, seconds of CPU per process for
    # nothing these tests look at (the smoke test starts the real application).
    code = (
        "import json; from django.conf import settings as s; "
        f"d = {{n: getattr(s, n) for n in {NAMES!r}}}; "
        "d['channels'] = s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['address']; "
        "d['cache'] = s.CACHES['default']['LOCATION']; print(json.dumps(d))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=full, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_smtp_from_one_url_with_quoted_user_and_password():
    s = prod_settings(
        EMAIL_URL="smtp+tls://matika%40school.example:p%40ss%2Fword@smtp.school.example:2525",
        DEFAULT_FROM_EMAIL="Matika <matika@school.example>",
    )
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"]) == ("smtp.school.example", 2525)
    assert (s["EMAIL_HOST_USER"], s["EMAIL_HOST_PASSWORD"]) == (
        "matika@school.example",
        "p@ss/word",
    )
    assert (s["EMAIL_USE_TLS"], s["EMAIL_USE_SSL"]) == (True, False)
    assert s["DEFAULT_FROM_EMAIL"] == "Matika <matika@school.example>"
    assert s["EMAIL_TIMEOUT"] == 10


def test_smtp_defaults_per_scheme_and_parts_override_the_url():
    s = prod_settings(EMAIL_URL="smtp+ssl://mail.example", EMAIL_HOST_PASSWORD="from-parts")
    assert (s["EMAIL_PORT"], s["EMAIL_USE_SSL"], s["EMAIL_USE_TLS"]) == (465, True, False)
    assert s["EMAIL_HOST_PASSWORD"] == "from-parts"
    s = prod_settings(EMAIL_HOST="relay.example", EMAIL_PORT="587", EMAIL_USE_TLS="true")
    assert (s["EMAIL_HOST"], s["EMAIL_PORT"], s["EMAIL_USE_TLS"]) == ("relay.example", 587, True)


def test_production_never_prints_mail_to_the_console():
    s = prod_settings()
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert s["EMAIL_HOST"] == "localhost"


def test_each_redis_role_has_its_own_url_with_redis_url_as_fallback():
    s = prod_settings()
    assert s["channels"] == s["cache"] == s["CELERY_BROKER_URL"] == s["CELERY_RESULT_BACKEND"]
    assert s["channels"] == PROD_ENV["REDIS_URL"]
    s = prod_settings(
        REDIS_URL="",
        CHANNELS_REDIS_URL="redis://channels.invalid:6379/0",
        CELERY_BROKER_URL="redis://celery.invalid:6379/0",
        CACHE_REDIS_URL="redis://cache.invalid:6379/0",
    )
    assert s["channels"] == "redis://channels.invalid:6379/0"
    assert s["CELERY_BROKER_URL"] == "redis://celery.invalid:6379/0"
    assert s["CELERY_RESULT_BACKEND"] == "redis://celery.invalid:6379/0"
    assert s["cache"] == "redis://cache.invalid:6379/0"
