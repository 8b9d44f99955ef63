"""Settings shared by every environment.

Everything that differs between machines comes from environment variables;
the defaults here are safe for development only, and ``prod.py`` refuses to
start without the secrets it needs.
"""

import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config import redisconf
from config.logging_setup import logging_from_environment

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-change-me")
# The daily poker deck is derived from this secret; a separate value lets the
# signing key be rotated without changing the day's deck (defaults to SECRET_KEY).
POKER_DAILY_SECRET = os.environ.get("POKER_DAILY_SECRET", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # the admin with optional TOTP for staff (accounts/admin_apps.py)
    "accounts.admin_apps.MatikaAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    # the ground under every app: the domain error, the game registry, room
    # figures, the page policy (docs/decisions.md "The ground: core/")
    "core",
    "accounts",
    "classrooms",
    "games",
    "games.rooms",
    "games.poker",
    "games.mathesso",
    "games.abaku",
    "games.theorems",
    # class assignments: above classrooms and the games (docs/api.md "Homework")
    "homework",
    # LTI 1.3 tool for Moodle, Canvas and other LMSs: above homework (docs/lti.md)
    "lti",
    # teachers sign in with the school's account (accounts/sso/, docs/sso.md)
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    # LTI launches inside the LMS's frame (lti/framing.py): that LMS's origins in
    # frame-ancestors, partitioned cookies; before sessions/CSRF to see their cookies
    "lti.framing.FramedSessionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # a body the CSRF middleware already consumed is a 400, never a 500
    "config.security.UnreadableBodyMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "accounts.middleware.PlayerIdentityMiddleware",
    "accounts.sessions.TeacherIdleTimeoutMiddleware",
    "accounts.middleware.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # django-allauth's (required by the school sign-in, accounts/sso/)
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last, as django-axes asks: turns a locked login into its lockout answer
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.player",
            ],
        },
    },
]

# PostgreSQL connections come from Django's psycopg pool and are never kept by a
# request's thread (CONN_MAX_AGE=0). Under ASGI every HTTP request runs its sync
# code in a thread of its own (asgiref's ThreadSensitiveContext), so persistent
# per-thread connections piled up: 34 held by one uvicorn process after 100
# requests with CONN_MAX_AGE=60. With the pool a process holds at most
# DB_POOL_MAX_SIZE connections, whatever its thread count (bench/RESULTS-db.md).
# Only the rooms' WebSocket database threads, half of DB_POOL_MAX_SIZE, keep the
# connection they took between messages (games/rooms/consumers.py).
# A thread that finds none free waits up to DB_POOL_TIMEOUT seconds, then gets an
# OperationalError. DB_POOL=off restores plain connections kept DB_CONN_MAX_AGE
# seconds (a WSGI server or a transaction-mode PgBouncer in front, say).
# CONN_HEALTH_CHECKS makes the pool check a connection before lending it, so
# connections broken by a PostgreSQL restart are replaced, not handed out (one
# more round trip per borrow; DB_HEALTH_CHECKS=off saves it, see
# bench/RESULTS-db.md).
# After PostgreSQL comes back from an outage the pool must notice within seconds:
# psycopg_pool retries a lost connection with a doubling delay (1, 2, 4, 8 ... s)
# for reconnect_timeout (its default 300 s), so after an outage of T seconds
# its next try could come nearly T seconds after PostgreSQL was back. With
# DB_POOL_RECONNECT_TIMEOUT (5 s) a retry series gives up after 5 s (tries at
# about 0, 1, 3 and 5 s; the pool logs a warning) and the next request that
# finds no connection starts a new one at once: at most about 2 s between
# tries, whatever the outage's length (tests/foundation/test_db_reconnect.py).
DB_POOL = env_bool("DB_POOL", True)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:55432/matika"),
        conn_max_age=0 if DB_POOL else int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        conn_health_checks=env_bool("DB_HEALTH_CHECKS", True),
    )
}
DATABASES["default"].setdefault("OPTIONS", {})
DATABASES["default"]["OPTIONS"].setdefault(
    "connect_timeout", int(os.environ.get("DB_CONNECT_TIMEOUT", "5"))
)
if DB_POOL:
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN_SIZE", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "16")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        "reconnect_timeout": float(os.environ.get("DB_POOL_RECONNECT_TIMEOUT", "5")),
    }
