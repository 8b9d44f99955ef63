"""A local LTI 1.3 platform ("the LMS") for the suite: Matika's LTI tool is tested against it.

Built from the IMS specs (LTI Core 1.3, LTI Dynamic Registration 1.0, Deep Linking
2.0, AGS 2.0, NRPS 2.0, IMS Security Framework) on top of ``lti1p3platform`` (launch
messages and their claims, signing, tool-JWT verification through the tool's JWKS,
deep-link response checks, access tokens); dynamic registration, the OIDC
authorization endpoint, the services' HTTP side and the browser pages are written
here. It behaves like Moodle does, quirks included (see "Quirks" below).

A real HTTP server (``http.server.ThreadingHTTPServer``, one thread per request) on
127.0.0.1 in a background thread of the test process, so the tool (uvicorn in its
own process) can call back into it while it answers one of its requests.

Fixtures (tests/lti/conftest.py)
--------------------------------
``lms``                     a fresh platform per test (``LMS()``), stopped afterwards.
``make_lms(**kwargs)``      more platforms in one test (a second LMS for isolation
                            tests, ``host="localhost"`` for a truly cross-site browser
                            launch, ``product_family_code="canvas"``); all stopped.

Platform
--------
``LMS(host="127.0.0.1", product_family_code="moodle", page_size=2, require_services=True)``
    ``host`` only names the URLs (the server listens on 127.0.0.1); ``require_services=False``
    accepts a registration without deep linking, AGS or NRPS.
Helpers: ``parse_forms(html)`` → [{"action", "method", "fields"}]; ``add_query(url, **params)``.
``lms.base_url == lms.issuer``   e.g. ``http://127.0.0.1:41234`` (no trailing slash).
``lms.stop()``; ``lms.release_keys()`` gives its RSA keys back to ``KEYS`` (the fixtures do
    it after the test): a key is reused by later platforms, never by two alive at once,
    never across kinds (platform/attacker/tool); rotated-in keys are always new.
``lms.rotate_key(keep_old=True)`` → new kid: id_tokens signed with a new key from now on, the
    old public key kept in the JWKS (``keep_old=False``: only the new key is left).
``lms.jwks_uri``, ``lms.token_endpoint``, ``lms.authorization_endpoint``,
``lms.registration_endpoint``, ``lms.openid_configuration_url``
``GET /.well-known/openid-configuration``  issuer, authorization_endpoint,
    token_endpoint (+ auth methods ``private_key_jwt``/``RS256``), jwks_uri,
    registration_endpoint, scopes_supported, response_types_supported,
    id_token_signing_alg_values_supported, claims_supported, and the
    ``https://purl.imsglobal.org/spec/lti-platform-configuration`` block
    (product_family_code "moodle", version, messages_supported
    LtiResourceLinkRequest + LtiDeepLinkingRequest).
``GET /jwks``   the platform's RSA public key (kid = RFC 7638 thumbprint, alg RS256).

Registration (LTI Dynamic Registration 1.0)
-------------------------------------------
``reg = lms.register(registration_url, session=None)``
    Plays the admin: GET ``<registration_url>?openid_configuration=…&registration_token=…``
    (appended to an existing query correctly) with ``session`` (a new
    ``requests.Session`` when None). The tool then fetches the configuration and
    POSTs its client registration to ``registration_endpoint`` with
    ``Authorization: Bearer <registration_token>``. The LMS checks it (application_type
    web; response_types id_token; grant_types implicit + client_credentials;
    token_endpoint_auth_method private_key_jwt; initiate_login_uri, redirect_uris,
    jwks_uri, target_link_uri as URLs on the tool's ``domain`` — plain http only on
    loopback; messages include LtiDeepLinkingRequest; scope holds the AGS score and
    lineitem scopes and the NRPS scope; all scopes known) and answers 200 with the
    registration plus ``client_id`` and, in the tool block, ``deployment_id``; or 400
    ``{"error": "invalid_client_metadata", "error_description": …}``; a missing,
    forged, expired or already used token gets 401 ``invalid_token``. (The token is a
    signed JWT several hundred characters long, as Moodle's is.)
    Returns a ``ToolRegistration``: ``client_id``, ``deployment_id`` (None when nothing
    was registered), ``tool_config`` (the JSON the tool sent, also when refused),
    ``response`` (the tool's final page; checked for nothing), ``error`` (why the LMS
    refused, or None), ``ok``, ``type_id`` (Moodle's tool type id, in service URLs),
    ``scopes``, ``claims``, ``jwks_uri``, ``initiate_login_uri``, ``redirect_uris``,
    ``target_link_uri``, ``deep_link_uri``, ``deployment_ids``, ``registration_token``.
``lms.register_token()`` → a fresh one-time registration token (for driving the GET yourself).
``lms.tools``  {client_id: ToolRegistration}; ``lms.tool`` the latest one.
``lms.add_deployment(tool)`` → a second deployment id of the same registration.

Courses and people
------------------
``course = lms.add_course("Algebra 7.A", label=None)`` → ``Course``: ``id`` (int),
    ``title``, ``label``, ``context_id`` (str; Moodle sends the course id).
``lms.copy_course(course, title=None)`` → a new course with a new context id and copies
    of its resource links (new resource link ids, same target/custom) and their line
    items (new ids); the copy knows ``copied_from``.
``user = lms.add_user("Eva Svobodová", role="Learner", email=None, given_name=None,
    family_name=None, roles=None)`` → ``User``: ``id``, ``sub`` (str; Moodle's user id, so
    two LMSs reuse the same subs), ``name``, ``given_name``, ``family_name``, ``email``,
    ``role``. ``role`` is "Instructor", "Learner", "TeachingAssistant", "Mentor",
    "ContentDeveloper" or "Administrator"; ``roles`` (full role URIs) overrides.
``lms.enrol(course, user, role=None)``
``lms.add_link(course, title="…", url=None, tool=None, custom=None, line_item=None)`` → a
    resource link made without deep linking (``line_item={"label":…, "scoreMaximum":…}``).
``lms.links[course.id]``  [Link] — ``id`` (resource link id, str), ``title``, ``text``, ``url``,
    ``custom``, ``client_id``, ``deployment_id``, ``course_id``, ``line_item_ids``.
``lms.lineitems``  {id: LineItem} — ``id`` (int), ``url`` (``…/lineitem?type_id=N``),
    ``scores_url``, ``label``, ``score_maximum``, ``resource_id``, ``tag``,
    ``resource_link_id``, ``course_id``, ``type_id``.
``lms.scores``  {line item id: [score dict as posted, in arrival order]}
``lms.wait_for(condition, timeout=180, what="…")`` polls ``condition()`` until truthy (grades
    arrive from a Celery task); AssertionError naming the LMS's recent refusals otherwise.
``lms.gradebook(course, lineitem=None)`` → {user name: scoreGiven / scoreMaximum (float)}
    from each user's latest score with a scoreGiven (of ``lineitem``, or of any line
    item of the course, latest wins); ``lms.gradebook_raw(...)`` → {name: (given, maximum)}.

Launches (driven with a ``requests.Session`` like a browser)
-------------------------------------------------------------
``resp = lms.launch(session, user, course, link=None, **options)``
    LtiResourceLinkRequest. ``link`` None → the course's first link (one is made, aimed at
    the tool's target_link_uri, when the course has none). Third-party initiated login:
    POST (like Moodle; ``login_method="GET"`` for GET) to the tool's
    ``initiate_login_uri`` with iss, login_hint (= user.sub), target_link_uri,
    lti_message_hint, client_id, lti_deployment_id; the tool must redirect to
    ``authorization_endpoint``; the LMS checks the authentication request (scope
    openid, response_type id_token, response_mode form_post, prompt none, client_id,
    redirect_uri registered exactly, login_hint = the user, lti_message_hint known,
    nonce and state present) and answers an auto-submitting form that POSTs
    ``id_token`` + ``state`` to the redirect URI; that POST is sent cross-site: with
    ``Origin``/``Referer`` of the LMS and ONLY the tool's cookies a browser sends on a
    cross-site POST (``SameSite=None``; Lax, Strict and unmarked cookies are left out;
    ``same_site_cookies=True`` sends them all). Redirects after it are followed with
    the whole jar (a top-level GET). Returns the final response; a tool that does not
    redirect to the LMS, or an LMS refusal (400 page), is returned as it is.
    ``lms.last_launch`` holds ``{"id_token", "claims", "state", "form", "redirect_uri"}``.
``resp = lms.deep_link(session, instructor, course, **options)``  the same with an
    LtiDeepLinkingRequest to the tool's deep-linking target (its LtiDeepLinkingRequest
    message's target_link_uri, else target_link_uri); settings: deep_link_return_url,
    accept_types ["ltiResourceLink"], accept_presentation_document_targets,
    accept_multiple, auto_create, data (opaque, must come back).
Options for both: ``tool=`` (a ToolRegistration; default ``lms.tool``), ``deployment_id=``,
    ``login_method``, ``same_site_cookies``, ``document_target`` ("window"/"iframe"),
    and the attacks:
    ``sign_with_other_key`` (a foreign RSA key, header kid = the platform's), ``expired``,
    ``wrong_aud``, ``wrong_iss``, ``wrong_deployment``, ``replay`` (POST the same
    id_token + state twice, return the second response), ``no_nonce``, ``wrong_nonce``,
    ``wrong_state``, ``message_type="…"``, ``version="…"``,
    ``drop_claims=[…]`` (full claim URIs, top-level names like "sub"/"exp", or short LTI
    names: "deployment_id", "message_type", "version", "roles", "context",
    "resource_link", "target_link_uri", "custom", "ags", "nrps", "deep_linking_settings"),
    ``claims={…}`` (added/overriding claims), ``no_email``, ``no_name``; and not an attack:
    ``aud_as_list`` (aud = [client_id, "another-audience"], azp = client_id: valid per
    OIDC, some platforms do it).
``lms.submit_form(session, response, data=None, index=0)``  submit a form of an HTML
    response (hidden inputs + ``data``) to its action; e.g. the tool's deep-linking
    picker, then its auto-posting form back to the LMS.
Claims sent: iss, aud, azp, sub, exp, iat, nonce, message_type, version (1.3.0),
    deployment_id, target_link_uri, roles, context (id, label, title, type CourseOffering),
    resource_link (id, title, description) for resource link launches, tool_platform,
    launch_presentation (document_target, return_url), custom (the link's), the AGS
    endpoint claim (lineitems ``…/lineitems?type_id=N``, lineitem when the link has
    exactly one, scope = the registered AGS scopes) when AGS scopes were registered,
    the NRPS claim (context_memberships_url, service_versions ["2.0"]) when the NRPS
    scope was registered; ``name``/``given_name``/``family_name``/``email`` only when the
    registration's ``claims`` lists them and the user has them.

Browser pages (the LMS's own pages; inline scripts, no CSP)
-----------------------------------------------------------
``lms.launch_page_url(course, link, user)`` = ``<lms>/courses/<id>/launch/<link id>?user=<user id>``
``lms.deep_link_page_url(course, user)`` = ``<lms>/courses/<id>/deep_link?user=<user id>``
    Auto-submitting third-party-login forms (POST) to the tool; add ``&frame=1`` to get the
    same launch inside an ``<iframe id="tool">`` on an LMS page (``&frame_width=N``: the
    frame N px wide, 1000 by default; ``&storage=1``: the login names
    ``lti_storage_target=_parent`` and the LMS page answers ``lti.put_data`` /
    ``lti.get_data`` from the tool's origin). The authorization endpoint's
    answer auto-posts to the tool; the deep-linking return answers an HTML page listing
    what was added (``<li data-link-id="…">``).

Deep-linking return ``POST <deep_link_return_url>`` (form field ``JWT``)
    Verified with the tool's registered jwks_uri (fetched; kid + RS256), iss = client_id,
    aud = issuer, exp, iat, nonce (present, single use), deployment_id of the tool,
    message_type LtiDeepLinkingResponse, version 1.3.0, ``data`` echoed (each request's
    data is single use), content items of type ltiResourceLink only, their url on the
    tool's domain. Each item makes a resource link in the course; a ``lineItem`` makes a
    line item. Refusal: 400 page, nothing created, reason in ``lms.deep_link_errors``.
    Successes in ``lms.deep_link_returns`` ({"course", "links", "lineitems", "claims"}).

Token endpoint ``POST /token`` (IMS Security Framework, client credentials)
    grant_type client_credentials, client_assertion_type
    ``urn:ietf:params:oauth:client-assertion-type:jwt-bearer``, client_assertion signed by
    the tool's key (jwks_uri, kid), iss = sub = client_id, aud = the token endpoint URL
    (or a list holding it), exp, jti single use; scope ⊆ the registered scopes.
    200 ``{"access_token", "token_type": "bearer", "expires_in": 3600, "scope"}``;
    otherwise 400/401 with an OAuth ``error``. ``lms.access_tokens_issued`` counts them.

AGS 2.0 (bearer token with the right scope: 401 without/invalid, 403 wrong scope or tool)
    ``GET/POST <lms>/mod/lti/services.php/<course>/lineitems?type_id=N``
    ``GET/PUT  …/lineitems/<id>/lineitem?type_id=N``
    ``POST     …/lineitems/<id>/lineitem/scores?type_id=N``
        (``application/vnd.ims.lis.v1.score+json``; userId enrolled in the course,
        activityProgress, gradingProgress, timestamp with a zone, scoreGiven ≥ 0 only
        with scoreMaximum > 0 and scoreGiven ≤ scoreMaximum; an older timestamp than
        the last one for that user → 409; 200 with an empty body)
    ``GET      …/lineitems/<id>/lineitem/results?type_id=N``
    ``type_id`` missing or not the token's tool → 400/403 (keep the query!).

NRPS 2.0
    ``GET <lms>/mod/lti/services.php/CourseSection/<course>/bindings/<type_id>/memberships``
    (``application/vnd.ims.lti-nrps.v2.membershipcontainer+json``), ``lms.page_size``
    members a page (default 2), next page in ``Link: <…>; rel="next"``; ``limit``,
    ``from`` and ``role`` parameters as Moodle's. Members: status, user_id, roles, and
    name/given_name/family_name/email under the same rule as the launch.

Quirks on purpose (Moodle's)
    - service URLs carry ``?type_id=N``; scores go to the line item's path + ``/scores``
      with that query kept;
    - the memberships URL has upper case in its path (``CourseSection``): a client that
      lower-cases the ``Link`` header (pylti1p3 2.0 does) loses the next page;
    - everything on plain http:// loopback;
    - e-mail and names only when asked for in ``claims``; e-mail may be absent anyway;
    - the launch is a cross-site form_post (see above).

Inspection: ``lms.log`` [(method, path?query, status)], ``lms.errors`` (tracebacks of
handler crashes — should stay empty), ``lms.deep_link_errors``, ``lms.auth_errors``,
``lms.token_errors``, ``lms.service_errors``.
"""

