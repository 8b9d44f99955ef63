"""The permission matrix: every class page, export, API endpoint and action against
anonymous, student, other student, teacher, other teacher, co-teacher and staff.

Rules: the class's teacher and co-teachers may read everything of the class;
another teacher or a staff member gets 404 (IDs never leak another teacher's
data); visitors without a teacher login are sent to log in (pages) or refused
(API); a student sees only the student class page and their own CSV.
"""

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client
from django.utils import timezone

from accounts import identity
from accounts.models import Browser
from classrooms import invitation_services
from classrooms.models import Classroom, Membership
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

ACTORS = [
    "anonymous",
    "student",
    "other_student",
    "teacher",
    "other_teacher",
    "co_teacher",
    "staff",
]


def _player_client(player) -> Client:
    token = identity.new_token()
    browser = Browser.objects.create(token_hash=identity.hash_token(token), selected=player)
    browser.profiles.add(player)
    client = Client(headers={"accept-language": "en"})
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
    return client


@pytest.fixture
def world():
    owner = factories.make_teacher("owner@skola.sk", email_verified_at=timezone.now())
    classroom = factories.make_class(owner, roster="Adam")
    invitation_services.invite_co_teacher(
        classroom=classroom, email="co@skola.sk", invited_by=owner
    )
    student = factories.make_player("Žiak")
    member = factories.add_member(classroom, student, "Ema")
    record = factories.play(classroom, {student: 10})
    other_class = factories.make_class(factories.make_teacher("other@skola.sk"), name="Iná")
    other_student = factories.make_player("Cudzí")
    factories.add_member(other_class, other_student, "Cudzí Žiak")
    users = {
        "teacher": owner,
        "other_teacher": other_class.teacher,
        "co_teacher": factories.make_teacher("co@skola.sk"),
        "staff": factories.make_teacher("staff@skola.sk", is_staff=True, is_superuser=True),
    }
    # the co-teacher accepted the mailed invitation (tests/security covers the link)
    users["co_teacher"].email_verified_at = timezone.now()
    users["co_teacher"].save(update_fields=["email_verified_at"])
    invite = classroom.co_teachers.get()
    invitation_services.accept_invitation(
        token=invitation_services.invitation_token(invite), user=users["co_teacher"]
    )
    clients = {"anonymous": Client(headers={"accept-language": "en"})}
    for name, user in users.items():
        clients[name] = Client(headers={"accept-language": "en"})
        clients[name].force_login(user)
    clients["student"] = _player_client(student)
    clients["other_student"] = _player_client(other_student)
    return {"classroom": classroom, "member": member, "record": record, "clients": clients}


TEACHER_PAGES = [
    "/classes/{c}/edit/",
    "/classes/{c}/qr/",
    "/classes/{c}/members/",
    "/classes/{c}/members/{m}/",
    "/classes/{c}/members/{m}/results.csv",
    "/classes/{c}/results/",
    "/classes/{c}/results/sessions.csv",
    "/classes/{c}/results/participation.csv",
    "/classes/{c}/sessions/{r}/",
    "/classes/{c}/sessions/{r}/results.csv",
]
API = [
    "/api/classes/{c}/",
    "/api/classes/{c}/members/",
    "/api/classes/{c}/members/{m}/",
    "/api/classes/{c}/members/{m}/results/",
    "/api/classes/{c}/participation/",
    "/api/classes/{c}/sessions/",
    "/api/classes/{c}/sessions/{r}/",
]
# What each actor gets: (teacher pages, API, class page, student's own CSV)
EXPECTED = {
    "anonymous": (302, 403, 404, 404),
    "student": (302, 403, 200, 200),
    "other_student": (302, 403, 404, 404),
    "teacher": (200, 200, 200, 404),
    "other_teacher": (404, 404, 404, 404),
    "co_teacher": (200, 200, 200, 404),
    "staff": (404, 404, 404, 404),
}


def _url(template: str, world) -> str:
    return template.format(c=world["classroom"].pk, m=world["member"].pk, r=world["record"].pk)


@pytest.mark.parametrize("actor", ACTORS)
def test_pages_exports_and_api_by_actor(world, actor):
    client = world["clients"][actor]
    pages, api, class_page, own_csv = EXPECTED[actor]
    for template in TEACHER_PAGES:
        response = client.get(_url(template, world))
        assert response.status_code == pages, (actor, template)
        if pages == 302:
            assert response["Location"].startswith("/accounts/login/")
    for template in API:
        assert client.get(_url(template, world)).status_code == api, (actor, template)
    assert client.get(_url("/classes/{c}/", world)).status_code == class_page
    assert client.get(_url("/classes/{c}/my-results.csv", world)).status_code == own_csv


