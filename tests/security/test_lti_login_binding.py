"""LTI launches bound to the browser that started them (issue 38 §2) and the
smaller LTI items of §3/§4, replayed over HTTP against the suite's LMS.

Login CSRF: a pupil (or teacher) starts their own launch, keeps the LMS's answer
(``id_token`` + ``state``) and makes a classmate's browser post it. Before, that
browser then played as the attacker's profile (or was logged in as the other
teacher); now the launch is refused with a readable page and the victim's
session is untouched."""

import time

import pytest
import requests
from django.conf import settings
from django.core import signing

from accounts import identity
from accounts.models import Browser
from classrooms.models import CoTeacher
from lti import launch
from lti.models import Person
from tests.lti.conftest import lms  # noqa: F401 -- the suite's LMS fixture
from tests.lti.test_lti_tool import _course_with, _deep_link, link_url

pytestmark = pytest.mark.django_db(transaction=True)


def _selected(session) -> int | None:
    raw = session.cookies.get(settings.PLAYER_COOKIE_NAME)
    token = signing.loads(raw, salt=identity.SALT)
    return Browser.objects.get(token_hash=identity.hash_token(token)).selected_id


@pytest.fixture
def course(lms, asgi_server):  # noqa: F811
    assert lms.register(link_url(asgi_server)).ok
    found = _course_with(lms, learners=["Adam Kovář", "Xaver Zlý"])
    _deep_link(lms, requests.Session(), found[1], found[0])
    return found


def test_a_pupils_launch_posted_by_a_classmates_browser_is_refused(lms, course):  # noqa: F811
    course, _instructor, (victim, attacker) = course
    link = lms.links[course.id][-1]
    victims_browser = requests.Session()
    assert lms.launch(victims_browser, victim, course, link=link).status_code == 200
    victim_player = Person.objects.get(sub=victim.sub).player_id
    # The attacker's own launch, held before the LMS's form reaches the tool ...
    held = lms.launch(requests.Session(), attacker, course, link=link, hold=True)
    # ... posted by the victim's browser.
    answer = lms.post_launch(victims_browser, held)
    assert answer.status_code == 403
    assert answer.headers["X-Error-Code"] == "unbound_launch"
    # A readable page, with a way on (open Matika from the LMS in a window of its own).
    assert 'data-testid="lti-open-window"' in answer.text
    assert _selected(victims_browser) == victim_player
    assert not Person.objects.filter(sub=attacker.sub, player__isnull=False).exists()
    # The attacker's own browser could still use it (the state was not spent) --
    # that is its own sign-in.


def test_another_teachers_launch_does_not_log_in_the_victims_browser(lms, course):  # noqa: F811
    course, instructor, _pupils = course
    colleague = lms.add_user("Karel Cizí", role="Instructor")
    lms.enrol(course, colleague)
    link = lms.links[course.id][-1]
    victims_browser = requests.Session()
    assert lms.launch(victims_browser, instructor, course, link=link).status_code == 200
    session_before = victims_browser.cookies.get(settings.SESSION_COOKIE_NAME)
    held = lms.launch(requests.Session(), colleague, course, link=link, hold=True)
    answer = lms.post_launch(victims_browser, held)
    assert answer.status_code == 403
    assert victims_browser.cookies.get(settings.SESSION_COOKIE_NAME) == session_before
    assert not Person.objects.filter(sub=colleague.sub).exists()


def test_a_forged_or_foreign_binding_cookie_is_refused(lms, course, asgi_server):  # noqa: F811
    course, _instructor, (pupil, attacker) = course
    link = lms.links[course.id][-1]
    held = lms.launch(requests.Session(), attacker, course, link=link, hold=True)
    state = held["fields"]["state"]
    forged = requests.Session()
    forged.cookies.set(launch.state_cookie_name(state), "forged-value")
    assert lms.post_launch(forged, held).status_code == 403
    # A browser bound to its own state cannot use another state.
    mine = requests.Session()
    own = lms.launch(mine, pupil, course, link=link, hold=True)
    for cookie in list(mine.cookies):
        if cookie.name.startswith(launch.STATE_COOKIE_PREFIX):
            mine.cookies.set(launch.state_cookie_name(state), cookie.value)
    assert lms.post_launch(mine, held).status_code == 403
    # The pupil's own launch in the pupil's own browser works.
    assert lms.post_launch(mine, own).status_code == 200


def test_the_binding_cookie_is_cross_site_and_partitioned(lms, course, asgi_server):  # noqa: F811
    course, _instructor, (pupil, _attacker) = course
    login = requests.post(
        asgi_server + "/lti/login/",
        data={"iss": lms.issuer, "login_hint": pupil.sub, "client_id": lms.tool.client_id},
        allow_redirects=False,
        timeout=60,
    )
    assert login.status_code == 302
    cookie = next(
        c
        for c in login.raw.headers.getlist("Set-Cookie")
        if c.startswith(launch.STATE_COOKIE_PREFIX)
    )
    assert "SameSite=None; Partitioned" in cookie and "Secure" in cookie and "HttpOnly" in cookie


def test_an_id_token_valid_for_ten_years_is_refused(lms, course):  # noqa: F811
    course, _instructor, (pupil, _attacker) = course
    now = int(time.time())
    answer = lms.launch(
        requests.Session(),
        pupil,
        course,
        link=lms.links[course.id][-1],
        claims={"iat": now, "exp": now + 10 * 365 * 86400},
    )
    assert answer.status_code == 403
    assert answer.headers["X-Error-Code"] == "token_lifetime"
    old = lms.launch(
        requests.Session(),
        pupil,
        course,
        link=lms.links[course.id][-1],
        claims={"iat": now - 2 * 3600, "exp": now + 300},
    )
    assert old.headers.get("X-Error-Code") == "token_lifetime"


ROLES = launch.ROLES
CONTENT_DEVELOPER = "http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper"
INSTITUTION_ADMIN = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator"


@pytest.mark.parametrize("role", [CONTENT_DEVELOPER, INSTITUTION_ADMIN])
def test_content_developers_and_institution_admins_are_not_co_teachers(
    lms,  # noqa: F811
    course,
    role,
):
    course, _instructor, _pupils = course
    person = lms.add_user("Olga Správcová", role="Learner")
    lms.enrol(course, person)
    answer = lms.launch(
        requests.Session(), person, course, link=lms.links[course.id][-1], claims={ROLES: [role]}
    )
    assert answer.status_code == 403
    assert answer.headers["X-Error-Code"] == "bad_role"
    assert not CoTeacher.objects.exists()


def test_the_co_teacher_roles_can_be_widened_by_setting(settings):
    settings.LTI_EXTRA_INSTRUCTOR_ROLES = [CONTENT_DEVELOPER]
    assert launch.roles_of({ROLES: [CONTENT_DEVELOPER]}) == "instructor"
    settings.LTI_EXTRA_INSTRUCTOR_ROLES = []
    assert launch.roles_of({ROLES: [CONTENT_DEVELOPER]}) is None
    assert launch.roles_of({ROLES: [INSTITUTION_ADMIN]}) is None