from __future__ import annotations

import html
import itertools
import json
import re
import secrets
import threading
import time
import traceback
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

import jwt
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from lti1p3platform.exceptions import (
    InvalidKeySetUrl,
    LtiDeepLinkingResponseException,
    LtiException,
)
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
DL = "https://purl.imsglobal.org/spec/lti-dl/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
TOOL_CONFIG = "https://purl.imsglobal.org/spec/lti-tool-configuration"
PLATFORM_CONFIG = "https://purl.imsglobal.org/spec/lti-platform-configuration"

SCOPE_LINEITEM = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
SCOPE_LINEITEM_READ = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
SCOPE_RESULT_READ = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
SCOPE_SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
SCOPE_NRPS = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
AGS_SCOPES = [SCOPE_LINEITEM, SCOPE_LINEITEM_READ, SCOPE_RESULT_READ, SCOPE_SCORE]
SCOPES_SUPPORTED = ["openid", *AGS_SCOPES, SCOPE_NRPS]

JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
MEDIA_SCORE = "application/vnd.ims.lis.v1.score+json"
MEDIA_LINEITEM = "application/vnd.ims.lis.v2.lineitem+json"
MEDIA_LINEITEMS = "application/vnd.ims.lis.v2.lineitemcontainer+json"
MEDIA_RESULTS = "application/vnd.ims.lis.v2.resultcontainer+json"
MEDIA_MEMBERSHIPS = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership#"
ROLE_URIS = {
    "Instructor": [
        MEMBERSHIP + "Instructor",
        "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor",
    ],
    "Learner": [
        MEMBERSHIP + "Learner",
        "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student",
    ],
    "TeachingAssistant": [
        MEMBERSHIP + "Instructor#TeachingAssistant",
        MEMBERSHIP + "Instructor",
    ],
    "Mentor": [MEMBERSHIP + "Mentor"],
    "ContentDeveloper": [MEMBERSHIP + "ContentDeveloper"],
    "Administrator": [
        MEMBERSHIP + "Administrator",
        "http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator",
        "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator",
    ],
}
ACTIVITY_PROGRESS = {"Initialized", "Started", "InProgress", "Submitted", "Completed"}
GRADING_PROGRESS = {"FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"}
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
SHORT_CLAIMS = {
    "deployment_id": LTI + "deployment_id",
    "message_type": LTI + "message_type",
    "version": LTI + "version",
    "roles": LTI + "roles",
    "context": LTI + "context",
    "resource_link": LTI + "resource_link",
    "target_link_uri": LTI + "target_link_uri",
    "custom": LTI + "custom",
    "launch_presentation": LTI + "launch_presentation",
    "tool_platform": LTI + "tool_platform",
    "ags": AGS_CLAIM,
    "nrps": NRPS_CLAIM,
    "deep_linking_settings": DL + "deep_linking_settings",
}


class LMSError(Exception):
    """A refusal inside a handler: becomes an HTTP answer with ``status`` and ``body``."""

    def __init__(self, status: int, error: str, description: str = "", kind: str = "json"):
        super().__init__(f"{status} {error}: {description}")
        self.status = status
        self.error = error
        self.description = description
        self.kind = kind


# ----------------------------------------------------------------------------- data


@dataclass(eq=False)
class Course:
    id: int
    title: str
    label: str
    context_id: str
    members: dict[int, list[str]] = field(default_factory=dict)  # user id -> role URIs
    copied_from: int | None = None


@dataclass(eq=False)
class User:
    id: int
    sub: str
    name: str
    given_name: str | None
    family_name: str | None
    email: str | None
    role: str
    roles: list[str]


@dataclass(eq=False)
class Link:
    id: str
    course_id: int
    title: str
    url: str
    client_id: str
    deployment_id: str
    text: str = ""
    custom: dict[str, Any] = field(default_factory=dict)
    line_item_ids: list[int] = field(default_factory=list)
    copied_from: str | None = None


@dataclass(eq=False)
class LineItem:
    id: int
    course_id: int
    type_id: int
    label: str
    score_maximum: float
    base_url: str
    resource_id: str | None = None
    tag: str | None = None
    resource_link_id: str | None = None
    start: str | None = None
    end: str | None = None

    @property
    def path(self) -> str:
        return f"{self.base_url}/mod/lti/services.php/{self.course_id}/lineitems/{self.id}/lineitem"

    @property
    def url(self) -> str:
        return f"{self.path}?type_id={self.type_id}"

    @property
    def scores_url(self) -> str:
        return f"{self.path}/scores?type_id={self.type_id}"

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.url,
            "label": self.label,
            "scoreMaximum": self.score_maximum,
        }
        for key, value in (
            ("resourceId", self.resource_id),
            ("tag", self.tag),
            ("resourceLinkId", self.resource_link_id),
            ("startDateTime", self.start),
            ("endDateTime", self.end),
        ):
            if value:
                data[key] = value
        return data


@dataclass(eq=False)
class ToolRegistration:
    client_id: str | None
    deployment_id: str | None
    tool_config: dict[str, Any] | None
    response: Any = None
    error: str | None = None
    type_id: int | None = None
    deployment_ids: list[str] = field(default_factory=list)
    registration_token: str | None = None

    @property
    def ok(self) -> bool:
        return self.client_id is not None

    @property
    def _block(self) -> dict[str, Any]:
        return (self.tool_config or {}).get(TOOL_CONFIG) or {}

    @property
    def scopes(self) -> list[str]:
        return str((self.tool_config or {}).get("scope") or "").split()

    @property
    def claims(self) -> list[str]:
        return list(self._block.get("claims") or [])

    @property
    def jwks_uri(self) -> str | None:
        return (self.tool_config or {}).get("jwks_uri")

    @property
    def initiate_login_uri(self) -> str | None:
        return (self.tool_config or {}).get("initiate_login_uri")

    @property
    def redirect_uris(self) -> list[str]:
        return list((self.tool_config or {}).get("redirect_uris") or [])

    @property
    def target_link_uri(self) -> str | None:
        return self._block.get("target_link_uri")

    @property
    def domain(self) -> str | None:
        return self._block.get("domain")

    @property
    def deep_link_uri(self) -> str | None:
        for message in self._block.get("messages") or []:
            if isinstance(message, dict) and message.get("type") == "LtiDeepLinkingRequest":
                return message.get("target_link_uri") or self.target_link_uri
        return self.target_link_uri


