"""The LTI 1.3 launch: OIDC third-party initiated login, then the id_token.

State and nonce are kept server-side (``LaunchState``), and bound to the
browser that started the login (issue 38 §2): login initiation sets a cookie
named after the state (``SameSite=None; Secure; Partitioned``: the launch is a
cross-site form_post, possibly in the LMS's frame) whose value is a keyed hash of
the state; a launch without it is not accepted (login CSRF: a classmate's own
launch posted by another browser). Where the frame keeps no cookie, the
platform's client-side storage (``lti.put_data``/``lti.get_data``) carries the
same value when the LMS offers it; otherwise the frame says so and opens a new
window, which initiates the login again (the login's parameters wait in the
cache for as long as the state lives).
The id_token is checked with PyJWT against the platform's JWKS (signature,
``iss``, ``aud``, ``azp``, ``exp``/``iat``), then its nonce (equal to the
state's, never seen before), deployment, message type and version. Only a
token that passes everything creates or touches anything about a person.
"""

import hashlib
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import jwt
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import limits

from . import net
from .models import Deployment, LaunchState, Platform, SeenNonce

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

logger = logging.getLogger(__name__)

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
MESSAGE_TYPE = CLAIM + "message_type"
VERSION = CLAIM + "version"
DEPLOYMENT_ID = CLAIM + "deployment_id"
CONTEXT = CLAIM + "context"
RESOURCE_LINK = CLAIM + "resource_link"
ROLES = CLAIM + "roles"
CUSTOM = CLAIM + "custom"
TARGET_LINK_URI = CLAIM + "target_link_uri"
DEEP_LINKING_SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
AGS_ENDPOINT = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"

RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
MESSAGE_TYPES = {RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST}

#: A login must come back from the platform within this time.
STATE_SECONDS = 600
#: Clock difference tolerated between the platform and us.
LEEWAY_SECONDS = 60
JWKS_CACHE_SECONDS = 300
#: Key ids the cached keys do not know fetch the keys again at most this often a minute.
JWKS_REFRESH_SECONDS = 60
JWKS_REFRESHES = 10
MAX_TOKEN_LENGTH = 64_000
#: An id_token's lifetime may be at most this (``exp`` - ``iat``), and ``iat`` not older.
TOKEN_LIFETIME_SECONDS = 3600
#: The cookie that binds a login's state to the browser: this prefix + a hash of the state.
STATE_COOKIE_PREFIX = "matika_lti_state_"
STATE_SALT = "matika.lti-state"
#: The login parameters of a state, kept for a new window that initiates it again.
LOGIN_CACHE_PREFIX = "lti:login:"
LOGIN_PARAMS = (
    "iss",
    "login_hint",
    "target_link_uri",
    "lti_message_hint",
    "client_id",
    "lti_deployment_id",
)

# The course's teachers: Instructor, the course's own Administrator and teaching
# assistants. A course's ContentDeveloper (writes material, teaches nobody) and an
# institution's or the system's Administrator (the LMS's staff, not the class's
# teacher) are not made co-teachers of a class with its pupils' names (issue 38 §3);
# ``LTI_EXTRA_INSTRUCTOR_ROLES`` can add them where a school wants that.
INSTRUCTOR_ROLES = {
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator",
    "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant",
    # Short forms some platforms send in context roles.
    "Instructor",
    "Administrator",
}
LEARNER_ROLES = {
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",
    "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student",
    "Learner",
}


class Refused(Exception):  # noqa: N818 -- a refusal, not a crash
    """A launch refused: stable ``code``, a message for the page, an HTTP status."""

    def __init__(self, code: str, message: "str | _StrPromise", status: int = 403) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.status = status


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def launch_url(request: HttpRequest) -> str:
    url: str = request.build_absolute_uri(reverse("lti:launch"))
    return url


def _text(params: Mapping[str, object], name: str, limit: int = 2000) -> str:
    value = params.get(name)
    if not isinstance(value, str) or len(value) > limit:
        return ""
    return value


def login_limit() -> limits.Limit:
    """Login initiations per address (each stores a row): far above a school's
    classes launching at once, far below a flood."""
    rate = getattr(settings, "MATIKA_LIMITS", {}).get("lti_logins_address", "600/10m")
    return limits.Limit("lti-logins", rate, rate)


def _login_client(request: HttpRequest) -> limits.Client:
    # Anonymous by nature (the LMS's browser may carry nothing of ours): per address.
    return limits.Client(identity=None, address=limits.address_of(request.META.get("REMOTE_ADDR")))


