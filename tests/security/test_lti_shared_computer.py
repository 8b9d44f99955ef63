"""The shared classroom computer (issue 38 §1): pupil A is launched from the LMS,
then pupil B in the same browser. B must not reach A's profile: not in the
switcher, not by switching, not through the API (no score for A reaches the LMS),
never A's profile code. "I am not <name>" clears the pupil completely."""

import re
import time

import pytest
import requests
from django.core import signing

from accounts import identity
from accounts.models import Browser, PlayerProfile
from classrooms import services as class_services
from classrooms.models import Classroom, Membership
from lti.models import GradeSend, Person
from tests.lti.conftest import lms  # noqa: F401 -- the suite's LMS fixture
from tests.lti.test_lti_tool import GAMES, _course_with, _deep_link, _land_and_play, link_url

pytestmark = pytest.mark.django_db(transaction=True)

PROFILE = "/accounts/player/"


def _csrf(session) -> dict:
    return {"X-CSRFToken": session.cookies.get("csrftoken", ""), "Accept-Language": "en"}


def _browser_of(session) -> Browser:
    from django.conf import settings

    raw = session.cookies.get(settings.PLAYER_COOKIE_NAME)
    token = signing.loads(raw, salt=identity.SALT)
    return Browser.objects.get(token_hash=identity.hash_token(token))


def test_pupil_b_launched_after_a_cannot_switch_to_play_as_or_see_a(
    lms,  # noqa: F811
    asgi_server,
    celery_worker_process,
):
    assert lms.register(link_url(asgi_server)).ok
    course, instructor, (adam, bara) = _course_with(lms, learners=["Adam Kovář", "Bára Nová"])
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    shared = requests.Session()  # one classroom computer, one browser
    assert lms.launch(shared, adam, course, link=link).status_code == 200
    player_a = Person.objects.get(sub=adam.sub).player
    assert _browser_of(shared).selected_id == player_a.pk
    landing = lms.launch(shared, bara, course, link=link)
    assert landing.status_code == 200
    player_b = Person.objects.get(sub=bara.sub).player
    browser = _browser_of(shared)
    assert browser.selected_id == player_b.pk
    # A's session in this browser ended: A is not among its profiles.
    assert not browser.profiles.filter(pk=player_a.pk).exists()
    page = shared.get(asgi_server + PROFILE, headers={"Accept-Language": "en"}, timeout=60)
    assert page.status_code == 200
    assert player_a.nickname not in page.text
    assert identity.format_profile_code(player_a.code) not in page.text
    assert player_a.code not in page.text
    assert identity.format_profile_code(player_b.code) in page.text  # B's own, in B's session
    assert 'data-testid="not-me"' in page.text
    # B asks to switch to A anyway: refused, B stays selected.
    shared.post(
        asgi_server + "/accounts/player/switch/",
        data={"profile": str(player_a.pk)},
        headers=_csrf(shared),
        timeout=60,
    )
    assert _browser_of(shared).selected_id == player_b.pk
    # Whatever B plays is B's: the homework's score reaches the LMS for B only.
    game = shared.post(
        asgi_server + GAMES,
        json={"mode": "assignment", "assignment": assignment.pk},
        headers=_csrf(shared),
        timeout=60,
    )
    assert game.status_code == 201, game.text[:300]
    # A's own launch and game are untouched: A starts the homework (no attempt_used).
    assert _land_and_play(lms, adam, course, link, asgi_server) == assignment.pk
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not lms.gradebook(course):
        time.sleep(0.5)
    book = lms.gradebook_raw(course)
    assert set(book) == {"Adam Kovář"}, book
    member_a = Membership.objects.get(player=player_a)
    assert GradeSend.objects.filter(member=member_a).count() == 1


def test_i_am_not_clears_the_pupil_identity_completely(lms, asgi_server):  # noqa: F811
    assert lms.register(link_url(asgi_server)).ok
    course, instructor, (adam,) = _course_with(lms, learners=["Adam Kovář"])
    _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    shared = requests.Session()
    lms.launch(shared, adam, course, link=link)
    browser = _browser_of(shared)
    player_a = Person.objects.get(sub=adam.sub).player
    page = shared.get(asgi_server + PROFILE, headers={"Accept-Language": "en"}, timeout=60)
    assert f"I am not {player_a.nickname}" in page.text
    left = shared.post(asgi_server + "/accounts/player/not-me/", headers=_csrf(shared), timeout=60)
    assert left.status_code == 200
    from django.conf import settings

    assert settings.PLAYER_COOKIE_NAME not in shared.cookies
    browser.refresh_from_db()
    assert browser.selected_id is None and not browser.profiles.exists()
    after = shared.get(asgi_server + PROFILE, headers={"Accept-Language": "en"}, timeout=60)
    assert player_a.nickname not in after.text
    assert identity.format_profile_code(player_a.code) not in after.text


def _claimed(classroom, member, token=None):
    """The pupil claims ``member`` with its claim code in the browser ``token`` (or a new one)."""
    membership, new_token = class_services.join_classroom(
        classroom=classroom,
        player=None,
        member_id=member.pk,
        claim_code=member.claim_code,
        browser_token=token,
        nickname=f"Pupil{member.pk}",
    )
    return membership, new_token or token


def test_a_roster_entry_claimed_with_its_code_is_not_offered_to_the_next_pupil(client):
    from django.conf import settings

    from accounts.models import User

    teacher = User.objects.create_user(email="ucitelka@example.cz", password="x" * 12)
    classroom = Classroom.objects.create(
        name="7.A", teacher=teacher, join_code="ABCDEF", join_enabled=True
    )
    class_services.add_roster(classroom=classroom, text="Adam Kovář\nBára Nová")
    first, _second = Membership.objects.filter(classroom=classroom).order_by("pk")
    membership_a, token = _claimed(classroom, first)
    player_a = membership_a.player
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
    page = client.get(PROFILE, HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-testid="not-me"' in page.content.decode()
    # The next pupil makes a nickname profile in the same browser.
    made = client.post("/accounts/player/new/", {"nickname": "Kometa Rychla"})
    assert made.status_code == 302
    browser = Browser.objects.get(token_hash=identity.hash_token(token))
    assert browser.selected.nickname == "Kometa Rychla"
    assert not browser.profiles.filter(pk=player_a.pk).exists()
    page = client.get(PROFILE, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert player_a.nickname not in page
    assert identity.format_profile_code(player_a.code) not in page
    client.post("/accounts/player/switch/", {"profile": str(player_a.pk)})
    browser.refresh_from_db()
    assert browser.selected.nickname == "Kometa Rychla"
    # A plain nickname profile stays shared as before (not bound to anyone).
    assert not re.search("I am not", page)
    assert PlayerProfile.objects.filter(pk=player_a.pk, is_active=True).exists()