# DATABASE_POOLER=pgbouncer: DATABASE_URL points at PgBouncer in transaction
# mode (docs/operations.md), where consecutive statements outside a transaction
# may run on different server connections. So: no server-side cursors (a
# QuerySet.iterator() outside a transaction kept a named cursor open across
# statements: 'portal "_django_curs_..." does not exist'), no prepared statements
# (psycopg 3 prepare_threshold=None; Django's default, pinned here), and no
# session state but what PgBouncer tracks itself (TimeZone). Advisory locks must
# be transaction-scoped (pg_try_advisory_xact_lock). Django's own pool stays in
# front: each process keeps at most DB_POOL_MAX_SIZE client connections to
# PgBouncer, which multiplexes them over its server pool.
DATABASE_POOLER = os.environ.get("DATABASE_POOLER", "").strip().lower()
if DATABASE_POOLER not in {"", "none", "pgbouncer"}:
    raise ValueError("DATABASE_POOLER must be empty or 'pgbouncer'")
if DATABASE_POOLER == "pgbouncer":
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None
    DATABASES["default"]["OPTIONS"].pop("server_side_binding", None)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis (config/redisconf.py): REDIS_URL, or one URL per role (CHANNELS_REDIS_URL,
# CACHE_REDIS_URL, CELERY_BROKER_URL, HEALTH_REDIS_URL) each falling back to it,
# so the channel layer, the Celery broker/results and the cache can each move to
# their own service. REDIS_SENTINELS="h:p,h:p,h:p" with REDIS_SENTINEL_MASTER
# replaces all of them: every use follows the master the Sentinels name.
_REDIS = redisconf.from_environment(os.environ)
REDIS_SENTINELS = _REDIS["REDIS_SENTINELS"]
REDIS_SENTINEL_MASTER = _REDIS["REDIS_SENTINEL_MASTER"]
REDIS_URL = _REDIS["REDIS_URL"]
CHANNELS_REDIS_URL = _REDIS["CHANNELS_REDIS_URL"]
CACHE_REDIS_URL = _REDIS["CACHE_REDIS_URL"]

# Redis pub/sub layer: a group message reaches every subscribed socket without a
# per-channel queue that overflows (the core layer dropped events once 50 players
# acted at once, see bench/RESULTS-rooms.md). Connections are pooled per process.
# games/rooms/layer.py adds what a lost connection needs: the process notices,
# reconnects and brings its sockets back in step.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "games.rooms.layer.ResyncingPubSubChannelLayer",
        "CONFIG": {
            "hosts": [
                redisconf.channel_layer_host(
                    CHANNELS_REDIS_URL,
                    max_connections=int(os.environ.get("CHANNEL_LAYER_MAX_CONNECTIONS", "2000")),
                )
            ],
            "prefix": "matika",
        },
    }
}

CACHES = {"default": redisconf.cache_settings(CACHE_REDIS_URL, KEY_PREFIX="matika")}

# Limits on guessing codes and on creating rooms, profiles and class joins
# (accounts/limits.py, docs/decisions.md "Limits"): django-ratelimit counters in
# the cache; a Redis outage serves requests unlimited (logged) instead of 500.
RATELIMIT_USE_CACHE = "default"
RATELIMIT_FAIL_OPEN = True
# Rates in django-ratelimit's syntax, e.g. {"code_misses_address": "200/15m"};
# unset names keep the defaults in accounts/limits.py.
MATIKA_LIMITS: dict[str, str] = {}
# WebSockets open at once (games/rooms/sockets.py): per player in one room, per
# player and per browser over all rooms, and per address (a ceiling far above a
# whole school's need: everyone behind the school's NAT shares it).
ROOM_SOCKETS_PER_PLAYER = int(os.environ.get("ROOM_SOCKETS_PER_PLAYER", "5"))
ROOM_SOCKETS_PER_PLAYER_ALL = int(os.environ.get("ROOM_SOCKETS_PER_PLAYER_ALL", "20"))
ROOM_SOCKETS_PER_BROWSER = int(os.environ.get("ROOM_SOCKETS_PER_BROWSER", "20"))
ROOM_SOCKETS_PER_ADDRESS = int(os.environ.get("ROOM_SOCKETS_PER_ADDRESS", "5000"))
# A room socket silent this long (no frame, not even the page's 20 s heartbeat) is closed.
ROOM_SOCKET_IDLE_SECONDS = float(os.environ.get("ROOM_SOCKET_IDLE_SECONDS", "300"))

