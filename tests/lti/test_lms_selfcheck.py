"""The local LMS (tests/lti/lms.py) checked on its own, without Matika's tool.

A minimal LTI tool is played here with PyJWT on a second local HTTP server: it
registers itself, answers third-party initiated login, verifies id_tokens with the
LMS's JWKS, signs deep-linking responses and client assertions with its own key.
These tests show the harness refuses what a real platform refuses, so a tool test
that passes against it means something.
"""

from __future__ import annotations

import functools
import json
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from lti1p3platform.registration import Registration

from tests.lti.lms import (
    AGS_CLAIM,
    DL,
    KEYS,
    LTI,
    MEDIA_MEMBERSHIPS,
    MEDIA_SCORE,
    NRPS_CLAIM,
    SCOPE_LINEITEM,
    SCOPE_NRPS,
    SCOPE_RESULT_READ,
    SCOPE_SCORE,
    TOOL_CONFIG,
    add_query,
    parse_forms,
    private_key_object,
)

ALL_SCOPES = [SCOPE_LINEITEM, SCOPE_RESULT_READ, SCOPE_SCORE, SCOPE_NRPS]


@functools.cache
def _rsa_pem() -> str:
    """A key neither the LMS nor any tool holds (the pool keeps kinds apart), made once:
    each test needs only that it is trusted by nobody, not that it is new."""
    return KEYS.take("foreign")


class MiniTool:
    """Just enough of an LTI 1.3 tool to drive the LMS."""

    def __init__(
        self, claims=("iss", "sub", "name", "given_name", "family_name", "email"), scopes=ALL_SCOPES
    ):
        self.claims = list(claims)
        self.scopes = list(scopes)
        self.private_key = KEYS.take("tool")  # given back by stop()
        public = serialization.load_pem_private_key(self.private_key.encode(), None).public_key()
        self.public_pem = public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode()
        self.kid = Registration.get_jwk(self.public_pem)["kid"]
        self.config_overrides: dict = {}
        self.auth_overrides: dict = {}
        self.login_cookie = "state_cookie=abc; Path=/; SameSite=None; Secure"
        self.login_by_form = False
        self.states: dict[str, str] = {}
        self.launches: list[dict] = []
        self.refusals: list[str] = []
        self.registered: dict | None = None
        self.cookies_on_launch: list[str] = []
        tool = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status, body=b"", content_type="text/html", headers=()):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for key, value in headers:
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _params(self):
                parts = urlsplit(self.path)
                params = dict(parse_qsl(parts.query))
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    params.update(parse_qsl(self.rfile.read(length).decode()))
                return parts.path, params

            def do_GET(self):
                self._route(*self._params())

            def do_POST(self):
                self._route(*self._params())

            def _route(self, path, params):
                if path == "/jwks":
                    jwk = Registration.get_jwk(tool.public_pem)
                    return self._send(200, json.dumps({"keys": [jwk]}).encode(), "application/json")
                if path == "/register":
                    return self._send(*tool.do_register(params))
                if path == "/login":
                    return self._send(*tool.do_login(params))
                if path == "/launch":
                    tool.cookies_on_launch.append(self.headers.get("Cookie") or "")
                    return self._send(*tool.do_launch(params))
                return self._send(404, b"not found")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        KEYS.give_back("tool", self.private_key)

    # registration
    def config(self) -> dict:
        config = {
            "application_type": "web",
            "response_types": ["id_token"],
            "grant_types": ["implicit", "client_credentials"],
            "initiate_login_uri": f"{self.base_url}/login",
            "redirect_uris": [f"{self.base_url}/launch"],
            "client_name": "Mini tool",
            "jwks_uri": f"{self.base_url}/jwks",
            "token_endpoint_auth_method": "private_key_jwt",
            "scope": " ".join(self.scopes),
            TOOL_CONFIG: {
                "domain": urlsplit(self.base_url).netloc,
                "target_link_uri": f"{self.base_url}/launch",
                "claims": self.claims,
                "messages": [
                    {"type": "LtiDeepLinkingRequest", "target_link_uri": f"{self.base_url}/launch"}
                ],
            },
        }
        config.update(self.config_overrides)
        return config

    def do_register(self, params):
        configuration = requests.get(params["openid_configuration"], timeout=30).json()
        self.platform = configuration
        headers = {"Authorization": f"Bearer {params.get('registration_token', '')}"}
        answer = requests.post(
            configuration["registration_endpoint"], json=self.config(), headers=headers, timeout=30
        )
        self.registration_status = answer.status_code
        if not answer.ok:
            return 400, f"refused {answer.status_code} {answer.text}".encode()
        self.registered = answer.json()
        page = (
            "<script>window.parent.postMessage({subject:'org.imsglobal.lti.close'}, '*')</script>"
        )
        return 200, page.encode()

    @property
    def client_id(self):
        return self.registered["client_id"]

    # launch
    def do_login(self, params):
        state, nonce = secrets.token_urlsafe(8), secrets.token_urlsafe(8)
        self.states[state] = nonce
        query = {
            "scope": "openid",
            "response_type": "id_token",
            "response_mode": "form_post",
            "prompt": "none",
            "client_id": params.get("client_id", ""),
            "redirect_uri": f"{self.base_url}/launch",
            "login_hint": params.get("login_hint", ""),
            "lti_message_hint": params.get("lti_message_hint", ""),
            "state": state,
            "nonce": nonce,
        }
        query.update(self.auth_overrides)
        query = {k: v for k, v in query.items() if v is not None}
        location = self.platform["authorization_endpoint"] + "?" + urlencode(query)
        if self.login_by_form:
            inputs = "".join(
                f"<input type='hidden' name='{k}' value='{v}'>" for k, v in query.items()
            )
            page = f"<form method='post' action='{self.platform['authorization_endpoint']}'>{inputs}</form>"
            return 200, page.encode(), "text/html", [("Set-Cookie", self.login_cookie)]
        return 302, b"", "text/html", [("Location", location), ("Set-Cookie", self.login_cookie)]

    def do_launch(self, params):
        try:
            nonce = self.states.pop(params.get("state", ""))
        except KeyError:
            self.refusals.append("state")
            return 400, b"bad state"
        try:
            keys = jwt.PyJWKClient(self.platform["jwks_uri"])
            key = keys.get_signing_key_from_jwt(params["id_token"])
            claims = jwt.decode(
                params["id_token"],
                key.key,
                algorithms=["RS256"],
                audience=self.client_id,
                issuer=self.platform["issuer"],
            )
        except jwt.PyJWTError as exc:
            self.refusals.append(type(exc).__name__)
            return 400, f"refused: {exc}".encode()
        if claims.get("nonce") != nonce:
            self.refusals.append("nonce")
            return 400, b"bad nonce"
        if claims.get(LTI + "deployment_id") != self.registered[TOOL_CONFIG]["deployment_id"]:
            self.refusals.append("deployment")
            return 400, b"bad deployment"
        self.launches.append(claims)
        return 200, f"<p id='ok'>launched {claims[LTI + 'message_type']}</p>".encode()

    # signing as the tool
    def sign(self, claims, key=None, kid=None):
        return jwt.encode(
            claims,
            private_key_object(key or self.private_key),
            algorithm="RS256",
            headers={"kid": kid or self.kid},
        )

    def deep_link_response(self, request_claims, items, **changes):
        now = int(time.time())
        claims = {
            "iss": self.client_id,
            "aud": request_claims["iss"],
            "iat": now,
            "exp": now + 300,
            "nonce": secrets.token_urlsafe(8),
            LTI + "message_type": "LtiDeepLinkingResponse",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": request_claims[LTI + "deployment_id"],
            DL + "data": request_claims[DL + "deep_linking_settings"]["data"],
            DL + "content_items": items,
        }
        claims.update(changes)
        return {k: v for k, v in claims.items() if v is not None}

    def client_assertion(self, token_endpoint, **changes):
        now = int(time.time())
        claims = {
            "iss": self.client_id,
            "sub": self.client_id,
            "aud": token_endpoint,
            "iat": now,
            "exp": now + 300,
            "jti": str(uuid.uuid4()),
        }
        claims.update(changes)
        return {k: v for k, v in claims.items() if v is not None}

    def token(self, lms, scopes=ALL_SCOPES, key=None, **changes):
        return requests.post(
            lms.token_endpoint,
            data={
                "grant_type": "client_credentials",
                "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                "client_assertion": self.sign(
                    self.client_assertion(lms.token_endpoint, **changes), key=key
                ),
                "scope": " ".join(scopes),
            },
            timeout=30,
        )