def state_cookie_name(state: str) -> str:
    return STATE_COOKIE_PREFIX + _hash(state)[:16]


def state_binding(state: str) -> str:
    """The value that proves a browser started the login of ``state``."""
    binding: str = signing.Signer(salt=STATE_SALT).signature(state)
    return binding


@dataclass
class Login:
    """Where to send the browser, and the state whose binding it must keep."""

    url: str
    state: str
    platform: Platform
    storage_target: str = ""

    @property
    def cookie_name(self) -> str:
        return state_cookie_name(self.state)

    @property
    def binding(self) -> str:
        return state_binding(self.state)


def begin_login(request: HttpRequest, params: Mapping[str, object]) -> Login:
    """Step one (third-party initiated login): the URL of the platform's
    authorization endpoint to redirect the browser to, and the state to bind."""
    issuer = _text(params, "iss", 255)
    login_hint = _text(params, "login_hint")
    target = _text(params, "target_link_uri")
    client_id = _text(params, "client_id", 255)
    if not issuer or not login_hint:
        raise Refused("bad_login", _("The LMS did not send what a sign-in needs."), 400)
    client = _login_client(request)
    limit = login_limit()
    if limits.blocked(limit, client):
        raise Refused(
            "too_many_logins",
            _("Too many sign-ins from this network. Wait a few minutes and try again."),
            429,
        )
    platforms = Platform.objects.filter(issuer=issuer, is_active=True)
    if client_id:
        platforms = platforms.filter(client_id=client_id)
    found = list(platforms[:2])
    if len(found) != 1:
        raise Refused("unknown_platform", _("This LMS is not registered with Matika."), 403)
    platform = found[0]
    own = request.build_absolute_uri("/")
    if target and not target.startswith(own):
        raise Refused("bad_target", _("The link does not lead to this Matika."), 400)
    limits.count(limit, client)
    now = timezone.now()
    # Expired states go as new ones come (retention removes the rest after a day).
    LaunchState.objects.filter(created_at__lt=now - timedelta(seconds=STATE_SECONDS)).delete()
    state = secrets.token_urlsafe(32)
    nonce = secrets.token_urlsafe(24)
    LaunchState.objects.create(state_hash=_hash(state), nonce=nonce, platform=platform)
    storage_target = _text(params, "lti_storage_target", 100)
    kept = {name: _text(params, name) for name in LOGIN_PARAMS if _text(params, name)}
    if storage_target:
        kept["_storage"] = storage_target
    cache.set(LOGIN_CACHE_PREFIX + _hash(state), kept, STATE_SECONDS)
    query = {
        "scope": "openid",
        "response_type": "id_token",
        "response_mode": "form_post",
        "prompt": "none",
        "client_id": platform.client_id,
        "redirect_uri": launch_url(request),
        "login_hint": login_hint,
        "state": state,
        "nonce": nonce,
    }
    hint = _text(params, "lti_message_hint")
    if hint:
        query["lti_message_hint"] = hint
    parts = urlsplit(platform.authorization_endpoint)
    merged = [*parse_qsl(parts.query, keep_blank_values=True), *query.items()]
    return Login(
        url=urlunsplit(parts._replace(query=urlencode(merged))),
        state=state,
        platform=platform,
        storage_target=storage_target,
    )


def state_is_bound(request: HttpRequest, state: object, stored: object = None) -> bool:
    """Whether this browser started the login of ``state``: its cookie, or (in a
    frame that keeps no cookie) the value the platform's storage gave back."""
    if not isinstance(state, str) or not state or len(state) > 200:
        return False
    expected = state_binding(state)
    cookie = request.COOKIES.get(state_cookie_name(state), "")
    if cookie and secrets.compare_digest(cookie, expected):
        return True
    return isinstance(stored, str) and bool(stored) and secrets.compare_digest(stored, expected)


def login_params(state: object) -> dict[str, Any]:
    """The login parameters kept for ``state`` (empty when gone)."""
    if not isinstance(state, str) or not state:
        return {}
    return cache.get(LOGIN_CACHE_PREFIX + _hash(state)) or {}


def pending_login(state: object) -> tuple[LaunchState, dict[str, Any]] | None:
    """An unused, unexpired state's row and its login parameters (for a new
    window that initiates the login again); nothing is spent."""
    if not isinstance(state, str) or not state or len(state) > 200:
        return None
    found = (
        LaunchState.objects.select_related("platform")
        .filter(
            state_hash=_hash(state),
            used_at__isnull=True,
            created_at__gt=timezone.now() - timedelta(seconds=STATE_SECONDS),
        )
        .first()
    )
    if found is None:
        return None
    return found, cache.get(LOGIN_CACHE_PREFIX + _hash(state)) or {}


