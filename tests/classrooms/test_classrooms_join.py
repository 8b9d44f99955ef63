"""Students join by code or link: pick a roster name or type one (then the teacher approves)."""

import pytest
from django.core.cache import cache

from accounts.models import PlayerProfile
from classrooms import services
from classrooms.models import Membership
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_rate_limits():
    cache.clear()


def test_typing_the_code_leads_to_the_class_join_page(client, classroom):
    response = client.post("/classes/join/", {"code": f" {classroom.join_code.lower()} "})
    assert response.status_code == 302
    assert response["Location"] == f"/classes/join/{classroom.join_code}/"


def test_a_wrong_code_is_refused_with_a_message(client, classroom):
    response = client.post("/classes/join/", {"code": "ZZZZZZ"})
    assert response.status_code == 400
    assert "No class has this code" in response.content.decode()


def test_new_browser_picks_a_roster_name_and_gets_a_profile(client, classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    page = client.get(f"/classes/join/{classroom.join_code}/")
    assert "Adam K." in page.content.decode()  # first name and initial only
    # with the claim code the teacher printed, the pupil is in at once
    response = client.post(
        f"/classes/join/{classroom.join_code}/",
        {"member": adam.pk, "nickname": "Rychlý Sokol", "claim_code": adam.claim_code},
    )
    assert response.status_code == 302
    assert response["Location"] == f"/classes/{classroom.pk}/"
    adam.refresh_from_db()
    assert adam.player.nickname == "Rychlý Sokol"
    assert adam.status == Membership.Status.APPROVED
    # the identity cookie now opens the student's class page
    class_page = client.get(f"/classes/{classroom.pk}/")
    assert class_page.status_code == 200
    assert class_page.context["membership"] == adam


def test_a_roster_name_cannot_be_claimed_twice(player_client, classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    first, first_player = player_client("Prvý")
    second, _second_player = player_client("Druhý")
    code = {"member": adam.pk, "claim_code": adam.claim_code}
    first.post(f"/classes/join/{classroom.join_code}/", code)
    response = second.post(f"/classes/join/{classroom.join_code}/", code)
    assert response.status_code == 400
    assert "already picked" in response.content.decode()
    adam.refresh_from_db()
    assert adam.player == first_player
    assert classroom.members.count() == 3


def test_typed_name_waits_for_the_teachers_approval(player_client, teacher_client, classroom):
    student, player = player_client("Tichá Myška")
    student.post(f"/classes/join/{classroom.join_code}/", {"typed_name": "Ema Nová"})
    member = classroom.members.get(roster_name="Ema Nová")
    assert member.status == Membership.Status.PENDING
    assert member.player == player
    page = student.get(f"/classes/{classroom.pk}/")
    assert "waiting for your teacher to confirm" in page.content.decode()
    teacher_page = teacher_client.get(f"/classes/{classroom.pk}/")
    assert member in teacher_page.context["pending"]
    teacher_client.post(f"/classes/{classroom.pk}/members/{member.pk}/approve/")
    member.refresh_from_db()
    assert member.status == Membership.Status.APPROVED


def test_joining_twice_keeps_one_membership(player_client, classroom):
    student, _player = player_client("Dvojitý Klik")
    for _ in range(2):
        student.post(f"/classes/join/{classroom.join_code}/", {"typed_name": "Ema"})
    assert classroom.members.filter(roster_name="Ema").count() == 1
    response = student.get(f"/classes/join/{classroom.join_code}/")
    assert response.status_code == 302


def test_a_bad_nickname_creates_nothing(client, classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    response = client.post(
        f"/classes/join/{classroom.join_code}/", {"member": adam.pk, "nickname": "x"}
    )
    assert response.status_code == 400
    assert not PlayerProfile.objects.exists()
    adam.refresh_from_db()
    assert adam.player is None


def test_an_empty_typed_name_is_refused(player_client, classroom):
    student, _player = player_client("Bez Mena")
    response = student.post(f"/classes/join/{classroom.join_code}/", {"typed_name": "  "})
    assert response.status_code == 400
    assert classroom.members.count() == 3


def test_a_member_of_another_class_cannot_claim_by_id(player_client, classroom):
    other = factories.make_class(name="Iná trieda", roster="Cudzí Žiak")
    foreign = other.members.get()
    student, _player = player_client("Zvedavec")
    response = student.post(f"/classes/join/{classroom.join_code}/", {"member": foreign.pk})
    assert response.status_code == 400
    foreign.refresh_from_db()
    assert foreign.player is None


def test_archived_class_accepts_nobody(player_client, classroom):
    services.set_archived(classroom=classroom, archived=True)
    student, _player = player_client("Neskorý")
    response = student.post(f"/classes/join/{classroom.join_code}/", {"typed_name": "Ema"})
    assert response.status_code == 400
    assert classroom.members.count() == 3


def test_storage_off_cannot_join(client, classroom):
    client.cookies["matika_storage"] = "off"
    response = client.post(
        f"/classes/join/{classroom.join_code}/", {"typed_name": "Ema", "nickname": "Ema Hráčka"}
    )
    assert response.status_code == 400
    assert not PlayerProfile.objects.exists()


def test_a_student_may_belong_to_several_classes(player_client, classroom):
    other = factories.make_class(name="Krúžok")
    student, player = player_client("Všadebol")
    student.post(f"/classes/join/{classroom.join_code}/", {"typed_name": "Ema"})
    student.post(f"/classes/join/{other.join_code}/", {"typed_name": "Ema"})
    assert Membership.objects.filter(player=player).count() == 2
    listing = student.get("/classes/")
    assert len(listing.context["memberships"]) == 2


def test_teacher_gets_a_player_profile_on_first_need(teacher):
    first = services.ensure_teacher_player(user=teacher)
    again = services.ensure_teacher_player(user=teacher)
    assert first == again
    assert first.nickname == "Pani Učiteľka"
    colleague = factories.make_teacher(name="Pani Učiteľka")
    assert services.ensure_teacher_player(user=colleague).nickname == "Pani Učiteľka 2"


@pytest.mark.parametrize(
    "data", [{"member": "abc"}, {"member": "99999999"}, {"typed_name": "x" * 200}, {}]
)
def test_malformed_join_requests_change_nothing(player_client, classroom, data):
    student, _player = player_client("Hacker Sokol")
    response = student.post(f"/classes/join/{classroom.join_code}/", data)
    assert response.status_code == 400
    assert classroom.members.filter(player__isnull=False).count() == 0
    assert classroom.members.count() == 3