@pytest.fixture
def tool():
    mini = MiniTool()
    yield mini
    mini.stop()


@pytest.fixture
def registered(lms, tool):
    registration = lms.register(f"{tool.base_url}/register?school=1")
    assert registration.ok, registration.error
    return registration


def _people(lms, learners=0, email=True):
    course = lms.add_course("Algebra 7.A")
    teacher = lms.add_user("Jana Nováková", role="Instructor")
    lms.enrol(course, teacher)
    pupils = []
    for index in range(learners):
        pupil = lms.add_user(
            f"Žák Číslo{index}", role="Learner", email=f"zak{index}@skola.cz" if email else None
        )
        lms.enrol(course, pupil)
        pupils.append(pupil)
    return course, teacher, pupils


# ---------------------------------------------------------------- discovery, keys


def test_discovery_document_and_jwks(lms):
    config = requests.get(lms.openid_configuration_url, timeout=30).json()
    assert lms.base_url == lms.issuer == config["issuer"]
    assert lms.base_url.startswith("http://127.0.0.1:")
    for key in ("authorization_endpoint", "token_endpoint", "jwks_uri", "registration_endpoint"):
        assert config[key].startswith(lms.base_url + "/")
    platform = config["https://purl.imsglobal.org/spec/lti-platform-configuration"]
    assert platform["product_family_code"] == "moodle"
    assert {m["type"] for m in platform["messages_supported"]} == {
        "LtiResourceLinkRequest",
        "LtiDeepLinkingRequest",
    }
    assert SCOPE_SCORE in config["scopes_supported"] and SCOPE_NRPS in config["scopes_supported"]
    keys = requests.get(config["jwks_uri"], timeout=30).json()["keys"]
    assert len(keys) == 1 and keys[0]["kid"] == lms.kid and keys[0]["alg"] == "RS256"
    assert "d" not in keys[0]  # the public half only
    token = jwt.encode(
        {"x": 1}, private_key_object(lms.private_key), algorithm="RS256", headers={"kid": lms.kid}
    )
    public = jwt.PyJWK(keys[0]).key
    assert jwt.decode(token, public, algorithms=["RS256"]) == {"x": 1}
    other = jwt.encode({"x": 1}, private_key_object(lms.other_private_key), algorithm="RS256")
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(other, public, algorithms=["RS256"])


