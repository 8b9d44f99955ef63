"""What a real LMS does with its keys and audiences (issue 29 §2): it rotates its
signing key (the tool fetches the new JWKS for an unknown ``kid``, and a withdrawn
key stops working), and it may send ``aud`` as a list (``azp`` then names the tool)."""

import pytest
import requests

from lti.models import Person
from tests.lti.test_lti_tool import _course_with, _deep_link, link_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def platform(lms, asgi_server):
    assert lms.register(link_url(asgi_server)).ok
    return lms


def _launch(lms, user, course, **options):
    return lms.launch(requests.Session(), user, course, **options)


def test_a_rotated_key_is_fetched_for_its_new_kid_and_a_withdrawn_key_is_refused(platform):
    lms = platform
    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář"])
    _deep_link(lms, requests.Session(), instructor, course)  # the tool now caches the JWKS
    link = lms.links[course.id][-1]
    old_key, old_kid = lms.private_key, lms.kid
    new_kid = lms.rotate_key(keep_old=True)
    assert new_kid != old_kid
    # An unknown kid: the tool fetches the JWKS again rather than refusing.
    assert _launch(lms, pupils[0], course, link=link).status_code == 200
    # The platform withdraws the old key: only the new one is published.
    lms.rotate_key(keep_old=False)
    assert _launch(lms, instructor, course).status_code == 200
    # A token signed with the withdrawn key (its old kid) is refused, nothing stored.
    people = Person.objects.count()
    with lms._lock:
        current = lms.private_key, lms.kid
        lms.private_key, lms.kid = old_key, old_kid
    try:
        refused = _launch(lms, pupils[0], course, link=link)
    finally:
        with lms._lock:
            lms.private_key, lms.kid = current
    assert refused.status_code == 403
    assert refused.headers.get("X-Error-Code") == "unknown_key"
    assert Person.objects.count() == people
    # The current key still works after the refusal.
    assert _launch(lms, pupils[0], course, link=link).status_code == 200


def test_a_token_of_an_old_key_the_platform_still_publishes_is_accepted(platform):
    lms = platform
    course, instructor, _pupils = _course_with(lms)
    old_key, old_kid = lms.private_key, lms.kid
    lms.rotate_key(keep_old=True)
    with lms._lock:
        current = lms.private_key, lms.kid
        lms.private_key, lms.kid = old_key, old_kid
    try:
        assert _launch(lms, instructor, course).status_code == 200
    finally:
        with lms._lock:
            lms.private_key, lms.kid = current


def test_aud_as_a_list_with_azp_naming_the_tool_is_accepted(platform):
    lms = platform
    course, instructor, pupils = _course_with(lms, learners=["Bára Nová"])
    landing = _launch(lms, instructor, course, aud_as_list=True)
    assert landing.status_code == 200, landing.text[:300]
    claims = lms.last_launch["claims"]
    assert isinstance(claims["aud"], list) and claims["azp"] == lms.tool.client_id
    link = lms.links[course.id][-1]  # made by hand, no homework behind it
    pupil = _launch(lms, pupils[0], course, link=link, aud_as_list=True)
    # The token passed (a pupil's refusal is about the link, not the audience).
    assert pupil.headers.get("X-Error-Code") == "unknown_link"


@pytest.mark.parametrize(
    "claims",
    [
        {"azp": "another-audience"},  # azp names another party of the list
        {"aud": ["another-audience", "third"], "azp": "another-audience"},  # not for us at all
    ],
    ids=["azp-not-the-tool", "tool-not-in-aud"],
)
def test_aud_as_a_list_not_naming_the_tool_as_azp_is_refused(platform, claims):
    lms = platform
    course, instructor, _pupils = _course_with(lms)
    people = Person.objects.count()
    refused = _launch(lms, instructor, course, aud_as_list=True, claims=claims)
    assert refused.status_code == 403
    assert refused.headers.get("X-Error-Code") == "bad_audience"
    assert Person.objects.count() == people


def test_aud_as_a_list_without_azp_is_refused(platform):
    lms = platform
    course, instructor, _pupils = _course_with(lms)
    refused = _launch(lms, instructor, course, aud_as_list=True, drop_claims=["azp"])
    assert refused.status_code == 403
    assert refused.headers.get("X-Error-Code") == "bad_audience"
