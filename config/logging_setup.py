"""Logging for every process (web, Celery worker, Celery beat), and optional Sentry.

Each line carries a timestamp, the level, the logger and the request id. The
request id comes from django-guid: nginx generates one per request
(``$request_id``) and passes it as ``X-Request-ID``; without a valid one the
middleware makes one. The same id is in nginx's access log and is returned to
the browser in the ``X-Request-ID`` response header, so a teacher's "it failed
at 10:14" can be traced from the proxy to the application.

``LOG_FORMAT=json`` (the production default) writes one JSON object a line
for a log collector; ``text`` is for people at a terminal.

Celery configures logging itself unless someone listens to its
``setup_logging`` signal; this module does (at the bottom, connected when the
settings import it) and applies this same configuration, so the worker and
beat speak the same format and beat's "Sending due task" line, logged for the
tick tasks every few seconds, is silenced (``CELERY_BEAT_LOG_LEVEL``, WARNING
by default). Celery's ``--loglevel`` is then ignored; ``LOG_LEVEL`` applies.

Uvicorn's supervising parent process never loads Django; the Dockerfile points
it at ``platform/uvicorn-logging.json``, the same JSON format (a test keeps the
two equal).
"""

from __future__ import annotations

import logging
import os
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"
# python-json-logger turns every named field into a key; "timestamp" is added
# in ISO 8601 with the time zone (timestamp=True).
JSON_FORMAT = "%(levelname)s %(name)s %(message)s %(request_id)s %(process)d"


class DropColourMessage:
    """Uvicorn attaches an ANSI-coloured copy of each message (``color_message``);
    in a JSON line it is noise, so it is removed before formatting."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.__dict__.pop("color_message", None)
        return True


class ForeignHostIsAWarning:
    """A request for a host that is not ours (``DisallowedHost``) is answered 400;
    Django logs it at ERROR with a traceback, which made every scanner's probe
    look like a server fault (issue 38 §4). One WARNING line, no traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno = 30  # logging.WARNING
        record.levelname = "WARNING"
        record.exc_info = None
        record.exc_text = None
        return True


def build_logging(
    *,
    json_lines: bool,
    level: str = "INFO",
    beat_level: str = "WARNING",
    access_level: str = "WARNING",
) -> dict:
    """The ``LOGGING`` dict: one stderr handler, request ids on every record."""
    if json_lines:
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": JSON_FORMAT,
            "timestamp": True,
            "rename_fields": {"levelname": "level", "name": "logger"},
        }
    else:
        formatter = {"format": TEXT_FORMAT}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request_id": {
                "()": "django_guid.log_filters.CorrelationId",
                "correlation_id_field": "request_id",
            },
            "drop_colour": {"()": "config.logging_setup.DropColourMessage"},
            "foreign_host": {"()": "config.logging_setup.ForeignHostIsAWarning"},
        },
        "formatters": {"default": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "default",
                "filters": ["request_id", "drop_colour"],
            },
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Uvicorn's own handlers would print a second, unformatted copy.
            "uvicorn": {"handlers": ["console"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            # One line per request is nginx's access log; ACCESS_LOG_LEVEL=INFO adds
            # uvicorn's (with the client address the application sees).
            "uvicorn.access": {"handlers": ["console"], "level": access_level, "propagate": False},
            # "Header X-Request-ID was not found ... Generated new GUID" on every request.
            "django_guid": {"level": "WARNING"},
            "django.security.DisallowedHost": {"filters": ["foreign_host"]},
            # Beat announces every due task: the rooms ticks make that a line
            # every few seconds. Errors still show.
            "celery.beat": {"level": beat_level},
            "django_celery_beat": {"level": beat_level},
        },
    }


def logging_from_environment(*, json_default: bool) -> dict:
    fmt = os.environ.get("LOG_FORMAT", "json" if json_default else "text").strip().lower()
    return build_logging(
        json_lines=fmt == "json",
        level=os.environ.get("LOG_LEVEL", "INFO").upper(),
        beat_level=os.environ.get("CELERY_BEAT_LOG_LEVEL", "WARNING").upper(),
        access_level=os.environ.get("ACCESS_LOG_LEVEL", "WARNING").upper(),
    )


def init_sentry() -> bool:
    """Report errors to Sentry when ``SENTRY_DSN`` is set; do nothing otherwise.

    Personal data stays out (``send_default_pii=False``): the users are
    children, and their nicknames and addresses are not sent anywhere.
    """
    dsn = os.environ.get("SENTRY_DSN", "").strip()
    if not dsn:
        return False
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        release=os.environ.get("SENTRY_RELEASE") or None,
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        send_default_pii=False,
    )
    return True


def _use_project_logging_in_celery(**kwargs: Any) -> None:
    """Celery's ``setup_logging`` signal: apply ``settings.LOGGING`` instead of
    Celery's own root-logger format, so worker and beat log like the web process."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)


def _connect_celery() -> None:
    # Settings import this module before a Celery worker or beat sets up
    # logging; a receiver on the signal makes Celery leave logging to us.
    try:
        from celery.signals import setup_logging
    except ImportError:  # pragma: no cover - Celery is a dependency
        return
    setup_logging.connect(_use_project_logging_in_celery, weak=False)


_connect_celery()
