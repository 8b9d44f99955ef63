"""LTI Dynamic Registration 1.0, tool side (neither PyLTI1p3 nor any other
maintained Python tool library implements it; docs/decisions.md).

A staff member makes a one-time link (``new_link``); the LMS admin opens it in
the LMS, which adds ``openid_configuration`` and ``registration_token``. The
tool reads the platform's configuration, posts its own client registration to
the platform's ``registration_endpoint`` and keeps what came back. Every URL
the tool registers is built from the host the link was opened on.

A link is a bearer URL that makes the server fetch from an origin the visitor
chooses, so (issue 38 §3): it ends after ``MAX_FAILURES`` failed registrations
(a success ends it anyway); and every URL fetched (the configuration, the
registration endpoint) is http(s) on an allowed port (``LTI_REGISTRATION_PORTS``,
443 by default) whose host resolves to public addresses only -- never the
server's own loopback, private, link-local or reserved ranges. Test settings
(``LTI_ALLOW_HTTP_LOOPBACK``) allow the suite's local LMS on 127.0.0.1, any port.
"""

import hashlib
import ipaddress
import logging
import secrets
import socket
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User

from . import net
from .models import Deployment, Platform, RegistrationLink

logger = logging.getLogger(__name__)

#: Failed registrations after which a link is ended.
MAX_FAILURES = 3

PLATFORM_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-platform-configuration"
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
SCOPE_LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPE_RESULT = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
SCOPE_NRPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
SCOPES = [SCOPE_LINEITEM, SCOPE_RESULT, SCOPE_SCORE, SCOPE_NRPS]
#: Only these identity claims are asked for: names for the teacher's roster;
#: no e-mail (an LTI teacher needs none, and pupils' addresses are not ours to keep).
CLAIMS = ["iss", "sub", "name", "given_name", "family_name"]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_link(*, user: User | None = None) -> str:
    """A new one-time registration token (shown once; only its hash is kept)."""
    token = secrets.token_urlsafe(24)
    RegistrationLink.objects.create(
        token_hash=_hash(token),
        created_by=user,
        expires_at=timezone.now() + timedelta(hours=settings.LTI_REGISTRATION_LINK_HOURS),
    )
    return token


def link_path(token: str) -> str:
    return reverse("lti:register", args=[token])


def link_is_valid(token: str) -> bool:
    return RegistrationLink.objects.filter(
        token_hash=_hash(token), used_at__isnull=True, expires_at__gt=timezone.now()
    ).exists()


def _claim_link(token: str) -> RegistrationLink | None:
    """Take the link for this registration (one request only, even two at once)."""
    now = timezone.now()
    with transaction.atomic():
        link = (
            RegistrationLink.objects.select_for_update()
            .filter(token_hash=_hash(token), used_at__isnull=True, expires_at__gt=now)
            .first()
        )
        if link is None:
            return None
        link.used_at = now
        link.save(update_fields=["used_at"])
        return link


def _failures_key(link: RegistrationLink) -> str:
    return f"lti-registration-failures:{link.pk}"


def _count_failure(link: RegistrationLink) -> int:
    """One more failed registration with ``link``; the count so far. With the
    cache away the link counts as used up (a new link is one staff click)."""
    key = _failures_key(link)
    try:
        cache.add(key, 0, timeout=settings.LTI_REGISTRATION_LINK_HOURS * 3600)
        return int(cache.incr(key))
    except Exception as exc:
        logger.warning("LTI registration failures not counted, cache unavailable: %s", exc)
        return MAX_FAILURES


def _release(link: RegistrationLink) -> bool:
    """A failed registration gives the link back -- the admin may try again --
    until ``MAX_FAILURES`` failures, which end it (True: ended)."""
    if _count_failure(link) >= MAX_FAILURES:
        RegistrationLink.objects.filter(pk=link.pk, platform__isnull=True).update(
            expires_at=timezone.now()
        )
        logger.warning("LTI registration link %s ended after %s failures", link.pk, MAX_FAILURES)
        return True
    RegistrationLink.objects.filter(pk=link.pk, platform__isnull=True).update(used_at=None)
    return False


def _loopback_allowed() -> bool:
    return bool(getattr(settings, "LTI_ALLOW_HTTP_LOOPBACK", False))


def check_target(url: str) -> None:
    """Refuse (``PlatformError``) a URL the server must not fetch for a
    registration: a port not allowed, or a host that resolves to any address
    that is not public (loopback only where the settings allow a local LMS)."""
    if not net.acceptable_url(url):
        raise net.PlatformError("bad_url", url[:200])
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise net.PlatformError("forbidden_port", url[:200]) from None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise net.PlatformError("unreachable", host[:200]) from None
    addresses = {ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos}
    if _loopback_allowed() and addresses and all(a.is_loopback for a in addresses):
        return  # the suite's local LMS, any port
    allowed_ports = set(getattr(settings, "LTI_REGISTRATION_PORTS", (443,)))
    if port not in allowed_ports:
        raise net.PlatformError("forbidden_port", str(port))
    if not addresses or not all(address.is_global for address in addresses):
        raise net.PlatformError("forbidden_address", host[:200])