def _take_state(state: str) -> LaunchState:
    now = timezone.now()
    with transaction.atomic():
        found = (
            LaunchState.objects.select_for_update()
            .select_related("platform")
            .filter(
                state_hash=_hash(state),
                used_at__isnull=True,
                created_at__gt=now - timedelta(seconds=STATE_SECONDS),
            )
            .first()
        )
        if found is None:
            raise Refused(
                "bad_state",
                _("This sign-in has expired or was already used. Open the link in the LMS again."),
                403,
            )
        found.used_at = now
        found.save(update_fields=["used_at"])
        spent: LaunchState = found
        return spent


def platform_keys(platform: Platform, *, fresh: bool = False) -> dict[str, Any]:
    key = f"lti:jwks:{platform.pk}:{_hash(platform.jwks_uri)[:16]}"
    keys = None if fresh else cache.get(key)
    if keys is None:
        try:
            response = net.get(platform.jwks_uri, headers={"Accept": "application/json"})
            body = net.json_of(response) if response.status_code == 200 else {}
        except net.PlatformError as error:
            logger.warning("LTI platform %s keys unavailable: %s", platform.pk, error)
            body = {}
        keys = {}
        for jwk in body.get("keys") or []:
            if isinstance(jwk, dict) and jwk.get("kty") == "RSA":
                keys[str(jwk.get("kid", ""))] = jwk
        if keys:
            cache.set(key, keys, JWKS_CACHE_SECONDS)
    return keys


def _may_refresh_keys(platform: Platform) -> bool:
    """Unknown key ids fetch the platform's keys again at most
    ``JWKS_REFRESHES`` times a minute: made-up ``kid``s are no request cannon."""
    key = f"lti:jwks-refresh:{platform.pk}"
    try:
        cache.add(key, 0, JWKS_REFRESH_SECONDS)
        count: int = cache.incr(key)
        return count <= JWKS_REFRESHES
    except ValueError:  # expired between add and incr
        return True


def _key_for(platform: Platform, kid: str) -> RSAPublicKey:
    keys = platform_keys(platform)
    if kid not in keys and _may_refresh_keys(platform):
        keys = platform_keys(platform, fresh=True)  # the platform may have rotated
    jwk = keys.get(kid) or (keys.get("") if len(keys) == 1 else None)
    if jwk is None:
        raise Refused("unknown_key", _("The LMS's signature could not be checked."), 403)
    key: RSAPublicKey = jwt.PyJWK.from_dict(jwk, algorithm="RS256").key
    return key


@dataclass
class Validated:
    platform: Platform
    claims: dict[str, Any]
    deployment_id: str
    message_type: str


class Unbound(Refused):
    """The launch's state was started by another browser (or this one kept nothing)."""

    def __init__(self) -> None:
        super().__init__(
            "unbound_launch",
            _(
                "This sign-in was not started in this browser, so it was not accepted. "
                "Nothing has changed here. Open Matika from the LMS again."
            ),
            403,
        )