@pytest.mark.parametrize("actor", ACTORS)
def test_class_lists_show_only_ones_own_classes(world, actor):
    client = world["clients"][actor]
    names = (
        [c["name"] for c in client.get("/api/classes/").json()]
        if actor
        in {
            "teacher",
            "other_teacher",
            "co_teacher",
            "staff",
        }
        else None
    )
    expected = {
        "teacher": ["6.A"],
        "co_teacher": ["6.A"],
        "other_teacher": ["Iná"],
        "staff": [],
    }.get(actor)
    assert names == expected
    page = client.get("/classes/")
    teacher_classes = page.context["teacher_classes"]
    if teacher_classes is not None:
        assert [c.name for c in teacher_classes] == (expected or [])


ACTIONS = [
    ("/classes/{c}/code/regenerate/", {}),
    ("/classes/{c}/code/joining/", {"enabled": "0"}),
    ("/classes/{c}/archive/", {"archived": "1"}),
    ("/classes/{c}/edit/", {"name": "Hacked"}),
    ("/classes/{c}/members/add/", {"names": "Intruder"}),
    ("/classes/{c}/members/{m}/rename/", {"roster_name": "Hacked"}),
    ("/classes/{c}/members/{m}/remove/", {}),
    ("/classes/{c}/co-teachers/", {"email": "spy@skola.sk"}),
    ("/classes/{c}/games/start/", {"game": "poker", "mode": "group"}),
    ("/classes/{c}/delete/", {}),
]


def _snapshot(classroom: Classroom) -> tuple:
    classroom = Classroom.objects.get(pk=classroom.pk)
    return (
        classroom.name,
        classroom.join_code,
        classroom.join_enabled,
        classroom.archived_at,
        sorted(
            Membership.objects.filter(classroom=classroom).values_list("roster_name", flat=True)
        ),
        sorted(classroom.co_teachers.values_list("email", flat=True)),
    )


@pytest.mark.parametrize(
    "actor", ["anonymous", "student", "other_student", "other_teacher", "staff"]
)
def test_outsiders_change_nothing(world, actor):
    client = world["clients"][actor]
    before = _snapshot(world["classroom"])
    for template, data in ACTIONS:
        response = client.post(_url(template, world), data)
        assert response.status_code in {302, 404}, (actor, template)
        if response.status_code == 302:
            assert response["Location"].startswith("/accounts/login/")
    assert _snapshot(world["classroom"]) == before
    api = [
        ("patch", "/api/classes/{c}/", {"name": "Hacked"}),
        ("post", "/api/classes/{c}/members/", {"names": ["Intruder"]}),
        ("delete", "/api/classes/{c}/members/{m}/", None),
        ("post", "/api/classes/{c}/code/", None),
        ("delete", "/api/classes/{c}/", None),
    ]
    for method, template, data in api:
        response = getattr(client, method)(
            _url(template, world), data, content_type="application/json"
        )
        assert response.status_code in {403, 404}, (actor, template)
    assert _snapshot(world["classroom"]) == before


def test_co_teacher_manages_but_cannot_delete_or_invite(world):
    client = world["clients"]["co_teacher"]
    client.post(_url("/classes/{c}/members/add/", world), {"names": "Nový"})
    assert world["classroom"].members.filter(roster_name="Nový").exists()
    client.post(_url("/classes/{c}/co-teachers/", world), {"email": "third@skola.sk"})
    client.post(_url("/classes/{c}/delete/", world))
    response = client.delete(_url("/api/classes/{c}/", world))
    assert response.status_code == 400
    assert response.json()["code"] == "not_owner"
    assert Classroom.objects.filter(pk=world["classroom"].pk).exists()
    assert list(world["classroom"].co_teachers.values_list("email", flat=True)) == ["co@skola.sk"]


def test_a_member_id_of_another_class_is_404_for_its_teacher(world):
    client = world["clients"]["other_teacher"]
    other = Classroom.objects.get(name="Iná")
    response = client.get(f"/classes/{other.pk}/members/{world['member'].pk}/")
    assert response.status_code == 404
    response = client.get(f"/api/classes/{other.pk}/sessions/{world['record'].pk}/")
    assert response.status_code == 404


@pytest.mark.parametrize("actor", ACTORS)
def test_page_fingerprint_is_for_teachers_and_members_only(world, actor):
    response = world["clients"][actor].get(_url("/classes/{c}/status.json", world))
    expected = EXPECTED[actor][2]
    assert response.status_code == expected
    if expected == 200:
        assert response.json()["signature"].startswith("s:" if "student" in actor else "t:")


def test_page_fingerprint_changes_when_a_student_waits(world):
    client = world["clients"]["teacher"]
    before = client.get(_url("/classes/{c}/status.json", world)).json()["signature"]
    factories.add_member(world["classroom"], status="pending")
    after = client.get(_url("/classes/{c}/status.json", world)).json()["signature"]
    assert before != after