# With Sentinel: sentinel:// URLs and the master's name in the transport options.
_CELERY_REDIS = redisconf.celery_settings(os.environ, REDIS_URL)
CELERY_BROKER_URL = _CELERY_REDIS["CELERY_BROKER_URL"]
CELERY_RESULT_BACKEND = _CELERY_REDIS["CELERY_RESULT_BACKEND"]
if REDIS_SENTINELS:
    CELERY_BROKER_TRANSPORT_OPTIONS = _CELERY_REDIS["CELERY_BROKER_TRANSPORT_OPTIONS"]
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = _CELERY_REDIS[
        "CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS"
    ]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "Europe/Bratislava"

# Health checks (config/health.py): /livez touches nothing; /readyz (= /healthz)
# checks PostgreSQL, Redis and the Celery heartbeats (config/celery.py), each
# within HEALTH_CHECK_TIMEOUT seconds, and reuses a result for HEALTH_CACHE_SECONDS.
# Workers refresh their heartbeat every HEALTH_HEARTBEAT_SECONDS, beat every
# HEALTH_BEAT_HEARTBEAT_SECONDS; an entry older than three intervals is dead.
HEALTH_PATHS = ["/livez", "/readyz", "/healthz"]
HEALTH_CHECK_TIMEOUT = float(os.environ.get("HEALTH_CHECK_TIMEOUT", "2"))
HEALTH_CACHE_SECONDS = float(os.environ.get("HEALTH_CACHE_SECONDS", "1"))
HEALTH_HEARTBEAT_SECONDS = float(os.environ.get("HEALTH_HEARTBEAT_SECONDS", "10"))
HEALTH_BEAT_HEARTBEAT_SECONDS = float(os.environ.get("HEALTH_BEAT_HEARTBEAT_SECONDS", "30"))
HEALTH_REQUIRE_BEAT = env_bool("HEALTH_REQUIRE_BEAT", False)
# Heartbeats live in the broker's Redis (every worker reaches it) unless
# HEALTH_REDIS_URL names another; /readyz pings every Redis role's URL.
HEALTH_REDIS_URL = _REDIS["HEALTH_REDIS_URL"] or (
    CELERY_BROKER_URL
    if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
    else CACHE_REDIS_URL
)
CELERY_BEAT_SCHEDULE = {
    "health-beat-heartbeat": {
        "task": "health.beat_heartbeat",
        "schedule": HEALTH_BEAT_HEARTBEAT_SECONDS,
        "options": {"expires": HEALTH_BEAT_HEARTBEAT_SECONDS},
    },
}