# ------------------------------------------------------------------ lti1p3platform glue


class _PlatformConf(LTI1P3PlatformConfAbstract):
    """lti1p3platform's platform configuration for one tool registration (one per use:
    the library keeps per-call state on the instance)."""

    def init_platform_config(self, **kwargs: Any) -> None:
        self._lib_registration = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        return self._lib_registration


class _Registration(Registration):
    """The library's registration holding the loaded private key (``private_key_object``),
    not its PEM: the library signs access tokens through PyJWT, which takes either; only
    its ``get_kid`` reads the PEM, so the kid comes from the public key (the same RFC 7638
    thumbprint)."""

    def get_kid(self) -> str | None:
        public = self.get_platform_public_key()
        return Registration.get_jwk(public)["kid"] if public else None


class _LibRequest(Request):
    def build_metadata(self, request: Any) -> Any:
        return {
            "method": "GET",
            "form_data": {},
            "get_data": request,
            "headers": {},
            "content_type": None,
            "path": "/auth",
            "json": None,
        }


class _Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> Any:
        return launch_data


# ------------------------------------------------------------------------- helpers


def add_query(url: str, **params: Any) -> str:
    """``url`` with ``params`` appended to whatever query it already has."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    query += [(key, str(value)) for key, value in params.items()]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {key: (value or "") for key, value in attrs}
        if tag == "form":
            self._form = {
                "action": attr.get("action", ""),
                "method": (attr.get("method") or "get").lower(),
                "fields": {},
            }
            self.forms.append(self._form)
        elif self._form is not None and tag == "input" and attr.get("name"):
            kind = attr.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in attr:
                return
            self._form["fields"][attr["name"]] = attr.get(
                "value", "on" if kind in ("checkbox", "radio") else ""
            )
        elif self._form is not None and tag == "textarea" and attr.get("name"):
            self._textarea = attr["name"]
            self._form["fields"][self._textarea] = ""

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "textarea":
            self._textarea = None


def parse_forms(text: str) -> list[dict[str, Any]]:
    """The forms of an HTML page: [{"action", "method", "fields": {name: value}}]."""
    parser = _FormParser()
    parser.feed(text)
    return parser.forms


def _is_loopback(host: str | None) -> bool:
    return (host or "").lower() in LOOPBACK_HOSTS


def _audience_has(aud: Any, value: str) -> bool:
    return aud == value or (isinstance(aud, list) and value in aud)


# The LMS page's client-side storage (IMS LTI Client Side postMessages, Platform
# Storage): lti.put_data / lti.get_data from the tool's origin only; what it was
# asked is in ``window.ltiStorageLog``.
_STORAGE_SCRIPT = """
const toolOrigin = %s;
const stored = {};
window.ltiStorageLog = [];
window.addEventListener("message", (event) => {
  const data = event.data;
  if (!data || typeof data !== "object" || event.origin !== toolOrigin) return;
  if (data.subject === "lti.put_data") {
    stored[data.key] = data.value;
  } else if (data.subject !== "lti.get_data") {
    return;
  }
  window.ltiStorageLog.push(data.subject);
  event.source.postMessage({subject: data.subject + ".response", message_id: data.message_id,
    key: data.key, value: stored[data.key]}, event.origin);
});
"""


def _page(title: str, body: str, script: str = "") -> bytes:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title></head><body>{body}"
        + (f"<script>{script}</script>" if script else "")
        + "</body></html>"
    ).encode()


def _auto_form(action: str, fields: dict[str, str], title: str, target: str | None = None) -> bytes:
    inputs = "".join(
        f"<input type='hidden' name='{html.escape(k)}' value='{html.escape(str(v))}'>"
        for k, v in fields.items()
    )
    target_attr = f" target='{html.escape(target)}'" if target else ""
    body = (
        f"<form id='lti' method='post' action='{html.escape(action)}'{target_attr}>{inputs}"
        "<noscript><button type='submit'>Continue</button></noscript></form>"
    )
    return _page(title, body, "document.getElementById('lti').submit();")


class _Req:
    """One parsed HTTP request."""

    def __init__(self, handler: BaseHTTPRequestHandler, method: str):
        self.method = method
        parts = urlsplit(handler.path)
        self.path = parts.path
        self.raw_path = handler.path
        self.query = dict(parse_qsl(parts.query, keep_blank_values=True))
        self.headers = handler.headers
        length = int(handler.headers.get("Content-Length") or 0)
        self.body = handler.rfile.read(length) if length else b""
        self.content_type = (
            (handler.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        )

    @property
    def form(self) -> dict[str, str]:
        if self.content_type == "application/x-www-form-urlencoded":
            return dict(parse_qsl(self.body.decode("utf-8", "replace"), keep_blank_values=True))
        return {}

    def params(self) -> dict[str, str]:
        merged = dict(self.query)
        merged.update(self.form)
        return merged

    def json(self) -> Any:
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise LMSError(400, "invalid_request", "body is not JSON") from exc


class _Handler(BaseHTTPRequestHandler):
    server_version = "LocalLMS/1.0"
    lms: LMS  # set on the subclass made per server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 — quiet
        pass

    def _handle(self, method: str) -> None:
        try:
            req = _Req(self, method)
            status, headers, body = self.lms._dispatch(req)
        except Exception:  # noqa: BLE001 — a crash is recorded and answered 500
            self.lms.errors.append(traceback.format_exc())
            status, headers, body = 500, {"Content-Type": "text/plain"}, b"LMS crashed"
            req = None
        self.lms.log.append((method, self.path, status))
        self.send_response(status)
        for key, value in headers.items():
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if method != "HEAD":
            self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        self._handle("GET")

    def do_POST(self) -> None:  # noqa: N802
        self._handle("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._handle("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._handle("DELETE")


_KEY_OBJECTS: dict[str, rsa.RSAPrivateKey] = {}


def _new_rsa_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    _KEY_OBJECTS[pem] = key
    return pem


def private_key_object(private_pem: str) -> rsa.RSAPrivateKey:
    """The loaded key of a PEM, loaded once: signing with the PEM string makes PyJWT load
    it again each time, and loading an RSA private key checks it (0.1-0.6 s on a busy
    machine) — per launch, access token and registration. The signature is the same."""
    key = _KEY_OBJECTS.get(private_pem)
    if key is None:
        loaded = serialization.load_pem_private_key(private_pem.encode(), password=None)
        assert isinstance(loaded, rsa.RSAPrivateKey)
        key = _KEY_OBJECTS.setdefault(private_pem, loaded)
    return key


class _KeyPool:
    """RSA keys lent to platforms, so a test does not wait for new ones.

    A 2048-bit key takes 0.1-0.7 s to generate on a busy machine and every platform
    needs two (its own and the attacker's), so making them afresh per test cost
    minutes per run. A key taken from the pool is held by one platform (or one test's
    tool) until it is given back, so platforms alive at the same time never share a
    key; each kind has its own keys (an attacker's key is never any platform's key,
    in this test or an earlier one); ``rotate_key`` always makes a new key that is
    never lent again, so a rotated-in kid is one nobody has seen before."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: dict[str, list[str]] = {}

    def take(self, kind: str) -> str:
        with self._lock:
            free = self._free.setdefault(kind, [])
            if free:
                return free.pop()
        return _new_rsa_pem()

    def give_back(self, kind: str, private_pem: str) -> None:
        with self._lock:
            free = self._free.setdefault(kind, [])
            if private_pem not in free:
                free.append(private_pem)


KEYS = _KeyPool()


def _public_pem(private_pem: str) -> str:
    return (
        private_key_object(private_pem)
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


# ------------------------------------------------------------------------- the LMS


class LMS:
    """A local LTI 1.3 platform on a real HTTP server (see the module docstring)."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        product_family_code: str = "moodle",
        page_size: int = 2,
        require_services: bool = True,
    ) -> None:
        self.product_family_code = product_family_code
        self.page_size = page_size
        self.require_services = require_services
        self._lock = threading.RLock()
        self.private_key = KEYS.take("platform")
        self.public_key = _public_pem(self.private_key)
        self.kid = Registration.get_jwk(self.public_key)["kid"]
        self._retired_public_keys: list[str] = []
        self.other_private_key = KEYS.take("attacker")  # the attacker's key
        self._lent_keys = [("platform", self.private_key), ("attacker", self.other_private_key)]

        self.tools: dict[str, ToolRegistration] = {}
        self.tool: ToolRegistration | None = None
        self.courses: dict[int, Course] = {}
        self.users: dict[int, User] = {}
        self.links: dict[int, list[Link]] = {}
        self.lineitems: dict[int, LineItem] = {}
        self.scores: dict[int, list[dict[str, Any]]] = {}
        self.log: list[tuple[str, str, int]] = []
        self.errors: list[str] = []
        self.auth_errors: list[str] = []
        self.token_errors: list[str] = []
        self.service_errors: list[str] = []
        self.deep_link_errors: list[str] = []
        self.deep_link_returns: list[dict[str, Any]] = []
        self.last_launch: dict[str, Any] | None = None
        self.access_tokens_issued = 0

        self._registration_tokens: dict[str, dict[str, Any]] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        self._dl_data: dict[str, dict[str, Any]] = {}
        self._used_jtis: set[str] = set()
        self._used_dl_nonces: set[str] = set()
        self._ids = itertools.count(2)  # Moodle's first course and user are 1 (the site, admin)
        self._link_ids = itertools.count(7)
        self._type_ids = itertools.count(1)
        self._item_ids = itertools.count(1)

        handler = type("Handler", (_Handler,), {"lms": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.base_url = f"http://{host}:{self.port}"
        self.issuer = self.base_url
        # stop() waits for the serving loop to notice: a short poll makes that 0.05 s, not 0.5
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

        self._routes: list[tuple[str, re.Pattern[str], Any]] = [
            ("GET", r"/\.well-known/openid-configuration", self._h_discovery),
            ("GET", r"/jwks", self._h_jwks),
            ("POST", r"/register", self._h_register),
            ("GET", r"/auth", self._h_auth),
            ("POST", r"/auth", self._h_auth),
            ("POST", r"/token", self._h_token),
            ("POST", r"/mod/lti/contentitem_return\.php", self._h_deep_link_return),
            ("GET", r"/courses/(?P<course>\d+)/launch/(?P<link>[^/]+)", self._h_launch_page),
            ("GET", r"/courses/(?P<course>\d+)/deep_link", self._h_deep_link_page),
            ("GET", r"/courses/(?P<course>\d+)", self._h_course_page),
            ("GET", r"/mod/lti/services\.php/(?P<course>\d+)/lineitems", self._h_lineitems_get),
            ("POST", r"/mod/lti/services\.php/(?P<course>\d+)/lineitems", self._h_lineitems_post),
            (
                "GET",
                r"/mod/lti/services\.php/(?P<course>\d+)/lineitems/(?P<item>\d+)/lineitem",
                self._h_lineitem_get,
            ),
            (
                "PUT",
                r"/mod/lti/services\.php/(?P<course>\d+)/lineitems/(?P<item>\d+)/lineitem",
                self._h_lineitem_put,
            ),
            (
                "POST",
                r"/mod/lti/services\.php/(?P<course>\d+)/lineitems/(?P<item>\d+)/lineitem/scores",
                self._scores,
            ),
            (
                "GET",
                r"/mod/lti/services\.php/(?P<course>\d+)/lineitems/(?P<item>\d+)/lineitem/results",
                self._h_results,
            ),
            (
                "GET",
                r"/mod/lti/services\.php/CourseSection/(?P<course>\d+)/bindings/(?P<type>\d+)/memberships",
                self._h_memberships,
            ),
        ]
        self._routes = [(m, re.compile(p + r"/?\Z"), f) for m, p, f in self._routes]  # type: ignore[misc]

    # -- URLs

    @property
    def openid_configuration_url(self) -> str:
        return f"{self.base_url}/.well-known/openid-configuration"

    @property
    def jwks_uri(self) -> str:
        return f"{self.base_url}/jwks"

    @property
    def authorization_endpoint(self) -> str:
        return f"{self.base_url}/auth"

    @property
    def token_endpoint(self) -> str:
        return f"{self.base_url}/token"

    @property
    def registration_endpoint(self) -> str:
        return f"{self.base_url}/register"

    def lineitems_url(self, course: Course, tool: ToolRegistration) -> str:
        return f"{self.base_url}/mod/lti/services.php/{course.id}/lineitems?type_id={tool.type_id}"

    def memberships_url(self, course: Course, tool: ToolRegistration) -> str:
        return (
            f"{self.base_url}/mod/lti/services.php/CourseSection/{course.id}"
            f"/bindings/{tool.type_id}/memberships"
        )

    def deep_link_return_url(self, course: Course, tool: ToolRegistration) -> str:
        return (
            f"{self.base_url}/mod/lti/contentitem_return.php?course={course.id}&id={tool.type_id}"
        )

    def launch_page_url(self, course: Course, link: Link, user: User) -> str:
        return f"{self.base_url}/courses/{course.id}/launch/{link.id}?user={user.id}"

    def deep_link_page_url(self, course: Course, user: User) -> str:
        return f"{self.base_url}/courses/{course.id}/deep_link?user={user.id}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    def release_keys(self) -> None:
        """Give the keys this platform was made with back to the pool (the fixtures do it
        after the test, not ``stop()``: a test that stops its LMS early might start
        another one, which must not get the same key)."""
        for kind, private_pem in self._lent_keys:
            KEYS.give_back(kind, private_pem)
        self._lent_keys = []

    # -- dispatch

    def _dispatch(self, req: _Req) -> tuple[int, dict[str, str], bytes]:
        allowed = False
        for method, pattern, func in self._routes:
            match = pattern.match(req.path)
            if match:
                allowed = True
                if method == req.method:
                    try:
                        return func(req, **match.groupdict())
                    except LMSError as exc:
                        if req.path.startswith("/mod/lti/services.php/"):
                            self.service_errors.append(
                                f"{req.method} {req.raw_path}: {exc.status} {exc.error}: "
                                f"{exc.description}"
                            )
                        return self._error_response(exc)
        if allowed:
            return 405, {"Content-Type": "text/plain"}, b"method not allowed"
        return 404, {"Content-Type": "text/plain"}, b"not found"

    @staticmethod
    def _error_response(exc: LMSError) -> tuple[int, dict[str, str], bytes]:
        headers: dict[str, str] = {}
        if exc.status == 401:
            headers["WWW-Authenticate"] = f'Bearer error="{exc.error}"'
        if exc.kind == "html":
            headers["Content-Type"] = "text/html; charset=utf-8"
            body = _page(
                "Error",
                f"<h1>Error</h1><p class='error' data-error='{html.escape(exc.error)}'>"
                f"{html.escape(exc.description)}</p>",
            )
            return exc.status, headers, body
        headers["Content-Type"] = "application/json"
        body = json.dumps({"error": exc.error, "error_description": exc.description}).encode()
        return exc.status, headers, body

    @staticmethod
    def _json(data: Any, status: int = 200, media: str = "application/json", **headers: str):
        return status, {"Content-Type": media, **headers}, json.dumps(data).encode()

    @staticmethod
    def _html(body: bytes, status: int = 200):
        return status, {"Content-Type": "text/html; charset=utf-8"}, body

    # -- discovery and keys

    def openid_configuration(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": self.authorization_endpoint,
            "token_endpoint": self.token_endpoint,
            "token_endpoint_auth_methods_supported": ["private_key_jwt"],
            "token_endpoint_auth_signing_alg_values_supported": ["RS256"],
            "jwks_uri": self.jwks_uri,
            "registration_endpoint": self.registration_endpoint,
            "scopes_supported": SCOPES_SUPPORTED,
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public", "pairwise"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "claims_supported": ["sub", "iss", "name", "given_name", "family_name", "email"],
            PLATFORM_CONFIG: {
                "product_family_code": self.product_family_code,
                "version": "4.5",
                "messages_supported": [
                    {"type": "LtiResourceLinkRequest"},
                    {"type": "LtiDeepLinkingRequest", "placements": ["ContentArea"]},
                ],
                "variables": ["CourseSection.timeFrame.end", "Person.email.primary"],
            },
        }

    def jwks(self) -> dict[str, Any]:
        public_keys = [self.public_key, *self._retired_public_keys]
        return {"keys": [Registration.get_jwk(public) for public in public_keys]}

    def rotate_key(self, keep_old: bool = True) -> str:
        """Sign with a new key (new kid) from now on; the old public key stays in the
        JWKS (and its access tokens stay good); ``keep_old=False`` leaves only the new key.
        Returns the new kid."""
        with self._lock:
            if keep_old:
                self._retired_public_keys.insert(0, self.public_key)
            else:
                self._retired_public_keys = []
            self.private_key = _new_rsa_pem()
            self.public_key = _public_pem(self.private_key)
            self.kid = Registration.get_jwk(self.public_key)["kid"]
        return self.kid

    def _decode_own(self, token: str, **options: Any) -> tuple[dict[str, Any], str]:
        """Claims of a JWT this LMS signed (with its current or a kept old key), and that key."""
        failure: jwt.PyJWTError = jwt.InvalidSignatureError("no key")
        for public in (self.public_key, *self._retired_public_keys):
            try:
                return jwt.decode(token, public, algorithms=["RS256"], **options), public
            except jwt.InvalidSignatureError as exc:
                failure = exc
        raise failure

    def _h_discovery(self, req: _Req):
        return self._json(self.openid_configuration())

    def _h_jwks(self, req: _Req):
        return self._json(self.jwks())

    # -- registration

    def register_token(self) -> str:
        """A fresh one-time registration token (a signed JWT, valid one hour)."""
        now = int(time.time())
        jti = secrets.token_urlsafe(16)
        token = jwt.encode(
            {
                "iss": self.issuer,
                "sub": "registration",
                "scope": "reg",
                "iat": now,
                "exp": now + 3600,
                "jti": jti,
            },
            private_key_object(self.private_key),
            algorithm="RS256",
            headers={"kid": self.kid},
        )
        with self._lock:
            self._registration_tokens[token] = {"used": False, "registration": None}
        return token

    def register(self, registration_url: str, session: requests.Session | None = None):
        session = session or requests.Session()
        token = self.register_token()
        url = add_query(
            registration_url,
            openid_configuration=self.openid_configuration_url,
            registration_token=token,
        )
        response = session.get(url, timeout=120)
        slot = self._registration_tokens[token]
        registration = slot["registration"]
        if registration is None:
            registration = ToolRegistration(
                client_id=None,
                deployment_id=None,
                tool_config=slot.get("tool_config"),
                error=slot.get("error") or "the tool posted no registration",
                registration_token=token,
            )
        registration.response = response
        return registration

    def _check_url(self, value: Any, what: str, domain: str | None, errors: list[str]) -> None:
        if not isinstance(value, str) or not value:
            errors.append(f"{what} missing")
            return
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            errors.append(f"{what} is not an http(s) URL: {value}")
            return
        if parts.scheme == "http" and not _is_loopback(parts.hostname):
            errors.append(f"{what} must use https: {value}")
        if parts.fragment:
            errors.append(f"{what} has a fragment: {value}")
        if domain:
            dom_host = urlsplit("//" + domain).hostname or domain
            host = parts.hostname.lower()
            if not (
                parts.netloc.lower() == domain.lower()
                or host == dom_host.lower()
                or host.endswith("." + dom_host.lower())
            ):
                errors.append(f"{what} is not on the tool's domain {domain}: {value}")

    def validate_tool_config(self, config: Any) -> list[str]:
        """What is wrong with a tool's client registration (LTI Dynamic Registration 1.0)."""
        errors: list[str] = []
        if not isinstance(config, dict):
            return ["registration is not a JSON object"]
        if config.get("application_type") != "web":
            errors.append("application_type must be 'web'")
        if "id_token" not in (config.get("response_types") or []):
            errors.append("response_types must hold 'id_token'")
        grants = config.get("grant_types") or []
        for grant in ("implicit", "client_credentials"):
            if grant not in grants:
                errors.append(f"grant_types must hold '{grant}'")
        if config.get("token_endpoint_auth_method") != "private_key_jwt":
            errors.append("token_endpoint_auth_method must be 'private_key_jwt'")
        if not isinstance(config.get("client_name"), str) or not config.get("client_name"):
            errors.append("client_name missing")
        block = config.get(TOOL_CONFIG)
        if not isinstance(block, dict):
            errors.append(f"{TOOL_CONFIG} missing")
            block = {}
        domain = block.get("domain")
        if not isinstance(domain, str) or not domain or "/" in domain:
            errors.append("tool domain missing or not a host")
            domain = None
        self._check_url(config.get("initiate_login_uri"), "initiate_login_uri", domain, errors)
        self._check_url(config.get("jwks_uri"), "jwks_uri", domain, errors)
        redirect_uris = config.get("redirect_uris")
        if not isinstance(redirect_uris, list) or not redirect_uris:
            errors.append("redirect_uris missing")
        else:
            for uri in redirect_uris:
                self._check_url(uri, "redirect_uri", domain, errors)
        self._check_url(block.get("target_link_uri"), "target_link_uri", domain, errors)
        claims = block.get("claims", [])
        if not isinstance(claims, list) or not all(isinstance(c, str) for c in claims):
            errors.append("claims must be a list of strings")
        messages = block.get("messages", [])
        if not isinstance(messages, list) or not all(
            isinstance(m, dict) and isinstance(m.get("type"), str) for m in messages
        ):
            errors.append("messages must be a list of objects with a type")
            messages = []
        for message in messages:
            if message["type"] not in ("LtiResourceLinkRequest", "LtiDeepLinkingRequest"):
                errors.append(f"message type not supported: {message['type']}")
            if message.get("target_link_uri"):
                self._check_url(
                    message["target_link_uri"], "message target_link_uri", domain, errors
                )
        scope = config.get("scope", "")
        if not isinstance(scope, str):
            errors.append("scope must be a space-separated string")
            scope = ""
        scopes = scope.split()
        for item in scopes:
            if item not in SCOPES_SUPPORTED:
                errors.append(f"scope not supported: {item}")
        if self.require_services:
            if not any(m.get("type") == "LtiDeepLinkingRequest" for m in messages):
                errors.append("messages must offer LtiDeepLinkingRequest")
            if SCOPE_SCORE not in scopes:
                errors.append("scope must hold the AGS score scope")
            if SCOPE_LINEITEM not in scopes and SCOPE_LINEITEM_READ not in scopes:
                errors.append("scope must hold an AGS lineitem scope")
            if SCOPE_NRPS not in scopes:
                errors.append("scope must hold the NRPS contextmembership scope")
        return errors

    def _h_register(self, req: _Req):
        auth = req.headers.get("Authorization") or ""
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
        try:
            self._decode_own(token, issuer=self.issuer)
        except jwt.PyJWTError as exc:
            raise LMSError(401, "invalid_token", "registration token missing or invalid") from exc
        config = req.json()
        with self._lock:
            slot = self._registration_tokens.get(token)
            if slot is None or slot["used"]:
                raise LMSError(401, "invalid_token", "registration token already used")
            slot["tool_config"] = config
            errors = self.validate_tool_config(config)
            if errors:
                slot["error"] = "; ".join(errors)
                raise LMSError(400, "invalid_client_metadata", slot["error"])
            slot["used"] = True
            client_id = "lti-" + secrets.token_hex(8)
            type_id = next(self._type_ids)
            deployment_id = str(type_id)  # Moodle: the tool type id
            registration = ToolRegistration(
                client_id=client_id,
                deployment_id=deployment_id,
                tool_config=config,
                type_id=type_id,
                deployment_ids=[deployment_id],
                registration_token=token,
            )
            self.tools[client_id] = registration
            self.tool = registration
            slot["registration"] = registration
        answer = dict(config)
        answer["client_id"] = client_id
        answer[TOOL_CONFIG] = dict(config[TOOL_CONFIG], deployment_id=deployment_id)
        return self._json(answer)

    def add_deployment(self, tool: ToolRegistration) -> str:
        with self._lock:
            deployment_id = f"{tool.type_id}-{secrets.token_hex(3)}"
            tool.deployment_ids.append(deployment_id)
        return deployment_id

    # -- courses and people

    def add_course(self, title: str, label: str | None = None) -> Course:
        with self._lock:
            course_id = next(self._ids)
            course = Course(
                id=course_id,
                title=title,
                label=label or title.split()[0],
                context_id=str(course_id),
            )
            self.courses[course_id] = course
            self.links[course_id] = []
        return course

    def add_user(
        self,
        name: str,
        role: str = "Learner",
        email: str | None = None,
        given_name: str | None = None,
        family_name: str | None = None,
        roles: list[str] | None = None,
    ) -> User:
        if roles is None and role not in ROLE_URIS:
            raise ValueError(f"unknown role {role!r}; pass roles=[URIs]")
        parts = name.split()
        with self._lock:
            user_id = next(self._ids)
            user = User(
                id=user_id,
                sub=str(user_id),
                name=name,
                given_name=given_name if given_name is not None else (parts[0] if parts else None),
                family_name=family_name
                if family_name is not None
                else (" ".join(parts[1:]) or None),
                email=email,
                role=role,
                roles=list(roles) if roles is not None else list(ROLE_URIS[role]),
            )
            self.users[user_id] = user
        return user

    def enrol(self, course: Course, user: User, role: str | None = None) -> None:
        with self._lock:
            course.members[user.id] = list(ROLE_URIS[role]) if role else list(user.roles)

    def _new_line_item(
        self, course: Course, tool: ToolRegistration, data: dict[str, Any], link_id=None
    ):
        item = LineItem(
            id=next(self._item_ids),
            course_id=course.id,
            type_id=tool.type_id or 0,
            label=str(data.get("label") or "Grade"),
            score_maximum=data.get("scoreMaximum", 100),
            base_url=self.base_url,
            resource_id=data.get("resourceId"),
            tag=data.get("tag"),
            resource_link_id=link_id or data.get("resourceLinkId"),
            start=data.get("startDateTime"),
            end=data.get("endDateTime"),
        )
        self.lineitems[item.id] = item
        self.scores[item.id] = []
        return item

    def add_link(
        self,
        course: Course,
        title: str = "Matika",
        url: str | None = None,
        tool: ToolRegistration | None = None,
        custom: dict[str, Any] | None = None,
        line_item: dict[str, Any] | None = None,
        deployment_id: str | None = None,
        text: str = "",
    ) -> Link:
        tool = tool or self.tool
        if tool is None or not tool.ok:
            raise ValueError("no tool registered")
        with self._lock:
            link = Link(
                id=str(next(self._link_ids)),
                course_id=course.id,
                title=title,
                url=url or tool.target_link_uri or "",
                client_id=tool.client_id or "",
                deployment_id=deployment_id or tool.deployment_id or "",
                text=text,
                custom=dict(custom or {}),
            )
            self.links[course.id].append(link)
            if line_item is not None:
                item = self._new_line_item(course, tool, line_item, link.id)
                link.line_item_ids.append(item.id)
        return link

    def copy_course(self, course: Course, title: str | None = None) -> Course:
        copy = self.add_course(title or f"{course.title} (copy)", label=course.label)
        with self._lock:
            copy.copied_from = course.id
            copy.members = {}
            for link in self.links[course.id]:
                new = Link(
                    id=str(next(self._link_ids)),
                    course_id=copy.id,
                    title=link.title,
                    url=link.url,
                    client_id=link.client_id,
                    deployment_id=link.deployment_id,
                    text=link.text,
                    custom=dict(link.custom),
                    copied_from=link.id,
                )
                for item_id in link.line_item_ids:
                    old = self.lineitems[item_id]
                    tool = self._tool_by_type(old.type_id)
                    item = self._new_line_item(copy, tool, old.as_json(), new.id)
                    new.line_item_ids.append(item.id)
                self.links[copy.id].append(new)
        return copy

    def _tool_by_type(self, type_id: int) -> ToolRegistration:
        for tool in self.tools.values():
            if tool.type_id == type_id:
                return tool
        raise LMSError(404, "not_found", "no such tool type")

    def _course(self, course_id: Any) -> Course:
        course = self.courses.get(int(course_id))
        if course is None:
            raise LMSError(404, "not_found", "no such course")
        return course

    def _link(self, course: Course, link_id: str) -> Link:
        for link in self.links.get(course.id, []):
            if link.id == str(link_id):
                return link
        raise LMSError(404, "not_found", "no such resource link", kind="html")

    # -- gradebook

    def wait_for(self, condition, timeout: float = 180, what: str = "the LMS to get there"):
        """Poll ``condition()`` (e.g. scores sent by a Celery task) until it is truthy;
        its value, or AssertionError after ``timeout`` seconds (generous: a busy machine)."""
        deadline = time.monotonic() + timeout
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"waited {timeout} s for {what}; service errors: {self.service_errors[-5:]}, "
                    f"token errors: {self.token_errors[-5:]}, crashes: {len(self.errors)}"
                )
            time.sleep(0.25)

    def gradebook_raw(self, course: Course, lineitem: LineItem | None = None):
        items = (
            [lineitem]
            if lineitem
            else [i for i in self.lineitems.values() if i.course_id == course.id]
        )
        entries = []
        for item in items:
            for score in self.scores.get(item.id, []):
                entries.append(score)
        entries.sort(key=lambda s: s["_received"])
        book: dict[str, tuple[float, float]] = {}
        by_sub = {u.sub: u for u in self.users.values()}
        for score in entries:
            if score.get("scoreGiven") is None:
                continue
            user = by_sub.get(str(score.get("userId")))
            name = user.name if user else str(score.get("userId"))
            book[name] = (score["scoreGiven"], score["scoreMaximum"])
        return book

    def gradebook(self, course: Course, lineitem: LineItem | None = None) -> dict[str, float]:
        return {
            name: given / maximum
            for name, (given, maximum) in self.gradebook_raw(course, lineitem).items()
        }

    # -- launches: building the id_token

    def _lib_registration(self, tool: ToolRegistration, deployment_id: str | None = None):
        lib = _Registration()
        lib.set_iss(self.issuer)
        lib.set_client_id(tool.client_id or "")
        lib.set_deployment_id(deployment_id or tool.deployment_id or "")
        lib.set_platform_private_key(private_key_object(self.private_key))  # type: ignore[arg-type]
        lib.set_platform_public_key(self.public_key)
        if tool.jwks_uri:
            lib.set_tool_key_set_url(tool.jwks_uri)
        lib.set_launch_url(tool.target_link_uri or "")
        lib.set_oidc_login_url(tool.initiate_login_uri or "")
        return lib

    def _conf(self, tool: ToolRegistration) -> _PlatformConf:
        conf = _PlatformConf(registration=self._lib_registration(tool))
        conf.get_registration()
        return conf

    def _shares(self, tool: ToolRegistration, claim: str) -> bool:
        return claim in tool.claims

    def _new_hint(self, record: dict[str, Any]) -> str:
        hint = secrets.token_urlsafe(12)
        with self._lock:
            self._hints[hint] = record
        return hint

    def _login_params(self, hint: str, record: dict[str, Any]) -> dict[str, str]:
        tool: ToolRegistration = record["tool"]
        return {
            "iss": self.issuer,
            "login_hint": record["user"].sub,
            "target_link_uri": record["target_link_uri"],
            "lti_message_hint": hint,
            "client_id": tool.client_id or "",
            "lti_deployment_id": record["deployment_id"],
            # LTI client-side storage (lti.put_data / lti.get_data) in the LMS page.
            **({"lti_storage_target": "_parent"} if record.get("storage") else {}),
        }

    def _build_id_token(self, record: dict[str, Any], auth: dict[str, str]) -> str:
        tool: ToolRegistration = record["tool"]
        user: User = record["user"]
        course: Course = record["course"]
        link: Link | None = record.get("link")
        deep = record["kind"] == "LtiDeepLinkingRequest"
        attack: dict[str, Any] = record.get("attack") or {}
        lib = self._lib_registration(tool, record["deployment_id"])
        lib.set_launch_url(record["target_link_uri"])
        conf = _PlatformConf(registration=lib)
        launch = _Launch(_LibRequest(auth), conf)
        launch._registration = conf.get_registration()
        launch.validate_preflight_response(auth)

        roles = course.members.get(user.id, user.roles)
        launch.set_user_data(
            user.sub,
            roles,
            full_name=user.name if self._shares(tool, "name") else None,
            email_address=user.email if self._shares(tool, "email") else None,
        )
        launch.set_launch_context_claim(
            course.context_id,
            context_types=["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"],
            context_title=course.title,
            context_label=course.label,
        )
        launch.set_launch_presentation_claim(
            document_target=record.get("document_target", "window"),
            return_url=f"{self.base_url}/courses/{course.id}",
        )
        if link is not None and not deep:
            launch.set_resource_link_claim(link.id, description=link.text or None, title=link.title)
            if link.custom:
                launch.set_custom_parameters_claim(dict(link.custom))
        ags_scopes = [s for s in AGS_SCOPES if s in tool.scopes]
        if ags_scopes:
            items = [self.lineitems[i] for i in link.line_item_ids] if link and not deep else []
            launch.set_ags(
                self.lineitems_url(course, tool),
                items[0].url if len(items) == 1 else None,
            )
            launch.extra_claims[AGS_CLAIM]["scope"] = ags_scopes
        if SCOPE_NRPS in tool.scopes:
            launch.set_nrps(self.memberships_url(course, tool))
        if deep:
            launch.set_dl(
                self.deep_link_return_url(course, tool),
                title=course.title,
                accept_types={"ltiResourceLink"},
                extra_data=record["data"],  # type: ignore[arg-type] — an opaque string
            )
            launch.set_extra_claims(launch._deep_linking_launch_data or {})
            settings = launch.extra_claims[DL + "deep_linking_settings"]
            settings["accept_presentation_document_targets"] = ["iframe", "window"]
            settings["accept_lineitem"] = True

        claims = launch.get_launch_message()
        if deep:
            claims[LTI + "message_type"] = "LtiDeepLinkingRequest"
        claims["nonce"] = auth["nonce"]
        claims[LTI + "tool_platform"] = {
            "guid": f"lms-{self.port}",
            "name": "Local LMS",
            "product_family_code": self.product_family_code,
            "version": "4.5",
        }
        for extra in ("given_name", "family_name"):
            value = getattr(user, extra)
            if value and self._shares(tool, extra):
                claims[extra] = value
        now = int(time.time())
        claims["iat"], claims["exp"] = now, now + 300

        # attacks
        if attack.get("no_email"):
            claims.pop("email", None)
        if attack.get("no_name"):
            for key in ("name", "given_name", "family_name"):
                claims.pop(key, None)
        if attack.get("expired"):
            claims["iat"], claims["exp"] = now - 7200, now - 3600
        if attack.get("aud_as_list"):
            claims["aud"] = [claims["aud"], "another-audience"]
        if attack.get("wrong_aud"):
            claims["aud"] = claims["azp"] = "some-other-client"
        if attack.get("wrong_iss"):
            claims["iss"] = "http://127.0.0.1:1/another-lms"
        if attack.get("wrong_deployment"):
            claims[LTI + "deployment_id"] = "deployment-the-tool-never-saw"
        if attack.get("no_nonce"):
            claims.pop("nonce", None)
        if attack.get("wrong_nonce"):
            claims["nonce"] = secrets.token_urlsafe(16)
        if attack.get("message_type"):
            claims[LTI + "message_type"] = attack["message_type"]
        if attack.get("version"):
            claims[LTI + "version"] = attack["version"]
        for name in attack.get("drop_claims") or []:
            claims.pop(SHORT_CLAIMS.get(name, name), None)
        claims.update(attack.get("claims") or {})

        key = self.other_private_key if attack.get("sign_with_other_key") else self.private_key
        return jwt.encode(
            claims, private_key_object(key), algorithm="RS256", headers={"kid": self.kid}
        )

    def _h_auth(self, req: _Req):
        params = req.params()

        def refuse(error: str, description: str):
            self.auth_errors.append(f"{error}: {description}")
            raise LMSError(400, error, description, kind="html")

        tool = self.tools.get(params.get("client_id", ""))
        if tool is None:
            refuse("unauthorized_client", "unknown client_id")
        assert tool is not None
        if params.get("redirect_uri") not in tool.redirect_uris:
            refuse("invalid_request", "redirect_uri is not registered")
        if "openid" not in params.get("scope", "").split():
            refuse("invalid_scope", "scope must be openid")
        if params.get("response_type") != "id_token":
            refuse("unsupported_response_type", "response_type must be id_token")
        if params.get("response_mode") != "form_post":
            refuse("invalid_request", "response_mode must be form_post")
        if params.get("prompt") != "none":
            refuse("invalid_request", "prompt must be none")
        if not params.get("nonce"):
            refuse("invalid_request", "nonce missing")
        if not params.get("state"):
            refuse("invalid_request", "state missing")
        record = self._hints.get(params.get("lti_message_hint", ""))
        if record is None:
            refuse("invalid_request", "lti_message_hint unknown")
        assert record is not None
        if record["tool"] is not tool:
            refuse("invalid_request", "lti_message_hint is for another client")
        if params.get("login_hint") != record["user"].sub:
            refuse("login_required", "login_hint is not the signed-in user")
        id_token = self._build_id_token(record, params)
        fields = {"id_token": id_token, "state": params["state"]}
        record["last"] = {
            "id_token": id_token,
            "claims": jwt.decode(id_token, options={"verify_signature": False}),
            "state": params["state"],
            "redirect_uri": params["redirect_uri"],
        }
        return self._html(_auto_form(params["redirect_uri"], fields, "Launching…"))

    # -- launches: driving them

    def _resolve_tool(self, options: dict[str, Any]) -> ToolRegistration:
        tool = options.pop("tool", None) or self.tool
        if tool is None or not tool.ok:
            raise ValueError("no tool registered with this LMS")
        return tool

    def launch(
        self,
        session: requests.Session,
        user: User,
        course: Course,
        link: Link | None = None,
        **options: Any,
    ):
        tool = self._resolve_tool(options)
        if link is None:
            links = [lk for lk in self.links.get(course.id, []) if lk.client_id == tool.client_id]
            link = links[0] if links else self.add_link(course, tool=tool)
        return self._drive(
            session, "LtiResourceLinkRequest", tool, user, course, link, link.url, options
        )

    def deep_link(
        self, session: requests.Session, instructor: User, course: Course, **options: Any
    ):
        tool = self._resolve_tool(options)
        return self._drive(
            session,
            "LtiDeepLinkingRequest",
            tool,
            instructor,
            course,
            None,
            tool.deep_link_uri or "",
            options,
        )

    def _record(
        self, kind, tool, user, course, link, target, options
    ) -> tuple[str, dict[str, Any]]:
        record: dict[str, Any] = {
            "kind": kind,
            "tool": tool,
            "user": user,
            "course": course,
            "link": link,
            "target_link_uri": target,
            "deployment_id": options.pop("deployment_id", None)
            or (link.deployment_id if link else None)
            or tool.deployment_id,
            "document_target": options.pop("document_target", "window"),
            "storage": options.pop("storage", False),
            "attack": options,
        }
        if kind == "LtiDeepLinkingRequest":
            data = "dl-" + secrets.token_urlsafe(12)
            record["data"] = data
            with self._lock:
                self._dl_data[data] = {
                    "course": course,
                    "tool": tool,
                    "user": user,
                    "deployment_id": record["deployment_id"],
                    "used": False,
                }
        return self._new_hint(record), record

    def _drive(self, session, kind, tool, user, course, link, target, options):
        login_method = options.pop("login_method", "POST").upper()
        same_site_cookies = options.pop("same_site_cookies", False)
        replay = options.pop("replay", False)
        wrong_state = options.pop("wrong_state", False)
        # Stop before the form_post: the launch's form (an attacker's own launch,
        # to be posted by another browser: login CSRF).
        hold = options.pop("hold", False)
        hint, record = self._record(kind, tool, user, course, link, target, options)
        params = self._login_params(hint, record)
        login_uri = tool.initiate_login_uri or ""
        headers = {"Origin": self.base_url, "Referer": f"{self.base_url}/courses/{course.id}"}
        if login_method == "GET":
            response = session.get(
                login_uri, params=params, headers=headers, allow_redirects=False, timeout=120
            )
        else:
            response = session.post(
                login_uri, data=params, headers=headers, allow_redirects=False, timeout=120
            )
        if response.is_redirect:
            location = urljoin(response.url, response.headers["Location"])
            if location.split("?")[0] != self.authorization_endpoint:
                return response
            auth = session.get(location, allow_redirects=False, timeout=120)
        else:
            # A tool may answer its login with a self-submitting form to the LMS instead.
            onward = [
                form
                for form in (parse_forms(response.text) if response.ok else [])
                if urljoin(response.url, form["action"]).split("?")[0]
                == self.authorization_endpoint
            ]
            if not onward:
                return response
            action = urljoin(response.url, onward[0]["action"])
            if onward[0]["method"] == "post":
                auth = session.post(
                    action, data=onward[0]["fields"], allow_redirects=False, timeout=120
                )
            else:
                auth = session.get(
                    action, params=onward[0]["fields"], allow_redirects=False, timeout=120
                )
        if auth.status_code != 200:
            return auth
        form = parse_forms(auth.text)[0]
        fields = dict(form["fields"])
        if wrong_state:
            fields["state"] = secrets.token_urlsafe(16)
        self.last_launch = dict(record.get("last") or {}, form=fields)
        if hold:
            return {"action": form["action"], "fields": fields, "referer": auth.url}
        first = self._form_post(session, form["action"], fields, auth.url, same_site_cookies)
        if replay:
            return self._form_post(session, form["action"], fields, auth.url, same_site_cookies)
        return first

    def _cross_site_cookie_header(
        self, session: requests.Session, url: str, everything: bool
    ) -> str | None:
        """The Cookie header a browser sends on a cross-site POST to ``url``: only
        ``SameSite=None`` cookies (Secure ones too: loopback counts as secure)."""
        jar = requests.cookies.RequestsCookieJar()
        loopback = _is_loopback(urlsplit(url).hostname)
        for cookie in session.cookies:
            same_site = next(
                (str(v).lower() for k, v in cookie._rest.items() if k.lower() == "samesite"), ""
            )
            if not everything and same_site != "none":
                continue
            if cookie.secure and loopback:
                cookie = requests.cookies.create_cookie(
                    cookie.name, cookie.value, domain=cookie.domain, path=cookie.path, secure=False
                )
            jar.set_cookie(cookie)
        probe = requests.Request("POST", url).prepare()
        return requests.cookies.get_cookie_header(jar, probe)

    def _form_post(self, session, action, fields, referer, same_site_cookies):
        headers = {"Origin": self.base_url, "Referer": referer}
        cookie = self._cross_site_cookie_header(session, action, same_site_cookies)
        if cookie:
            headers["Cookie"] = cookie
        prepared = requests.Request("POST", action, data=fields, headers=headers).prepare()
        response = session.send(prepared, allow_redirects=False, timeout=120)
        if response.is_redirect:
            final = session.get(urljoin(response.url, response.headers["Location"]), timeout=120)
            final.history.insert(0, response)
            return final
        return response

    def post_launch(self, session: requests.Session, held: dict[str, Any]):
        """Post a launch form held by ``launch(..., hold=True)`` from ``session``'s browser."""
        return self._form_post(session, held["action"], held["fields"], held["referer"], False)

    def submit_form(
        self,
        session: requests.Session,
        response,
        data: dict[str, Any] | None = None,
        index: int = 0,
    ):
        """Submit form ``index`` of an HTML ``response`` (its fields updated with ``data``)."""
        forms = parse_forms(response.text)
        if len(forms) <= index:
            raise AssertionError(f"no form {index} on {response.url}: {response.text[:500]}")
        form = forms[index]
        fields = dict(form["fields"])
        fields.update(data or {})
        action = urljoin(response.url, form["action"] or response.url)
        if form["method"] == "post":
            return session.post(action, data=fields, timeout=120)
        return session.get(action, params=fields, timeout=120)

    # -- browser pages

    def _page_user(self, req: _Req) -> User:
        user = self.users.get(int(req.query.get("user", "0") or 0))
        if user is None:
            raise LMSError(400, "no_user", "?user=<id> names no user", kind="html")
        return user

    def _framed(self, req: _Req, title: str, tool_origin: str = ""):
        if req.query.get("frame") != "1":
            return None
        query = {k: v for k, v in req.query.items() if k not in {"frame", "frame_width"}}
        src = html.escape(f"{req.path}?{urlencode(query)}")
        # ``frame_width=N`` (px): a phone-sized frame for the browser tests; 1000 otherwise.
        width = req.query.get("frame_width", "")
        width = width if width.isdigit() and 200 <= int(width) <= 4000 else "1000"
        body = f"<h1>{html.escape(title)}</h1><iframe id='tool' name='tool' src='{src}' width='{width}' height='700' allow='fullscreen'></iframe>"
        script = _STORAGE_SCRIPT % json.dumps(tool_origin) if req.query.get("storage") else ""
        return self._html(_page(title, body, script))

    def _h_launch_page(self, req: _Req, course: str, link: str):
        course_obj = self._course(course)
        link_obj = self._link(course_obj, link)
        tool = self.tools[link_obj.client_id]
        login_uri = urlsplit(tool.initiate_login_uri or "")
        framed = self._framed(req, link_obj.title, f"{login_uri.scheme}://{login_uri.netloc}")
        if framed:
            return framed
        user = self._page_user(req)
        target = "iframe" if req.query.get("in_frame") else "window"
        hint, record = self._record(
            "LtiResourceLinkRequest",
            tool,
            user,
            course_obj,
            link_obj,
            link_obj.url,
            {"document_target": target, "storage": bool(req.query.get("storage"))},
        )
        return self._html(
            _auto_form(tool.initiate_login_uri or "", self._login_params(hint, record), "Launch")
        )

    def _h_deep_link_page(self, req: _Req, course: str):
        course_obj = self._course(course)
        framed = self._framed(req, "Add an activity")
        if framed:
            return framed
        user = self._page_user(req)
        tool = self.tools.get(req.query.get("tool", "")) or self.tool
        if tool is None:
            raise LMSError(400, "no_tool", "no tool registered", kind="html")
        hint, record = self._record(
            "LtiDeepLinkingRequest", tool, user, course_obj, None, tool.deep_link_uri or "", {}
        )
        return self._html(
            _auto_form(tool.initiate_login_uri or "", self._login_params(hint, record), "Add")
        )

    def _h_course_page(self, req: _Req, course: str):
        course_obj = self._course(course)
        items = "".join(
            f"<li data-link-id='{html.escape(lk.id)}'>{html.escape(lk.title)}</li>"
            for lk in self.links[course_obj.id]
        )
        return self._html(
            _page(course_obj.title, f"<h1>{html.escape(course_obj.title)}</h1><ul>{items}</ul>")
        )

    # -- deep linking return

    def _h_deep_link_return(self, req: _Req):
        try:
            return self._deep_link_return(req)
        except LMSError as exc:
            self.deep_link_errors.append(f"{exc.error}: {exc.description}")
            exc.kind = "html"
            raise

    def _deep_link_return(self, req: _Req):
        token = req.form.get("JWT", "")
        if not token:
            raise LMSError(400, "invalid_request", "JWT missing")
        try:
            unverified = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError as exc:
            raise LMSError(400, "invalid_request", f"JWT malformed: {exc}") from exc
        course = self._course(req.query.get("course", "0"))
        tool = self.tools.get(str(unverified.get("iss", "")))
        if tool is None or str(tool.type_id) != req.query.get("id"):
            raise LMSError(400, "invalid_client", "iss is not the client_id of this tool")
        conf = self._conf(tool)
        conf.set_accepted_deeplinking_types(["ltiResourceLink"])
        try:
            items = conf.validate_deeplinking_resp({"JWT": token})
        except (
            LtiException,
            LtiDeepLinkingResponseException,
            InvalidKeySetUrl,
            jwt.PyJWTError,
            KeyError,
            ValueError,
            TypeError,
        ) as exc:
            raise LMSError(400, "invalid_jwt", f"deep-linking response refused: {exc}") from exc
        claims = conf._jwt.get("body") or {}
        if not _audience_has(claims.get("aud"), self.issuer):
            raise LMSError(400, "invalid_jwt", "aud is not this platform")
        for required in ("exp", "iat", "nonce"):
            if required not in claims:
                raise LMSError(400, "invalid_jwt", f"{required} missing")
        if claims.get(LTI + "version") != "1.3.0":
            raise LMSError(400, "invalid_jwt", "version must be 1.3.0")
        if claims.get(LTI + "deployment_id") not in tool.deployment_ids:
            raise LMSError(400, "invalid_jwt", "deployment_id unknown")
        data = claims.get(DL + "data")
        with self._lock:
            pending = self._dl_data.get(data) if isinstance(data, str) else None
            if pending is None or pending["used"]:
                raise LMSError(400, "invalid_jwt", "data does not echo a deep-linking request")
            if pending["course"] is not course or pending["tool"] is not tool:
                raise LMSError(400, "invalid_jwt", "data is for another course or tool")
            if pending["deployment_id"] != claims.get(LTI + "deployment_id"):
                raise LMSError(400, "invalid_jwt", "deployment_id differs from the request's")
            if claims["nonce"] in self._used_dl_nonces:
                raise LMSError(400, "invalid_jwt", "nonce already used")
            errors: list[str] = []
            for item in items:
                if not isinstance(item, dict):
                    errors.append("content item is not an object")
                    continue
                if item.get("url"):
                    self._check_url(item["url"], "content item url", tool.domain, errors)
                if item.get("custom") is not None and not isinstance(item["custom"], dict):
                    errors.append("custom must be an object")
                line_item = item.get("lineItem")
                if line_item is not None:
                    maximum = line_item.get("scoreMaximum") if isinstance(line_item, dict) else None
                    if (
                        not isinstance(maximum, int | float)
                        or isinstance(maximum, bool)
                        or maximum <= 0
                    ):
                        errors.append("lineItem.scoreMaximum must be a positive number")
            if errors:
                raise LMSError(400, "invalid_content_item", "; ".join(errors))
            pending["used"] = True
            self._used_dl_nonces.add(claims["nonce"])
            made_links, made_items = [], []
            for item in items:
                link = Link(
                    id=str(next(self._link_ids)),
                    course_id=course.id,
                    title=str(item.get("title") or "Matika"),
                    url=item.get("url") or tool.target_link_uri or "",
                    client_id=tool.client_id or "",
                    deployment_id=claims[LTI + "deployment_id"],
                    text=str(item.get("text") or ""),
                    custom=dict(item.get("custom") or {}),
                )
                self.links[course.id].append(link)
                made_links.append(link)
                if isinstance(item.get("lineItem"), dict):
                    line_item = self._new_line_item(course, tool, item["lineItem"], link.id)
                    link.line_item_ids.append(line_item.id)
                    made_items.append(line_item)
            self.deep_link_returns.append(
                {"course": course, "links": made_links, "lineitems": made_items, "claims": claims}
            )
        listed = "".join(
            f"<li data-link-id='{html.escape(lk.id)}'>{html.escape(lk.title)}</li>"
            for lk in made_links
        )
        message = claims.get(DL + "msg") or ""
        body = (
            f"<h1>Added to {html.escape(course.title)}</h1>"
            f"<p class='msg'>{html.escape(str(message))}</p><ul id='added'>{listed}</ul>"
        )
        return self._html(_page("Added", body))

    # -- token endpoint

    def _h_token(self, req: _Req):
        try:
            return self._token(req)
        except LMSError as exc:
            self.token_errors.append(f"{exc.error}: {exc.description}")
            raise

    def _token(self, req: _Req):
        form = req.form
        if form.get("grant_type") != "client_credentials":
            raise LMSError(400, "unsupported_grant_type", "grant_type must be client_credentials")
        if form.get("client_assertion_type") != JWT_BEARER:
            raise LMSError(400, "invalid_request", "client_assertion_type must be jwt-bearer")
        assertion = form.get("client_assertion", "")
        try:
            unverified = jwt.decode(assertion, options={"verify_signature": False})
        except jwt.PyJWTError as exc:
            raise LMSError(401, "invalid_client", "client_assertion malformed") from exc
        tool = self.tools.get(str(unverified.get("iss", "")))
        if tool is None:
            raise LMSError(401, "invalid_client", "unknown client")
        conf = self._conf(tool)
        try:
            claims = conf.tool_validate_and_decode(assertion)
        except (LtiException, InvalidKeySetUrl, jwt.PyJWTError, ValueError, TypeError) as exc:
            raise LMSError(401, "invalid_client", f"client_assertion not verified: {exc}") from exc
        if claims.get("iss") != tool.client_id or claims.get("sub") != tool.client_id:
            raise LMSError(401, "invalid_client", "iss and sub must be the client_id")
        if not _audience_has(claims.get("aud"), self.token_endpoint):
            raise LMSError(401, "invalid_client", "aud must be the token endpoint")
        if not isinstance(claims.get("exp"), int | float):
            raise LMSError(401, "invalid_client", "exp missing")
        jti = claims.get("jti")
        if not jti:
            raise LMSError(401, "invalid_client", "jti missing")
        scopes = form.get("scope", "").split()
        if not scopes or any(s not in tool.scopes for s in scopes):
            raise LMSError(400, "invalid_scope", "scope not registered for this tool")
        with self._lock:
            if jti in self._used_jtis:
                raise LMSError(401, "invalid_client", "jti already used")
            self._used_jtis.add(jti)
            self.access_tokens_issued += 1
        token = conf.get_access_token(dict(form))
        return self._json(dict(token), **{"Cache-Control": "no-store"})

    def _authorize(self, req: _Req, scopes: list[str], type_id: Any) -> ToolRegistration:
        auth = (req.headers.get("Authorization") or "").split()
        if len(auth) != 2 or auth[0].lower() != "bearer":
            raise LMSError(401, "invalid_token", "bearer token missing")
        try:
            claims, public = self._decode_own(auth[1])
            lib = self._lib_registration(ToolRegistration(None, None, None))
            lib.set_platform_public_key(public)
            conf = _PlatformConf(registration=lib)
            conf.get_registration()
            ok = conf.validate_token(auth[1], scopes)
        except (LtiException, jwt.PyJWTError) as exc:
            raise LMSError(401, "invalid_token", f"bearer token not valid: {exc}") from exc
        if not ok:
            raise LMSError(403, "insufficient_scope", "token lacks the scope for this service")
        tool = self.tools.get(str(claims.get("sub")))
        if tool is None:
            raise LMSError(401, "invalid_token", "token of an unknown client")
        if type_id in (None, ""):
            raise LMSError(400, "invalid_request", "type_id missing from the service URL")
        if str(tool.type_id) != str(type_id):
            raise LMSError(403, "forbidden", "this service URL belongs to another tool")
        return tool

    # -- AGS

    def _item(self, course: Course, item_id: Any, tool: ToolRegistration) -> LineItem:
        item = self.lineitems.get(int(item_id))
        if item is None or item.course_id != course.id:
            raise LMSError(404, "not_found", "no such line item")
        if item.type_id != tool.type_id:
            raise LMSError(403, "forbidden", "line item of another tool")
        return item

    def _h_lineitems_get(self, req: _Req, course: str):
        tool = self._authorize(req, [SCOPE_LINEITEM, SCOPE_LINEITEM_READ], req.query.get("type_id"))
        course_obj = self._course(course)
        items = [
            i
            for i in self.lineitems.values()
            if i.course_id == course_obj.id and i.type_id == tool.type_id
        ]
        for key, attr in (
            ("resource_link_id", "resource_link_id"),
            ("resource_id", "resource_id"),
            ("tag", "tag"),
        ):
            if req.query.get(key):
                items = [i for i in items if getattr(i, attr) == req.query[key]]
        return self._json([i.as_json() for i in items], media=MEDIA_LINEITEMS)

    def _validate_line_item(self, data: Any, course: Course) -> None:
        if not isinstance(data, dict):
            raise LMSError(400, "invalid_request", "line item must be an object")
        if not isinstance(data.get("label"), str) or not data["label"].strip():
            raise LMSError(400, "invalid_request", "label missing")
        maximum = data.get("scoreMaximum")
        if not isinstance(maximum, int | float) or isinstance(maximum, bool) or maximum <= 0:
            raise LMSError(400, "invalid_request", "scoreMaximum must be a positive number")
        link_id = data.get("resourceLinkId")
        if link_id is not None and str(link_id) not in {lk.id for lk in self.links[course.id]}:
            raise LMSError(400, "invalid_request", "resourceLinkId is not a link of this course")

    def _h_lineitems_post(self, req: _Req, course: str):
        tool = self._authorize(req, [SCOPE_LINEITEM], req.query.get("type_id"))
        course_obj = self._course(course)
        data = req.json()
        self._validate_line_item(data, course_obj)
        with self._lock:
            item = self._new_line_item(course_obj, tool, data)
            for link in self.links[course_obj.id]:
                if link.id == item.resource_link_id:
                    link.line_item_ids.append(item.id)
        return self._json(item.as_json(), status=201, media=MEDIA_LINEITEM)

    def _h_lineitem_get(self, req: _Req, course: str, item: str):
        tool = self._authorize(req, [SCOPE_LINEITEM, SCOPE_LINEITEM_READ], req.query.get("type_id"))
        return self._json(
            self._item(self._course(course), item, tool).as_json(), media=MEDIA_LINEITEM
        )

    def _h_lineitem_put(self, req: _Req, course: str, item: str):
        tool = self._authorize(req, [SCOPE_LINEITEM], req.query.get("type_id"))
        course_obj = self._course(course)
        line_item = self._item(course_obj, item, tool)
        data = req.json()
        self._validate_line_item(data, course_obj)
        with self._lock:
            line_item.label = data["label"]
            line_item.score_maximum = data["scoreMaximum"]
            line_item.tag = data.get("tag", line_item.tag)
            line_item.resource_id = data.get("resourceId", line_item.resource_id)
        return self._json(line_item.as_json(), media=MEDIA_LINEITEM)

    def _scores(self, req: _Req, course: str, item: str):
        tool = self._authorize(req, [SCOPE_SCORE], req.query.get("type_id"))
        course_obj = self._course(course)
        line_item = self._item(course_obj, item, tool)
        if req.content_type != MEDIA_SCORE:
            raise LMSError(415, "unsupported_media_type", f"Content-Type must be {MEDIA_SCORE}")
        score = req.json()
        if not isinstance(score, dict):
            raise LMSError(400, "invalid_request", "score must be an object")
        user = next((u for u in self.users.values() if u.sub == str(score.get("userId"))), None)
        if user is None or user.id not in course_obj.members:
            raise LMSError(400, "invalid_request", "userId is not a member of this course")
        if score.get("activityProgress") not in ACTIVITY_PROGRESS:
            raise LMSError(400, "invalid_request", "activityProgress invalid")
        if score.get("gradingProgress") not in GRADING_PROGRESS:
            raise LMSError(400, "invalid_request", "gradingProgress invalid")
        try:
            stamp = datetime.fromisoformat(str(score.get("timestamp")))
        except ValueError as exc:
            raise LMSError(400, "invalid_request", "timestamp is not ISO 8601") from exc
        if stamp.tzinfo is None:
            raise LMSError(400, "invalid_request", "timestamp needs a time zone")
        given, maximum = score.get("scoreGiven"), score.get("scoreMaximum")

        def number(value: Any) -> bool:
            return isinstance(value, int | float) and not isinstance(value, bool)

        if given is not None:
            if not number(given) or given < 0:
                raise LMSError(400, "invalid_request", "scoreGiven must be a number ≥ 0")
            if not number(maximum) or maximum <= 0:
                raise LMSError(400, "invalid_request", "scoreMaximum must be a number > 0")
            if given > maximum:
                raise LMSError(400, "invalid_request", "scoreGiven exceeds scoreMaximum")
        with self._lock:
            earlier = [s for s in self.scores[line_item.id] if str(s.get("userId")) == user.sub]
            if earlier and max(s["_timestamp"] for s in earlier) > stamp:
                raise LMSError(409, "conflict", "an up-to-date score is already recorded")
            recorded = dict(score, _timestamp=stamp, _received=time.monotonic())
            self.scores[line_item.id].append(recorded)
        return 200, {"Content-Type": "application/json"}, b""

    def _h_results(self, req: _Req, course: str, item: str):
        tool = self._authorize(req, [SCOPE_RESULT_READ], req.query.get("type_id"))
        course_obj = self._course(course)
        line_item = self._item(course_obj, item, tool)
        latest: dict[str, dict[str, Any]] = {}
        for score in self.scores[line_item.id]:
            latest[str(score["userId"])] = score
        results = [
            {
                "id": f"{line_item.path}/results/{sub}?type_id={line_item.type_id}",
                "scoreOf": line_item.url,
                "userId": sub,
                "resultScore": score.get("scoreGiven"),
                "resultMaximum": score.get("scoreMaximum"),
            }
            for sub, score in latest.items()
            if req.query.get("user_id") in (None, sub)
        ]
        return self._json(results, media=MEDIA_RESULTS)

    # -- NRPS

    def _h_memberships(self, req: _Req, course: str, type: str):  # noqa: A002
        tool = self._authorize(req, [SCOPE_NRPS], type)
        course_obj = self._course(course)
        members = []
        for user_id, roles in course_obj.members.items():
            user = self.users[user_id]
            member: dict[str, Any] = {"status": "Active", "user_id": user.sub, "roles": roles}
            for claim in ("name", "given_name", "family_name", "email"):
                value = getattr(user, claim)
                if value and self._shares(tool, claim):
                    member[claim] = value
            members.append(member)
        role = req.query.get("role")
        if role:
            wanted = role if "#" in role or "/" in role else MEMBERSHIP + role
            members = [m for m in members if wanted in m["roles"]]
        try:
            limit = int(req.query.get("limit") or self.page_size)
            start = int(req.query.get("from") or 0)
        except ValueError as exc:
            raise LMSError(400, "invalid_request", "limit and from must be integers") from exc
        limit = max(1, min(limit, self.page_size))
        page = members[start : start + limit]
        url = self.memberships_url(course_obj, tool)
        headers = {}
        if start + limit < len(members):
            keep = {k: v for k, v in req.query.items() if k not in ("limit", "from")}
            headers["Link"] = (
                f'<{url}?{urlencode({**keep, "limit": limit, "from": start + limit})}>; rel="next"'
            )
        body = {
            "id": f"{self.base_url}{req.raw_path}",
            "context": {
                "id": course_obj.context_id,
                "label": course_obj.label,
                "title": course_obj.title,
            },
            "members": page,
        }
        return self._json(body, media=MEDIA_MEMBERSHIPS, **headers)
