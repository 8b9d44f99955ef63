"""Production: every secret from the environment; refuse to start without them."""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env_bool, env_list


def required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"Production settings need the environment variable {name}.")
    return value


SECRET_KEY = required("SECRET_KEY")
if SECRET_KEY.startswith("dev-only") or len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be a random value of at least 50 characters.")
required("ALLOWED_HOSTS")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
required("DATABASE_URL")
required("REDIS_URL")

DEBUG = False
# collectstatic writes here (the image builds into /app/staticfiles; tests into a temporary directory).
STATIC_ROOT = os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles"  # noqa: F405
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
PLAYER_COOKIE_SECURE = True