def test_add_query_keeps_an_existing_query():
    url = add_query("http://t/lti/register/abc?x=1&y=a%20b", openid_configuration="http://l/c?q=1")
    parts = urlsplit(url)
    assert parts.path == "/lti/register/abc"
    assert parse_qsl(parts.query) == [
        ("x", "1"),
        ("y", "a b"),
        ("openid_configuration", "http://l/c?q=1"),
    ]


# ---------------------------------------------------------------- registration


def test_registration_assigns_client_and_deployment_once(lms, tool):
    registration = lms.register(f"{tool.base_url}/register?school=1")
    assert registration.ok and registration.error is None
    assert registration.client_id == tool.registered["client_id"]
    assert registration.deployment_id == tool.registered[TOOL_CONFIG]["deployment_id"]
    assert registration.tool_config == tool.config()
    assert "org.imsglobal.lti.close" in registration.response.text
    assert lms.tools[registration.client_id] is registration is lms.tool
    assert len(registration.registration_token) > 300  # tools must not truncate it
    # the same token a second time is refused
    answer = requests.post(
        lms.registration_endpoint,
        json=tool.config(),
        headers={"Authorization": f"Bearer {registration.registration_token}"},
        timeout=30,
    )
    assert answer.status_code == 401 and answer.json()["error"] == "invalid_token"
    assert list(lms.tools) == [registration.client_id]


