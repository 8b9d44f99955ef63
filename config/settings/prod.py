"""Production: every secret from the environment; refuse to start without them."""

import os
import re

from django.core.exceptions import ImproperlyConfigured

from config.logging_setup import init_sentry, logging_from_environment

from .base import *  # noqa: F403
from .base import email_from_environment, env_bool, env_list


def required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"Production settings need the environment variable {name}.")
    return value


SECRET_KEY = required("SECRET_KEY")
if SECRET_KEY.startswith("dev-only") or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be a random value of at least 50 characters.")
required("ALLOWED_HOSTS")
# The public names, plus the loopback names the container's own health probe
# uses (compose and Kubernetes probe http://127.0.0.1:8000/...). A forged
# "Host: localhost" from outside gains nothing: pages built from it point at
# the visitor's own machine, and mails never use it (SITE_URL below).
HEALTH_PROBE_HOSTS = env_list("HEALTH_PROBE_HOSTS", "localhost,127.0.0.1,[::1]")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS") + [
    host for host in HEALTH_PROBE_HOSTS if host not in env_list("ALLOWED_HOSTS")
]
# Links in mails (accounts/mail_links.py) name the site, never the request's
# Host: "localhost" above is allowed for the probes and must not end up in a
# teacher's mailbox. SITE_URL, or https:// and the first public name.
SITE_URL = (
    os.environ.get("SITE_URL", "").strip() or f"https://{env_list('ALLOWED_HOSTS')[0]}"
).rstrip("/")
if not re.fullmatch(r"https?://[a-z0-9\[][^/\s*]*", SITE_URL, re.IGNORECASE):
    raise ImproperlyConfigured(
        "SITE_URL must be a scheme and host, e.g. https://matika.example.org."
    )
required("DATABASE_URL")
# Sentinel (REDIS_SENTINELS + REDIS_SENTINEL_MASTER), one REDIS_URL for
# everything, or one URL for each role (base.py, config/redisconf.py).
if not REDIS_SENTINELS and not all(  # noqa: F405
    os.environ.get(name) for name in ("CHANNELS_REDIS_URL", "CELERY_BROKER_URL", "CACHE_REDIS_URL")
):
    required("REDIS_URL")

DEBUG = False
# collectstatic writes here (the image builds into /app/staticfiles; tests into a temporary directory).
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"  # noqa: F405
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
# Health probes talk plain HTTP to the process itself, never through the proxy;
# redirecting them to https:// would fail every probe (paths without the
# leading slash, as SecurityMiddleware matches them).
SECURE_REDIRECT_EXEMPT = [rf"^{re.escape(path.lstrip('/'))}$" for path in HEALTH_PATHS]  # noqa: F405
# Prometheus scrapes the processes directly over plain HTTP, like the probes.
SECURE_REDIRECT_EXEMPT.append(r"^metrics$")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
PLAYER_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
# School sign-in (docs/sso.md): the redirect URI sent to a provider is https
# even should the proxy's X-Forwarded-Proto be missing.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"

# Mail goes out through SMTP (EMAIL_URL or EMAIL_HOST..., see base.py); without
# any setting, to an SMTP server on localhost:25. Never to the console: a
# "sent" reset link that nobody receives must show up as a logged error.
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
globals().update(email_from_environment())

LOGGING = logging_from_environment(json_default=True)
SENTRY_ENABLED = init_sentry()
