"""An account whose e-mail address is not verified does nothing that others see
(issue 38 §4, the squatter's last gap).

Someone signs up with a colleague's address and never opens the mailed link,
yet logs in with the password they chose. Before, that account created classes
(pupils saw "Teacher: <the colleague's name>"), launched class games, set
homework and hosted lobbies. Now every such intent is refused with the stable
code ``email_unverified`` and a page that says what to do (with the button that
mails the link again); once the link is opened, the same requests work.
Replayed over HTTP, pages and API alike."""

import json
import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from classrooms.models import Classroom
from games.rooms.models import Room
from homework.models import Assignment
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

SQUATTED = "jana.novakova@skola.sk"
NAME = "Mgr. Jana Nováková"


@pytest.fixture
def squatter(address, tasks_inline) -> Client:
    """Signed up with the colleague's address, logged in with its own password."""
    client = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    client.post(
        "/accounts/signup/",
        {
            "email": SQUATTED,
            "name": NAME,
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
        },
    )
    assert not User.objects.get(email=SQUATTED).email_verified
    logged_in = client.post(
        "/accounts/login/", {"username": SQUATTED, "password": factories.PASSWORD}
    )
    assert logged_in.status_code == 302
    return client


def _older_class(user: User) -> Classroom:
    """A class such an account may hold from before this rule (made in the database)."""
    return Classroom.objects.create(
        teacher=user, name="6.A", join_code="SQUAT1", join_enabled=True, school_year="2026/27"
    )


def _refused(response, status: int = 403) -> None:
    assert response.status_code == status, response.content.decode()[:300]
    if response["Content-Type"].startswith("application/json"):
        assert response.json()["code"] == "email_unverified"
    else:
        text = response.content.decode()
        assert 'data-code="email_unverified"' in text
        assert "/accounts/verify/resend/" in text  # the link again, one click away


def test_an_unverified_account_creates_no_class_by_page_or_api(squatter):
    page = squatter.get("/classes/new/")
    assert page.status_code == 200  # where a newcomer lands after logging in
    assert 'data-code="email_unverified"' in page.content.decode()
    assert 'name="roster"' not in page.content.decode()
    _refused(squatter.post("/classes/new/", {"name": "6.A", "roster": "Adam Kovář"}))
    _refused(
        squatter.post(
            "/api/classes/",
            data=json.dumps({"name": "6.A"}),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )
    )
    assert not Classroom.objects.exists()


def test_an_unverified_account_launches_no_class_game_and_sets_no_homework(squatter):
    classroom = _older_class(User.objects.get(email=SQUATTED))
    for name in ("Adam Kovář", "Bára Nová"):
        factories.add_member(classroom, roster_name=name)
    start = f"/classes/{classroom.pk}/games/start/"
    _refused(squatter.post(start, {"game": "poker", "mode": "group"}))
    _refused(squatter.post(start, {"game": "mathesso", "mode": "tables", "table_size": "2"}))
    assert not Room.objects.exists()
    due = (timezone.now() + timezone.timedelta(days=2)).isoformat()
    body = {"game": "poker", "title": "Do pátku", "settings": {}, "opens_at": None, "due_at": due}
    _refused(
        squatter.post(
            f"/api/classes/{classroom.pk}/assignments/",
            data=json.dumps(body),
            content_type="application/json",
        )
    )
    assert not Assignment.objects.exists()


def test_an_unverified_account_hosts_no_lobby_others_join(squatter):
    for mode in ("group", "duel"):
        response = squatter.post(f"/poker/room/new/{mode}/", {"nickname": "Jana N"})
        assert response.status_code == 400
        assert "Confirm your e-mail address first" in response.content.decode()
    assert not Room.objects.exists()


def test_after_the_mailed_link_the_same_account_creates_its_class(squatter):
    link = re.search(r"https?://[^/\s]+(/accounts/verify/\S+)", mail.outbox[0].body)
    assert link is not None
    assert Client().get(link.group(1)).status_code == 200
    created = squatter.post("/classes/new/", {"name": "6.A", "school_year": "2026/27"})
    assert created.status_code == 302
    assert Classroom.objects.get().teacher.email == SQUATTED
    hosted = squatter.post("/poker/room/new/duel/", {"nickname": "Jana N"})
    assert hosted.status_code == 302
