"""Hostile requests over the whole URL map answer 4xx, never 500 (issue 27 §5).

"44 of 1,000 anonymous fuzz requests answered 500 with a traceback (also under
prod): JSON endpoints read `request.body` after the CSRF middleware parsed a
multipart body; `/theorems/decks/check/` passes 400 as the JSON encoder; a
`next=NaN` is reversed as a view name. Required: 4xx with stable codes."

A fixed corpus (deterministic, no random generation) is sent to every route of
the site except the Django admin, by an anonymous visitor and by a logged-in
teacher with a class, with CSRF checks enforced as in production and a valid
CSRF token, so a multipart body really is parsed by the CSRF middleware before
the view runs. The test settings run with DEBUG=False, so an unhandled error is
the production 500 page; the client reports it instead of raising.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from tests.classrooms import factories

pytestmark = pytest.mark.django_db

CSRF_SECRET = "f" * 32
HOSTILE_QUERY = {"next": "NaN", "page": "NaN", "code": "\u202e0' OR 1=1", "fmt": "../x"}
HOSTILE_FORM = {
    "csrfmiddlewaretoken": CSRF_SECRET,
    "next": "NaN",
    "name": "<a href=https://evil.example>x</a>",
    "email": "x@y",
    "code": "NaN",
    "nickname": "\u0000",
    "password": "x" * 5000,
    "old_password": "",
    "number": "1e309",
    "seconds": "-1",
}
JSON_BODIES = [
    b'{"cards": {"a": 1}, "mathematician": 5, "placements": [[1e309]], "a": NaN}',
    b"\xff\xfe[1, 2",
    b'{"cards": [' + b'"x",' * 20000 + b'"x"]}',
    # 6 KB of nesting, deeper than the parser's recursion limit (issue 38 §4).
    b'{"a":' * 1000 + b"1" + b"}" * 1000,
]
# One value per URL converter (or named regex group) that reaches the view.
STR_VALUES = ("NaN", "00000000")


def _routes() -> list[str]:
    def walk(patterns, prefix: str = ""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern)

    return [route for route in walk(get_resolver().url_patterns) if not route.startswith("admin")]


def _fill(route: str, ints: dict[str, int], text: str) -> str:
    """A concrete path for ``route`` (path() converters and re_path groups)."""
    route = route.lstrip("^").rstrip("$")
    route = re.sub(r"<int:(\w+)>", lambda m: str(ints.get(m.group(1), 2**31)), route)
    route = re.sub(r"<(?:str|slug|path):\w+>", text, route)
    route = re.sub(r"\(\?P<\w+>[^)]*\)", text, route)
    return "/" + route.replace("\\", "")


def _send_hostile_requests(client: Client, path: str) -> list[tuple[str, str, int]]:
    answers = []
    answers.append(("GET", path, client.get(path, HOSTILE_QUERY).status_code))
    answers.append(("POST multipart", path, client.post(path, HOSTILE_FORM).status_code))
    for number, body in enumerate(JSON_BODIES):
        response = client.post(
            path, body, content_type="application/json", headers={"x-csrftoken": CSRF_SECRET}
        )
        answers.append((f"POST json #{number}", path, response.status_code))
    return answers


def _visitor(address: str) -> Client:
    client = Client(
        enforce_csrf_checks=True,
        raise_request_exception=False,
        REMOTE_ADDR=address,
        headers={"accept-language": "en"},
    )
    client.cookies["csrftoken"] = CSRF_SECRET
    return client


def _listing(errors: list[tuple[str, str, int]]) -> str:
    return "answered 500:\n" + "\n".join(f"{how} {path}" for how, path, _ in errors)


def _fuzz(client: Client, ints: dict[str, int], login=None) -> list[tuple[str, str, int]]:
    errors = []
    for route in _routes():
        for text in STR_VALUES if login is None else STR_VALUES[:1]:
            if login and "_auth_user_id" not in client.session:
                login(client)
            # A response may rotate the CSRF cookie (a login, a logout).
            client.cookies["csrftoken"] = CSRF_SECRET
            path = _fill(route, ints, text)
            errors += [a for a in _send_hostile_requests(client, path) if a[2] == 500]
            if "<" not in route and "(?P" not in route:
                break
    return errors


def test_anonymous_hostile_requests_never_answer_500(address):
    errors = _fuzz(_visitor(address), {})
    assert not errors, _listing(errors)


def test_logged_in_teachers_hostile_requests_never_answer_500(address):
    teacher = factories.make_teacher(email_verified_at=timezone.now())
    classroom = factories.make_class(teacher)
    member = factories.add_member(classroom)
    ints = {"pk": classroom.pk, "member_id": member.pk}

    def login(client: Client) -> None:
        client.force_login(teacher)

    errors = _fuzz(_visitor(address), ints, login)
    assert not errors, _listing(errors)