def validate(id_token: object, state: object, *, bound: bool) -> Validated:
    """The checked claims of a launch, or ``Refused``. Stores only the spent state.
    ``bound``: this browser started the login (:func:`state_is_bound`)."""
    if not isinstance(state, str) or not state or len(state) > 200:
        raise Refused("bad_state", _("The LMS sent no valid sign-in state."), 400)
    if not isinstance(id_token, str) or not id_token or len(id_token) > MAX_TOKEN_LENGTH:
        raise Refused("bad_token", _("The LMS sent no valid sign-in token."), 400)
    if not bound:
        raise Unbound()
    launch_state = _take_state(state)
    platform = launch_state.platform
    if not platform.is_active:
        raise Refused("unknown_platform", _("This LMS is not registered with Matika."), 403)
    try:
        header = jwt.get_unverified_header(id_token)
    except jwt.PyJWTError:
        raise Refused("bad_token", _("The LMS sent no valid sign-in token."), 400) from None
    if header.get("alg") != "RS256":
        raise Refused("bad_signature", _("The LMS's signature is not valid."), 403)
    key = _key_for(platform, str(header.get("kid", "")))
    try:
        claims = jwt.decode(
            id_token,
            key,
            algorithms=["RS256"],
            audience=platform.client_id,
            issuer=platform.issuer,
            leeway=LEEWAY_SECONDS,
            options={"require": ["exp", "iat", "iss", "aud", "sub", "nonce"]},
        )
    except jwt.ExpiredSignatureError:
        raise Refused(
            "expired", _("The sign-in from the LMS has expired. Open the link again."), 403
        ) from None
    except jwt.InvalidAudienceError:
        raise Refused("bad_audience", _("The sign-in was meant for another tool."), 403) from None
    except jwt.InvalidIssuerError:
        raise Refused("bad_issuer", _("The sign-in comes from another LMS."), 403) from None
    except jwt.PyJWTError:
        raise Refused("bad_signature", _("The LMS's signature is not valid."), 403) from None
    _check_lifetime(claims)
    audience = claims.get("aud")
    azp = claims.get("azp")
    if (isinstance(audience, list) and len(audience) > 1 and azp is None) or (
        azp is not None and azp != platform.client_id
    ):
        raise Refused("bad_audience", _("The sign-in was meant for another tool."), 403)
    if not isinstance(claims.get("sub"), str) or not claims["sub"] or len(claims["sub"]) > 255:
        raise Refused("no_user", _("The LMS did not say who you are."), 403)
    if claims.get("nonce") != launch_state.nonce:
        raise Refused("bad_nonce", _("This sign-in was already used. Open the link again."), 403)
    if claims.get(VERSION) != "1.3.0":
        raise Refused("bad_version", _("Matika speaks LTI 1.3 only."), 400)
    message_type = claims.get(MESSAGE_TYPE)
    if message_type not in MESSAGE_TYPES:
        raise Refused("bad_message", _("Matika cannot handle this kind of LMS link."), 400)
    deployment_id = claims.get(DEPLOYMENT_ID)
    if not isinstance(deployment_id, str) or not deployment_id or len(deployment_id) > 255:
        raise Refused("unknown_deployment", _("This LMS deployment is not registered."), 403)
    if (
        not platform.accept_new_deployments
        and not Deployment.objects.filter(platform=platform, deployment_id=deployment_id).exists()
    ):
        raise Refused("unknown_deployment", _("This LMS deployment is not registered."), 403)
    return Validated(platform, claims, deployment_id, message_type)


def _check_lifetime(claims: dict[str, Any]) -> None:
    """An id_token lives at most ``TOKEN_LIFETIME_SECONDS`` from its ``iat``: one
    signed for ten years is no sign-in of today (issue 38 §3)."""
    issued, expires = claims.get("iat"), claims.get("exp")
    now = timezone.now().timestamp()
    if (
        not isinstance(issued, int | float)
        or not isinstance(expires, int | float)
        or isinstance(issued, bool)
        or isinstance(expires, bool)
        or expires - issued > TOKEN_LIFETIME_SECONDS + LEEWAY_SECONDS
        or issued < now - TOKEN_LIFETIME_SECONDS - LEEWAY_SECONDS
    ):
        raise Refused(
            "token_lifetime",
            _("The sign-in from the LMS is valid for too long. Open the link again."),
            403,
        )


def spend_nonce(validated: Validated) -> Deployment:
    """Inside the launch's transaction: the nonce is never accepted again, and
    the deployment is the known one (or, where allowed, recorded now)."""
    try:
        with transaction.atomic():
            SeenNonce.objects.create(platform=validated.platform, nonce=validated.claims["nonce"])
    except IntegrityError:
        raise Refused(
            "bad_nonce", _("This sign-in was already used. Open the link again."), 403
        ) from None
    deployment: Deployment
    deployment, _created = Deployment.objects.get_or_create(
        platform=validated.platform, deployment_id=validated.deployment_id
    )
    return deployment


def roles_of(claims: dict[str, Any]) -> str | None:
    roles = claims.get(ROLES)
    if not isinstance(roles, list):
        return None
    roles = {role for role in roles if isinstance(role, str)}
    extra = set(getattr(settings, "LTI_EXTRA_INSTRUCTOR_ROLES", ()))
    if roles & (INSTRUCTOR_ROLES | extra):
        return "instructor"
    if roles & LEARNER_ROLES:
        return "learner"
    return None


def name_of(claims: dict[str, Any]) -> str:
    """The person's name if the platform sent one (only when the registration
    asked for it); may be empty."""
    name = claims.get("name")
    if not isinstance(name, str) or not name.strip():
        parts = [claims.get("given_name"), claims.get("family_name")]
        name = " ".join(p for p in parts if isinstance(p, str) and p.strip())
    return " ".join(str(name).split())[:80]
