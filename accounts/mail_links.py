"""Absolute links in mails: from ``SITE_URL``, never from the request's Host.

A mailed link built from the request's ``Host`` points wherever the requester
said: production accepts ``Host: localhost`` (the health probes use it), so a
sign-up, password reset or invitation sent "from localhost" mailed a teacher a
link to their own machine, and any allowed name could be chosen (issue 27 §5).
Production sets ``SITE_URL`` (config/settings/prod.py: the ``SITE_URL``
environment variable, or https:// and the first of ``ALLOWED_HOSTS``);
development and tests leave it empty and use the request's own address.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest


def site_url(request: HttpRequest) -> str:
    """Scheme and host of the site, without a trailing slash."""
    configured = getattr(settings, "SITE_URL", "")
    if configured:
        return configured.rstrip("/")
    return request.build_absolute_uri("/").rstrip("/")


def absolute(request: HttpRequest, path: str) -> str:
    return site_url(request) + path


def domain_and_https(request: HttpRequest) -> tuple[str, bool]:
    """What Django's password-reset mail needs: the host and whether to use https."""
    parts = urlsplit(site_url(request))
    return parts.netloc, parts.scheme == "https"