# Retention (docs/privacy.md): how long each kind of data is kept, in one table.
# accounts/retention.py applies it from a periodic task; the privacy page shows
# these same numbers. Days unless the key says otherwise. Game records and
# results (without the room's log) stay for class reports.
RETENTION = {
    # A room not finished this long after it was created expires (lobby or game).
    "unfinished_room_hours": 6,
    # Finished and expired rooms -- seats, the event log with nicknames and
    # moves, the game state -- are deleted this long after they ended.
    "ended_room_days": 7,
    # Answers remembered for repeated message ids (idempotency).
    "processed_message_days": 1,
    # Teachers' login sessions are deleted once expired (Django's own expiry).
    "session_days": 14,
    # A browser record, and a player profile without a teacher account, unused this long.
    "unused_browser_days": 395,
    "unused_profile_days": 395,
    # Teachers' login records (django-axes: address, browser, time of each attempt).
    "login_record_days": 30,
}
RETENTION_BATCH = int(os.environ.get("RETENTION_BATCH", "1000"))
# Named on the privacy page: who is responsible for the data and how to reach them.
# Unset: the privacy page says "the operator of this Matika server" in the page's language.
DATA_CONTROLLER_NAME = os.environ.get("DATA_CONTROLLER_NAME", "")
DATA_CONTROLLER_CONTACT = os.environ.get("DATA_CONTROLLER_CONTACT", "")
SESSION_COOKIE_AGE = RETENTION["session_days"] * 24 * 3600
CELERY_BEAT_SCHEDULE["privacy-apply-retention"] = {
    "task": "privacy.apply_retention",
    "schedule": 15 * 60,
    "options": {"expires": 15 * 60},
}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Teacher accounts (docs/decisions.md "Teacher accounts"; accounts/login_limits.py).
# django-axes locks an (account, address) pair after AXES_FAILURE_LIMIT wrong
# passwords for AXES_COOLOFF_TIME hours; "login_failures_address" in
# MATIKA_LIMITS is the ceiling of failures per address over all accounts.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.login_limits.axes_username"
AXES_CLIENT_IP_CALLABLE = "accounts.login_limits.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.views.lockout"
AXES_HTTP_RESPONSE_CODE = 429
# A teacher's session ends after this long without a request (accounts/sessions.py);
# SESSION_COOKIE_AGE stays the longest a session can live at all.
TEACHER_SESSION_IDLE_SECONDS = int(os.environ.get("TEACHER_SESSION_IDLE_SECONDS", str(2 * 3600)))
OTP_TOTP_ISSUER = "Matika"

# School sign-in (accounts/sso/, docs/sso.md): Google, Microsoft and any
# OpenID Connect provider through django-allauth's openid_connect provider,
# each off unless its SSO_* variables are set (or an admin adds a SocialApp).
# Only allauth's provider URLs are mounted (config/urls.py): its own password
# login, sign-up and e-mail flows are not used; accounts.sso.adapter decides
# every sign-in and answers before allauth's sign-up or connect could run.
from accounts.sso.environment import providers_from_environment  # noqa: E402

SOCIALACCOUNT_ADAPTER = "accounts.sso.adapter.SchoolSocialAccountAdapter"
SOCIALACCOUNT_PROVIDERS = {
    "openid_connect": {
        "provider_class": "accounts.sso.provider.SchoolOIDCProvider",
        "OAUTH_PKCE_ENABLED": True,
        "APPS": providers_from_environment(os.environ),
    }
}
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_AUTO_SIGNUP = False
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_EMAIL_VERIFICATION = "none"
# The buttons are links: a form posting to the provider would break the CSP's
# form-action 'self' at the redirect. State, nonce and PKCE guard the callback.
SOCIALACCOUNT_LOGIN_ON_GET = True
SOCIALACCOUNT_REQUESTS_TIMEOUT = int(os.environ.get("SSO_REQUESTS_TIMEOUT", "10"))
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*"]
ACCOUNT_EMAIL_VERIFICATION = "none"