@pytest.mark.parametrize("token", ["", "forged", "SIGNED_BY_ANOTHER_KEY"])
def test_registration_without_a_valid_token_is_refused(lms, tool, token):
    if token == "SIGNED_BY_ANOTHER_KEY":
        token = jwt.encode(
            {"iss": lms.issuer, "exp": time.time() + 60},
            private_key_object(_rsa_pem()),
            algorithm="RS256",
        )
    answer = requests.post(
        lms.registration_endpoint,
        json=tool.config(),
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code == 401
    assert lms.tools == {}


@pytest.mark.parametrize(
    "override, reason",
    [
        ({"token_endpoint_auth_method": "client_secret_basic"}, "token_endpoint_auth_method"),
        ({"grant_types": ["implicit"]}, "client_credentials"),
        ({"redirect_uris": ["http://evil.example/launch"]}, "redirect_uri"),
        ({"initiate_login_uri": None}, "initiate_login_uri"),
        ({"jwks_uri": "ftp://127.0.0.1/jwks"}, "jwks_uri"),
        ({"scope": SCOPE_SCORE}, "NRPS"),
        ({"scope": " ".join(ALL_SCOPES) + " https://example/admin"}, "not supported"),
        (
            {
                TOOL_CONFIG: {
                    "domain": "127.0.0.1",
                    "target_link_uri": "http://127.0.0.1/x",
                    "messages": [],
                }
            },
            "LtiDeepLinkingRequest",
        ),
    ],
)
def test_registration_with_a_bad_configuration_is_refused(lms, tool, override, reason):
    tool.config_overrides = override
    registration = lms.register(f"{tool.base_url}/register")
    assert not registration.ok and registration.client_id is None
    assert reason in registration.error
    assert tool.registration_status == 400
    assert lms.tools == {}


def test_plain_http_only_on_loopback(lms, tool):
    errors = []
    lms._check_url("http://matika.example/lti/launch", "target_link_uri", "matika.example", errors)
    assert errors and "https" in errors[0]
    errors = []
    lms._check_url("https://matika.example/lti/launch", "target_link_uri", "matika.example", errors)
    assert errors == []


# ---------------------------------------------------------------- launch


def test_launch_sends_a_signed_id_token_with_the_lti_claims(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    session = requests.Session()
    response = lms.launch(session, pupil, course)
    assert response.status_code == 200, response.text
    (claims,) = tool.launches
    link = lms.links[course.id][0]
    assert claims["iss"] == lms.issuer and claims["aud"] == registered.client_id
    assert claims["sub"] == pupil.sub
    assert claims[LTI + "message_type"] == "LtiResourceLinkRequest"
    assert claims[LTI + "version"] == "1.3.0"
    assert claims[LTI + "deployment_id"] == registered.deployment_id
    assert claims[LTI + "target_link_uri"] == registered.target_link_uri
    assert claims[LTI + "resource_link"]["id"] == link.id
    assert claims[LTI + "context"]["id"] == course.context_id
    assert "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner" in claims[LTI + "roles"]
    assert claims["name"] == pupil.name and claims["email"] == pupil.email
    assert claims["given_name"] == "Žák" and claims["family_name"] == "Číslo0"
    ags = claims[AGS_CLAIM]
    assert ags["lineitems"].endswith(f"/lineitems?type_id={registered.type_id}")
    assert "lineitem" not in ags  # the link has no line item
    assert set(ags["scope"]) == {SCOPE_LINEITEM, SCOPE_RESULT_READ, SCOPE_SCORE}
    assert claims[NRPS_CLAIM]["context_memberships_url"].endswith("/memberships")
    assert lms.last_launch["claims"] == claims


def test_names_and_email_only_when_the_registration_asks(lms):
    tool = MiniTool(claims=["iss", "sub"])
    try:
        lms.register(f"{tool.base_url}/register")
        course, teacher, (pupil,) = _people(lms, learners=1)
        lms.launch(requests.Session(), pupil, course)
        (claims,) = tool.launches
        assert not {"name", "given_name", "family_name", "email"} & set(claims)
    finally:
        tool.stop()


def test_email_is_absent_when_the_user_has_none(lms, tool, registered):
    course, teacher, _ = _people(lms)
    lms.launch(requests.Session(), teacher, course)
    (claims,) = tool.launches
    assert claims["name"] == teacher.name and "email" not in claims
    assert "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor" in claims[LTI + "roles"]


def test_a_link_with_one_line_item_names_it(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    link = lms.add_link(course, title="Poker", line_item={"label": "Poker", "scoreMaximum": 50})
    lms.launch(requests.Session(), pupil, course, link)
    item = lms.lineitems[link.line_item_ids[0]]
    assert tool.launches[0][AGS_CLAIM]["lineitem"] == item.url
    assert item.url.endswith(f"/lineitem?type_id={registered.type_id}")


@pytest.mark.parametrize(
    "attack, refusal",
    [
        ({"sign_with_other_key": True}, "InvalidSignatureError"),
        ({"expired": True}, "ExpiredSignatureError"),
        ({"wrong_aud": True}, "InvalidAudienceError"),
        ({"wrong_iss": True}, "InvalidIssuerError"),
        ({"no_nonce": True}, "nonce"),
        ({"wrong_nonce": True}, "nonce"),
        ({"wrong_state": True}, "state"),
        ({"wrong_deployment": True}, "deployment"),
        ({"drop_claims": ["deployment_id"]}, "deployment"),
    ],
)
def test_attack_knobs_make_tokens_a_tool_must_refuse(lms, tool, registered, attack, refusal):
    course, teacher, (pupil,) = _people(lms, learners=1)
    response = lms.launch(requests.Session(), pupil, course, **attack)
    assert response.status_code == 400
    assert tool.launches == [] and tool.refusals == [refusal]


def test_message_type_version_and_claims_knobs(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    lms.launch(
        requests.Session(),
        pupil,
        course,
        message_type="LtiSubmissionReviewRequest",
        version="1.1",
        drop_claims=["roles", "sub"],
        claims={"extra": 1},
        no_email=True,
        no_name=True,
    )
    (claims,) = tool.launches
    assert claims[LTI + "message_type"] == "LtiSubmissionReviewRequest"
    assert claims[LTI + "version"] == "1.1"
    assert LTI + "roles" not in claims and "sub" not in claims and claims["extra"] == 1
    assert not {"name", "email", "given_name"} & set(claims)


def test_replay_posts_the_same_id_token_twice(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    response = lms.launch(requests.Session(), pupil, course, replay=True)
    # the mini tool keeps state server-side and single use: the replay is refused
    assert response.status_code == 400 and tool.refusals == ["state"]
    assert len(tool.launches) == 1


def test_get_login_and_the_cross_site_post_sends_only_samesite_none_cookies(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    session = requests.Session()
    session.cookies.set("lax_cookie", "1", domain="127.0.0.1", path="/", rest={"SameSite": "Lax"})
    response = lms.launch(session, pupil, course, login_method="GET")
    assert response.status_code == 200
    assert tool.cookies_on_launch == ["state_cookie=abc"]
    lms.launch(session, pupil, course, same_site_cookies=True)
    assert "lax_cookie=1" in tool.cookies_on_launch[-1]


@pytest.mark.parametrize(
    "override, error",
    [
        ({"redirect_uri": "http://127.0.0.1:1/elsewhere"}, "redirect_uri is not registered"),
        ({"response_mode": "query"}, "response_mode"),
        ({"prompt": None}, "prompt"),
        ({"nonce": None}, "nonce missing"),
        ({"state": None}, "state missing"),
        ({"login_hint": "1"}, "login_hint"),
        ({"lti_message_hint": "made-up"}, "lti_message_hint"),
        ({"client_id": "someone"}, "unknown client_id"),
        ({"scope": "profile"}, "openid"),
    ],
)
def test_authorization_endpoint_refuses_a_bad_authentication_request(
    lms, tool, registered, override, error
):
    tool.auth_overrides = override
    course, teacher, (pupil,) = _people(lms, learners=1)
    response = lms.launch(requests.Session(), pupil, course)
    assert response.status_code == 400 and response.url.startswith(lms.authorization_endpoint)
    assert error in lms.auth_errors[-1]
    assert tool.launches == []


# ---------------------------------------------------------------- deep linking


def _deep_link_request(lms, tool, teacher, course):
    response = lms.deep_link(requests.Session(), teacher, course)
    assert response.status_code == 200, response.text
    claims = tool.launches[-1]
    assert claims[LTI + "message_type"] == "LtiDeepLinkingRequest"
    assert LTI + "resource_link" not in claims
    return claims


ITEM = {
    "type": "ltiResourceLink",
    "title": "Poker: homework",
    "url": None,
    "custom": {"assignment": "17"},
    "lineItem": {"label": "Poker: homework", "scoreMaximum": 100, "resourceId": "a17"},
}


def _post_jwt(settings, token):
    return requests.post(settings["deep_link_return_url"], data={"JWT": token}, timeout=30)


def test_deep_link_response_creates_the_link_and_line_item(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    request_claims = _deep_link_request(lms, tool, teacher, course)
    settings = request_claims[DL + "deep_linking_settings"]
    assert settings["accept_types"] == ["ltiResourceLink"]
    assert settings["deep_link_return_url"].startswith(lms.base_url)
    assert "window" in settings["accept_presentation_document_targets"]
    item = dict(ITEM, url=f"{tool.base_url}/launch?a=17")
    answer = _post_jwt(settings, tool.sign(tool.deep_link_response(request_claims, [item])))
    assert answer.status_code == 200, answer.text
    (link,) = lms.links[course.id]
    assert link.title == "Poker: homework" and link.custom == {"assignment": "17"}
    assert link.url == f"{tool.base_url}/launch?a=17"
    (line_item,) = lms.lineitems.values()
    assert line_item.resource_link_id == link.id and line_item.score_maximum == 100
    assert line_item.url.endswith(
        f"/lineitems/{line_item.id}/lineitem?type_id={registered.type_id}"
    )
    assert f"data-link-id='{link.id}'" in answer.text
    # the learner's launch of that link names the line item and carries custom
    lms.launch(requests.Session(), pupil, course, link)
    assert tool.launches[-1][AGS_CLAIM]["lineitem"] == line_item.url
    assert tool.launches[-1][LTI + "custom"] == {"assignment": "17"}
    # the same response again (data and nonce are single use) is refused
    again = _post_jwt(settings, tool.sign(tool.deep_link_response(request_claims, [item])))
    assert again.status_code == 400 and len(lms.links[course.id]) == 1


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"sign_with": "other"}, "deep-linking response refused"),
        ({"kid": "unknown"}, "deep-linking response refused"),
        ({DL + "data": "forged"}, "data"),
        ({DL + "data": None}, "data"),
        ({"aud": "http://127.0.0.1:1"}, "aud"),
        ({"iss": "someone-else"}, "iss"),
        ({LTI + "deployment_id": "99"}, "deployment_id"),
        ({LTI + "message_type": "LtiResourceLinkRequest"}, "Deep Linking"),
        ({"nonce": None}, "nonce"),
        ({"exp": 1000}, "expired"),
        ({DL + "content_items": [{"type": "html", "html": "<b>x</b>"}]}, "not supported"),
        ({DL + "content_items": [dict(ITEM, url="https://evil.example/x")]}, "domain"),
        (
            {DL + "content_items": [dict(ITEM, lineItem={"label": "x", "scoreMaximum": 0})]},
            "scoreMaximum",
        ),
    ],
)
def test_deep_link_response_refusals_create_nothing(lms, tool, registered, change, reason):
    course, teacher, _ = _people(lms)
    request_claims = _deep_link_request(lms, tool, teacher, course)
    change = dict(change)
    key = _rsa_pem() if change.pop("sign_with", None) else None
    kid = change.pop("kid", None)
    claims = tool.deep_link_response(request_claims, [ITEM], **change)
    answer = _post_jwt(
        request_claims[DL + "deep_linking_settings"], tool.sign(claims, key=key, kid=kid)
    )
    assert answer.status_code == 400
    assert reason in lms.deep_link_errors[-1]
    assert lms.links[course.id] == [] and lms.lineitems == {}


# ---------------------------------------------------------------- token endpoint


def test_token_endpoint_issues_a_bearer_token_for_a_good_assertion(lms, tool, registered):
    answer = tool.token(lms)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["token_type"].lower() == "bearer" and body["expires_in"] > 0
    assert set(body["scope"].split()) == set(ALL_SCOPES)


@pytest.mark.parametrize(
    "kwargs, status, error",
    [
        ({"key": "other"}, 401, "invalid_client"),
        ({"aud": "http://127.0.0.1:1/token"}, 401, "invalid_client"),
        ({"sub": "someone"}, 401, "invalid_client"),
        ({"iss": "unknown-client"}, 401, "invalid_client"),
        ({"exp": 1000}, 401, "invalid_client"),
        ({"exp": None}, 401, "invalid_client"),
        ({"jti": None}, 401, "invalid_client"),
        (
            {
                "scopes": [
                    SCOPE_SCORE,
                    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
                ]
            },
            400,
            "invalid_scope",
        ),
    ],
)
def test_token_endpoint_refuses_a_bad_client_assertion(
    lms, tool, registered, kwargs, status, error
):
    if kwargs.get("key") == "other":
        kwargs = {"key": _rsa_pem()}
    answer = tool.token(lms, **kwargs)
    assert answer.status_code == status and answer.json()["error"] == error
    assert lms.access_tokens_issued == 0


def test_token_endpoint_refuses_a_reused_jti_and_other_grants(lms, tool, registered):
    assertion = tool.sign(tool.client_assertion(lms.token_endpoint))
    form = {
        "grant_type": "client_credentials",
        "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        "client_assertion": assertion,
        "scope": SCOPE_SCORE,
    }
    assert requests.post(lms.token_endpoint, data=form, timeout=30).status_code == 200
    again = requests.post(lms.token_endpoint, data=form, timeout=30)
    assert again.status_code == 401 and "jti" in again.json()["error_description"]
    wrong_grant = requests.post(
        lms.token_endpoint, data=dict(form, grant_type="password"), timeout=30
    )
    assert wrong_grant.json()["error"] == "unsupported_grant_type"


# ---------------------------------------------------------------- AGS


def _bearer(lms, tool, scopes=ALL_SCOPES):
    answer = tool.token(lms, scopes=scopes)
    assert answer.ok, answer.text
    return {"Authorization": f"Bearer {answer.json()['access_token']}"}


def _score(user, given=7, maximum=10, **changes):
    score = {
        "userId": user.sub,
        "scoreGiven": given,
        "scoreMaximum": maximum,
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": "2026-12-02T01:00:00.000+00:00",
    }
    score.update(changes)
    return {k: v for k, v in score.items() if v is not None}


def test_scores_go_to_the_line_item_path_with_its_query(lms, tool, registered):
    course, teacher, (anna, ben) = _people(lms, learners=2)
    link = lms.add_link(course, line_item={"label": "Poker", "scoreMaximum": 10})
    item = lms.lineitems[link.line_item_ids[0]]
    headers = _bearer(lms, tool)
    got = requests.get(item.url, headers=headers, timeout=30)
    assert got.status_code == 200 and got.json()["id"] == item.url
    path, query = item.url.split("?")
    scores_url = f"{path}/scores?{query}"
    assert scores_url == item.scores_url
    post = {"headers": {**headers, "Content-Type": MEDIA_SCORE}, "timeout": 30}
    assert requests.post(scores_url, data=json.dumps(_score(anna, 7)), **post).status_code == 200
    assert requests.post(scores_url, data=json.dumps(_score(ben, 3)), **post).status_code == 200
    later = _score(anna, 9, timestamp="2026-12-02T02:00:00Z")
    assert requests.post(scores_url, data=json.dumps(later), **post).status_code == 200
    assert len(lms.scores[item.id]) == 3
    assert lms.gradebook(course) == {anna.name: 0.9, ben.name: 0.3}
    assert lms.gradebook_raw(course) == {anna.name: (9, 10), ben.name: (3, 10)}
    # an older score than the last one is not applied
    older = requests.post(scores_url, data=json.dumps(_score(anna, 1)), **post)
    assert older.status_code == 409 and lms.gradebook(course)[anna.name] == 0.9
    results = requests.get(f"{path}/results?{query}", headers=headers, timeout=30).json()
    assert {r["userId"]: r["resultScore"] for r in results} == {anna.sub: 9, ben.sub: 3}


@pytest.mark.parametrize(
    "score_changes, status",
    [
        ({"scoreGiven": 11}, 400),
        ({"scoreGiven": -1}, 400),
        ({"scoreMaximum": None}, 400),
        ({"activityProgress": "Done"}, 400),
        ({"gradingProgress": None}, 400),
        ({"timestamp": "yesterday"}, 400),
        ({"timestamp": "2026-12-02T01:00:00"}, 400),
        ({"userId": "9999"}, 400),
    ],
)
def test_bad_scores_are_refused_and_not_recorded(lms, tool, registered, score_changes, status):
    course, teacher, (anna,) = _people(lms, learners=1)
    link = lms.add_link(course, line_item={"label": "Poker", "scoreMaximum": 10})
    item = lms.lineitems[link.line_item_ids[0]]
    headers = {**_bearer(lms, tool), "Content-Type": MEDIA_SCORE}
    answer = requests.post(
        item.scores_url, data=json.dumps(_score(anna, **score_changes)), headers=headers, timeout=30
    )
    assert answer.status_code == status
    assert lms.scores[item.id] == []


def test_services_need_the_right_token_scope_and_url(lms, tool, registered):
    course, teacher, (anna,) = _people(lms, learners=1)
    link = lms.add_link(course, line_item={"label": "Poker", "scoreMaximum": 10})
    item = lms.lineitems[link.line_item_ids[0]]
    body = json.dumps(_score(anna))
    no_token = requests.post(
        item.scores_url, data=body, headers={"Content-Type": MEDIA_SCORE}, timeout=30
    )
    assert no_token.status_code == 401
    forged = {
        "Authorization": "Bearer "
        + jwt.encode(
            {"sub": registered.client_id}, private_key_object(_rsa_pem()), algorithm="RS256"
        )
    }
    assert (
        requests.post(
            item.scores_url, data=body, headers={**forged, "Content-Type": MEDIA_SCORE}, timeout=30
        ).status_code
        == 401
    )
    nrps_only = _bearer(lms, tool, scopes=[SCOPE_NRPS])
    wrong_scope = requests.post(
        item.scores_url, data=body, headers={**nrps_only, "Content-Type": MEDIA_SCORE}, timeout=30
    )
    assert wrong_scope.status_code == 403
    headers = _bearer(lms, tool)
    query_lost = item.scores_url.split("?")[0]
    assert (
        requests.post(
            query_lost, data=body, headers={**headers, "Content-Type": MEDIA_SCORE}, timeout=30
        ).status_code
        == 400
    )
    wrong_type = requests.post(
        item.scores_url,
        data=body,
        headers={**headers, "Content-Type": "application/json"},
        timeout=30,
    )
    assert wrong_type.status_code == 415
    assert lms.scores[item.id] == []
    assert lms.errors == []


def test_line_items_container_lists_and_creates(lms, tool, registered):
    course, teacher, _ = _people(lms)
    headers = _bearer(lms, tool)
    container = lms.lineitems_url(course, registered)
    created = requests.post(
        container,
        json={"label": "Abacus", "scoreMaximum": 20, "tag": "game"},
        headers=headers,
        timeout=30,
    )
    assert created.status_code == 201
    item_url = created.json()["id"]
    assert "?type_id=" in item_url
    listed = requests.get(container, headers=headers, timeout=30).json()
    assert [i["id"] for i in listed] == [item_url]
    bad = requests.post(
        container, json={"label": "", "scoreMaximum": 20}, headers=headers, timeout=30
    )
    assert bad.status_code == 400 and len(lms.lineitems) == 1


# ---------------------------------------------------------------- NRPS


def test_memberships_come_in_pages_linked_by_rel_next(lms, tool, registered):
    course, teacher, pupils = _people(lms, learners=4)
    headers = _bearer(lms, tool)
    (claims_url,) = {lms.memberships_url(course, registered)}
    url, seen, pages = claims_url, [], 0
    while url:
        answer = requests.get(url, headers={**headers, "Accept": MEDIA_MEMBERSHIPS}, timeout=30)
        assert answer.status_code == 200
        assert answer.headers["Content-Type"] == MEDIA_MEMBERSHIPS
        body = answer.json()
        assert body["context"]["id"] == course.context_id
        assert len(body["members"]) <= 2
        seen += body["members"]
        pages += 1
        url = answer.links.get("next", {}).get("url")
    assert pages == 3
    assert [m["user_id"] for m in seen] == [teacher.sub] + [p.sub for p in pupils]
    assert seen[1]["name"] == pupils[0].name and seen[1]["email"] == pupils[0].email
    assert "email" not in seen[0]  # the teacher has no e-mail address
    learners = requests.get(
        claims_url, params={"role": "Learner", "limit": 10}, headers=headers, timeout=30
    )
    assert len(learners.json()["members"]) == 2 and 'rel="next"' in learners.headers["Link"]
    # the quirk: a client that lower-cases the next link loses the page
    lowered = requests.get(claims_url.lower() + "?limit=2&from=2", headers=headers, timeout=30)
    assert lowered.status_code == 404


def test_memberships_leave_out_names_the_registration_did_not_ask_for(lms):
    tool = MiniTool(claims=["iss", "sub"])
    try:
        registration = lms.register(f"{tool.base_url}/register")
        course, teacher, pupils = _people(lms, learners=1)
        headers = _bearer(lms, tool)
        members = requests.get(
            lms.memberships_url(course, registration), headers=headers, timeout=30
        ).json()["members"]
        assert all(set(m) == {"status", "user_id", "roles"} for m in members)
    finally:
        tool.stop()


# ---------------------------------------------------------------- courses, pages


def test_course_copy_has_a_new_context_and_new_link_ids(lms, tool, registered):
    course, teacher, _ = _people(lms)
    link = lms.add_link(course, title="Poker", line_item={"label": "Poker", "scoreMaximum": 10})
    copy = lms.copy_course(course)
    assert copy.context_id != course.context_id and copy.copied_from == course.id
    (copied,) = lms.links[copy.id]
    assert copied.id != link.id and copied.url == link.url and copied.copied_from == link.id
    assert copied.line_item_ids and copied.line_item_ids != link.line_item_ids
    lms.enrol(copy, teacher)
    lms.launch(requests.Session(), teacher, copy)
    claims = tool.launches[-1]
    assert claims[LTI + "context"]["id"] == copy.context_id
    assert claims[LTI + "resource_link"]["id"] == copied.id


def test_two_platforms_reuse_subjects_and_context_ids(make_lms, tool):
    first, second = make_lms(), make_lms(product_family_code="canvas")
    assert first.issuer != second.issuer
    # keys come from a pool (tests/lti/lms.py KEYS): never shared by two live platforms,
    # and an attacker's key is nobody's platform key
    assert first.kid != second.kid
    keys = {
        first.private_key,
        second.private_key,
        first.other_private_key,
        second.other_private_key,
    }
    assert len(keys) == 4
    a, b = first.add_user("Ann Lee"), second.add_user("Bob Ray")
    assert a.sub == b.sub  # like two Moodles: a tool must key people by (iss, sub)
    assert first.add_course("X").context_id == second.add_course("Y").context_id


def test_browser_launch_page_auto_posts_the_third_party_login(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    link = lms.add_link(course, title="Poker")
    page = requests.get(lms.launch_page_url(course, link, pupil), timeout=30)
    (form,) = parse_forms(page.text)
    assert form["action"] == registered.initiate_login_uri and form["method"] == "post"
    fields = form["fields"]
    assert fields["iss"] == lms.issuer and fields["login_hint"] == pupil.sub
    assert fields["client_id"] == registered.client_id
    assert fields["lti_deployment_id"] == registered.deployment_id
    assert fields["target_link_uri"] == link.url and fields["lti_message_hint"]
    assert ".submit()" in page.text
    framed = requests.get(lms.launch_page_url(course, link, pupil) + "&frame=1", timeout=30)
    assert "<iframe id='tool'" in framed.text
    deep = requests.get(lms.deep_link_page_url(course, teacher), timeout=30)
    assert parse_forms(deep.text)[0]["action"] == registered.initiate_login_uri


@pytest.mark.browser
def test_a_real_browser_launch_reaches_the_tool(lms, tool, registered, browser):
    course, teacher, (pupil,) = _people(lms, learners=1)
    link = lms.add_link(course, title="Poker")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(lms.launch_page_url(course, link, pupil))
        page.wait_for_selector("#ok")
        assert page.url == f"{tool.base_url}/launch"
        assert tool.launches[-1]["sub"] == pupil.sub
    finally:
        context.close()
    assert lms.errors == []


@pytest.mark.browser
def test_a_cross_site_browser_launch_brings_only_samesite_none_cookies(make_lms, tool, browser):
    """On ``localhost`` the LMS is another site than the tool on 127.0.0.1: Chromium then
    sends only the SameSite=None cookie on the form_post -- what ``lms.launch`` emulates."""
    lms = make_lms(host="localhost")
    assert lms.register(f"{tool.base_url}/register").ok
    tool.login_cookie = "none_cookie=1; Path=/; SameSite=None; Secure"
    course, teacher, (pupil,) = _people(lms, learners=1)
    link = lms.add_link(course, title="Poker")
    context = browser.new_context()
    try:
        context.add_cookies(
            [{"name": "lax_cookie", "value": "1", "url": tool.base_url, "sameSite": "Lax"}]
        )
        page = context.new_page()
        page.goto(lms.launch_page_url(course, link, pupil))
        page.wait_for_selector("#ok")
    finally:
        context.close()
    assert tool.cookies_on_launch == ["none_cookie=1"]
    session = requests.Session()
    session.cookies.set("lax_cookie", "1", domain="127.0.0.1", path="/", rest={"SameSite": "Lax"})
    assert lms.launch(session, pupil, course, link).status_code == 200
    assert tool.cookies_on_launch[-1] == "none_cookie=1"


def test_wait_for_returns_the_value_or_fails_with_the_refusals(lms):
    assert lms.wait_for(lambda: 5, timeout=1) == 5
    lms.service_errors.append("POST /x: 400 invalid_request: scoreGiven exceeds scoreMaximum")
    with pytest.raises(AssertionError, match="scoreGiven exceeds"):
        lms.wait_for(lambda: None, timeout=0.5)


def test_a_platform_that_does_not_require_services_takes_a_plain_tool(make_lms):
    lms = make_lms(require_services=False)
    tool = MiniTool(scopes=[SCOPE_SCORE])
    try:
        tool.config_overrides = {TOOL_CONFIG: dict(tool.config()[TOOL_CONFIG], messages=[])}
        registration = lms.register(f"{tool.base_url}/register")
        assert registration.ok, registration.error
        course, teacher, (pupil,) = _people(lms, learners=1)
        lms.launch(requests.Session(), pupil, course)
        (claims,) = tool.launches
        assert claims[AGS_CLAIM]["scope"] == [SCOPE_SCORE] and NRPS_CLAIM not in claims
    finally:
        tool.stop()


def test_a_tool_that_answers_its_login_with_a_form_to_the_lms_is_followed(lms, tool, registered):
    tool.login_by_form = True
    course, teacher, (pupil,) = _people(lms, learners=1)
    response = lms.launch(requests.Session(), pupil, course)
    assert response.status_code == 200 and tool.launches[-1]["sub"] == pupil.sub


def test_key_rotation_keeps_the_old_key_in_the_jwks_and_its_tokens_good(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    old_kid, headers = lms.kid, _bearer(lms, tool)
    new_kid = lms.rotate_key()
    assert new_kid != old_kid
    kids = [k["kid"] for k in requests.get(lms.jwks_uri, timeout=30).json()["keys"]]
    assert kids == [new_kid, old_kid]
    lms.launch(requests.Session(), pupil, course)
    assert jwt.get_unverified_header(lms.last_launch["id_token"])["kid"] == new_kid
    assert tool.launches[-1]["sub"] == pupil.sub
    url = lms.memberships_url(course, registered)
    assert requests.get(url, headers=headers, timeout=30).status_code == 200
    lms.rotate_key(keep_old=False)
    assert len(requests.get(lms.jwks_uri, timeout=30).json()["keys"]) == 1
    assert requests.get(url, headers=headers, timeout=30).status_code == 401


def test_aud_as_a_list_with_azp(lms, tool, registered):
    course, teacher, (pupil,) = _people(lms, learners=1)
    assert lms.launch(requests.Session(), pupil, course, aud_as_list=True).status_code == 200
    claims = tool.launches[-1]
    assert claims["aud"] == [registered.client_id, "another-audience"]
    assert claims["azp"] == registered.client_id