@dataclass
class ToolUrls:
    base: str
    login: str
    launch: str
    jwks: str
    logo: str
    domain: str


def tool_urls(request: HttpRequest) -> ToolUrls:
    def absolute(name: str) -> str:
        return request.build_absolute_uri(reverse(name))

    return ToolUrls(
        base=request.build_absolute_uri("/"),
        login=absolute("lti:login"),
        launch=absolute("lti:launch"),
        jwks=absolute("lti:jwks"),
        logo=request.build_absolute_uri("/static/icons/favicon.svg"),
        domain=request.get_host(),
    )


def tool_configuration(urls: ToolUrls, scopes_supported: list | None = None) -> dict:
    """The client registration the tool posts (also the manual values in docs/lti.md)."""
    scopes = [scope for scope in SCOPES if not scopes_supported or scope in scopes_supported]
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": urls.login,
        "redirect_uris": [urls.launch],
        "client_name": "Matika",
        "jwks_uri": urls.jwks,
        "logo_uri": urls.logo,
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": " ".join(scopes),
        TOOL_CONFIGURATION: {
            "domain": urls.domain,
            "description": "Matika: maths games as homework, scores to the gradebook.",
            "target_link_uri": urls.launch,
            "claims": CLAIMS,
            "messages": [
                {
                    "type": "LtiDeepLinkingRequest",
                    "target_link_uri": urls.launch,
                    "label": "Matika",
                },
                {"type": "LtiResourceLinkRequest", "target_link_uri": urls.launch},
            ],
        },
    }


REQUIRED = (
    "issuer",
    "authorization_endpoint",
    "registration_endpoint",
    "jwks_uri",
    "token_endpoint",
)


def _platform_configuration(url: str) -> dict:
    check_target(url)
    response = net.get(url, headers={"Accept": "application/json"})
    if response.status_code != 200:
        raise net.PlatformError("configuration_unavailable", f"HTTP {response.status_code}")
    config = net.json_of(response)
    for name in REQUIRED:
        value = config.get(name)
        if name == "issuer":
            if not net.acceptable_url(value):
                raise net.PlatformError("bad_configuration", name)
        elif not net.acceptable_url(value):
            raise net.PlatformError("bad_configuration", name)
    # The configuration must come from the issuer's own site (spec 3.5.1).
    if net.origin(url) != net.origin(config["issuer"]):
        raise net.PlatformError("issuer_mismatch", config["issuer"])
    return config


@dataclass
class Registered:
    platform: Platform
    origin: str


def register(
    *, token: str, request: HttpRequest, configuration_url: object, registration_token: object
) -> Registered:
    """Register with the platform; raises ``PlatformError`` (nothing kept) or
    ``LookupError`` (no valid link)."""
    if not net.acceptable_url(configuration_url):
        raise net.PlatformError("bad_configuration_url")
    if registration_token is not None and not isinstance(registration_token, str):
        raise net.PlatformError("bad_registration_token")
    link = _claim_link(token)
    if link is None:
        raise LookupError("no valid registration link")
    try:
        config = _platform_configuration(str(configuration_url))
        platform_info = config.get(PLATFORM_CONFIGURATION) or {}
        body = tool_configuration(tool_urls(request), config.get("scopes_supported"))
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if registration_token:
            headers["Authorization"] = f"Bearer {registration_token}"
        check_target(config["registration_endpoint"])
        response = net.post(config["registration_endpoint"], json=body, headers=headers)
        if response.status_code not in (200, 201):
            raise net.PlatformError("registration_refused", f"HTTP {response.status_code}")
        answer = net.json_of(response)
        client_id = answer.get("client_id")
        if not isinstance(client_id, str) or not client_id or len(client_id) > 255:
            raise net.PlatformError("no_client_id")
        tool_answer = answer.get(TOOL_CONFIGURATION) or {}
        deployment_id = tool_answer.get("deployment_id") if isinstance(tool_answer, dict) else None
        with transaction.atomic():
            platform, _created = Platform.objects.update_or_create(
                issuer=config["issuer"],
                client_id=client_id,
                defaults={
                    "name": str(platform_info.get("product_family_code") or "")[:120],
                    "product": str(platform_info.get("product_family_code") or "")[:80],
                    "authorization_endpoint": config["authorization_endpoint"],
                    "token_endpoint": config["token_endpoint"],
                    "jwks_uri": config["jwks_uri"],
                    "accept_new_deployments": not deployment_id,
                    "registration": answer,
                    "is_active": True,
                },
            )
            if isinstance(deployment_id, str) and deployment_id:
                Deployment.objects.get_or_create(
                    platform=platform, deployment_id=deployment_id[:255]
                )
            RegistrationLink.objects.filter(pk=link.pk).update(platform=platform)
    except Exception as error:
        if _release(link):
            # The page then says the link is no longer valid (not "try again").
            logger.warning("LTI registration failed: %s", error)
            raise LookupError("registration link ended after failed attempts") from error
        raise
    return Registered(platform=platform, origin=net.origin(config["issuer"]))