LOGIN_URL = "accounts:login"
# A teacher without a class lands on "Create your first class" (classrooms:start).
LOGIN_REDIRECT_URL = "classrooms:start"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "cs"
LANGUAGES = [
    ("cs", _("Czech")),
    ("sk", _("Slovak")),
    ("en", _("English")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "matika_lang"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "Europe/Bratislava"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# A path here; prod may take it from the environment, dev and test collect nothing (None).
STATIC_ROOT: Path | str | None = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names with the JS module imports rewritten to them (config/storage.py).
    "staticfiles": {"BACKEND": "config.storage.MatikaStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Matika API",
    "DESCRIPTION": "Classes, members, game sessions and results for teachers.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Self-hosted Swagger UI assets: no CDN (the CSP allows same-origin only).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}


# Outgoing e-mail (password reset). EMAIL_URL is one of
#   smtp://user:password@host:25        plain SMTP
#   smtp+tls://user:password@host:587   STARTTLS (submission)
#   smtp+ssl://user:password@host:465   implicit TLS
# (user and password URL-quoted); EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL set or override the parts.
# Either one means SMTP; without them development prints mail to the console
# (production sends through SMTP on localhost:25, see prod.py).
def email_from_environment() -> dict:
    from urllib.parse import unquote, urlsplit

    found: dict = {}
    url = os.environ.get("EMAIL_URL", "").strip()
    if url:
        parts = urlsplit(url)
        if parts.scheme not in {"smtp", "smtp+tls", "smtp+ssl"}:
            raise ValueError("EMAIL_URL must start with smtp://, smtp+tls:// or smtp+ssl://")
        default_port = {"smtp": 25, "smtp+tls": 587, "smtp+ssl": 465}[parts.scheme]
        found.update(
            EMAIL_HOST=parts.hostname or "localhost",
            EMAIL_PORT=parts.port or default_port,
            EMAIL_HOST_USER=unquote(parts.username or ""),
            EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
            EMAIL_USE_TLS=parts.scheme == "smtp+tls",
            EMAIL_USE_SSL=parts.scheme == "smtp+ssl",
        )
    for name in ("EMAIL_HOST", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD"):
        if name in os.environ:
            found[name] = os.environ[name]
    if "EMAIL_PORT" in os.environ:
        found["EMAIL_PORT"] = int(os.environ["EMAIL_PORT"])
    for name in ("EMAIL_USE_TLS", "EMAIL_USE_SSL"):
        if name in os.environ:
            found[name] = env_bool(name)
    if found:
        found["EMAIL_BACKEND"] = "django.core.mail.backends.smtp.EmailBackend"
    if "EMAIL_BACKEND" in os.environ:
        found["EMAIL_BACKEND"] = os.environ["EMAIL_BACKEND"]
    return found


EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# A mail server that does not answer must not hold a request for minutes.
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
globals().update(email_from_environment())
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Matika <noreply@localhost>")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)

# Player identity (see accounts/identity.py): the browser keeps a random token
# in a signed HttpOnly cookie; the database stores only its SHA-256.
PLAYER_COOKIE_NAME = "matika_player"
PLAYER_COOKIE_AGE = 2 * 365 * 24 * 3600
STORAGE_COOKIE_NAME = "matika_storage"
PLAYER_COOKIE_SECURE = env_bool("PLAYER_COOKIE_SECURE", False)

# Logging (config/logging_setup.py): timestamp, level, logger and request id on
# every line; LOG_FORMAT=text here, JSON lines by default in production. The
# request id comes from django-guid's middleware (first, so every later log
# line of the request carries it), in the X-Request-ID header nginx sets.
INSTALLED_APPS.append("django_guid")
MIDDLEWARE.insert(0, "django_guid.middleware.guid_middleware")
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "VALIDATE_GUID": True,
    "RETURN_HEADER": True,
    "EXPOSE_HEADER": False,
}
LOGGING = logging_from_environment(json_default=False)

# /metrics (config/metrics.py): Prometheus' text format for whoever holds
# METRICS_TOKEN (Bearer); 404 without it. PROMETHEUS_MULTIPROC_DIR (an empty
# directory per machine or pod) makes the figures cover every worker of
# ``uvicorn --workers N``. HTTP requests by view and status: django-prometheus'
# middleware, first and last.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    # prometheus-client writes there from the first metric on: it must exist.
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
INSTALLED_APPS.append("django_prometheus")
MIDDLEWARE.insert(0, "django_prometheus.middleware.PrometheusBeforeMiddleware")
MIDDLEWARE.append("django_prometheus.middleware.PrometheusAfterMiddleware")
# Scraped by address (no allowed host): answered before CommonMiddleware checks it.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.common.CommonMiddleware"),
    "config.metrics.MetricsMiddleware",
)

# LTI 1.3 tool (lti/, docs/lti.md). Platforms must use https://; development and
# test settings also accept plain http:// on loopback addresses (a local LMS).
LTI_ALLOW_HTTP_LOOPBACK = env_bool("LTI_ALLOW_HTTP_LOOPBACK", False)
# How long a one-time registration link stays valid (hours).
LTI_REGISTRATION_LINK_HOURS = int(os.environ.get("LTI_REGISTRATION_LINK_HOURS", "72"))
# The public address the management command prints links under (no request there).
LTI_PUBLIC_URL = os.environ.get("LTI_PUBLIC_URL", "http://localhost:8000")
