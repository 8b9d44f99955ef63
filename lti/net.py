"""Talking to a platform over HTTP: which URLs are acceptable, and requests
with a timeout and without following redirects elsewhere."""

import ipaddress
from typing import Any, TypeGuard
from urllib.parse import urlsplit

import requests
from django.conf import settings

TIMEOUT = 10
USER_AGENT = "Matika-LTI/1"


class PlatformError(Exception):
    """The platform answered something unusable; ``code`` is stable."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def acceptable_url(url: object) -> TypeGuard[str]:
    """https:// anywhere; http:// only on loopback and only when settings allow it."""
    if not isinstance(url, str) or len(url) > 1000:
        return False
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return False
    if not host or parts.username or parts.password:
        return False
    if parts.scheme == "https":
        return True
    return (
        parts.scheme == "http"
        and getattr(settings, "LTI_ALLOW_HTTP_LOOPBACK", False)
        and _is_loopback(host)
    )


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def get(url: str, **kwargs: Any) -> requests.Response:
    if not acceptable_url(url):
        raise PlatformError("bad_url", url)
    headers = {"User-Agent": USER_AGENT, **kwargs.pop("headers", {})}
    try:
        return requests.get(url, headers=headers, timeout=TIMEOUT, allow_redirects=False, **kwargs)
    except requests.RequestException as error:
        raise PlatformError("unreachable", str(error)[:200]) from None


def post(url: str, **kwargs: Any) -> requests.Response:
    if not acceptable_url(url):
        raise PlatformError("bad_url", url)
    headers = {"User-Agent": USER_AGENT, **kwargs.pop("headers", {})}
    try:
        return requests.post(url, headers=headers, timeout=TIMEOUT, allow_redirects=False, **kwargs)
    except requests.RequestException as error:
        raise PlatformError("unreachable", str(error)[:200]) from None


def json_of(response: requests.Response) -> dict:
    try:
        body = response.json()
    except ValueError:
        raise PlatformError("not_json", f"HTTP {response.status_code}") from None
    if not isinstance(body, dict):
        raise PlatformError("not_json", "not an object")
    return body
